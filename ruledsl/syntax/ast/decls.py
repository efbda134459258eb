"""Declaration nodes: what a .game file declares at its top level, and their parts."""
from __future__ import annotations

from typing import Any

from ...errors import Span
from .expr import Expr, Str
from .node import Node, added


class TypeRef(Node):
    span: Span
    name: str
    optional: bool


class Param(Node):
    span: Span
    name: str
    type: TypeRef
    default: Any = None  # a Value or None


class Value(Node):
    """A literal in a data row: int, str, bool, None, or a bare name."""
    span: Span
    kind: str  # int | str | bool | none | name
    value: Any


class Decl(Node):
    span: Span
    override: bool = False

    @property
    def key(self) -> str | None:
        """The name a variant overrides this declaration by."""
        return getattr(self, "name", None)


class GameDecl(Decl):
    title: str
    min_players: int
    max_players: int

    @property
    def key(self):
        return "game"


class Extends(Decl):
    path: str

    @property
    def key(self):
        return None


class Const(Decl):
    name: str
    value: Expr


class Enum(Decl):
    name: str
    values: tuple


class FieldDecl(Node):
    span: Span
    name: str
    type: TypeRef
    default: Expr
    secret: bool = False


class CardRow(Node):
    span: Span
    values: tuple
    copies: int


class CardProduct(Node):
    span: Span
    bindings: tuple  # ((name, Expr), ...)


class Cards(Decl):
    name: str
    params: tuple
    label: Str | None
    rows: tuple  # CardRow | CardProduct
    fields: tuple


class ExtendCards(Decl):
    name: str
    rows: tuple
    fields: tuple

    @property
    def key(self):
        return None


class SpaceRow(Node):
    span: Span
    name: str
    values: tuple


class SpaceProduct(Node):
    """`each i in 1..9: space "ne{i}" VALUES`: a row per combination, lowered to SpaceRows (sugar.py)."""
    span: Span
    bindings: tuple  # ((name, Expr), ...)
    name: Str  # the space's name, interpolating the bindings
    values: tuple  # Value or Expr (written in parentheses)


class Board(Decl):
    name: str
    params: tuple
    topology: str | None
    spaces: tuple  # SpaceRow (SpaceProduct until sugar.lower)
    links: tuple  # ((a, b, span), ...)
    fields: tuple


class Fields(Decl):
    owner: str  # player | shared
    fields: tuple

    @property
    def key(self):
        return None


VISIBILITIES = ("hidden", "owner", "public", "top")  # what a zone's `visibility` may be (the checker's E321)


class Zone(Decl):
    name: str
    per: str | None
    cards: str
    visibility: str
    show: tuple
    refill: str | None


class Def(Decl):
    name: str
    params: tuple
    body: Expr


class Rule(Decl):
    name: str
    params: tuple
    body: tuple
    returns: TypeRef | None = added()  # `rule f(...) -> TYPE`: its result, taken by `let x = f(...)`


class Trigger(Decl):
    kind: str  # pass | land
    board: str
    params: tuple
    body: tuple

    @property
    def key(self):
        return f"on {self.kind} {self.board}"


class EndWhen(Decl):
    name: str
    reason: str
    cond: Expr
    winner: Expr | None
    draw: bool = added(False)


class Score(Decl):
    kind: str  # score | tiebreak
    var: str
    value: Expr

    @property
    def key(self):
        return self.kind


class Module(Node):
    """One parsed file."""
    path: str
    source: str
    decls: tuple
