"""Speed of a change as instructions per random game, against an earlier commit.

    python3 benchmarks/instructions.py --base f2da834 games/mafialand.game --players 3 --games 8
    python3 benchmarks/instructions.py --base f2da834 examples/tic_tac_toe.game --games 50 --openspiel

The machine is shared and noisy: interleaved timings of the same code moved by 10-40%.
Instruction counts (valgrind's cachegrind, no cache simulation) are the same on every
run of the same tree, but see below for what else moves them. They are a proxy:
a change that trades instructions for memory traffic can mislead, so the wall-clock
ratios of `bench.py` stay the figures to report.

The base commit is exported with `git archive` to a temporary folder, and the working
tree's files (tracked and untracked, as they are now) are copied to another whose path
has the same length: the length of the folder's path alone moved Kuhn poker's count by
up to 14% (identical code read 0.90x for Kuhn poker when the working tree ran where it
lies), so the two sides run from equally long paths. The counts of short games still
follow the memory layout (a change that only allocates differently moved tic-tac-toe
through the adapter by 13% with no change in wall-clock time): trust them for changes
well above 10%, or on long games (Mafialand). Each side runs
`GAMES` random playouts (bench.ruledsl_playout, seed 1; with `--openspiel`, the same
loop through the OpenSpiel adapter, bench.openspiel_playout) and, separately, none; the
difference divided by GAMES is the cost of a game (loading cancels out). Compiling does
not: a generated text is compiled by Python on its first call (compile/deferred.py), in
the games counted, and a change that makes texts longer or more of them costs more there
once (stop 41: Bada Bing read 62M instructions a game over 10 games and 21M over 40, and
a change that read 0.99x over 10 played 1.01x by the clock). `--warm W` plays W games
before those counted in both runs, so that what is compiled on a first call is mostly
compiled in both and cancels out; use it for any change to the generated text.
Each count is the median of `--runs` processes (hash seed fixed; the collector frozen
after loading, so that its passes depend less on what loading left). Needs valgrind.
"""
from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PLAYOUTS = """
import gc, random, sys
sys.path.insert(0, "benchmarks")
import bench
from ruledsl.pipeline import load_game
if sys.argv[4] == "openspiel":
    from ruledsl.openspiel.game import load_game as load_spiel
    game = load_spiel(sys.argv[1], players=int(sys.argv[2]))
    playout = lambda rng: bench.openspiel_playout(game, rng)  # noqa: E731
else:
    program = load_game(sys.argv[1]).program
    playout = lambda rng: bench.ruledsl_playout(program, int(sys.argv[2]), rng)  # noqa: E731
gc.collect()
gc.freeze()
rng = random.Random(1)
for _ in range(int(sys.argv[5]) + int(sys.argv[3])):  # the games warming up, then those counted
    playout(rng)
"""


def instructions(tree: Path, game: str, players: int, games: int, engine: str = "machine", warm: int = 0) -> int:
    env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0", "RULEDSL_CACHE_DIR": "",
           "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}  # no spinning BLAS threads (numpy, via pyspiel)
    out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          sys.executable, "-c", PLAYOUTS, game, str(players), str(games), engine, str(warm)],
                         cwd=tree, env=env, capture_output=True, text=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if out.returncode or not found:
        sys.exit(f"valgrind run failed in {tree}:\n{out.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


BASE_PREFIX, WORK_PREFIX = "ruledsl-base-", "ruledsl-work-"  # of equal length (see above)


def export(rev: str, to: Path):
    """The files of commit `rev` (git archive)."""
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(to)], input=archive, check=True)


def copy_working_tree(to: Path):
    """The working tree's files as they are now, tracked and untracked (not ignored ones)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = ROOT / name
        if source.is_file():
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, to / name)


def per_game(tree: Path, args) -> float:
    engine = "openspiel" if args.openspiel else "machine"
    instructions(tree, args.game, args.players, 0, engine)  # writes the bytecode caches first
    none = statistics.median(instructions(tree, args.game, args.players, 0, engine, args.warm)
                             for _ in range(args.runs))
    some = statistics.median(instructions(tree, args.game, args.players, args.games, engine, args.warm)
                             for _ in range(args.runs))
    return (some - none) / args.games


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--base", required=True, help="the commit to compare with")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--warm", type=int, default=0, help="games played before those counted, in both runs")
    ap.add_argument("--openspiel", action="store_true", help="play through the OpenSpiel adapter (pyspiel's API)")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        sys.exit("instructions.py needs valgrind (apt install valgrind)")
    with tempfile.TemporaryDirectory(prefix=BASE_PREFIX) as tmp:
        export(args.base, Path(tmp))
        base = per_game(Path(tmp), args)
    with tempfile.TemporaryDirectory(prefix=WORK_PREFIX) as tmp:  # as long a path as the base's
        copy_working_tree(Path(tmp))
        new = per_game(Path(tmp), args)
    through = " through the OpenSpiel adapter" if args.openspiel else ""
    warmed = f" after {args.warm}" if args.warm else ""
    print(f"{args.game}{through}, {args.players} players, {args.games} games{warmed}: {args.base} {base / 1e6:.2f}M instructions "
          f"a game, working tree {new / 1e6:.2f}M: {base / new:.2f}x")


if __name__ == "__main__":
    main()
