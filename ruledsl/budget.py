"""The work budget: what one step of a game may do, counted, never timed.

A .game file is untrusted, and one rule step could otherwise run for ever or fill
memory (a def recursing both ways, an aggregate over a billion numbers, a draw
of a trillion cards from a deck refilled from its own discards). So every step
(from a choice to the next decision, or set-up) has STEP_WORK units to spend:
each turn of a loop, each step of a walk with an `on pass` trigger (one without moves
in one go, costing nothing), each call of a rule or def, each item an
aggregate or filter visits (or `in` and `==` look through, in a list or zone), each
option a `choose` labels (compile/decide.py) and each number of a range costs one
unit; each card a draw moves costs DRAW_COST, each card a `shuffle` orders
SHUFFLE_COST, each item of a list a text tells TOLD_COST (what is recorded costs
more). A light call of a small def (compile/defs.py) costs nothing of its own: its
text, at most a few dozen nodes and never reaching itself, bounds it.
Sizes are capped where a single value could grow without work being counted: ranges,
texts, numbers. Whatever can repeat is in that list, so statements between them are
bounded by the size of the game file. The units are those of the rules as written
(which calls are light, which defs small), not of how they run: op lists, stretches
and whole rules (compile/) charge the same units at the same statements, so a step
that does too much fails at the same place on a fast Machine as on a cloned one.

A game that has spent GAME_WORK in all stops like one that hit the step limit:
"step limit: too much work in one game", not by the rules, no winner.

Counting, not timing, keeps games deterministic: the same game, seed and
choices stop at the same place on every machine. Exceeding a limit is a
runtime error with a code and the line of the expression (R010-R013).
"""
from __future__ import annotations

from .errors import GameRuntimeError

STEP_WORK = 1_000_000  # units one step may spend (well under a second of rule work)
GAME_WORK = 5_000_000  # units a whole game may spend; then it stops, not by the rules
MAX_RANGE = 1_000_000  # numbers in one range a..b
MAX_TEXT = 100_000  # characters in one text
MAX_NUMBER = 2 ** 63  # a stored number stays within -(2**63 - 1) .. 2**63 - 1
MAX_CARDS = 100_000  # cards in one game
MAX_SPACES = 10_000  # spaces on one board (checked, E336)
DRAW_COST = 8  # units per card a draw moves (a move, and maybe a refill and its shuffle)
SHUFFLE_COST = DRAW_COST  # units a card shuffled costs (a shuffle statement), as a card drawn: its order recorded
TOLD_COST = DRAW_COST  # units an item of a list told in a text costs, as a card drawn: recorded with the text


class WorkLimit(GameRuntimeError):
    """A limit of the work budget; never re-evaluated by the reference closures."""


def charge(w, units: int, span):
    w.work -= units
    if w.work < 0:
        raise WorkLimit(span, "R010", f"this step did more work than one step may ({STEP_WORK:,} units: loop "
                                      "turns, walk steps, calls, items visited, range numbers, cards "
                                      "drawn); does something loop or recurse without end?")


def make_range(w, lo: int, hi: int, span) -> list:
    """The numbers lo..hi, charged one unit each; its ends within R012's bound, so that
    every number it holds is (bounds.py: a number a game keeps is)."""
    number(lo, span)
    number(hi, span)
    size = hi - lo + 1
    if size > MAX_RANGE:
        raise WorkLimit(span, "R011", f"a range of {size:,} numbers; a range has at most {MAX_RANGE:,}")
    if size > 0:
        charge(w, size, span)
    return list(range(lo, hi + 1))


def visited(w, items, span):
    """The items an aggregate or filter is about to visit, charged one unit each. Every
    aggregate is charged, also a lone one: a loop of aggregates over a big zone would
    otherwise do unbounded work within a few ops."""
    w.work -= len(items)
    if w.work < 0:
        charge(w, 0, span)
    return items


def told_items(w, items, span):
    """The items of a list a text tells (its label lists them all), TOLD_COST units each."""
    charge(w, TOLD_COST * len(items), span)
    return items


def same_items(w, a, b, span) -> bool:
    """`a == b` of two lists, charged a unit an item compared (lists of unequal lengths
    differ at once)."""
    if a is not None and b is not None and len(a) == len(b):
        visited(w, a, span)
    return a == b


def number(value, span):
    if type(value) is int and not -MAX_NUMBER < value < MAX_NUMBER:
        raise WorkLimit(span, "R012", "a number beyond 9,223,372,036,854,775,807 (2**63 - 1) either way")
    return value


def text(value: str, span) -> str:
    if len(value) > MAX_TEXT:
        raise WorkLimit(span, "R013", f"a text of {len(value):,} characters; a text has at most {MAX_TEXT:,}")
    return value
