"""Parse stage: text -> AST (ast.Module). Syntax errors become Diagnostics."""
from __future__ import annotations

import functools
import re

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from . import ast
from .errors import Diagnostic, RuleError, Span
from .grammar import grammar_text

READABLE = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "DICE": "dice like 2d6",
    "ASSIGN_OP": "'=', '+=' or '-='", "CMP_OP": "a comparison", "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '/' or '%'", "$END": "end of file",
}


@functools.lru_cache(maxsize=1)
def parser() -> Lark:
    return Lark(grammar_text(), parser="lalr", propagate_positions=True,
                start=["start", "expr"], maybe_placeholders=False)


def _terminal_words(names) -> str:
    p = parser()
    words = set()
    for name in names:
        if name in READABLE:
            words.add(READABLE[name])
            continue
        try:
            pat = p.get_terminal(name).pattern
            words.add(f"'{pat.value}'" if pat.type == "str" else name.lower())
        except KeyError:
            words.add(name.lower())
    words = sorted(words)
    if len(words) > 8:
        words = words[:8] + ["..."]
    return ", ".join(words)


def syntax_diagnostic(path: str, err: UnexpectedInput, line_offset=0, col_offset=0) -> Diagnostic:
    line = (err.line or 1) + line_offset
    col = (err.column or 1) + (col_offset if (err.line or 1) == 1 else 0)
    if isinstance(err, UnexpectedToken):
        tok = err.token
        got = "end of file" if tok.type == "$END" else f"'{tok}'"
        msg = f"unexpected {got}; expected {_terminal_words(err.expected)}"
        end = col + max(1, len(str(tok)))
    elif isinstance(err, UnexpectedCharacters):
        msg = f"unexpected character {err.char!r}"
        end = col + 1
    elif isinstance(err, UnexpectedEOF):
        msg = f"unexpected end of file; expected {_terminal_words(err.expected)}"
        end = col + 1
    else:  # pragma: no cover - lark has no other kinds
        msg, end = str(err), col + 1
    return Diagnostic(Span(path, line, col, line, end), "E001", msg)


def parse_text(path: str, text: str) -> ast.Module:
    try:
        tree = parser().parse(text, start="start")
    except UnexpectedInput as err:
        raise RuleError([syntax_diagnostic(path, err)], {path: text}) from None
    builder = Builder(path)
    try:
        decls = builder.transform(tree)
    except RecursionError:
        raise RuleError([Diagnostic(Span(path, 1, 1), "E004", "the file nests too deeply to read (an expression "
                                    "or block hundreds of levels deep); split it with 'let' or defs")],
                        {path: text}) from None
    if builder.errors:
        raise RuleError(builder.errors, {path: text})
    return ast.Module(path=path, source=text, decls=tuple(decls.children))


def parse_file(path: str) -> ast.Module:
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as err:
        reason = getattr(err, "strerror", None) or str(err)
        raise RuleError([Diagnostic(Span(path, 1, 1), "E002", f"cannot read file: {reason}")]) from None
    return parse_text(path, text)


# ------------------------------------------------------------------ strings
ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
INTERP = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")


def unquote(tok: str) -> str:
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(1)), tok[1:-1])


class Builder(Transformer):
    """Builds AST nodes from the parse tree and nothing more."""

    def __init__(self, path: str):
        super().__init__(visit_tokens=False)
        self.path = path
        self.errors: list[Diagnostic] = []

    # -- helpers
    def span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.path, 1, 1)
        return Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def tspan(self, tok: Token) -> Span:
        return Span(self.path, tok.line, tok.column, tok.end_line, tok.end_column)

    def text(self, tok: Token) -> ast.Str:
        raw = unquote(str(tok))
        parts, pos = [], 0
        for m in INTERP.finditer(raw):
            if m.start() > pos:
                parts.append(raw[pos:m.start()])
            if m.group(0) in ("{{", "}}"):
                parts.append(m.group(0)[0])
            else:
                parts.append(self.inner_expr(m.group(1), tok, m.start(1)))
            pos = m.end()
        if pos < len(raw):
            parts.append(raw[pos:])
        return ast.Str(span=self.tspan(tok), parts=tuple(parts))

    def inner_expr(self, src: str, tok: Token, offset: int):
        base_col = tok.column + 1 + offset
        try:
            tree = parser().parse(src, start="expr")
        except UnexpectedInput as err:
            self.errors.append(syntax_diagnostic(self.path, err, tok.line - 1, base_col - 1))
            return ast.NoneLit(span=self.tspan(tok))
        sub = Builder(self.path)
        expr = sub.transform(tree)
        return _shift(expr, tok.line - 1, base_col - 1)

    @staticmethod
    def pick(children, cls):
        return [c for c in children if isinstance(c, cls)]

    # -- declarations
    @v_args(meta=True)
    def game_decl(self, meta, ch):
        return ast.GameDecl(span=self.span(meta), title=unquote(ch[0]), min_players=int(ch[1]), max_players=int(ch[2]))

    @v_args(meta=True)
    def extends_decl(self, meta, ch):
        return ast.Extends(span=self.span(meta), path=unquote(ch[0]))

    def override(self, ch):
        return "override"

    def _split_override(self, ch):
        if ch and ch[0] == "override":
            return True, ch[1:]
        return False, ch

    @v_args(meta=True)
    def const_decl(self, meta, ch):
        ov, ch = self._split_override(ch)
        return ast.Const(span=self.span(meta), override=ov, name=str(ch[0]), value=ch[1])

    @v_args(meta=True)
    def enum_decl(self, meta, ch):
        ov, ch = self._split_override(ch)
        return ast.Enum(span=self.span(meta), override=ov, name=str(ch[0]), values=tuple(str(c) for c in ch[1:]))

    @v_args(meta=True)
    def cards_decl(self, meta, ch):
        ov, ch = self._split_override(ch)
        name, params = str(ch[0]), ch[1]
        label = next((c for c in ch[2:] if isinstance(c, tuple) and c and c[0] == "label"), None)
        items = [c for c in ch[2:] if not (isinstance(c, tuple) and c and c[0] == "label")]
        return ast.Cards(span=self.span(meta), override=ov, name=name, params=tuple(params),
                         label=label[1] if label else None,
                         rows=tuple(i for i in items if isinstance(i, (ast.CardRow, ast.CardProduct))),
                         fields=tuple(self.pick(items, ast.FieldDecl)))

    @v_args(meta=True)
    def extend_cards_decl(self, meta, ch):
        items = ch[1:]
        return ast.ExtendCards(span=self.span(meta), name=str(ch[0]),
                               rows=tuple(i for i in items if isinstance(i, (ast.CardRow, ast.CardProduct))),
                               fields=tuple(self.pick(items, ast.FieldDecl)))

    def label(self, ch):
        return ("label", self.text(ch[0]))

    @v_args(meta=True)
    def card_row(self, meta, ch):
        copies = 1
        if ch and isinstance(ch[-1], tuple) and ch[-1][0] == "copies":
            copies = ch[-1][1]
            ch = ch[:-1]
        return ast.CardRow(span=self.span(meta), values=tuple(ch), copies=copies)

    def copies(self, ch):
        return ("copies", int(ch[0]))

    @v_args(meta=True)
    def card_product(self, meta, ch):
        return ast.CardProduct(span=self.span(meta), bindings=tuple(ch))

    def product_binding(self, ch):
        return (str(ch[0]), ch[1])

    def _value(kind, conv):
        @v_args(meta=True)
        def build(self, meta, ch):
            return ast.Value(span=self.span(meta) if not getattr(meta, "empty", True) else self.tspan(ch[0]),
                             kind=kind, value=conv(ch))
        return build

    int_value = _value("int", lambda ch: int(ch[0]))
    neg_value = _value("int", lambda ch: -int(ch[0]))
    name_value = _value("name", lambda ch: str(ch[0]))
    string_value = _value("str", lambda ch: unquote(ch[0]))
    true_value = _value("bool", lambda ch: True)
    false_value = _value("bool", lambda ch: False)
    none_value = _value("none", lambda ch: None)

    @v_args(meta=True)
    def board_decl(self, meta, ch):
        ov, ch = self._split_override(ch)
        name = str(ch[0])
        params, topology, items = (), None, []
        for c in ch[1:]:
            if isinstance(c, list):
                params = tuple(c)
            elif isinstance(c, tuple) and c and c[0] == "topology":
                topology = c[1]
            else:
                items.append(c)
        return ast.Board(span=self.span(meta), override=ov, name=name, params=params, topology=topology,
                         spaces=tuple(self.pick(items, ast.SpaceRow)),
                         links=tuple(i[1:] for i in items if isinstance(i, tuple) and i[0] == "link"),
                         fields=tuple(self.pick(items, ast.FieldDecl)))

    def topology(self, ch):
        return ("topology", str(ch[0]))

    @v_args(meta=True)
    def space_row(self, meta, ch):
        return ast.SpaceRow(span=self.span(meta), name=str(ch[0]), values=tuple(ch[1:]))

    @v_args(meta=True)
    def link_row(self, meta, ch):
        return ("link", str(ch[0]), str(ch[1]), self.span(meta))

    @v_args(meta=True)
    def field_decl(self, meta, ch):
        return ast.FieldDecl(span=self.span(meta), name=str(ch[0]), type=ch[1], default=ch[2])

    @v_args(meta=True)
    def fields_decl(self, meta, ch):
        return ast.Fields(span=self.span(meta), owner=ch[0], fields=tuple(ch[1:]))

    def field_owner(self, ch):
        return str(ch[0])

    def secret(self, ch):
        return "secret"

    @v_args(meta=True)
    def field_line(self, meta, ch):
        secret = ch[0] == "secret"
        if secret:
            ch = ch[1:]
        return ast.FieldDecl(span=self.span(meta), name=str(ch[0]), type=ch[1], default=ch[2], secret=secret)

    @v_args(meta=True)
    def zone_decl(self, meta, ch):
        ov, ch = self._split_override(ch)
        name = str(ch[0])
        rest = list(ch[1:])
        per = None
        if isinstance(rest[0], tuple) and rest[0][0] == "per":
            per = rest.pop(0)[1]
        cards = str(rest.pop(0))
        vis = rest.pop(0)
        refill = next((r[1] for r in rest if isinstance(r, tuple) and r[0] == "refill"), None)
        return ast.Zone(span=self.span(meta), override=ov, name=name, per=per, cards=cards,
                        visibility=vis[0], show=vis[1], refill=refill)

    def per(self, ch):
        return ("per", str(ch[0]))

    def visibility(self, ch):
        return (str(ch[0]), tuple(str(c) for c in ch[1:]))

    def refill(self, ch):
        return ("refill", str(ch[0]))

    @v_args(meta=True)
    def type(self, meta, ch):
        return ast.TypeRef(span=self.span(meta), name=str(ch[0]), optional=len(ch) > 1)

    def params(self, ch):
        return list(ch)

    @v_args(meta=True)
    def param(self, meta, ch):
        return ast.Param(span=self.span(meta), name=str(ch[0]), type=ch[1], default=ch[2] if len(ch) > 2 else None)

    def _params_body(self, ch):
        params = ()
        if ch and isinstance(ch[0], list):
            params, ch = tuple(ch[0]), ch[1:]
        return params, ch

    @v_args(meta=True)
    def def_decl(self, meta, ch):
        ov, ch = self._split_override(ch)
        params, rest = self._params_body(ch[1:])
        return ast.Def(span=self.span(meta), override=ov, name=str(ch[0]), params=params, body=rest[0])

    @v_args(meta=True)
    def rule_decl(self, meta, ch):
        ov, ch = self._split_override(ch)
        params, rest = self._params_body(ch[1:])
        return ast.Rule(span=self.span(meta), override=ov, name=str(ch[0]), params=params, body=rest[0])

    @v_args(meta=True)
    def trigger_decl(self, meta, ch):
        ov, ch = self._split_override(ch)
        return ast.Trigger(span=self.span(meta), override=ov, kind=ch[0], board=str(ch[1]),
                           params=tuple(ch[2]), body=ch[3])

    def trigger_kind(self, ch):
        return str(ch[0])

    @v_args(meta=True)
    def end_decl(self, meta, ch):
        ov, ch = self._split_override(ch)
        winner = ch[3][1] if len(ch) > 3 else None
        return ast.EndWhen(span=self.span(meta), override=ov, name=str(ch[0]), reason=unquote(ch[1]),
                           cond=ch[2], winner=winner)

    def winner(self, ch):
        return ("winner", ch[0])

    @v_args(meta=True)
    def score_decl(self, meta, ch):
        ov, ch = self._split_override(ch)
        return ast.Score(span=self.span(meta), override=ov, kind=ch[0], var=str(ch[1]), value=ch[2])

    def score_kind(self, ch):
        return str(ch[0])

    # -- statements
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
        return ast.Reveal(span=self.span(meta), value=ch[0])

    @v_args(meta=True)
    def eliminate_stmt(self, meta, ch):
        return ast.Eliminate(span=self.span(meta), player=ch[0])

    @v_args(meta=True)
    def end_stmt(self, meta, ch):
        return ast.EndGame(span=self.span(meta), reason=unquote(ch[0]), winner=ch[1][1] if len(ch) > 1 else None)

    @v_args(meta=True)
    def return_stmt(self, meta, ch):
        return ast.Return(span=self.span(meta))

    # -- expressions
    @v_args(meta=True)
    def int_lit(self, meta, ch):
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


def _shift(node, dline: int, dcol: int):
    """Moves the spans of an expression parsed from inside a string literal."""
    import attrs
    if isinstance(node, tuple):
        return tuple(_shift(n, dline, dcol) for n in node)
    if not attrs.has(type(node)):
        return node
    changes = {}
    for f in attrs.fields(type(node)):
        v = getattr(node, f.name)
        if isinstance(v, Span):
            changes[f.name] = Span(v.path, v.line + dline, v.col + (dcol if v.line == 1 else 0),
                                   v.end_line + dline, v.end_col + (dcol if v.end_line == 1 else 0))
        elif attrs.has(type(v)) or isinstance(v, tuple):
            changes[f.name] = _shift(v, dline, dcol)
    return attrs.evolve(node, **changes)
