"""Parse stage, part 3: the Builder's statement and expression callbacks."""
from __future__ import annotations

import re

from lark import v_args

from . import ast
from .errors import Diagnostic

MAX_INT_DIGITS = 18  # a number literal; larger ones are E005


ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
INTERP = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")


def unquote(tok: str) -> str:
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(1)), tok[1:-1])


class BodyBuilder:
    """Tree -> statement and expression nodes; mixed into parse.Builder."""

    def block(self, ch):
        return tuple(ch)

    @v_args(meta=True)
    def let_stmt(self, meta, ch):
        return ast.Let(span=self.span(meta), name=str(ch[0]), value=ch[1])

    @v_args(meta=True)
    def roll_stmt(self, meta, ch):
        count, sides = str(ch[1]).split("d")
        return ast.Roll(span=self.span(meta), name=str(ch[0]), count=int(count or 1), sides=int(sides))

    @v_args(meta=True)
    def expr_stmt(self, meta, ch):
        if len(ch) == 1:
            if not isinstance(ch[0], ast.Call):
                self.errors.append(Diagnostic(self.span(meta), "E003",
                                              "a statement must be a rule call or an assignment"))
                return ast.Return(span=self.span(meta))
            return ast.CallStmt(span=self.span(meta), call=ch[0])
        return ast.Assign(span=self.span(meta), target=ch[0], op=str(ch[1]), value=ch[2])

    @v_args(meta=True)
    def if_stmt(self, meta, ch):
        branches = [(ch[0], ch[1])]
        other = None
        for c in ch[2:]:
            if c[0] == "elif":
                branches.append((c[1], c[2]))
            else:
                other = c[1]
        return ast.If(span=self.span(meta), branches=tuple(branches), other=other)

    def elif_clause(self, ch):
        return ("elif", ch[0], ch[1])

    def else_clause(self, ch):
        return ("else", ch[0])

    @v_args(meta=True)
    def for_stmt(self, meta, ch):
        order, desc, start = None, False, None
        for c in ch[2:-1]:
            if c[0] == "by":
                order, desc = c[1], c[2]
            else:
                start = c[1]
        return ast.For(span=self.span(meta), var=str(ch[0]), source=ch[1], order=order,
                       descending=desc, start=start, body=ch[-1])

    def order_by(self, ch):
        return ("by", ch[0], len(ch) > 1 and ch[1] == "desc")

    def direction(self, ch):
        return str(ch[0])

    def start_from(self, ch):
        return ("from", ch[0])

    @v_args(meta=True)
    def while_stmt(self, meta, ch):
        return ast.While(span=self.span(meta), cond=ch[0], body=ch[1])

    @v_args(meta=True)
    def repeat_stmt(self, meta, ch):
        return ast.Repeat(span=self.span(meta), count=ch[0], body=ch[1])

    @v_args(meta=True)
    def loop_stmt(self, meta, ch):
        return ast.Loop(span=self.span(meta), body=ch[0])

    @v_args(meta=True)
    def choose_stmt(self, meta, ch):
        secret = ch[0] == "secret"
        if secret:
            ch = ch[1:]
        where = next((c[1] for c in ch[2:] if isinstance(c, tuple) and c[0] == "where"), None)
        label = next((c[1] for c in ch[2:] if isinstance(c, tuple) and c[0] == "named"), None)
        by = [c for c in ch[2:] if not isinstance(c, tuple)][0]
        return ast.Choose(span=self.span(meta), var=str(ch[0]), source=ch[1], where=where, by=by,
                          label=label, secret=secret)

    def where(self, ch):
        return ("where", ch[0])

    def named(self, ch):
        return ("named", unquote(ch[0]))

    @v_args(meta=True)
    def menu_stmt(self, meta, ch):
        label = next((c[1] for c in ch if isinstance(c, tuple) and c[0] == "named"), None)
        return ast.Menu(span=self.span(meta), by=ch[0], label=label, options=tuple(self.pick(ch, ast.Option)))

    @v_args(meta=True)
    def option(self, meta, ch):
        guard = next((c[1] for c in ch if isinstance(c, tuple) and c and c[0] == "guard"), None)
        return ast.Option(span=self.span(meta), label=unquote(ch[0]), guard=guard, body=ch[-1])

    def guard(self, ch):
        return ("guard", ch[0])

    @v_args(meta=True)
    def may_stmt(self, meta, ch):
        guard = next((c[1] for c in ch if isinstance(c, tuple) and c and c[0] == "guard"), None)
        return ast.May(span=self.span(meta), by=ch[0], label=unquote(ch[1]), guard=guard, body=ch[-1])

    @v_args(meta=True)
    def window_stmt(self, meta, ch):
        guard = next((c[1] for c in ch if isinstance(c, tuple) and c and c[0] == "guard"), None)
        return ast.Window(span=self.span(meta), var=str(ch[0]), seats=ch[1], label=unquote(ch[2]), guard=guard,
                          body=ch[-1])

    @v_args(meta=True)
    def move_stmt(self, meta, ch):
        return ast.MoveCard(span=self.span(meta), card=ch[0], dest=ch[1], bottom=False)

    @v_args(meta=True)
    def move_under(self, meta, ch):
        return ast.MoveCard(span=self.span(meta), card=ch[0], dest=ch[1], bottom=True)

    @v_args(meta=True)
    def walk_stmt(self, meta, ch):
        route = next((c for c in ch[3:] if isinstance(c, tuple) and c[0] == "via"), None)
        by = next((c for c in ch[3:] if isinstance(c, tuple) and c[0] == "walk_by"), None)
        return ast.Walk(span=self.span(meta), target=ch[0], count=ch[1], direction=ch[2],
                        via=route[1] if route else None, route=route[2] if route else None,
                        by=by[1] if by else None, label=by[2] if by else None)

    def walk_via(self, ch):
        return ("via", str(ch[0]), ch[1])

    def walk_by(self, ch):
        named = next((c[1] for c in ch[1:] if isinstance(c, tuple) and c[0] == "named"), None)
        return ("walk_by", ch[0], named)

    @v_args(meta=True)
    def draw_stmt(self, meta, ch):
        count = None if ch[0] == "all" else ch[0]
        return ast.Draw(span=self.span(meta), count=count, source=ch[1], dest=ch[2])

    def all_count(self, ch):
        return "all"

    @v_args(meta=True)
    def shuffle_stmt(self, meta, ch):
        return ast.Shuffle(span=self.span(meta), zone=ch[0])

    @v_args(meta=True)
    def say_stmt(self, meta, ch):
        return ast.Say(span=self.span(meta), text=self.text(ch[0]))

    @v_args(meta=True)
    def reveal_stmt(self, meta, ch):
        return ast.Reveal(span=self.span(meta), value=ch[0], to=ch[1] if len(ch) > 1 else None)

    @v_args(meta=True)
    def eliminate_stmt(self, meta, ch):
        return ast.Eliminate(span=self.span(meta), player=ch[0])

    @v_args(meta=True)
    def end_stmt(self, meta, ch):
        winner, draw = outcome(ch[1:])
        return ast.EndGame(span=self.span(meta), reason=unquote(ch[0]), winner=winner, draw=draw)

    @v_args(meta=True)
    def return_stmt(self, meta, ch):
        return ast.Return(span=self.span(meta), value=ch[0] if ch else None)

    @v_args(meta=True)
    def break_stmt(self, meta, ch):
        return ast.Break(span=self.span(meta))

    # -- expressions
    @v_args(meta=True)
    def int_lit(self, meta, ch):
        if len(ch[0]) > MAX_INT_DIGITS:
            self.errors.append(Diagnostic(self.span(meta), "E005", f"a number has at most {MAX_INT_DIGITS} digits"))
            return ast.Int(span=self.span(meta), value=0)
        return ast.Int(span=self.span(meta), value=int(ch[0]))

    @v_args(meta=True)
    def str_lit(self, meta, ch):
        return self.text(ch[0])

    @v_args(meta=True)
    def true_lit(self, meta, ch):
        return ast.Bool(span=self.span(meta), value=True)

    @v_args(meta=True)
    def false_lit(self, meta, ch):
        return ast.Bool(span=self.span(meta), value=False)

    @v_args(meta=True)
    def none_lit(self, meta, ch):
        return ast.NoneLit(span=self.span(meta))

    @v_args(meta=True)
    def name(self, meta, ch):
        return ast.Name(span=self.tspan(ch[0]), name=str(ch[0]))

    @v_args(meta=True)
    def attr(self, meta, ch):
        return ast.Attr(span=self.span(meta), obj=ch[0], name=str(ch[1]))

    @v_args(meta=True)
    def index(self, meta, ch):
        return ast.Index(span=self.span(meta), obj=ch[0], index=ch[1])

    @v_args(meta=True)
    def call(self, meta, ch):
        args = tuple(ch[1]) if len(ch) > 1 else ()
        return ast.Call(span=self.span(meta), name=str(ch[0]), args=args)

    def args(self, ch):
        return list(ch)

    @v_args(meta=True)
    def aggregate(self, meta, ch):
        where = next((c[1] for c in ch[3:] if isinstance(c, tuple) and c[0] == "where"), None)
        value = next((c[1] for c in ch[3:] if isinstance(c, tuple) and c[0] == "yield"), None)
        return ast.Aggregate(span=self.span(meta), func=str(ch[0]), var=str(ch[1]), source=ch[2],
                             where=where, value=value)

    def yield_part(self, ch):
        return ("yield", ch[0])

    @v_args(meta=True)
    def filter(self, meta, ch):
        where = ch[2][1] if len(ch) > 2 else None
        return ast.Filter(span=self.span(meta), var=str(ch[0]), source=ch[1], where=where)

    @v_args(meta=True)
    def list_lit(self, meta, ch):
        return ast.ListLit(span=self.span(meta), items=tuple(ch[0]) if ch else ())

    @v_args(meta=True)
    def range_op(self, meta, ch):
        return ast.Range(span=self.span(meta), lo=ch[0], hi=ch[1])

    def _binary(op=None):
        @v_args(meta=True)
        def build(self, meta, ch):
            if op is None:
                return ast.Binary(span=self.span(meta), op=str(ch[1]), left=ch[0], right=ch[2])
            return ast.Binary(span=self.span(meta), op=op, left=ch[0], right=ch[1])
        return build

    arith = _binary()
    cmp_op = _binary()
    or_op = _binary("or")
    and_op = _binary("and")
    in_op = _binary("in")

    @v_args(meta=True)
    def not_op(self, meta, ch):
        return ast.Not(span=self.span(meta), operand=ch[0])

    @v_args(meta=True)
    def neg_op(self, meta, ch):
        return ast.Neg(span=self.span(meta), operand=ch[0])

    @v_args(meta=True)
    def cond_expr(self, meta, ch):
        return ast.Cond(span=self.span(meta), test=ch[0], then=ch[1], other=ch[2])

    @v_args(meta=True)
    def match_expr(self, meta, ch):
        cases = tuple(c for c in ch[1:] if isinstance(c, ast.Case))
        other = ch[-1] if not isinstance(ch[-1], ast.Case) else None  # `else: VALUE`, after the cases
        return ast.Match(span=self.span(meta), subject=ch[0], cases=cases, other=other)

    @v_args(meta=True)
    def match_case(self, meta, ch):
        return ast.Case(span=self.span(meta), keys=tuple(ch[0]), value=ch[1])


def outcome(rest) -> tuple:
    """(winner expression or None, whether a draw) of an `end`: `winner EXPR`, `draw` or neither."""
    if not rest:
        return None, False
    kind, value = rest[0]
    return value, kind == "draw"
