"""Compile stage: how big a number an expression can be, to leave out R012's checks
that can never fail.

A number is checked against R012's bound (budget.MAX_NUMBER) where it is kept: a `let`,
an assignment, a def's value. Many of those numbers are small by their making: a count
or a size (no collection holds 2**40 items), a literal, the max of counts. `bound`
gives a number no value of an expression can reach in absolute value, whatever the World
holds (math.inf where it can't tell: a field, a local, a parameter, a sum), from the
expression's shape alone; `may_be_big` says whether a value must be checked.
"""
from __future__ import annotations

import math

from .. import budget
from ..syntax import ast

ITEMS = 2 ** 40  # more items than any collection, zone or board holds
LARGEST_OF_ARGUMENTS = {"abs", "min", "max"}  # builtins no larger than their largest argument


class Bounds:
    """The bounds of a checked game's expressions; a def's, worked out once (a def that
    reaches itself through calls is not bounded)."""

    def __init__(self, defs: dict):
        self.defs = defs  # the checked game's defs, by name
        self.of_def: dict = {}

    def may_be_big(self, e) -> bool:
        """Whether the value of `e` may be a number beyond R012's bound, to be checked
        where it is stored: a number (or of a type not known) that `bound` can't keep
        within it. A player or a card is a small number."""
        t = e.note.type
        if t is not None and t.kind not in ("int", "any"):
            return False
        return not self.bound(e) < budget.MAX_NUMBER

    def bound(self, e) -> float:
        """A number that no value of `e` reaches in absolute value (math.inf where its
        shape doesn't tell)."""
        t = e.note.type
        if t is not None and t.kind not in ("int", "any"):
            return ITEMS  # a truth, a player, a card (their numbers are small), or not a number
        make = getattr(self, "b_" + e.__class__.__name__, None)
        return make(e) if make is not None else math.inf

    def b_Int(self, e):
        return abs(int(e.value))

    def b_Neg(self, e):
        return self.bound(e.operand)

    def b_Cond(self, e):
        return max(self.bound(e.then), self.bound(e.other))

    def b_Match(self, e):
        values = [c.value for c in e.cases] + ([e.other] if e.other is not None else [])
        return max(self.bound(v) for v in values)

    def b_Binary(self, e):
        a, b = self.bound(e.left), self.bound(e.right)
        if e.op in ("+", "-"):
            return a + b
        if e.op == "*":
            return math.inf if math.inf in (a, b) else a * b
        if e.op == "/":  # floor division by a whole number other than 0: no larger than what is divided
            return a
        if e.op == "%":  # smaller than what divides
            return b
        return math.inf

    def b_Call(self, e):
        if e.name in self.defs:
            return self.def_bound(e.name)
        if e.name == "size":
            return ITEMS
        if e.name in LARGEST_OF_ARGUMENTS:
            return max(self.bound(a) for a in e.args)
        return math.inf  # a rule's value (`let x = r(...)`), or another builtin

    def def_bound(self, name: str) -> float:
        if name not in self.of_def:
            self.of_def[name] = math.inf  # while its body is looked at: a call of itself is not bounded
            self.of_def[name] = self.bound(self.defs[name].body)
        return self.of_def[name]

    def b_Aggregate(self, e):
        if e.func == "count":
            return ITEMS
        if e.func in ("min", "max"):  # one item's value (or none, or 0 for no items)
            return self.bound(e.value)
        return math.inf  # a sum; the min or max of numbers a collection holds
