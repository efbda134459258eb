"""Parse stage, declarations: the file's Builder. It is the BodyBuilder (statements and
expressions, parse_body) plus the callbacks of the declarations that hold them: games,
cards, boards, fields, zones, defs, rules, triggers, end conditions and scores."""
from __future__ import annotations

from typing import NamedTuple

from lark import v_args

from ..errors import Span
from . import ast
from .parse_body import NO_OUTCOME, BodyBuilder, unquote


class Visibility(NamedTuple):
    """A zone's `hidden` / `public` / ... word and the seats of its `show` list."""
    kind: str
    show: tuple


def _is_row(item) -> bool:
    return isinstance(item, (ast.CardRow, ast.CardProduct, ast.SpaceRow, ast.SpaceProduct))


@v_args(meta=True, inline=True)
class Builder(BodyBuilder):
    """Tree -> the declaration nodes of a file; it builds nodes and nothing more."""

    def override(self, meta):
        return True  # an absent `override` arrives as None

    def game_decl(self, meta, override, title, lo, hi):
        return ast.GameDecl(span=self._span(meta), override=bool(override), title=unquote(title),
                            min_players=int(lo), max_players=int(hi))

    def extends_decl(self, meta, path):
        return ast.Extends(span=self._span(meta), path=unquote(path))

    def const_decl(self, meta, override, name, value):
        return ast.Const(span=self._span(meta), override=bool(override), name=str(name), value=value)

    def enum_decl(self, meta, override, name, *values):
        return ast.Enum(span=self._span(meta), override=bool(override), name=str(name),
                        values=tuple(str(v) for v in values))

    # -- cards
    def cards_decl(self, meta, override, name, params, label, *items):
        return ast.Cards(span=self._span(meta), override=bool(override), name=str(name), params=params,
                         label=None if label is None else self._text(label),
                         rows=tuple(i for i in items if _is_row(i)),
                         fields=tuple(i for i in items if isinstance(i, ast.FieldDecl)))

    def extend_cards_decl(self, meta, name, *items):
        return ast.ExtendCards(span=self._span(meta), name=str(name), rows=tuple(i for i in items if _is_row(i)),
                               fields=tuple(i for i in items if isinstance(i, ast.FieldDecl)))

    def card_row(self, meta, *values_copies):
        *values, copies = values_copies
        return ast.CardRow(span=self._span(meta), values=tuple(values), copies=1 if copies is None else int(copies))

    def card_product(self, meta, bindings):
        return ast.CardProduct(span=self._span(meta), bindings=bindings)

    def bindings(self, meta, *bindings):
        return bindings

    def product_binding(self, meta, name, source):
        return (str(name), source)  # one of the bindings of ast.CardProduct and ast.SpaceProduct

    def _value(kind, conv):
        def build(self, meta, *tokens):
            span = self._tspan(tokens[0]) if meta.__class__ is not Span and getattr(meta, "empty", True) \
                else self._span(meta)
            return ast.Value(span=span, kind=kind, value=conv(*tokens))
        return build

    int_value = _value("int", int)
    neg_value = _value("int", lambda digits: -int(digits))
    name_value = _value("name", str)
    string_value = _value("str", unquote)
    true_value = _value("bool", lambda: True)
    false_value = _value("bool", lambda: False)
    none_value = _value("none", lambda: None)

    # -- boards
    def board_decl(self, meta, override, name, params, topology, *items):
        return ast.Board(span=self._span(meta), override=bool(override), name=str(name), params=params or (),
                         topology=topology, spaces=tuple(i for i in items if _is_row(i)),
                         links=tuple(i for i in items if isinstance(i, tuple)),
                         fields=tuple(i for i in items if isinstance(i, ast.FieldDecl)))

    def topology(self, meta, word):
        return str(word)

    def space_row(self, meta, name, *values):
        return ast.SpaceRow(span=self._span(meta), name=str(name), values=values)

    def space_product(self, meta, bindings, name, *values):
        return ast.SpaceProduct(span=self._span(meta), bindings=bindings, name=self._text(name), values=values)

    def link_row(self, meta, a, b):
        return (str(a), str(b), self._span(meta))  # one of ast.Board's links

    def field_decl(self, meta, name, type, default):
        return ast.FieldDecl(span=self._span(meta), name=str(name), type=type, default=default)

    # -- per-player and shared state, zones
    def fields_decl(self, meta, owner, *fields):
        return ast.Fields(span=self._span(meta), owner=owner, fields=fields)

    def field_owner(self, meta, word):
        return str(word)

    def field_line(self, meta, secret, name, type, default):
        return ast.FieldDecl(span=self._span(meta), name=str(name), type=type, default=default,
                             secret=secret is not None)

    def zone_decl(self, meta, override, name, per, cards, visibility, *refills):
        return ast.Zone(span=self._span(meta), override=bool(override), name=str(name),
                        per=None if per is None else str(per), cards=str(cards), visibility=visibility.kind,
                        show=visibility.show, refill=refills[0] if refills else None)

    def visibility(self, meta, kind, *show):
        return Visibility(str(kind), tuple(str(s) for s in show))

    def refill(self, meta, source):
        return str(source)

    # -- types, defs, rules, triggers, end conditions, scores
    def type(self, meta, name, optional):
        return ast.TypeRef(span=self._span(meta), name=str(name), optional=optional is not None)

    def params(self, meta, *params):
        return params

    def param(self, meta, name, type, default):
        return ast.Param(span=self._span(meta), name=str(name), type=type, default=default)

    def def_decl(self, meta, override, name, params, body):
        return ast.Def(span=self._span(meta), override=bool(override), name=str(name), params=params or (),
                       body=body)

    def rule_decl(self, meta, override, name, params, returns, body):
        return ast.Rule(span=self._span(meta), override=bool(override), name=str(name), params=params or (),
                        body=body, returns=returns)

    def trigger_decl(self, meta, override, kind, board, params, body):
        return ast.Trigger(span=self._span(meta), override=bool(override), kind=kind, board=str(board),
                           params=params, body=body)

    def trigger_kind(self, meta, word):
        return str(word)

    def end_decl(self, meta, override, name, reason, cond, outcome):
        outcome = outcome or NO_OUTCOME
        return ast.EndWhen(span=self._span(meta), override=bool(override), name=str(name), reason=unquote(reason),
                           cond=cond, winner=outcome.winner, draw=outcome.draw)

    def score_decl(self, meta, override, kind, var, value):
        return ast.Score(span=self._span(meta), override=bool(override), kind=kind, var=str(var), value=value)

    def score_kind(self, meta, word):
        return str(word)
