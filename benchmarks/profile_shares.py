"""Where the time of random playouts goes, by part of the engine (cProfile, self time).

    python3 benchmarks/profile_shares.py games/mafialand.game --players 3 --games 30

Groups: the Machine, compiled op closures, generated expression code, the World and
program tables, the work budget, C builtins, and the playout loop with its random
numbers. Shares, not times: a profiler slows everything, so only proportions mean
something. Used to bound what compiling whole rules could gain (benchmarks/README.md)."""
from __future__ import annotations

import argparse
import cProfile
import collections
import pstats
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import bench  # noqa: E402

from ruledsl.pipeline import load_game  # noqa: E402

GROUPS = [  # (part of a profiled file's name, group), first match wins
    ("<ruledsl code", "generated expressions"),
    ("<ruledsl rule", "generated whole rules (a fast Machine's generators)"),
    ("ruledsl/runtime/machine", "Machine (run loop, frames, decide, end checks)"),
    ("ruledsl/compile/", "compiled op closures"),
    ("ruledsl/runtime/", "World, program tables, streams"),
    ("ruledsl/budget", "work budget"),
    ("ruledsl/check/builtins", "built-in functions"),
    ("random.py", "playout loop and random numbers"),
    ("benchmarks", "playout loop and random numbers"),
]


def group_of(filename: str) -> str:
    if filename == "~":
        return "C builtins (len, list, sorted, ...)"
    return next((g for part, g in GROUPS if part in filename), "other")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=30)
    args = ap.parse_args(argv)
    program = load_game(args.game).program
    rng = random.Random(1)
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(args.games):
        bench.ruledsl_playout(program, args.players, rng)
    profile.disable()
    shares: collections.Counter = collections.Counter()
    for (filename, _, _), (_, _, self_time, _, _) in pstats.Stats(profile).stats.items():
        shares[group_of(filename)] += self_time
    total = sum(shares.values())
    for group, t in shares.most_common():
        print(f"{100 * t / total:5.1f}%  {group}")


if __name__ == "__main__":
    main()
