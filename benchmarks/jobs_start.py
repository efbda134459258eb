"""What starting `--jobs N` worker processes costs: a pool plays N * 8 blocks of one game
each (so the games themselves are a small part), with the program compiled here first,
as `ruledsl simulate` does. Prints the wall time of the run and the CPU its worker
processes used (getrusage of the children), and the same for the games alone in this
process, so the difference is what starting the workers cost.

    python3 benchmarks/jobs_start.py [GAME] [--players 3] [--jobs 2] [--runs 3]
"""
from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

from ruledsl.pipeline import load_game
from ruledsl.play.simulate import BLOCKS_PER_JOB, simulate_file, start_method

ROOT = Path(__file__).resolve().parent.parent


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default=str(ROOT / "games" / "mafialand.game"))
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    program = load_game(args.game).program
    games = args.jobs * BLOCKS_PER_JOB
    print(f"{args.game}, {games} games, start method {start_method()}")
    for _ in range(args.runs):
        wall, cpu = time.perf_counter(), children_cpu()
        simulate_file(args.game, args.players, games, 1, jobs=args.jobs, program=program)
        wall, cpu = time.perf_counter() - wall, children_cpu() - cpu
        alone = time.process_time()
        simulate_file(args.game, args.players, games, 1, jobs=1, program=program)
        alone = time.process_time() - alone
        print(f"--jobs {args.jobs}: wall {wall:.3f} s, workers' CPU {cpu:.3f} s; "
              f"the same games in this process: {alone:.3f} s CPU")


if __name__ == "__main__":
    main()
