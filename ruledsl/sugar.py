"""Statements written in terms of other statements, lowered between load and check.

The checker, the compiler, diagrams and traces see only the lowered statements; their
spans are the original statement's, so every error and trace points at what was written.
Adding a statement of this kind means: its AST node, its grammar line, and a function here.
"""
from __future__ import annotations

from . import ast


def lower(decls) -> list:
    return [ast.transform(d, _lower) for d in decls]


def _lower(node):
    if isinstance(node, ast.Window):
        return window(node)
    return node


def window(s: ast.Window) -> ast.If:
    """`window q in SEATS as "LABEL" if GUARD { BODY }` as

        if true {
          let SEATS' = [q in SEATS]             # the seats, fixed when the window opens
          let PASSES = 0  let AT = 0
          while PASSES < size(SEATS') {         # until every seat in a row has passed
            let q = SEATS'[AT % size(SEATS')]
            AT += 1  PASSES += 1
            if q.alive { may q "LABEL" if GUARD { PASSES = 0  BODY } }
          }
        }

    with local names no file can write (they hold a space), unique per window."""
    sp = s.span
    tag = f"window {sp.line}:{sp.col}"
    seats, passes, at = (f"{tag} {part}" for part in ("seats", "passes", "at"))

    def name(n):
        return ast.Name(span=sp, name=n)

    def num(v):
        return ast.Int(span=sp, value=v)

    def binary(op, a, b):
        return ast.Binary(span=sp, op=op, left=a, right=b)

    size = ast.Call(span=sp, name="size", args=(name(seats),))
    alive = ast.Attr(span=sp, obj=name(s.var), name="alive")
    asked = ast.May(span=sp, by=name(s.var), label=s.label, guard=s.guard,
                    body=(ast.Assign(span=sp, target=name(passes), op="=", value=num(0)),) + tuple(s.body))
    turn = (
        ast.Let(span=sp, name=s.var, value=ast.Index(span=sp, obj=name(seats), index=binary("%", name(at), size))),
        ast.Assign(span=sp, target=name(at), op="+=", value=num(1)),
        ast.Assign(span=sp, target=name(passes), op="+=", value=num(1)),
        ast.If(span=sp, branches=((alive, (asked,)),), other=None),
    )
    opened = (
        ast.Let(span=sp, name=seats, value=ast.Filter(span=sp, var=s.var, source=s.seats, where=None)),
        ast.Let(span=sp, name=passes, value=num(0)),
        ast.Let(span=sp, name=at, value=num(0)),
        ast.While(span=sp, cond=binary("<", name(passes), size), body=turn),
    )
    return ast.If(span=sp, branches=((ast.Bool(span=sp, value=True), opened),), other=None)
