"""How often a game's rule generators read and write their locals by name, in `env`.

A rule's generator (compile/whole.py) keeps the rule's locals in its frame's dict `env`
(`env['p']`, `env['n·3'] = _val`), where a back end laid out for the game would keep them
in Python locals alone (benchmarks/README, "What is left"). This counts, over random
games in bench.py's loop, each line of a generator run (sys.settrace) and the `env[...]`
reads and writes on it, and so what they cost: a dict access with a constant key costs
about `--ns` more than a Python local (measured here with timeit, as a read and a store
in a loop, against the same loop on locals). Since stop 39 a generator reads its locals
from Python locals it keeps as well (texts.KeptLocals), writing each through to `env`:
what is left is mostly those writes (stop 39 measured the reads before, 21 a decision of
Mafialand).

It also lists the lines run that hand `env` or the frame on whole (`_kN(w, env)`,
`_kN(vm, fr)`): the readers by name, which must take their values some other way first.
Those on a failure's path alone (after `except _XFAIL:`) are counted apart.

    python3 benchmarks/env_traffic.py [--games 20] [--only mafialand]
"""
from __future__ import annotations

import argparse
import random
import re
import sys
import timeit
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402

from ruledsl.compile import deferred  # noqa: E402
from ruledsl.pipeline import load_game  # noqa: E402

GAMES = {"mafialand": ("games/mafialand.game", 3), "the_boss": ("games/the_boss.game", 3),
         "tic_tac_toe": ("examples/tic_tac_toe.game", 2)}
RULE = "<ruledsl rule"  # the file name of every rule generator's code (whole.py, resume.py)
WRITE = re.compile(r"env\[[^\]]+\] (?:[-+]?=)(?!=)")  # a store; `+=` and `-=` read as well
STORE = re.compile(r"env\[[^\]]+\] =(?!=)")
ACCESS = re.compile(r"env\[")
WHOLE = re.compile(r"\b_k\d+\((?:w, env|vm, env|vm, fr)\)")


class Sources:
    """The texts of the generated code compiled while it is installed, by file name."""

    def __init__(self):
        self.texts: dict = {}
        self.compiled = deferred.compiled

    def __enter__(self):
        def keep(source, filename, group):
            self.texts[filename] = source.split("\n")
            return self.compiled(source, filename, group)
        deferred.compiled = keep
        return self

    def __exit__(self, *exc):
        deferred.compiled = self.compiled


def traced_lines(program, players: int, games: int) -> tuple:
    """({(file, line): times run} of the rule generators' lines, decisions made) over
    `games` random games (seeds 0..games-1)."""
    hits: Counter = Counter()

    def line(frame, event, arg):
        if event == "line":
            hits[frame.f_code.co_filename, frame.f_lineno] += 1
        return line

    def call(frame, event, arg):
        return line if frame.f_code.co_filename.startswith(RULE) else None

    decisions = 0
    sys.settrace(call)
    try:
        for seed in range(games):
            decisions += bench.ruledsl_game(program, players, random.Random(seed))[0]
    finally:
        sys.settrace(None)
    return hits, decisions


def traffic(texts: dict, hits: Counter) -> dict:
    """The env reads and writes of the lines run, and the readers by name among them."""
    reads = writes = 0
    readers, failing = Counter(), Counter()
    for (filename, number), times in hits.items():
        lines = texts[filename]
        text = lines[number - 1]
        writes += len(WRITE.findall(text)) * times
        reads += (len(ACCESS.findall(text)) - len(STORE.findall(text))) * times
        for reader in WHOLE.findall(text):
            on_failure = number > 1 and lines[number - 2].strip().startswith("except _XFAIL")
            (failing if on_failure else readers)[re.sub(r"_k\d+", "_kN", reader)] += times
    return {"reads": reads, "writes": writes, "readers": readers, "failing": failing}


def dict_cost_ns(rounds: int = 5, n: int = 1_000_000) -> float:
    """What a dict access with a constant key costs more than a local's, in ns: a read,
    a read and a store in a loop, on a dict and on locals (timeit, best of `rounds`)."""
    env = {"p": 1, "q": 2, "a": 0}

    def on_dict():
        e = env
        for _ in range(n):
            x = e["p"]
            e["a"] = e["q"] + x

    def on_locals():
        p, q, a = 1, 2, 0
        for _ in range(n):
            x = p
            a = q + x
        return a
    d, lo = (min(timeit.repeat(f, number=1, repeat=rounds)) for f in (on_dict, on_locals))
    return (d - lo) / (3 * n) * 1e9


def measure(name: str, games: int) -> dict:
    path, players = GAMES[name]
    with Sources() as sources:
        program = load_game(str(bench.ROOT / path)).program
        hits, decisions = traced_lines(program, players, games)
    counts = traffic(sources.texts, hits)
    return {"name": name, "players": players, "games": games, "decisions": decisions, **counts}


def report(row: dict, ns: float, us_a_game: float | None) -> str:
    g, d = row["games"], row["decisions"]
    accesses = (row["reads"] + row["writes"]) / g
    out = [f"\n{row['name']}, {row['players']} players, {g} games, {d / g:.1f} decisions a game",
           f"  env reads {row['reads'] / g:,.0f} and writes {row['writes'] / g:,.0f} a game "
           f"({row['reads'] / d:.1f} and {row['writes'] / d:.1f} a decision)",
           f"  at {ns:.1f} ns each: {accesses * ns / 1000:,.1f} us a game"]
    if us_a_game:
        out[-1] += f" of {us_a_game:,.0f} ({100 * accesses * ns / 1000 / us_a_game:.1f}%)"
    for title, key in (("readers by name run", "readers"), ("on a failure's path only", "failing")):
        for reader, times in row[key].most_common():
            out.append(f"  {title}: {reader} {times / g:,.1f} a game")
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="random games traced per game file")
    ap.add_argument("--only", action="append", choices=sorted(GAMES), help="a game (repeatable); default all")
    ap.add_argument("--ns", type=float, help="a dict access's extra cost in ns (default: measured)")
    ap.add_argument("--time", action="store_true", help="also time a game untraced, for the share")
    args = ap.parse_args(argv)
    ns = args.ns if args.ns is not None else dict_cost_ns()
    print(f"a dict access with a constant key: {ns:.1f} ns more than a local's")
    for name in args.only or GAMES:
        row = measure(name, args.games)
        us = None
        if args.time:
            path, players = GAMES[name]
            program = load_game(str(bench.ROOT / path)).program
            rng = random.Random(1)
            us = 1e6 / bench.measure({"ruledsl": lambda: bench.ruledsl_game(program, players, rng)},
                                     2.0, min_games=20)["ruledsl"].rate
        print(report(row, ns, us))


if __name__ == "__main__":
    main()
