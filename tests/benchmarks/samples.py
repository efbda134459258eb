"""Samples for the benchmark scripts' tests: games played, bench.py's agreement tests on
them (for the hand-written baselines and the ratios quoted only where the two sides
agree), and timed rounds (for the intervals)."""
import random
from collections import Counter
from pathlib import Path

import bench
from handwritten import tic_tac_toe

ROOT = Path(__file__).resolve().parents[2]


def sample(play, games: int, seed: str) -> Counter:
    rng = random.Random(seed)
    return Counter(play(rng) for _ in range(games))


def handwritten(module, players, **kwargs):
    def play(rng):
        steps, reason, winners = module.play(players, rng, **kwargs)
        return steps, reason, bench.outcome_of([1 if s in winners else 0 for s in range(players)])
    return play


def verdicts(a: Counter, b: Counter) -> dict:
    return {what: ok for what, _, ok in bench.distributions_agree(a, b)}


# a wrong tic-tac-toe: only rows and columns win
NO_DIAGONALS = [[line for line in lines if line not in ((0, 4, 8), (2, 4, 6))] for lines in tic_tac_toe.LINES_THROUGH]


def slices(rates, seconds=0.2) -> tuple:
    """(playouts, seconds) of rounds run at these rates."""
    return tuple((round(r * seconds), seconds) for r in rates)
