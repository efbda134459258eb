"""How far compiling whole rules could speed up tic-tac-toe: a ceiling, measured.

`examples/tic_tac_toe.game` written by hand in the shape a whole-rule compiler would
emit: the flow as one Python generator (a decision is a `yield`, a choice comes back
from `send`), on the engine's own World layout and start World, calling the engine's
own generated `three_through`, charging the work budget for each loop turn and each
aggregate as the engine does, with no ops, frames or Decision objects. What it leaves
out (end-of-game ranking, chance and say reports, clone()) only makes it cheaper, so
it bounds what such a compiler could gain on this game.

    python3 benchmarks/whole_rule_ceiling.py --games 3000          # timings, interleaved
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        python3 benchmarks/whole_rule_ceiling.py --games 200 --only generator   # and 0 games

Stop 12 (instructions a game, 200 games minus 0, `--only generator` and `--only
engine`): generator 0.41M, engine 0.73M: 1.77x. Both play the same game: the outcome frequencies
are printed side by side.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench  # noqa: E402
from ruledsl import budget  # noqa: E402
from ruledsl.pipeline import load_game  # noqa: E402

PROGRAM = load_game(str(ROOT / "examples" / "tic_tac_toe.game")).program
THREE_THROUGH = PROGRAM.def_bodies["three_through"][0]
CELLS = list(PROGRAM.boards["grid"].spaces)


class Pending:
    __slots__ = ("seat", "labels", "values")

    def __init__(self, seat, labels, values):
        self.seat, self.labels, self.values = seat, labels, values


def flow(game, w):
    """`rule flow()` of the game file, as generated code could say it."""
    owner = w.spaces["grid"]["owner"]
    while True:
        w.work -= 1
        for p in [i for i, alive in enumerate(w.alive) if alive]:
            w.work -= 1
            free = [c for c in budget.visited(w, CELLS, None) if owner[c] is None]
            s = free[(yield Pending(p, list(free), free))]
            owner[s] = p
            w.version += 1
            if THREE_THROUGH(w, p, s):
                game.outcome = (p,)
                return
            if all(owner[c] is not None for c in budget.visited(w, CELLS, None)):
                game.outcome = ()
                return


class Game:
    def __init__(self, players: int):
        self.w = PROGRAM.new_world(players)
        self.outcome = None
        self.run = flow(self, self.w)
        self.pending = next(self.run, None)

    def choose_index(self, i: int):
        self.w.work = budget.STEP_WORK
        try:
            self.pending = self.run.send(i)
        except StopIteration:
            self.pending = None


def generator_playout(rng) -> tuple:
    g = Game(2)
    while g.pending is not None:
        g.choose_index(rng.randrange(len(g.pending.labels)))
    return bench.outcome_of([1 if s in g.outcome else 0 for s in range(2)])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--only", choices=["generator", "engine"])
    args = ap.parse_args(argv)
    rng = random.Random(1)
    engines = {"generator": generator_playout, "engine": lambda r: bench.ruledsl_playout(PROGRAM, 2, r)}
    if args.only:
        for _ in range(args.games):
            engines[args.only](rng)
        return
    spent, outcomes = Counter(), {name: Counter() for name in engines}
    for _ in range(args.games // 100):  # interleaved blocks: load changes favour neither
        for name, playout in engines.items():
            start = time.perf_counter()
            for _ in range(100):
                outcomes[name][playout(rng)] += 1
            spent[name] += time.perf_counter() - start
    for name in engines:
        rate = sum(outcomes[name].values()) / spent[name]
        print(f"{name:10} {rate:9.0f} games/s   {bench.describe(outcomes[name])}")
    print(f"generator/engine = {spent['engine'] / spent['generator']:.2f}x")


if __name__ == "__main__":
    main()
