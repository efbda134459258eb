"""How far compiling whole rules could speed up a game: a ceiling, measured.

A classic of `examples/` written by hand in the shape a whole-rule compiler would emit:
the flow as one Python generator (a decision is a `yield`, a choice comes back from
`send`), on the engine's own World layout and start World, calling the engine's own
generated defs, charging the work budget as the engine does, with no ops, frames or
Decision objects. What it leaves out (end-of-game ranking, chance and say reports,
clone()) only makes it cheaper, so it bounds what such a compiler could gain.

    python3 benchmarks/whole_rule_ceiling.py [--game kuhn_poker] --games 3000   # timings, interleaved
    python3 benchmarks/whole_rule_ceiling.py --games 30000 --parts   # tic-tac-toe, part by part
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        python3 benchmarks/whole_rule_ceiling.py --games 200 --only generator   # and 0 games

For tic-tac-toe it also plays the rules on a layout of their own (`tic_tac_toe_flat`:
what a back end specialised to the game could generate) and the hand-written game; with
`--parts`, the flat layout with less and less of what ruledsl does (the labels, the units
of work, the free cells recounted, the pauses), each timed: what is left between that and
the hand-written game is the rules evaluated as written (benchmarks/HISTORY.md, "Stop 35").

Stop 12, tic-tac-toe (instructions a game, 200 games minus 0, `--only generator` and
`--only engine`): generator 0.41M, engine 0.73M: 1.77x. Stop 15, Kuhn poker (3,000
games minus 0): see benchmarks/HISTORY.md. Both sides play the same game: the outcome
frequencies are printed side by side.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench  # noqa: E402
from ruledsl import budget  # noqa: E402
from ruledsl.pipeline import load_game  # noqa: E402


def program_of(name: str):
    return load_game(str(ROOT / "examples" / f"{name}.game")).program


class Pending:
    __slots__ = ("seat", "labels", "values")

    def __init__(self, seat, labels, values):
        self.seat, self.labels, self.values = seat, labels, values


def tic_tac_toe(game, w):
    """`rule flow()` of tic_tac_toe.game, as generated code could say it."""
    program = game.program
    three_through = program.def_bodies["three_through"][0]
    cells = list(program.boards["grid"].spaces)
    owner = w.spaces["grid"]["owner"]
    while True:
        w.work -= 1
        for p in [i for i, alive in enumerate(w.alive) if alive]:
            w.work -= 1
            free = [c for c in budget.visited(w, cells, None) if owner[c] is None]
            s = free[(yield Pending(p, list(free), free))]
            owner[s] = p
            w.version += 1
            if three_through(w, p, s):
                game.outcome = (p,)
                return
            if all(owner[c] is not None for c in budget.visited(w, cells, None)):
                game.outcome = ()
                return


class Grid:
    """tic_tac_toe.game's board as a back end specialised to the game could lay it out,
    made once per program: cells as numbers, each cell's row and column, and the groups
    `three_through` counts in (rows, columns, the two diagonals: its fixed attributes)."""

    def __init__(self, program):
        self.names = list(program.boards["grid"].spaces)
        attrs, n = program.boards["grid"].attrs_of_space, len(self.names)
        self.row = [attrs["row"][c] for c in self.names]
        self.col = [attrs["col"][c] for c in self.names]
        self.rows = {r: [i for i in range(n) if self.row[i] == r] for r in set(self.row)}
        self.cols = {k: [i for i in range(n) if self.col[i] == k] for k in set(self.col)}
        self.diag = [i for i in range(n) if self.row[i] == self.col[i]]
        self.anti = [i for i in range(n) if self.row[i] + self.col[i] == 2]


def tic_tac_toe_flat(program, labels=True, charges=True, recount=True, pauses=True):
    """`rule flow()` as a back end specialised to the game's layout could say it (Grid:
    the owners a list by cell, locals in Python's locals), still evaluating the rules as
    written (four counts after each mark, the free cells and the full board recounted),
    charging the same units of work and offering the same decisions (labels and values).
    Each flag off drops one of those for `--parts`: the labels (the values offered as
    labels), the units of work, the recount of the free cells (a list kept as cells are
    marked, as the hand-written game keeps it), the pauses (one call a game, choosing
    from the game's own Random). The Grid is made here, once for all the games."""
    g = Grid(program)

    def flow(game, w):
        names, row, col, rows, cols, diag, anti = g.names, g.row, g.col, g.rows, g.cols, g.diag, g.anti
        n = len(names)
        owner, cells, kept = [None] * n, range(n), list(range(n))
        while True:
            if charges:
                w.work -= 1
            for p in (0, 1):
                if charges:
                    w.work -= 1 + n  # the turn, and the cells visited for the free ones
                free = [c for c in cells if owner[c] is None] if recount else kept
                if pauses:
                    i = yield Pending(p, [names[c] for c in free] if labels else free, free)
                else:
                    i = game.rng.randrange(len(free))
                s = free[i]
                if not recount:
                    kept[i] = kept[-1]
                    kept.pop()
                owner[s] = p
                if charges:
                    w.work -= 1 + 3 + 3  # the def's call, its row and its column
                won = [owner[c] for c in rows[row[s]]].count(p) == 3
                if not won:
                    won = [owner[c] for c in cols[col[s]]].count(p) == 3
                if not won and row[s] == col[s]:
                    won = [owner[c] for c in diag].count(p) == 3
                if not won and row[s] + col[s] == 2:
                    won = [owner[c] for c in anti].count(p) == 3
                if won:
                    game.outcome = (p,)
                    return
                if charges:
                    w.work -= n
                if None not in owner:
                    game.outcome = ()
                    return
    return flow


PASS_BET = ["pass", "bet"]


def kuhn_poker(game, w):
    """`rule setup()` and `rule flow()` of kuhn_poker.game (with the rules they call
    written in place), as generated code could say them; chance from the loop's Random."""
    chips, shared, ante, bet = [pl for pl in w.players], w.shared, w.consts["ANTE"], w.consts["BET"]
    cards = w.program.cards
    deck = w.zones[("deck", None)]
    game.rng.shuffle(deck)
    w.work -= 1
    for p in [i for i, alive in enumerate(w.alive) if alive]:
        w.work -= 2
        chips[p]["chips"] -= ante
        shared["pot"] += ante
        card = deck.pop(0)
        w.zones[("hand", p)].insert(0, card)
        w.loc[card] = ("hand", p)
    w.version += 1

    def take_pot(p):
        chips[p]["chips"] += shared["pot"]
        shared["pot"] = 0

    def showdown():
        ranks = [cards[w.zones[("hand", s)][0]].attrs["rank"] for s in (0, 1)]
        winner = 0 if ranks[0] > ranks[1] else 1
        take_pot(winner)
        game.outcome = (winner,)

    def facing_a_bet(p):
        if (yield Pending(p, PASS_BET, PASS_BET)) == 0:
            take_pot(1 - p)
            game.outcome = (1 - p,)
        else:
            chips[p]["chips"] -= bet
            shared["pot"] += bet
            showdown()

    first, second = 0, 1
    if (yield Pending(first, PASS_BET, PASS_BET)) == 0:
        if (yield Pending(second, PASS_BET, PASS_BET)) == 0:
            showdown()
        else:
            chips[second]["chips"] -= bet
            shared["pot"] += bet
            yield from facing_a_bet(first)
    else:
        chips[first]["chips"] -= bet
        shared["pot"] += bet
        yield from facing_a_bet(second)


FLOWS = {"tic_tac_toe": tic_tac_toe, "kuhn_poker": kuhn_poker}
# tic-tac-toe on a layout of its own, then less and less of what ruledsl does (--parts)
PARTS = {"flat": {}, "flat, no labels": {"labels": False},
         "flat, no labels, no work charged": {"labels": False, "charges": False},
         "flat, ... and the free cells kept": {"labels": False, "charges": False, "recount": False},
         "flat, ... and no pauses": {"labels": False, "charges": False, "recount": False, "pauses": False}}


class Game:
    def __init__(self, program, flow, rng):
        self.program, self.rng = program, rng
        self.w = program.new_world(2)
        self.outcome = None
        self.run = flow(self, self.w)
        self.pending = next(self.run, None)

    def choose_index(self, i: int):
        self.w.work = budget.STEP_WORK
        try:
            self.pending = self.run.send(i)
        except StopIteration:
            self.pending = None


def generator_playout(program, flow, rng) -> tuple:
    g = Game(program, flow, rng)
    while g.pending is not None:
        g.choose_index(rng.randrange(len(g.pending.labels)))
    return bench.outcome_of([1 if s in g.outcome else 0 for s in range(2)])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=sorted(FLOWS), default="tic_tac_toe")
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--only", choices=["generator", "engine", "flat"])
    ap.add_argument("--parts", action="store_true", help="tic-tac-toe: the flat layout with less and less of "
                                                         "what ruledsl does, each timed")
    args = ap.parse_args(argv)
    program, flow = program_of(args.game), FLOWS[args.game]
    rng = random.Random(1)
    engines = {"generator": lambda r: generator_playout(program, flow, r),
               "engine": lambda r: bench.ruledsl_playout(program, 2, r)}
    if args.game == "tic_tac_toe":  # on a layout of its own (--parts: less and less), and by hand
        for name, flags in (PARTS.items() if args.parts else [("flat", {})]):
            engines[name] = partial(generator_playout, program, tic_tac_toe_flat(program, **flags))
        module = bench.BASELINES[args.game][2]
        engines["hand-written"] = lambda r: bench.handwritten_game(module, 2, r)[2]
    if args.only:
        if args.only not in engines:
            ap.error(f"--only {args.only}: tic-tac-toe only")
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
    for name in engines:
        if name != "engine":
            print(f"{name}/engine = {spent['engine'] / spent[name]:.2f}x")


if __name__ == "__main__":
    main()
