"""What a game's generated texts spend on the sandbox's checks: the work budget's charges
(budget.py: a unit a loop's turn, a call, an item visited) and R012's checks that a
number stays within 64 bits (bounds.py), measured by taking them out.

The game is loaded once per variant, each from a copy of its file of its own, so that
the code each is compiled to is its own (the code cache is off): as it is, with no work
charges, with no R012 checks, and with neither. A charge is the lines `w.work -= ...`
and the `if w.work < 0:` under them; an R012 check is the `if` whose test is
bounds.beyond's (its call under it never made). All are played side by side in bench.py's
loop, interleaved (bench.measure), and reported as the ratio of each to the game as it is,
with its 95% interval. An experiment, nothing more: a game without its checks can't run
out of work or fail R012, and nothing here checks it plays the same games (it does,
unless a game would have hit a limit). It reports; nothing asserts.

    python3 benchmarks/checks_ceiling.py games/mafialand.game --players 3 --seconds 5
"""
from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import shutil
import sys
import tempfile
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402

from ruledsl import cache  # noqa: E402
from ruledsl.compile import deferred  # noqa: E402
from ruledsl.pipeline import load_game  # noqa: E402

VARIANTS = {"as it is": (), "no work charges": ("work",), "no R012 checks": ("number",),
            "neither": ("work", "number")}
CHARGE = re.compile(r"w\.work -= ")
CHARGED_OUT = re.compile(r"if w\.work < 0:$")
NUMBER_CHECK = re.compile(r"^if \w+\.__class__ is int and not -(?:MAX|\d+) < \w+ < (?:MAX|\d+):(.*)$")


def without(source: str, parts: tuple) -> str:
    """`source` (a generated text) with its work charges and/or R012 checks taken out."""
    out, lines, i = [], source.split("\n"), 0
    while i < len(lines):
        line = lines[i]
        code, pad = line.strip(), line[:len(line) - len(line.lstrip())]
        if "work" in parts and CHARGE.match(code):
            i += 1
            if i + 1 < len(lines) and CHARGED_OUT.match(lines[i].strip()):
                i += 2  # the test and the charge's call under it
            continue
        check = NUMBER_CHECK.match(code) if "number" in parts else None
        if check is not None:
            if not check.group(1).strip():
                out.append(pad + "if False:")  # its call, the next line, is never made
            i += 1
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


@contextlib.contextmanager
def variants(game: str, folder: str):
    """{variant: the game's program}, each loaded from a copy of `game` in a folder of its
    own. While in it, each variant's generated texts are compiled with its parts taken out
    (deferred.compiled, as env_traffic.Sources): a rule's generator is made on first use,
    so its games are played inside."""
    made: dict = {}
    for n, (name, parts) in enumerate(VARIANTS.items()):
        copy = Path(folder, f"variant{n}", Path(game).name)
        copy.parent.mkdir()
        shutil.copy(game, copy)
        made[str(copy)] = parts
    original = deferred.compiled
    deferred.compiled = lambda source, filename, group: original(without(source, made.get(group, ())), filename, group)
    try:
        yield {name: load_game(path).program for path, name in zip(made, VARIANTS)}
    finally:
        deferred.compiled = original


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=5.0, help="time per variant")
    args = ap.parse_args(argv)
    os.environ[cache.CACHE_ENV] = ""  # each variant compiled afresh, not read from the code cache
    with tempfile.TemporaryDirectory() as folder, variants(args.game, folder) as programs:
        rng = random.Random(f"checks:{args.game}")
        for program in programs.values():  # every rule's generator made, under its own variant
            for _ in range(50):
                bench.ruledsl_game(program, args.players, rng)
        measured = bench.measure({name: partial(bench.ruledsl_game, program, args.players, rng)
                                  for name, program in programs.items()}, args.seconds, min_games=20)
    base = measured["as it is"]
    print(f"{args.game}, {args.players} players: {base.rate:.0f} games/s as it is")
    for name, m in measured.items():
        if name != "as it is":
            print(f"  {name}: {bench.ratio_text(m, base, 3)}")


if __name__ == "__main__":
    main()
