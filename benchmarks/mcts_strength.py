"""How often one mcts seat wins against random seats, with Wilson 95% intervals.

    python benchmarks/mcts_strength.py GAME[:GAMES] ... [--players N] [--agent mcts:20:30] [--seat 0]
                                       [--seed 1] [--jobs 2]

Plays GAMES games (default 10) of each GAME with seat SEAT played by the agent
and the others random, on seeds SEED.., and prints the seat's win rate, its
Wilson 95% interval and the one-sided binomial test p against 1/N (what a random
seat wins in a symmetric game). A shared win (a draw) counts as a win of each
seat sharing it. Figures in docs/agents.md. Nothing here is asserted.
"""
from __future__ import annotations

import argparse
import time

from scipy.stats import binomtest

from ruledsl.play.simulate import simulate_file


def strength(path: str, players: int, games: int, agent: str, seat: int, seed: int, jobs: int) -> dict:
    begin = time.perf_counter()
    summary = simulate_file(path, players, games, seed, jobs=jobs, agents=(f"{seat}={agent}",))
    finished = summary.games - summary.errors
    wins = summary.wins[seat]
    test = binomtest(wins, finished, 1 / players, alternative="greater") if finished else None
    both = binomtest(wins, finished, 1 / players).proportion_ci(method="wilson") if finished else None
    return {"game": path, "players": players, "agent": agent, "seat": seat, "games": summary.games,
            "errors": summary.errors, "wins": wins, "rate": wins / finished if finished else None,
            "wilson95": [round(float(both.low), 3), round(float(both.high), 3)] if both else None,
            "p_vs_1/N": test.pvalue if test else None, "seconds": round(time.perf_counter() - begin, 1)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="+", help="GAME or GAME:COUNT")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--agent", default="mcts:20:30")
    ap.add_argument("--seat", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    for spec in args.games:
        path, _, count = spec.partition(":")
        r = strength(path, args.players, int(count or 10), args.agent, args.seat, args.seed, args.jobs)
        rate = "n/a" if r["rate"] is None else f"{r['rate']:.2f}"
        print(f"{path} {r['players']}p seat {r['seat']}={r['agent']}: {r['wins']}/{r['games'] - r['errors']} "
              f"won, rate {rate}, Wilson 95% {r['wilson95']}, p (vs 1/{r['players']}) {r['p_vs_1/N']:.2g}, "
              f"errors {r['errors']}, {r['seconds']} s", flush=True)


if __name__ == "__main__":
    main()
