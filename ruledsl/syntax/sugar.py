"""Statements written in terms of other statements, lowered between load and check.

The checker, the compiler, diagrams and traces see only the lowered statements; their
spans are the original statement's, so every error and trace points at what was written.
Adding a statement of this kind means: its AST node, its grammar line, and a function here.
"""
from __future__ import annotations

import itertools
import operator
import re


from ..budget import MAX_NUMBER, MAX_SPACES, MAX_TEXT
from ..errors import Diagnostic
from . import ast


def lower(decls, errors: list | None = None) -> list:
    """The declarations with their sugar lowered; what can't be lowered is reported to `errors`."""
    rows = SpaceRows(decls, errors if errors is not None else [])
    # (a statement is no part of an expression: expressions, most of the nodes, are not looked into)
    return [_lowered(d, rows) for d in decls]


def _lowered(d, rows):
    if has_block(d):
        return ast.transform(d, _lower, keep=(ast.Expr,))
    return rows.expand(d) if isinstance(d, ast.Board) else d


def has_block(d) -> bool:
    """A declaration whose body is a block of statements (a rule's, a trigger's): the
    grammar writes a `block` in no other declaration (tests/syntax/test_sugar.py), so
    the others hold no statement to lower."""
    return isinstance(getattr(d, "body", None), tuple)


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


# ---------------------------------------------------------------- generated space rows
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
FIXED = ("a generated space row is fixed before the game: its ranges, name and values may use literals, "
         "enum values, constants of those, its own names, arithmetic, comparisons, 'if' and 'match'")


class Word(str):
    """A bare name a fixed expression gave (an enum value or a space), as opposed to a string."""


class NotFixed(Exception):
    def __init__(self, node):
        self.node = node


class SpaceRows:
    """Expands `each ...: space "..." ...` rows of boards into plain space rows."""

    def __init__(self, decls, errors: list):
        self.errors = errors
        self.enums = {d.name: d.values for d in decls if isinstance(d, ast.Enum)}
        self.consts = {d.name: d.value for d in decls if isinstance(d, ast.Const)}
        self.evaluating: set = set()
        self.known: dict = {}  # constants already worked out

    def expand(self, board: ast.Board) -> ast.Board:
        if not any(isinstance(r, ast.SpaceProduct) for r in board.spaces):
            return board
        rows: list = []
        for row in board.spaces:
            if not isinstance(row, ast.SpaceProduct):
                rows.append(row)
                continue
            try:
                rows += self.rows(row, MAX_SPACES + 1 - len(rows))
            except NotFixed as err:
                self.errors.append(Diagnostic(err.node.span, "E339", FIXED))
        return ast.evolve(board, spaces=tuple(rows))

    def rows(self, row: ast.SpaceProduct, room: int) -> list:
        names = [n for n, _ in row.bindings]
        domains = [self.domain(e) for _, e in row.bindings]
        out = []
        for combo in itertools.islice(itertools.product(*domains), room):
            env = dict(zip(names, combo))
            name = self.value(row.name, env)
            if not isinstance(name, str) or not NAME.fullmatch(name):
                self.errors.append(Diagnostic(row.name.span, "E339", f"a generated space name must be a name, "
                                                                     f"not {name!r}"))
                return out
            out.append(ast.SpaceRow(span=row.span, name=name, values=tuple(self.cell(v, env) for v in row.values)))
        return out

    def domain(self, e) -> list:
        value = self.value(e, {})
        if not isinstance(value, (list, range)):
            raise NotFixed(e)
        return value

    def cell(self, v, env) -> ast.Value:
        if isinstance(v, ast.Value):
            if v.kind != "name" or v.value not in env:
                return v
            value = env[v.value]
        else:
            value = self.value(v, env)
        kind = ("bool" if isinstance(value, bool) else "int" if isinstance(value, int) else
                "none" if value is None else "name" if isinstance(value, Word) else "str")
        return ast.Value(span=v.span, kind=kind, value=value)

    def value(self, e, env):
        """A fixed expression's value: int, bool, str, Word, None or a list of those."""
        if isinstance(e, (ast.Int, ast.Bool)):
            return e.value
        if isinstance(e, ast.NoneLit):
            return None
        if isinstance(e, ast.Str):
            text = "".join(p if isinstance(p, str) else str(self.value(p, env)) for p in e.parts)
            if len(text) > MAX_TEXT:
                raise NotFixed(e)
            return text
        if isinstance(e, ast.Name):
            return self.name(e, env)
        if isinstance(e, ast.Range):
            lo, hi = self.value(e.lo, env), self.value(e.hi, env)
            if not (isinstance(lo, int) and isinstance(hi, int)):
                raise NotFixed(e)
            return range(lo, min(hi, lo + MAX_SPACES) + 1)  # more spaces than that are E336
        if isinstance(e, ast.ListLit):
            return [self.value(x, env) for x in e.items]
        if isinstance(e, ast.Binary) and e.op in OPERATORS:
            return self.binary(e, env)
        if isinstance(e, ast.Not):
            return not self.value(e.operand, env)
        if isinstance(e, ast.Neg):
            return -self.value(e.operand, env)
        if isinstance(e, ast.Cond):
            return self.value(e.then if self.value(e.test, env) else e.other, env)
        if isinstance(e, ast.Match):
            return self.match(e, env)
        raise NotFixed(e)

    def name(self, e, env):
        if e.name in env:
            return env[e.name]
        if e.name in self.enums:
            return [Word(v) for v in self.enums[e.name]]
        if e.name in self.known:
            return self.known[e.name]
        if e.name in self.consts and e.name not in self.evaluating:
            self.evaluating.add(e.name)
            try:
                value = self.known[e.name] = self.value(self.consts[e.name], {})
                return value
            finally:
                self.evaluating.discard(e.name)
        if e.name in self.consts:
            raise NotFixed(e)
        return Word(e.name)  # an enum value or a space: the checker knows which

    def binary(self, e, env):
        a = self.value(e.left, env)
        if e.op in ("and", "or"):
            return (a and self.value(e.right, env)) if e.op == "and" else (a or self.value(e.right, env))
        b = self.value(e.right, env)
        try:
            value = OPERATORS[e.op](a, b)
        except (TypeError, ZeroDivisionError):
            raise NotFixed(e) from None
        if isinstance(value, int) and not -MAX_NUMBER < value < MAX_NUMBER:
            raise NotFixed(e)  # numbers stay within 64 bits, as in a game
        return value

    def match(self, e, env):
        subject = self.value(e.subject, env)
        for case in e.cases:
            if any(self.value(k, env) == subject for k in case.keys):
                return self.value(case.value, env)
        if e.other is None:
            raise NotFixed(e)
        return self.value(e.other, env)


OPERATORS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.floordiv, "%": operator.mod,
             "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
             ">=": operator.ge, "in": lambda a, b: a in b, "and": None, "or": None}

