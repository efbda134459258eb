"""Compile stage, expressions part 6: the text of a store, `target op value` (an
assignment's fast code: ExprCompiler.store, and texts.StatementTexts.t_Assign written into
a stretch or a rule's generator), by the expression generator (expr.py `_Gen`).

A field of a space or a card set with `=` evaluates the value, then the item (Python's
order for `x[i] = v`), and an item that is none fails (its checked store then raises R001),
where a dict would take `None` as a key. A number stored is checked (R012) unless it
can't be big (bounds.py), and one stored in a field with `=` is checked not to be none
where it may be (bounds.Nones: a `first` or `best` of no items). A value stored with `=`
that a statement writes as its own loop (looped.py: `p.brawling = uses(p, a)`) is made
first, in `_v`, as Python makes the value of `x = v` before it looks at x; a `+=` or `-=`
reads x first, so its value stays an expression.
"""
from __future__ import annotations

from .. import budget
from ..check.types import Binding
from ..syntax import ast
from .bounds import beyond
from .checked_calls import stored_number


def set_text(gen, target, stored: str, op: str, value: str, newline: str = "\n") -> str:
    """`stored op value` (`stored`: the text of `target` by `gen`); in a rule's generator, a
    local it keeps in a Python local (texts.KeptLocals) is set in `env` as well."""
    if gen.kept_locals is None or not gen.kept_locals.holds(stored):
        return f"{stored} {op} {value}"
    if op == "=":
        return f"{gen.kept_locals.bound(target.name)} = {value}"
    return f"env[{target.name!r}] {op} {value}{newline}{stored} = env[{target.name!r}]"  # in place, as on env


def stored_text(gen, target, op, value, newline: str, room: int | None = None) -> str:
    """The statements of a store's fast code (`newline` indents them), by `gen`: the number
    stored checked (R012) unless it can't be big (bounds.py), and a field's number checked
    not to be none before it is stored where it may be (bounds.Nones). `room`: how many
    blocks deep a value written as a loop may go (looped.py), None for none."""
    made = _made_first(gen, value, op, room)
    field = number_field(target) if op == "=" else None
    if field is not None and gen.owner.nones.may_be_none(value):  # the value made first, in `_v`, and checked
        made = "\n".join([made or f"_v = {gen.expr(value)}", "if _v is None:",
                          f"    {gen.const(stored_number)}(_v, {gen.const(value.span)}, {field!r})"])
    column = gen.field_column(target) if op == "=" and target.__class__ is ast.Attr else None
    if column is not None:  # `x.f = v`: Python's order (v, then x), and a none x fails (R001), not a key of f
        first = made if made is not None else f"_v = {gen.expr(value)}"
        store = newline.join([*first.split("\n"), f"_o = {gen.expr(target.obj)}", "if _o is None:",
                              "    raise KeyError(None)", f"{column}[_o] = _v"])
        stored = "_v"  # what the field now holds
    else:
        stored = gen.expr(target)
        store = set_text(gen, target, stored, op, "_v" if made is not None else gen.expr(value), newline)
        if made is not None:
            store = newline.join([*made.split("\n"), store])
    if not gen.owner.bounds.may_be_big_stored(target, op, value):
        return store
    check = f"_n = {stored}{newline}if {beyond('_n')}: {gen.const(budget.number)}(_n, {gen.const(value.span)})"
    return f"{store}{newline}{check}"


def number_field(target) -> str | None:
    """The name of the field that `target` is, where it holds a number (a field's number is
    never none); None for a local or a field of another type."""
    t = target.note.type
    if t is None or t.kind != "int":
        return None
    if target.__class__ is ast.Name:
        return target.name if target.note.binding is Binding.SHARED_FIELD else None
    return target.name


def _made_first(gen, value, op: str, room: int | None) -> str | None:
    """The lines making the value of an `=` in `_v`, where a statement writes it as a loop
    of its own (looped.py) and there is room; else None."""
    if room is None or op != "=" or gen.checked or not gen.lowerable(value, room):
        return None
    return gen.statement(value, "_v", room)
