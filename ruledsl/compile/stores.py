"""Compile stage, expressions part 6: the text of a store, `target op value` (an
assignment's fast code: ExprCompiler.store, and texts.StatementTexts.t_Assign written into
a stretch or a rule's generator), by the expression generator (expr.py `_Gen`).

A field of a space or a card set with `=` evaluates the value, then the item (Python's
order for `x[i] = v`), and an item that is none fails (its checked store then raises R001),
where a dict would take `None` as a key. A number stored is checked (R012) unless it
can't be big (bounds.py).
"""
from __future__ import annotations

from .. import budget
from ..syntax import ast


def set_text(gen, target, stored: str, op: str, value: str, newline: str = "\n") -> str:
    """`stored op value` (`stored`: the text of `target` by `gen`); in a rule's generator, a
    local it keeps in a Python local (texts.KeptLocals) is set in `env` as well."""
    if gen.kept_locals is None or not gen.kept_locals.holds(stored):
        return f"{stored} {op} {value}"
    if op == "=":
        return f"{gen.kept_locals.bound(target.name)} = {value}"
    return f"env[{target.name!r}] {op} {value}{newline}{stored} = env[{target.name!r}]"  # in place, as on env


def stored_text(gen, target, op, value, newline: str) -> str:
    """The statements of a store's fast code (`newline` indents them), by `gen`: the number
    stored checked (R012) unless it can't be big (bounds.py)."""
    column = gen.field_column(target) if op == "=" and target.__class__ is ast.Attr else None
    if column is not None:  # `x.f = v`: Python's order (v, then x), and a none x fails (R001), not a key of f
        store = newline.join([f"_v = {gen.expr(value)}", f"_o = {gen.expr(target.obj)}", "if _o is None:",
                              "    raise KeyError(None)", f"{column}[_o] = _v"])
        stored = "_v"  # what the field now holds
    else:
        stored = gen.expr(target)
        store = set_text(gen, target, stored, op, gen.expr(value), newline)
    if not gen.owner.bounds.may_be_big_stored(target, op, value):
        return store
    check = f"_n = {stored}{newline}if _n.__class__ is int and not -{budget.MAX_NUMBER} < _n < {budget.MAX_NUMBER}: " \
            f"{gen.const(budget.number)}(_n, {gen.const(value.span)})"
    return f"{store}{newline}{check}"
