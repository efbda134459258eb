"""What a cold `ruledsl check games/*.game` costs: CPU (user + sys) of one process, minus
that of `python3 -c pass` (interpreter start), with the caches of ruledsl/cache.py
(a) off (RULEDSL_CACHE_DIR=""), (b) on but empty (a fresh folder: the first run), and
(c) warm (the second run in that folder). The runs are interleaved, a few rounds, and
the median of each is printed (the machine is shared and noisy). Then, for one process
with a warm cache, where the time goes: imports, load (parse), check and compile.

`--instructions` counts instead the instructions of one run of each (valgrind's
cachegrind, no cache simulation): the same on every run, so two commits compare on a
noisy machine; CPU time is about proportional. `--against DIR` (another checkout, e.g. a
worktree of an older commit) measures (a) and (b) in both trees, the trees alternating
run by run, so both see the same machine: timed, or with `--instructions` counted. Run
it with a clean virtual environment's python to count the imports a fresh install pays
for (this sandbox's `site` imports many modules before `-c pass` ends).

    python3 benchmarks/cold_check.py [--rounds 5] [--instructions] [--against DIR] [FILES...]
    (default FILES: games/*.game, relative to each tree with --against)
"""
from __future__ import annotations

import argparse
import glob
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BREAKDOWN = """
import sys, time
t0 = time.process_time()
import ruledsl.cli
from ruledsl.check.decls import check
from ruledsl.compile.game import compile_game
from ruledsl.syntax.load import load
t1 = time.process_time()
spent = dict(load=0.0, check=0.0, compile=0.0)
for path in sys.argv[1:]:
    a = time.process_time(); loaded = load(path)
    b = time.process_time(); model = check(loaded)
    c = time.process_time(); compile_game(model, loaded.path, loaded.sources)
    d = time.process_time()
    spent["load"] += b - a; spent["check"] += c - b; spent["compile"] += d - c
print(" ".join([f"imports {t1 - t0:.3f}"] + [f"{k} {v:.3f}" for k, v in spent.items()]))
"""


def cpu_of(argv: list, env: dict, cwd=ROOT) -> float:
    """User + sys CPU seconds of one child process running argv."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def instructions_of(argv: list, env: dict, cwd=ROOT) -> int:
    """Instructions one process running argv executes (valgrind's cachegrind)."""
    out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          *argv], cwd=cwd, env=env, capture_output=True, text=True, check=True).stderr
    found = re.search(r"I\s+refs:\s+([\d,]+)", out)
    if found is None:
        sys.exit(f"no instruction count in valgrind's output:\n{out[-2000:]}")
    return int(found.group(1).replace(",", ""))


def need_valgrind() -> None:
    if shutil.which("valgrind") is None:
        sys.exit("--instructions needs valgrind (apt install valgrind)")


def count_instructions(check: list) -> None:
    need_valgrind()
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, "cache")
        start = instructions_of([sys.executable, "-c", "pass"], dict(os.environ))
        runs = {"(a) no cache": dict(os.environ, RULEDSL_CACHE_DIR=""),
                "(b) empty cache": dict(os.environ, RULEDSL_CACHE_DIR=folder),
                "(c) warm cache": dict(os.environ, RULEDSL_CACHE_DIR=folder)}
        print(f"instructions (millions), beyond interpreter start ({start / 1e6:,.0f}M):")
        for name, env in runs.items():
            print(f"  {name:16} {(instructions_of(check, env) - start) / 1e6:,.0f}M")


def against(other: Path, files: list, rounds: int, instructions: bool) -> None:
    """(a) and (b) in this tree and `other`, alternating run by run (see the docstring)."""
    if instructions:
        need_valgrind()
    measure = instructions_of if instructions else cpu_of
    argv = [sys.executable, "-m", "ruledsl", "check", *[os.path.relpath(f, ROOT) for f in files]]
    trees = [ROOT, other.resolve()]
    envs = {tree: dict(os.environ, PYTHONPATH=str(tree)) for tree in trees}
    for tree in trees:  # each tree's bytecode cache written first, as an installed package has it
        subprocess.run(argv, cwd=tree, env=dict(envs[tree], RULEDSL_CACHE_DIR=""), stdout=subprocess.DEVNULL,
                       check=True)
    cases = ("(a) no cache", "(b) empty cache")
    runs = {(tree, case): [] for tree in trees for case in cases}
    starts = []
    rounds = 1 if instructions else rounds
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(rounds):
            starts.append(measure([sys.executable, "-c", "pass"], dict(os.environ)))
            for n, tree in enumerate(trees if i % 2 == 0 else trees[::-1]):
                env = envs[tree]
                folders = {cases[0]: "", cases[1]: os.path.join(tmp, f"{i}-{n}")}
                for case in cases:
                    runs[(tree, case)].append(measure(argv, dict(env, RULEDSL_CACHE_DIR=folders[case]), tree))
    start = statistics.median(starts)
    unit = "instructions (millions)" if instructions else f"CPU seconds, median of {rounds}"
    print(f"{len(files)} files; {unit} beyond interpreter start, each tree alternating:")
    for tree in trees:
        shown = [statistics.median(runs[(tree, case)]) - start for case in cases]
        cells = [f"{v / 1e6:,.0f}M" if instructions else f"{v:.3f}" for v in shown]
        print(f"  {str(tree):40} " + "  ".join(f"{case} {cell}" for case, cell in zip(cases, cells)))


def check_command(files: list) -> list:
    """`ruledsl check FILES` as a child process runs it: the installed command, else -m."""
    script = os.path.join(os.path.dirname(sys.executable), "ruledsl")
    check = [sys.executable, script] if os.path.exists(script) else [sys.executable, "-m", "ruledsl"]
    return [*check, "check", *files]


def use_this_tree(no_pyc: bool = False) -> None:
    """This process's environment, for its children: this tree's ruledsl first on the path
    (also when the installed command, an editable install, points at another checkout: a
    worktree of an older commit measures that commit), and Python's own bytecode cache
    (__pycache__) as an installed package has it: written by a first run, even where
    PYTHONDONTWRITEBYTECODE is set (as in some sandboxes), unless `no_pyc`."""
    base_env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE" or no_pyc}
    base_env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), base_env.get("PYTHONPATH")]))
    os.environ.clear()
    os.environ.update(base_env)


def timed_rounds(check: list, rounds: int, tmp: str) -> dict:
    """{case: [CPU seconds of each round]} of `python3 -c pass` and the three cases,
    interleaved round by round; each round's cache folder in `tmp`."""
    subprocess.run(check, cwd=ROOT, stdout=subprocess.DEVNULL, check=True)  # the bytecode cache written
    times = {"python3 -c pass": [], "(a) no cache": [], "(b) empty cache": [], "(c) warm cache": []}
    for i in range(rounds):
        folder = os.path.join(tmp, f"cache{i}")
        times["python3 -c pass"].append(cpu_of([sys.executable, "-c", "pass"], dict(os.environ)))
        times["(a) no cache"].append(cpu_of(check, dict(os.environ, RULEDSL_CACHE_DIR="")))
        times["(b) empty cache"].append(cpu_of(check, dict(os.environ, RULEDSL_CACHE_DIR=folder)))
        times["(c) warm cache"].append(cpu_of(check, dict(os.environ, RULEDSL_CACHE_DIR=folder)))
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions (valgrind) of one run of each instead of timing rounds")
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="another checkout: (a) and (b) in both trees, alternating run by run")
    parser.add_argument("--no-pyc", action="store_true",
                        help="keep PYTHONDONTWRITEBYTECODE if set: ruledsl's modules compiled from source each run")
    args = parser.parse_args()
    files = args.files or sorted(glob.glob(str(ROOT / "games" / "*.game")))
    check = check_command(files)
    use_this_tree(args.no_pyc)
    if args.against is not None:
        return against(args.against, files, args.rounds, args.instructions)
    if args.instructions:
        subprocess.run(check, cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
        return count_instructions(check)
    with tempfile.TemporaryDirectory() as tmp:
        times = timed_rounds(check, args.rounds, tmp)
        base = statistics.median(times["python3 -c pass"])
        print(f"{len(files)} files, {args.rounds} rounds; CPU seconds (user + sys), median [min..max]")
        for name, runs in times.items():
            extra = "" if name.startswith("python") else f"   beyond interpreter start: {statistics.median(runs) - base:.2f}"
            print(f"  {name:16} {statistics.median(runs):.2f} [{min(runs):.2f}..{max(runs):.2f}]{extra}")
        env = dict(os.environ, RULEDSL_CACHE_DIR=os.path.join(tmp, "cache0"))
        for name, setting in (("warm cache", env), ("no cache", dict(os.environ, RULEDSL_CACHE_DIR=""))):
            out = subprocess.run([sys.executable, "-c", BREAKDOWN, *files], cwd=ROOT, env=setting, check=True,
                                 capture_output=True, text=True).stdout.strip()
            print(f"one process, {name}: {out}")

if __name__ == "__main__":
    main()
