"""Speed of a change in wall-clock time: the base commit and the working tree, played in
turn in separate processes, round after round.

    python3 benchmarks/ab.py --base f2da834 examples/tic_tac_toe.game --openspiel --rounds 8
    python3 benchmarks/ab.py --base f2da834 games/mafialand.game --players 3 --seconds 3
    python3 benchmarks/ab.py --base 8878dd4 games/bada_bing.game --players 3 --simulate
    python3 benchmarks/ab.py --base 020f0dc games/mafialand.game --players 3 --search 30

The machine is shared and noisy, so one timing says little; alternating the two sides
(base first in even rounds, the working tree first in odd ones) exposes both to the same
load, and the spread of the per-round ratios says how far to trust their median (from
4 rounds on, with a 95% bootstrap interval of the median: bench.median_interval). Each
side runs from a folder of its own whose path is as long as the other's (instructions.py
found that the path's length alone moves short games); each process loads the game,
plays 3 games to warm up, then random playouts (bench.py's loops, seed 1; with
`--simulate`, `ruledsl simulate`'s, with its keyed chance and agents; with `--search SIMS`,
the same with seat 0 an `mcts:SIMS` agent, which clones the game at each of its
simulations) for `--seconds`, and prints playouts a second. Instruction counts (instructions.py) can't
resolve a change of a few percent in a short game; this can, given rounds enough.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench import ROUNDS_FOR_INTERVAL, median_interval
from instructions import BASE_PREFIX, WORK_PREFIX, copy_working_tree, export

TIMED = """
import random, sys, time
sys.path.insert(0, "benchmarks")
import bench
from ruledsl.pipeline import load_game
game, players, engine, seconds = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
if engine == "openspiel":
    from ruledsl.openspiel.game import load_game as load_spiel
    spiel = load_spiel(game, players=players)
    playout = lambda rng: bench.openspiel_playout(spiel, rng)  # noqa: E731
elif engine.startswith("simulate"):  # as `ruledsl simulate` plays: keyed chance and agents, a seed a game
    from ruledsl.play.simulate import playout as simulated
    program = load_game(game).program
    agents = tuple(engine.split(" ")[1:])  # e.g. "0=mcts:30"
    playout = lambda rng: simulated(program, players, rng.randrange(2 ** 32), agents=agents)  # noqa: E731
else:
    program = load_game(game).program
    playout = lambda rng: bench.ruledsl_playout(program, players, rng)  # noqa: E731
rng = random.Random(1)
for _ in range(3):
    playout(rng)
n, start = 0, time.perf_counter()
while time.perf_counter() - start < seconds:
    playout(rng)
    n += 1
print(n / (time.perf_counter() - start))
"""


def rate(tree: Path, args) -> float:
    """Playouts a second of one process in `tree`."""
    env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0", "RULEDSL_CACHE_DIR": "",
           "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    out = subprocess.run([sys.executable, "-c", TIMED, args.game, str(args.players),
                          args.way, str(args.seconds)],
                         cwd=tree, env=env, capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"a timed run failed in {tree}:\n{out.stderr[-2000:]}")
    return float(out.stdout.split()[-1])


def rounds(base: Path, work: Path, args) -> list:
    """[(base rate, working tree rate)] of each round, the two in turn."""
    out = []
    for i in range(args.rounds):
        if i % 2 == 0:
            b = rate(base, args)
            w = rate(work, args)
        else:
            w = rate(work, args)
            b = rate(base, args)
        out.append((b, w))
    return out


def interval_of(ratios: list):
    """bench.median_interval of the rounds' ratios, or None with fewer than ROUNDS_FOR_INTERVAL
    (bench.py's: the median ratio and the rounds' range alone)."""
    return median_interval(ratios) if len(ratios) >= ROUNDS_FOR_INTERVAL else None


def report(args, results: list) -> str:
    ratios = sorted(w / b for b, w in results)
    through = {"openspiel": " through the OpenSpiel adapter", "simulate": " as ruledsl simulate plays"}.get(
        args.way, f" as ruledsl simulate plays with seat 0 {args.way.split('=')[-1]}" if "=" in args.way else "")
    interval = interval_of(ratios)
    within = "" if interval is None else f", 95% of the median {interval[0]:.3f}..{interval[1]:.3f}"
    return (f"{args.game}{through}, {args.players} players, {args.rounds} rounds of {args.seconds} s: "
            f"{args.base} {statistics.median(b for b, _ in results):,.1f} playouts/s, working tree "
            f"{statistics.median(w for _, w in results):,.1f}; working tree / base {statistics.median(ratios):.3f}x "
            f"(rounds {ratios[0]:.3f}..{ratios[-1]:.3f}{within})")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--base", required=True, help="the commit to compare with")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=2.0, help="timed playouts per process")
    way = ap.add_mutually_exclusive_group()
    way.add_argument("--openspiel", dest="way", action="store_const", const="openspiel",
                     help="play through the OpenSpiel adapter (pyspiel's API)")
    way.add_argument("--simulate", dest="way", action="store_const", const="simulate",
                     help="play as `ruledsl simulate` does (keyed chance and random agents, a seed a game)")
    way.add_argument("--search", type=int, metavar="SIMS",
                     help="as --simulate, seat 0 an mcts:SIMS agent (a clone of the game per simulation)")
    ap.set_defaults(way="machine")
    args = ap.parse_args(argv)
    if args.search:
        args.way = f"simulate 0=mcts:{args.search}"
    with tempfile.TemporaryDirectory(prefix=BASE_PREFIX) as base, \
            tempfile.TemporaryDirectory(prefix=WORK_PREFIX) as work:
        export(args.base, Path(base))
        copy_working_tree(Path(work))
        print(report(args, rounds(Path(base), Path(work), args)))


if __name__ == "__main__":
    main()
