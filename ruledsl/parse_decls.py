"""Parse stage, part 2: the Builder's declaration callbacks (games, cards, boards, zones, rules)."""
from __future__ import annotations

from lark import v_args

from . import ast
from .parse_body import outcome, unquote


OVERRIDDEN = object()  # what the `override` keyword builds


class DeclBuilder:
    """Tree -> declaration nodes; mixed into parse.Builder (span, text, pick, unquote)."""

    @v_args(meta=True)
    def game_decl(self, meta, ch):
        ov, ch = self._split_override(ch)
        return ast.GameDecl(span=self.span(meta), override=ov, title=unquote(ch[0]), min_players=int(ch[1]),
                            max_players=int(ch[2]))

    @v_args(meta=True)
    def extends_decl(self, meta, ch):
        return ast.Extends(span=self.span(meta), path=unquote(ch[0]))

    def override(self, ch):
        return OVERRIDDEN

    def _split_override(self, ch):
        if ch and ch[0] is OVERRIDDEN:  # not a name spelled "override"
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
                         spaces=tuple(i for i in items if isinstance(i, (ast.SpaceRow, ast.SpaceProduct))),
                         links=tuple(i[1:] for i in items if isinstance(i, tuple) and i[0] == "link"),
                         fields=tuple(self.pick(items, ast.FieldDecl)))

    def topology(self, ch):
        return ("topology", str(ch[0]))

    @v_args(meta=True)
    def space_row(self, meta, ch):
        return ast.SpaceRow(span=self.span(meta), name=str(ch[0]), values=tuple(ch[1:]))

    @v_args(meta=True)
    def space_product(self, meta, ch):
        bindings = tuple(c for c in ch if isinstance(c, tuple))
        name, values = ch[len(bindings)], tuple(ch[len(bindings) + 1:])
        return ast.SpaceProduct(span=self.span(meta), bindings=bindings, name=self.text(name),
                                values=values)

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
        returns = rest[0] if len(rest) > 1 else None
        return ast.Rule(span=self.span(meta), override=ov, name=str(ch[0]), params=params, body=rest[-1],
                        returns=returns)

    def returns(self, ch):
        return ch[0]

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
        winner, draw = outcome(ch[3:])
        return ast.EndWhen(span=self.span(meta), override=ov, name=str(ch[0]), reason=unquote(ch[1]),
                           cond=ch[2], winner=winner, draw=draw)

    def winner(self, ch):
        return ("winner", ch[0])

    def draw(self, ch):
        return ("draw", None)

    @v_args(meta=True)
    def score_decl(self, meta, ch):
        ov, ch = self._split_override(ch)
        return ast.Score(span=self.span(meta), override=ov, kind=ch[0], var=str(ch[1]), value=ch[2])

    def score_kind(self, ch):
        return str(ch[0])
