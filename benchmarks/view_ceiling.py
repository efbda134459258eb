"""What keeping the rules' aggregates up to date on write could gain at most: the share
of a random game's time spent evaluating aggregates, defs and end conditions.

A view maintained on write (a count kept as the field it counts is written, as the
tallies of runtime/world.py are) can make an aggregate cost almost nothing where the
rules read it, but no less than nothing. So the share of a game's time that goes to
evaluating the rules' aggregates (`count`, `any`, `all`, `first`, filters, tally
lookups), the defs they sit in and the end conditions bounds what any such compiler
could gain: at most 1 / (1 - share) times faster, with every view free.

The games run under py-spy (a sampling profiler, in the bench extra), in a child
process that notes, for each function ruledsl generated, the lines of its text that
evaluate an aggregate or call a def (`aggregate_lines`). Each sample is then put in
one group by its stack (`group_of`): end conditions (Machine.check_ends on the stack),
aggregates and defs (the innermost generated rule or stretch frame is on such a line),
or the rest of the game (decisions, moves, dice, the Machine, the playout loop).
Samples outside the games (imports, parsing, compiling) are left out.

    python3 benchmarks/view_ceiling.py games/mafialand.game --players 3 --games 1500

Shares of samples, not times; it reports, nothing asserts.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402

GROUPS = ("end conditions", "aggregates and defs in the rules", "the rest of the game")
# The marks of a generated line that evaluates an aggregate (aggregates.py): a
# comprehension over items (`for _v_x in`), a tally lookup, a fixed group's column read in
# one call (`.values(`, `map(col.__getitem__, ...)`), or a call of a def (its cell, `[0](w`).
AGGREGATE = re.compile(r"for _v_\S+ in |\.tallies\[|\.values\(|\.__getitem__, |\[0\]\(w\b")
GAME_FRAME = "ruledsl_game"  # bench.py's playout: the samples that count


def aggregate_lines(text: str) -> list:
    """The numbers (from 1) of the lines of a generated text that evaluate an aggregate or call a def."""
    return [n for n, line in enumerate(text.split("\n"), 1) if AGGREGATE.search(line)]


def short(filename: str) -> str:
    """A file's name as py-spy prints it in a frame: what follows its last '/'."""
    return filename.rsplit("/", 1)[-1]


def group_of(frames: list, lines: dict) -> str | None:
    """The group of one sample (its frames outermost first, each as py-spy's raw output
    writes it, `function (file:line)`); None outside the games. `lines`: {short file
    name: the aggregate lines of the texts compiled under that name}."""
    if not any(f.startswith(GAME_FRAME + " ") for f in frames):
        return None
    if any(f.startswith("Machine.check_ends ") for f in frames):
        return GROUPS[0]
    for frame in reversed(frames):  # the innermost frame of a rule's generator or a stretch
        if not (frame.startswith("_whole") or frame.startswith("_op") or frame.startswith("_run")):
            continue
        where = frame[frame.index(" (") + 2:-1]
        name, _, line = where.rpartition(":")
        if name in lines and line.isdigit():
            return GROUPS[1] if int(line) in lines[name] else GROUPS[2]
    return GROUPS[2]


def shares(raw: str, lines: dict) -> Counter:
    """Samples per group in py-spy's raw output (`frame;frame;... count` a line)."""
    counts: Counter = Counter()
    for row in raw.splitlines():
        stack, _, n = row.rpartition(" ")
        group = group_of(stack.split(";"), lines) if n.isdigit() else None
        if group is not None:
            counts[group] += int(n)
    return counts


# ------------------------------------------------------------ the child: plays and notes
def play_and_note(game: str, players: int, games: int, out: str):
    """Plays `games` random games as bench.py does, noting the aggregate lines of every
    text compiled (deferred.compiled: rules' generators, stretches, expressions)."""
    from ruledsl.compile import deferred
    from ruledsl.pipeline import load_game
    noted: dict = {}
    compiled = deferred.compiled

    def noting(source, filename, group):
        noted.setdefault(short(filename), set()).update(aggregate_lines(source))
        return compiled(source, filename, group)
    deferred.compiled = noting
    try:
        program = load_game(game).program
        rng = random.Random(1)
        for _ in range(games):
            bench.ruledsl_game(program, players, rng)
    finally:
        deferred.compiled = compiled  # (the tests call this in their own process)
    Path(out).write_text(json.dumps({k: sorted(v) for k, v in noted.items()}))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--rate", type=int, default=1000, help="py-spy's samples a second")
    ap.add_argument("--child", help=argparse.SUPPRESS)  # the JSON file the child writes
    args = ap.parse_args(argv)
    if args.child:
        play_and_note(args.game, args.players, args.games, args.child)
        return 0
    spy = shutil.which("py-spy")
    if spy is None:
        print("py-spy is not installed: pip install -e '.[bench]' (or pip install py-spy)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        raw, noted = Path(tmp, "samples.txt"), Path(tmp, "lines.json")
        run = subprocess.run([spy, "record", "-r", str(args.rate), "-f", "raw", "-o", str(raw), "--",
                              sys.executable, __file__, args.game, "--players", str(args.players),
                              "--games", str(args.games), "--child", str(noted)],
                             capture_output=True, text=True)
        if run.returncode != 0 or not raw.exists() or not noted.exists():
            print(f"py-spy failed (exit {run.returncode}):\n{run.stderr[-2000:]}", file=sys.stderr)
            return 1
        counts = shares(raw.read_text(), {k: set(v) for k, v in json.loads(noted.read_text()).items()})
    total = sum(counts.values())
    if not total:
        print("no samples inside the games: play more of them (--games)", file=sys.stderr)
        return 1
    print(f"{args.game}, {args.players} players, {args.games} random games: {total:,} samples")
    for group in GROUPS:
        print(f"  {100 * counts[group] / total:5.1f}%  {group}")
    viewed = (counts[GROUPS[0]] + counts[GROUPS[1]]) / total
    print(f"with every aggregate, def and end condition free: at most {1 / (1 - viewed):.2f}x as fast")
    return 0


if __name__ == "__main__":
    sys.exit(main())
