"""How many stored snapshot lines a one-constant rule change churns, before and after keyed streams.

Plays the same seeded games of a game and of the same game with one constant
overridden (a one-line variant), and counts the transcript lines that differ
(`difflib`, lines removed + added), in two designs:

- before: one sequential random stream for chance and one per seat for the
  random agents, and a state digest on every decision record (ruledsl 0.1's
  transcripts, which its amber snapshots stored whole);
- after: keyed streams (streams.py: a random pick is the option of least hash,
  a shuffle orders cards by their labels' hashes) and digest-free transcripts,
  as the ruledsl_snapshot fixture stores them.

    python benchmarks/snapshot_churn.py [--game games/mafialand.game] [--const BAGS_EACH=10] \
        [--players 3] [--seeds 10]

Reported, not asserted: the figures go to benchmarks/README.md.
"""
from __future__ import annotations

import argparse
import difflib
import io
import os
import random
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))

from bench import SharedChance  # noqa: E402  (one sequential stream, draw after draw)
from ruledsl.play.agents import RandomAgent  # noqa: E402
from ruledsl.pipeline import load_game  # noqa: E402
from ruledsl.runtime.machine import Machine, RandomChance  # noqa: E402
from ruledsl.play.transcript import TranscriptWriter  # noqa: E402


class SequentialAgent:
    """The random agent as ruledsl 0.1 had it: one stream per seat, pick after pick."""

    def __init__(self, seat, seed):
        self.rng = random.Random(f"agent:{seed}:{seat}")

    def choose(self, view, decision):
        return self.rng.randrange(len(decision.labels))


def transcript(game, players, seed, keyed: bool, max_steps=2000) -> list:
    out = io.StringIO()
    writer = TranscriptWriter(out, digests=not keyed)
    writer.header(game, players, seed, ["random"] * players)
    chance = RandomChance(seed) if keyed else SharedChance(random.Random(f"chance:{seed}"))  # as 0.1 drew it
    agents = [(RandomAgent if keyed else SequentialAgent)(s, seed) for s in range(players)]
    machine = Machine(game.program, players, chance, listener=writer)
    while machine.pending is not None and machine.steps < max_steps:
        d = machine.pending
        writer.decision(machine, d.labels[agents[d.seat].choose(None, d)])
    if machine.result is None:
        machine.stop_at_limit("step limit")
    writer.result(machine)
    return [line for line in out.getvalue().splitlines() if '"type":"rules"' not in line]


def churn(a: list, b: list) -> int:
    return sum(1 for line in difflib.unified_diff(a, b, lineterm="", n=0)
               if line[:1] in "+-" and not line.startswith(("+++", "---")))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="games/mafialand.game")
    parser.add_argument("--const", default="BAGS_EACH=10", help="NAME=VALUE overridden in the variant")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seeds", type=int, default=10)
    args = parser.parse_args()
    name, value = args.const.split("=")
    base = load_game(os.path.join(ROOT, args.game))
    with tempfile.TemporaryDirectory() as tmp:
        variant_path = os.path.join(tmp, "variant.game")
        with open(variant_path, "w", encoding="utf-8") as fh:
            relative = os.path.relpath(os.path.join(ROOT, args.game), tmp)  # a base is named relative to it
            fh.write(f'extends "{relative}"\noverride const {name} = {value}\n')
        variant = load_game(variant_path)
        print(f"{args.game} against the variant 'override const {name} = {value}', {args.players} players, "
              f"seeds 0..{args.seeds - 1}")
        for label, keyed in (("before (sequential streams, digests)", False),
                             ("after (keyed streams, no digests)", True)):
            total = changed = same_start = 0
            for seed in range(args.seeds):
                a = transcript(base, args.players, seed, keyed)[1:]  # the header names the file
                b = transcript(variant, args.players, seed, keyed)[1:]
                total += len(a)
                changed += churn(a, b)
                same_start += next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            print(f"  {label}: {changed} lines changed of {total} stored ({100 * changed / total:.1f}%); "
                  f"the first {100 * same_start / total:.1f}% of the lines unchanged")


if __name__ == "__main__":
    main()
