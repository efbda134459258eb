"""What the first clone of a fast Machine at a pause costs (since stop 33: writing and
compiling the rule's generator resumed there, compile/resume.py, once per pause and
game; before, Machine.as_op_lists replayed the game so far on op lists), against playing
those decisions fast, and a later clone.

    python3 benchmarks/clone_cost.py [--game games/mafialand.game] [--players 3] [--seeds 5]

CPU time (process_time), the mean over seeds, random choices.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ruledsl.pipeline import load_game  # noqa: E402
from ruledsl.runtime.machine import Machine, RandomChance  # noqa: E402


def timed(call) -> float:
    start = time.process_time()
    call()
    return time.process_time() - start


def measure(program, players: int, at: int, seed: int) -> tuple:
    """(s to play `at` decisions fast, s for the first clone, s for a second, decisions played)."""
    m = Machine(program, players, RandomChance(seed), fast=True)
    rng = random.Random(seed)

    def play():
        while m.pending is not None and m.steps < at:
            m.choose_index(rng.randrange(len(m.pending.values)))  # as an agent counting the options
    return timed(play), timed(m.clone), timed(m.clone), m.steps


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="games/mafialand.game")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seeds", type=int, default=5)
    args = ap.parse_args(argv)
    program = load_game(str(ROOT / args.game)).program
    for at in (25, 100, 300):
        rows = [measure(program, args.players, at, seed) for seed in range(args.seeds)]
        mean = [sum(r[i] for r in rows) / len(rows) for i in range(4)]
        print(f"at {mean[3]:.0f} decisions: playing them fast {1000 * mean[0]:.1f} ms, "
              f"the first clone {1000 * mean[1]:.1f} ms, a later clone {1000 * mean[2]:.3f} ms")


if __name__ == "__main__":
    main()
