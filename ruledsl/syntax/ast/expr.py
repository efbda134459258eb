"""Expression nodes. Each gets its own Note, which the checker fills in."""
from __future__ import annotations

from ...errors import Span
from .node import Node, Note, evolve, fresh_note, transform


class Expr(Node):
    span: Span
    note: Note = fresh_note()


class Int(Expr):
    value: int


class Str(Expr):
    parts: tuple  # str pieces and Expr pieces (interpolation)


class Bool(Expr):
    value: bool


class NoneLit(Expr):
    pass


class Name(Expr):
    name: str


class Attr(Expr):
    obj: Expr
    name: str


class Index(Expr):
    obj: Expr
    index: Expr


class Call(Expr):
    name: str
    args: tuple


class Aggregate(Expr):
    func: str
    var: str
    source: Expr
    where: Expr | None
    value: Expr | None


class Filter(Expr):
    var: str
    source: Expr
    where: Expr | None


class ListLit(Expr):
    items: tuple


class Range(Expr):
    lo: Expr
    hi: Expr


class Binary(Expr):
    op: str
    left: Expr
    right: Expr


class Not(Expr):
    operand: Expr


class Neg(Expr):
    operand: Expr


class Cond(Expr):
    test: Expr
    then: Expr
    other: Expr


class Case(Node):
    span: Span
    keys: tuple  # the values that choose this case
    value: Expr


class Match(Expr):
    """`match SUBJECT { case K1, K2: V ... else: V }`: the value of the first case with a key equal to SUBJECT."""
    subject: Expr
    cases: tuple
    other: Expr | None


def rename_calls(node, old: str, new: str):
    """`node` with every call of `old` (as an expression or a statement) calling `new`."""
    return transform(node, lambda n: evolve(n, name=new) if isinstance(n, Call) and n.name == old else n)
