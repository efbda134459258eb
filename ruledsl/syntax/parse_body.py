"""Parse stage, statements and expressions: the BodyBuilder, which turns the parse tree of
a block or an expression into AST nodes. It is all a `{expr}` inside a string needs; the
file's Builder (parse_decls) adds the declarations on top of it.

Every callback gets the node's position (`meta`) and its parts as named parameters
(`v_args(meta=True, inline=True)` on the class); an optional part written `[...]` in the
grammar arrives as None when it is absent (`maybe_placeholders`). The position is Lark's
Meta where the Builder transforms Lark's tree, and the node's Span itself where it is
built while parsing (direct.py): `self.span(meta)` gives the Span either way."""
from __future__ import annotations

import functools
import re
from typing import Callable, NamedTuple

from lark import Token, Transformer, v_args

from ..errors import Diagnostic, Span
from . import ast

MAX_INT_DIGITS = 18  # a number literal; larger ones are E005


ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
INTERP = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")


class LoneBrace(ValueError):
    """A brace of a text that is neither `{{`, `}}` nor part of a `{...}` (which holds
    none). As in Python's f-strings it is a syntax error: taken as a letter,
    `{match x {...}}` said what the rules did not. `at`: where, in the unquoted text."""

    message = ("a lone brace in a text: write {{ or }} for a brace, and close each {...}, which holds no "
               "braces (bind a match with 'let' first)")

    def __init__(self, at: int):
        super().__init__(at)
        self.at = at


def pieces(literal: str) -> list:
    """A string literal's text, unquoted, as its literal pieces (str) and its `{...}`
    expressions ((their text, where it starts in the unquoted text)). Raises LoneBrace."""
    raw = unquote(literal)
    parts, pos = [], 0
    for m in INTERP.finditer(raw):
        if m.start() > pos:
            parts.append(_letters(raw, pos, m.start()))
        if m.group(0) in ("{{", "}}"):
            parts.append(m.group(0)[0])
        else:
            parts.append((m.group(1), m.start(1)))
        pos = m.end()
    if pos < len(raw):
        parts.append(_letters(raw, pos, len(raw)))
    return parts


def _letters(raw: str, start: int, end: int) -> str:
    """raw[start:end], a piece between the `{...}`, `{{` and `}}` of a text: a brace in it
    is a lone one."""
    piece = raw[start:end]
    found = [at for at in (piece.find("{"), piece.find("}")) if at >= 0]
    if found:
        raise LoneBrace(start + min(found))
    return piece


def unquote(tok: str) -> str:
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(1)), tok[1:-1])


def label_text(tok: Token | None) -> str | None:
    """The text of an optional `as "..."` label."""
    return None if tok is None else unquote(tok)


# How a `{expr}` inside a string is read: (its source, line offset, column offset) -> its
# parse tree, or the Diagnostic of the syntax error in it. parse.py gives it the parser.
ReadExpr = Callable[[str, int, int], object]


@v_args(meta=True, inline=True)
class BodyBuilder(Transformer):
    """Tree -> statement and expression nodes; it builds nodes and nothing more."""

    def __init__(self, path: str, read_expr: ReadExpr):
        super().__init__(visit_tokens=False)
        self.path = path
        self.read_expr = read_expr
        self.errors: list[Diagnostic] = []
        self._inner: dict = {}  # a `{...}` text -> (its node, its errors), as at the string's start
        for name in _callbacks(type(self)):  # Lark wraps a v_args callback anew at each lookup (each node)
            setattr(self, name, getattr(self, name))

    # ------------------------------------------------------------ positions, strings
    def _span(self, meta) -> Span:
        """The span of a node at `meta`: Lark's Meta, or the Span itself (direct.py)."""
        if meta.__class__ is Span:
            return meta
        if getattr(meta, "empty", True):
            return Span(self.path, 1, 1)
        return Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def _tspan(self, tok: Token) -> Span:
        return Span(self.path, tok.line, tok.column, tok.end_line, tok.end_column)

    def _text(self, tok: Token) -> ast.Str:
        """A string literal, with each `{expr}` in it read as an expression."""
        try:
            found = pieces(str(tok))
        except LoneBrace as lone:  # its {...} are not read: what they hold is not what was meant
            self.errors.append(Diagnostic(Span(self.path, tok.line, tok.column + 1 + lone.at), "E001", lone.message))
            return ast.Str(span=self._tspan(tok), parts=())
        parts = [p if isinstance(p, str) else self._inner_expr(p[0], tok, p[1]) for p in found]
        return ast.Str(span=self._tspan(tok), parts=tuple(parts))

    # What a callback calls for its node's span or a string: a statement added to the
    # language calls these names (tests/test_new_statement.py). Class-level v_args wraps
    # public methods, a call through its wrapper each: the Builder's own call `_span`...
    span, tspan, text = _span, _tspan, _text

    def _inner_expr(self, src: str, tok: Token, offset: int):
        """The node of a `{...}` text, and its errors (E005), placed where the text is; a
        text met before in the file is built once (the same few recur: `{p}`...)."""
        dline, dcol = tok.line - 1, tok.column + offset
        made = self._inner.get(src)
        if made is None:
            tree = self.read_expr(src, dline, dcol)
            if isinstance(tree, Diagnostic):  # placed where this text is: not kept
                self.errors.append(tree)
                return ast.NoneLit(span=self._tspan(tok))
            before = len(self.errors)
            made = self._inner[src] = (self.transform(tree), tuple(self.errors[before:]))
            del self.errors[before:]
        node, errors = made
        self.errors.extend(Diagnostic(_moved(e.span, dline, dcol), e.code, e.message) for e in errors)
        return _shift(node, dline, dcol)

    # ------------------------------------------------------------ statements
    def block(self, meta, *stmts):
        return stmts

    def let_stmt(self, meta, name, value):
        return ast.Let(span=self._span(meta), name=str(name), value=value)

    def roll_stmt(self, meta, name, dice):
        count, sides = str(dice).split("d")
        return ast.Roll(span=self._span(meta), name=str(name), count=int(count or 1), sides=int(sides))

    def expr_stmt(self, meta, target, op, value):
        if op is not None:
            return ast.Assign(span=self._span(meta), target=target, op=str(op), value=value)
        if not isinstance(target, ast.Call):
            self.errors.append(Diagnostic(self._span(meta), "E003", "a statement must be a rule call or an assignment"))
            return ast.Return(span=self._span(meta))
        return ast.CallStmt(span=self._span(meta), call=target)

    def if_stmt(self, meta, cond, body, *elifs_else):
        *elifs, other = elifs_else
        return ast.If(span=self._span(meta), branches=((cond, body), *elifs), other=other)

    def elif_clause(self, meta, cond, body):
        return (cond, body)  # one of ast.If's branches

    def for_stmt(self, meta, var, source, order, direction, start, body):
        return ast.For(span=self._span(meta), var=str(var), source=source, order=order,
                       descending=direction == "desc", start=start, body=body)

    def direction(self, meta, word):
        return str(word)

    def while_stmt(self, meta, cond, body):
        return ast.While(span=self._span(meta), cond=cond, body=body)

    def repeat_stmt(self, meta, count, body):
        return ast.Repeat(span=self._span(meta), count=count, body=body)

    def loop_stmt(self, meta, body):
        return ast.Loop(span=self._span(meta), body=body)

    def choose_stmt(self, meta, secret, var, source, where, by, label):
        return ast.Choose(span=self._span(meta), var=str(var), source=source, where=where, by=by,
                          label=label_text(label), secret=secret is not None)

    def secret(self, meta):
        return True

    def menu_stmt(self, meta, by, label, *options):
        return ast.Menu(span=self._span(meta), by=by, label=label_text(label), options=options)

    def option(self, meta, label, guard, body):
        return ast.Option(span=self._span(meta), label=unquote(label), guard=guard, body=body)

    def may_stmt(self, meta, by, label, guard, body):
        return ast.May(span=self._span(meta), by=by, label=unquote(label), guard=guard, body=body)

    def window_stmt(self, meta, var, seats, label, guard, body):
        return ast.Window(span=self._span(meta), var=str(var), seats=seats, label=unquote(label), guard=guard,
                          body=body)

    def move_stmt(self, meta, card, dest):
        return ast.MoveCard(span=self._span(meta), card=card, dest=dest, bottom=False)

    def move_under(self, meta, card, dest):
        return ast.MoveCard(span=self._span(meta), card=card, dest=dest, bottom=True)

    def walk_stmt(self, meta, target, count, direction, via, route, by, label):
        return ast.Walk(span=self._span(meta), target=target, count=count, direction=direction,
                        via=None if via is None else str(via), route=route, by=by, label=label_text(label))

    def draw_stmt(self, meta, count, source, dest):
        return ast.Draw(span=self._span(meta), count=count, source=source, dest=dest)

    def all_count(self, meta):
        return None  # `draw all`: no count

    def shuffle_stmt(self, meta, zone):
        return ast.Shuffle(span=self._span(meta), zone=zone)

    def say_stmt(self, meta, text):
        return ast.Say(span=self._span(meta), text=self._text(text))

    def reveal_stmt(self, meta, value, to):
        return ast.Reveal(span=self._span(meta), value=value, to=to)

    def eliminate_stmt(self, meta, player):
        return ast.Eliminate(span=self._span(meta), player=player)

    def end_stmt(self, meta, reason, outcome):
        outcome = outcome or NO_OUTCOME
        return ast.EndGame(span=self._span(meta), reason=unquote(reason), winner=outcome.winner, draw=outcome.draw)

    def winner(self, meta, who):
        return Outcome(who, False)

    def draw(self, meta):
        return Outcome(None, True)

    def return_stmt(self, meta, value):
        return ast.Return(span=self._span(meta), value=value)

    def break_stmt(self, meta):
        return ast.Break(span=self._span(meta))

    # ------------------------------------------------------------ expressions
    def int_lit(self, meta, digits):
        if len(digits) > MAX_INT_DIGITS:
            self.errors.append(Diagnostic(self._span(meta), "E005", f"a number has at most {MAX_INT_DIGITS} digits"))
            return ast.Int(span=self._span(meta), value=0)
        return ast.Int(span=self._span(meta), value=int(digits))

    def str_lit(self, meta, tok):
        return self._text(tok)

    def true_lit(self, meta):
        return ast.Bool(span=self._span(meta), value=True)

    def false_lit(self, meta):
        return ast.Bool(span=self._span(meta), value=False)

    def none_lit(self, meta):
        return ast.NoneLit(span=self._span(meta))

    def name(self, meta, tok):
        return ast.Name(span=self._tspan(tok), name=str(tok))

    def attr(self, meta, obj, name):
        return ast.Attr(span=self._span(meta), obj=obj, name=str(name))

    def index(self, meta, obj, index):
        return ast.Index(span=self._span(meta), obj=obj, index=index)

    def call(self, meta, name, args):
        return ast.Call(span=self._span(meta), name=str(name), args=args or ())

    def args(self, meta, *items):
        return items

    def aggregate(self, meta, func, var, source, where, value):
        return ast.Aggregate(span=self._span(meta), func=str(func), var=str(var), source=source,
                             where=where, value=value)

    def filter(self, meta, var, source, where):
        return ast.Filter(span=self._span(meta), var=str(var), source=source, where=where)

    def list_lit(self, meta, items):
        return ast.ListLit(span=self._span(meta), items=items or ())

    def range_op(self, meta, lo, hi):
        return ast.Range(span=self._span(meta), lo=lo, hi=hi)

    def arith(self, meta, left, op, right):
        return ast.Binary(span=self._span(meta), op=str(op), left=left, right=right)

    cmp_op = arith

    def _keyword_op(op):
        def build(self, meta, left, right):
            return ast.Binary(span=self._span(meta), op=op, left=left, right=right)
        return build

    or_op = _keyword_op("or")
    and_op = _keyword_op("and")
    in_op = _keyword_op("in")

    def not_op(self, meta, operand):
        return ast.Not(span=self._span(meta), operand=operand)

    def neg_op(self, meta, operand):
        return ast.Neg(span=self._span(meta), operand=operand)

    def cond_expr(self, meta, test, then, other):
        return ast.Cond(span=self._span(meta), test=test, then=then, other=other)

    def match_expr(self, meta, subject, *cases_other):
        *cases, other = cases_other  # `else: VALUE` after the cases, None without it
        return ast.Match(span=self._span(meta), subject=subject, cases=tuple(cases), other=other)

    def match_case(self, meta, keys, value):
        return ast.Case(span=self._span(meta), keys=keys, value=value)


@functools.lru_cache(maxsize=None)
def _callbacks(cls) -> tuple:
    """The names of a Builder class's callbacks (what class-level v_args wrapped)."""
    return tuple(name for name in dir(cls) if hasattr(getattr(cls, name, None), "visit_wrapper"))


class Outcome(NamedTuple):
    """What an `end` says after its reason: `winner EXPR`, `draw`, or (NO_OUTCOME) neither."""
    winner: object
    draw: bool


NO_OUTCOME = Outcome(None, False)


def _shift(node, dline: int, dcol: int):
    """Moves the spans of an expression read from inside a string literal."""
    if isinstance(node, tuple):
        return tuple(_shift(n, dline, dcol) for n in node)
    if not ast.is_node(node):
        return node
    changes = {}
    for name in node.__struct_fields__:
        v = getattr(node, name)
        if isinstance(v, Span):
            changes[name] = _moved(v, dline, dcol)
        elif ast.is_node(v) or isinstance(v, tuple):
            changes[name] = _shift(v, dline, dcol)
    return ast.evolve(node, **changes)


def _moved(span: Span, dline: int, dcol: int) -> Span:
    """A span of an expression read on its own, where it is inside its string literal
    (`dline` lines down; `dcol` columns right on the expression's first line)."""
    return Span(span.path, span.line + dline, span.col + (dcol if span.line == 1 else 0),
                span.end_line + dline, span.end_col + (dcol if span.end_line == 1 else 0))
