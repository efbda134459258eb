"""Compile stage, expressions part 4: what an expression's checked code (expr.py `_Gen`
with `checked`) calls at run time, each failure a GameRuntimeError at the sub-expression
that caused it. Fast code calls none of these (where it fails, the checked code runs the
same expression again to name the failure: expr.py's module doc), but for
`stored_number`, which a store's fast code calls where a number it kept in a field is
none or too big (stores.py), and `none_checked`, around a score that may be none."""
from __future__ import annotations

import operator

from .. import budget
from ..errors import GameRuntimeError

OPERATORS = {"+": operator.add, "-": operator.sub, "*": operator.mul,  # checked code calls `operated` for these
             "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
APPLIED = {**OPERATORS, "+=": operator.add, "-=": operator.sub}  # and an assignment's reference (game.py) for these


WHY_NONE = "(first and best give none when no item qualifies)"  # only they give a number that is none


def none_number(op: str) -> str:
    """The message of a number that is none where `op` needs one. Only `first` and `best`
    give none as a number (of no items: docs/language.md), and what holds their value."""
    return f"this number is none here, and '{op}' needs a number {WHY_NONE}"


def operated(x, y, op: str, left, right):
    """`x op y` of two numbers (an arithmetic or ordering operator, or `+=`, `-=`), both
    evaluated first, as the rules evaluate them; a side that is none is R000 at its span
    (`left`, `right`)."""
    if x is None:
        raise GameRuntimeError(left, "R000", none_number(op))
    if y is None:
        raise GameRuntimeError(right, "R000", none_number(op))
    return APPLIED[op](x, y)


def stored_number(value, span, field: str):
    """A number a store kept in `field`: none is R000 (a field's number is never none), a
    number beyond the bound R012, at the value's `span`."""
    if value is None:
        raise GameRuntimeError(span, "R000", f"this number is none here, and field '{field}' holds a number {WHY_NONE}")
    return budget.number(value, span)


def none_checked(fn, span, what: str, each: bool = False):
    """`fn(w, env)`, whose number (`each`: each of whose numbers) is R000 at `span` where it
    is none: a seat's score or tiebreak (compile/game.py), which ranks no seat as none."""
    def checked(w, env):
        value = fn(w, env)
        if (None in value) if each else (value is None):
            raise GameRuntimeError(span, "R000", f"{what} is none here {WHY_NONE}")
        return value
    return checked


def divide(x, y, whole: bool, span, left, right):
    """`x / y` (whole) or `x % y`, at `span`: a side that is none is R000 at its span, a
    zero divisor R003."""
    if x is None or y is None:
        raise GameRuntimeError(left if x is None else right, "R000", none_number("/" if whole else "%"))
    if y == 0:
        raise GameRuntimeError(span, "R003", "division by zero")
    return x // y if whole else x % y


def no_case(span):
    raise GameRuntimeError(span, "R001", "the value matched is none, and no case names none: add 'else: VALUE'")


WHY_NO_VALUE = "(top and bottom of an empty zone, first and best of no items, and an optional field may be none)"


def no_attribute(span, name: str) -> GameRuntimeError:
    """R001 at `span`, a value that is none, whose attribute or field `name` was asked for."""
    return GameRuntimeError(span, "R001", f"this value is none here, so it has no '{name}' {WHY_NO_VALUE}")


def need(value, span, name: str):
    """`value`, whose attribute `name` is read: none is R001 at it (`span`)."""
    if value is None:
        raise no_attribute(span, name)
    return value


def number_given(x, span, what: str):
    """A number given to a builtin (`what`: its name), a statement's count, unary minus or
    as an end of a range (`..`): none is R000 at it."""
    if x is None:
        raise GameRuntimeError(span, "R000", none_number(what))
    return x


def index(items, i, span, at):
    """`items[i]`: an index that is none is R000 at it (`at`), one outside the list R002."""
    if i is None:
        raise GameRuntimeError(at, "R000", none_number("[...]"))
    if not 0 <= i < len(items):
        raise GameRuntimeError(span, "R002", f"index {i} is outside 0..{len(items) - 1}")
    return items[i]
