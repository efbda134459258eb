"""Compile stage: how big a number an expression can be, to leave out R012's checks
that can never fail.

Every number a game keeps is within R012's bound (budget.MAX_NUMBER), checked where it
is kept: a `let`, an assignment, a field's or constant's starting value, a parameter
(the arguments of a def or rule call), a rule's result, a list's items, the ends of a
range (so every number of it). So a name, a field or a list's item holds a number within
the bound, and only what arithmetic makes of them can pass it; some of that can't
either: a count or a size (no collection holds 2**40 items), a literal, the max of
counts. `bound` gives the largest absolute value an expression can have, from its
shape (math.inf where it can't tell: a sum over a collection, a card's own attribute);
`may_be_big` says whether a value must be checked where it is kept. Without the checks
of what is kept, a number squared at each call of a def or rule that calls itself would
grow without end (tests/compile/test_bounds.py).
"""
from __future__ import annotations

import math

from .. import budget
from ..check.types import Binding
from ..syntax import ast

ITEMS = 2 ** 40  # more items than any collection, zone or board holds
KEPT = budget.MAX_NUMBER - 1  # the bound of a number kept (a local, parameter, field or list item)
LARGEST_OF_ARGUMENTS = {"abs", "min", "max"}  # builtins no larger than their largest argument
KEPT_NAMES = frozenset({Binding.LOCAL, Binding.ITEM, Binding.SHARED_FIELD})  # hold numbers kept


def beyond(name: str) -> str:
    """The text of the test that the value of Python name `name` is a number beyond R012's
    bound (then budget.number raises R012)."""
    return f"{name}.__class__ is int and not -{budget.MAX_NUMBER} < {name} < {budget.MAX_NUMBER}"


def not_a_number(e) -> bool:
    """Whether the checker typed `e` as something other than a number (or any type)."""
    t = e.note.type
    return t is not None and t.kind not in ("int", "any")


class Bounds:
    """The bounds of a checked game's expressions; a def's, worked out once (a def that
    reaches itself through calls is not bounded)."""

    def __init__(self, model):
        self.defs, self.rules = model.defs, model.rules  # the checked game's defs and rules, by name
        self.consts = model.consts  # its constants (ast.Const), by name
        self.cardsets, self.boards = model.cardsets, model.boards
        self.of_def: dict = {}

    def is_field(self, e) -> bool:
        """Whether attribute `e` of a card or space is a field (else the card's or space's own)."""
        t = e.obj.note.type
        owner = self.cardsets[t.name] if t.kind == "card" else self.boards[t.name]
        return e.name in owner.fields

    def may_be_big(self, e) -> bool:
        """Whether the value of `e` may be a number beyond R012's bound, to be checked
        where it is stored: a number (or of a type not known) that `bound` can't keep
        within it. A player or a card is a small number."""
        return not self.bound(e) < budget.MAX_NUMBER

    def may_be_big_stored(self, target, op: str, value) -> bool:
        """Whether `target op value` (op: = += -=) may keep a number beyond the bound."""
        if not_a_number(target):
            return False
        if op == "=":
            return self.may_be_big(value)
        return not self.bound(target) + self.bound(value) < budget.MAX_NUMBER

    def bound(self, e) -> float:
        """The largest absolute value `e` can have (math.inf where its shape doesn't tell)."""
        if not_a_number(e):
            return ITEMS  # a truth, a player, a card (their numbers are small), or not a number
        make = getattr(self, "b_" + e.__class__.__name__, None)
        return make(e) if make is not None else math.inf

    def b_Int(self, e):
        return abs(int(e.value))

    def b_Name(self, e):
        binding = e.note.binding
        if binding in KEPT_NAMES:
            return KEPT
        if binding is Binding.CONST:  # a literal's value, else a number kept at set-up
            value = self.consts[e.name].value
            return self.bound(value) if value.__class__ is ast.Int else KEPT
        if binding is Binding.PLAYER_COUNT:
            return ITEMS
        return math.inf

    def b_Attr(self, e):
        """A field holds a number kept; a card's or space's own attributes (its row's
        values) are not checked."""
        t = e.obj.note.type
        if t is None:
            return math.inf
        if t.kind in ("card", "space") and not self.is_field(e):
            return math.inf
        return KEPT

    def b_Index(self, e):
        return KEPT  # a list's item (a zone is not indexed for a number)

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
        if e.op == "/":  # floor division by a number other than 0: no larger than what is divided
            return a
        if e.op == "%":  # smaller than what divides
            return b
        return math.inf

    def b_Call(self, e):
        if e.name in self.defs:
            return self.def_bound(e.name)
        if e.name in self.rules:  # `let x = r(...)`: what the rule returns is kept there
            return KEPT
        if e.name == "size":
            return ITEMS
        if e.name in LARGEST_OF_ARGUMENTS:
            return max(self.bound(a) for a in e.args)
        return math.inf  # another builtin

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


class Nones:
    """Which number-typed expressions of a checked game may be none, to check a number
    stored in a field (stores.py): a `first` or `best` of no items is none, and so is
    what holds or passes on its value (a local, a list's item, a def's or rule's result).
    A field's number, a literal, a count or what an operator makes is never none (an
    operator fails on none: checked_calls.operated)."""

    def __init__(self, model):
        self.defs, self.rules = model.defs, model.rules
        self.of_def: dict = {}

    def may_be_none(self, e) -> bool:
        kind = e.__class__
        if kind is ast.Aggregate:
            return e.func in ("first", "best")
        if kind is ast.Name:
            return e.note.binding in (Binding.LOCAL, Binding.ITEM)
        if kind is ast.Index:
            return True
        if kind is ast.Cond:
            return self.may_be_none(e.then) or self.may_be_none(e.other)
        if kind is ast.Match:
            return any(self.may_be_none(c.value) for c in e.cases) or (e.other is not None and self.may_be_none(e.other))
        if kind is ast.Call:
            if e.name not in self.defs:  # a rule's result may be what a first gave; a builtin's number never is none
                return e.name in self.rules
            if e.name not in self.of_def:
                self.of_def[e.name] = True  # while its body is looked at: a call of itself may be none
                self.of_def[e.name] = self.may_be_none(self.defs[e.name].body)
            return self.of_def[e.name]
        return False
