"""How many lines of Python a decision runs, in ruledsl and in the hand-written game.

Both play random games in bench.py's loops (the same seeds, the same random agents), and
sys.settrace counts every line each runs, grouped by where the line is: the code ruledsl
generated for the game (its rules, defs and expressions), the rest of ruledsl (the
Machine, the World, the budget, the compiled closures), the random numbers (random.py),
bench.py's loop (and this script's calls of it), and the hand-written game's own module. A count is the same on every
machine and run for the same seeds (no clock): what a change to the engine saves shows
here whatever the machine's load, and what the hand-written game does in a decision is
the measure of what a decision needs. Lines differ in cost, so a count is a guide to
where the work is, not a time; tracing makes the games many times slower.

    python3 benchmarks/lines_per_decision.py mafialand [--games 10]
"""
from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402

from ruledsl.pipeline import load_game  # noqa: E402

HERE = Path(__file__).resolve().parent.as_posix()  # benchmarks/
PARTS = ("generated", "ruledsl", "random numbers", "the loop", "hand-written", "other")
WARM = 5  # games played before those counted: every rule's code made, as in a long run


def part_of(filename: str) -> str:
    """Which of PARTS a code object's file is."""
    if filename.startswith("<ruledsl"):
        return "generated"
    path = filename.replace("\\", "/")
    if "/ruledsl/" in path:
        return "ruledsl"
    if path.endswith("/random.py"):
        return "random numbers"
    if path.startswith(HERE + "/handwritten/"):
        return "hand-written"
    if path.startswith(HERE + "/"):
        return "the loop"  # bench.py's loop, and this script's calls of it
    return "other"


def counted(play, games: int) -> tuple:
    """(decisions, Counter of lines run by part) over `games` calls of play()."""
    lines: Counter = Counter()
    parts: dict = {}

    def line(frame, event, arg):
        if event == "line":
            code = frame.f_code
            part = parts.get(code)
            if part is None:
                part = parts[code] = part_of(code.co_filename)
            lines[part] += 1
        return line

    def call(frame, event, arg):
        return line if event == "call" else None

    decisions = 0
    sys.settrace(call)
    try:
        for _ in range(games):
            decisions += play()[0]
    finally:
        sys.settrace(None)
    return decisions, lines


def measure(name: str, games: int, seed: int = 1) -> dict:
    """{engine: (decisions, lines by part)} for ruledsl and the hand-written game `name`."""
    path, players, module = bench.BASELINES[name]
    program = load_game(str(bench.ROOT / path)).program
    plays = {"ruledsl": lambda rng: bench.ruledsl_game(program, players, rng),
             "hand-written": lambda rng: bench.handwritten_game(module, players, rng)}
    out = {}
    for engine, play in plays.items():
        rng = random.Random(seed)
        for _ in range(WARM):
            play(rng)
        out[engine] = counted(lambda: play(rng), games)
    return out


def report(name: str, games: int, measured: dict) -> str:
    rows = [f"{name}, {games} games after {WARM}: lines of Python run a decision"]
    for engine, (decisions, lines) in measured.items():
        each = {part: lines[part] / decisions for part in PARTS if lines[part]}
        parts = ", ".join(f"{part} {n:.1f}" for part, n in each.items())
        rows.append(f"  {engine}: {sum(each.values()):.1f} ({decisions / games:.1f} decisions a game): {parts}")
    return "\n".join(rows)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("name", choices=sorted(bench.BASELINES))
    ap.add_argument("--games", type=int, default=10)
    args = ap.parse_args(argv)
    print(report(args.name, args.games, measure(args.name, args.games)))


if __name__ == "__main__":
    main()
