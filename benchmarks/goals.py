"""Issue 12's goals, each measured now and judged by its 95% interval.

    python3 benchmarks/goals.py [--seconds 3] [--rounds 7] [--floor]

- Mafialand, 3 players: >= 0.8x hand-written Python (quoted only where the two agree in
  game length, end reasons and winners, as bench.py quotes it);
- tic-tac-toe: >= 1.0x OpenSpiel's C++ game; Kuhn poker: >= 2x OpenSpiel's pure Python;
- `ruledsl check games/*.game` cold, one process: < 0.3 s of CPU beyond interpreter
  start, (a) without a cache folder and (b) with an empty one (cold_check.py's rounds);
- `--jobs 2` does not re-parse the game per worker: its test, run here.

With `--floor`, each ratio goal gets the best ratio this Machine allows if every rule,
die and shuffle cost nothing (floor.py): a target above it is out of reach of any faster
rules, a bound to read beside the verdict (a point estimate, one run).

A goal is **met** where its whole interval is on the goal's side, **not met** where it is
wholly on the other, and **undecided** where the interval straddles it (run again, longer).
The ratios come from bench.py's interleaved rounds (ratio_interval); the cold check's
interval is a bootstrap of the median over its rounds. One machine, one hour: a verdict
says what this run can tell, not what another day will read. Needs OpenSpiel for the
classics (pip install -e '.[bench]'); without it those goals say so.
"""
from __future__ import annotations

import argparse
import glob
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402
import cold_check  # noqa: E402

COLD_LIMIT = 0.3  # CPU seconds beyond interpreter start
JOBS_TEST = "tests/play/test_simulate.py::test_with_several_processes_the_game_is_parsed_checked_and_compiled_once"


def verdict(low: float, high: float, goal: float, at_least: bool = True) -> str:
    """met / not met / undecided, for an interval (low, high) against `goal` (the value
    must be at least the goal, or with `at_least` False below it)."""
    if at_least:
        return "met" if low >= goal else "not met" if high < goal else "undecided"
    return "met" if high < goal else "not met" if low >= goal else "undecided"


def ratio_row(what: str, ours: bench.Measured, theirs: bench.Measured, goal: float) -> tuple:
    interval = bench.ratio_interval(ours, theirs)
    ratio = ours.rate / theirs.rate
    if interval is None:
        return what, f"{ratio:.3f}x (too few rounds for an interval)", f">= {goal}x", "undecided"
    return what, f"{ratio:.3f}x [{interval[0]:.3f}-{interval[1]:.3f}]", f">= {goal}x", verdict(*interval, goal)


def reach(best: float, goal: float) -> str:
    """What floor.py's best ratio says of a ratio goal."""
    return f"{best:.2f}x: {'within reach' if best >= goal else 'out of reach'}"


def floor_cells(args, pyspiel) -> dict:
    """{goal's game: its floor cell}: the best ratio with rules free (floor.bound), each
    measured as floor.py measures it."""
    import floor
    decisions = floor.floor_program()
    cells = {}
    for name, (engine, goal) in bench.TARGETS.items():
        row = floor.bound(name, args.seconds, pyspiel, decisions)
        cells[name] = f"{engine} not installed" if row is None else reach(row["best"], goal)
    return cells


def ratio_goal(name: str, engine: str) -> str:
    """A ratio goal's name in the table: its game, player count and anchor."""
    return f"{name} {bench.game_of(name)[1]}p / {engine}"


def ratio_rows(args, pyspiel) -> list:
    """Each of bench.TARGETS against its anchor, measured as bench.py measures it."""
    rows = []
    for name, (engine, goal) in bench.TARGETS.items():
        what = ratio_goal(name, engine)
        if engine == "hand-written":
            measured = bench.bench_baseline(name, args)
            failing = [w for w, _, ok in bench.distributions_agree(measured["ruledsl"].outcomes,
                                                                   measured[engine].outcomes) if not ok]
            if failing:
                rows.append((what, f"the two disagree in {', '.join(failing)}: no ratio", f">= {goal}x",
                             "not measured"))
                continue
        elif pyspiel is None:
            rows.append((what, "OpenSpiel is not installed", f">= {goal}x", "not measured"))
            continue
        else:
            measured = bench.bench_classic(name, args, pyspiel, engines=(engine,))[1]
        rows.append(ratio_row(what, measured["ruledsl"], measured[engine], goal))
    return rows


def cold_rows(rounds: int) -> list:
    files = sorted(glob.glob(str(bench.ROOT / "games" / "*.game")))
    cold_check.use_this_tree()
    with tempfile.TemporaryDirectory() as tmp:
        times = cold_check.timed_rounds(cold_check.check_command(files), rounds, tmp)
    rows = []
    for case in ("(a) no cache", "(b) empty cache"):
        beyond = [run - start for run, start in zip(times[case], times["python3 -c pass"])]
        low, high = bench.median_interval(beyond)
        median = statistics.median(beyond)
        rows.append((f"cold check {case}", f"{median:.3f} s [{low:.3f}-{high:.3f}]", f"< {COLD_LIMIT} s",
                     verdict(low, high, COLD_LIMIT, at_least=False)))
    return rows


def jobs_row() -> tuple:
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", JOBS_TEST],
                         cwd=bench.ROOT, capture_output=True, text=True)
    passed = out.returncode == 0
    return ("--jobs 2 parses once", "its test passes" if passed else "its test FAILS", "parsed once",
            "met" if passed else "not met")


def with_floor(rows: list, cells: dict) -> list:
    """The rows with a column of floor cells: a ratio goal's by its game's name, else empty."""
    head, *rest = rows
    named = {ratio_goal(name, bench.TARGETS[name][0]): cell for name, cell in cells.items()}
    return [(*head, "best with rules free")] + [(*row, named.get(row[0], "")) for row in rest]


def table(rows: list) -> str:
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(str(cell).ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time per engine for each ratio")
    ap.add_argument("--games", type=int, default=2000, help="least playouts per engine for a classic")
    ap.add_argument("--hw-games", type=int, default=500, help="least playouts per engine for Mafialand")
    ap.add_argument("--rounds", type=int, default=7, help="rounds of the cold check")
    ap.add_argument("--floor", action="store_true",
                    help="also the best ratio each ratio goal allows with rules free (floor.py)")
    args = ap.parse_args(argv)
    pyspiel = bench.load_openspiel()
    rows = [("goal", "measured [95%]", "target", "verdict"), *ratio_rows(args, pyspiel), *cold_rows(args.rounds),
            jobs_row()]
    if args.floor:
        rows = with_floor(rows, floor_cells(args, pyspiel))
    print(table(rows))


if __name__ == "__main__":
    main()
