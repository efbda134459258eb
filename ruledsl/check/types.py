"""Static types of the language and the symbol tables the checker builds."""
from __future__ import annotations

import enum

import msgspec

from ..syntax import ast


class T(msgspec.Struct, frozen=True):
    kind: str  # int bool str none player enum space card zone coll any
    name: str | None = None  # enum / board / card set name
    elem: "T | None" = None  # element type of a collection

    def __str__(self) -> str:
        if self.kind in ("enum", "space", "card"):
            return self.name
        if self.kind == "zone":
            return f"zone of {self.name}"
        if self.kind == "coll":
            return f"collection of {self.elem}"
        return self.kind


INT, BOOL, STR, NONE, PLAYER, ANY = T("int"), T("bool"), T("str"), T("none"), T("player"), T("any")
NULLABLE = ("player", "enum", "space", "card")
DIRECTION = "direction"
DIRECTIONS = ("forward", "backward")


def coll(elem: T) -> T:
    return T("coll", elem=elem)


def elem_of(t: T) -> T | None:
    if t.kind == "coll":
        return t.elem
    if t.kind == "zone":
        return T("card", t.name)
    if t.kind == "any":
        return ANY
    return None


def assignable(value: T, target: T) -> bool:
    if ANY in (value, target):
        return True
    if value == NONE:
        return target.kind in NULLABLE
    if value.kind == "coll" and target.kind == "coll":
        return assignable(value.elem, target.elem)
    return value == target


def comparable(a: T, b: T) -> bool:
    return assignable(a, b) or assignable(b, a)


class Binding(enum.Enum):
    """What a name in an expression stands for, as the checker resolved it (ast.Note)."""
    LOCAL = "a local or parameter of the rule or def"
    ITEM = "the item of a comprehension"  # count(x in S ...), [x in S where ...], choose x from S where ...
    PLAYERS = "the players still in the game"
    SEATS = "every seat"
    PLAYER_COUNT = "the number of seats"
    CONST = "a constant"
    SHARED_FIELD = "a shared field"
    ENUM_VALUE = "a value of an enum"
    SPACE = "a space of a board"
    ZONE = "a zone"
    ENUM = "an enum (its values)"
    BOARD = "a board (its spaces)"
    CARDSET = "a card set (its cards)"

    # A member is its only instance, and equals only itself: hashed by identity in C,
    # not by Enum's `__hash__` in Python (the compiler looks each name's binding up).
    __hash__ = object.__hash__

    @property
    def local(self) -> bool:
        """Bound inside a rule or def (a value of the run), not a name of the game."""
        return self in _LOCAL_BINDINGS


_LOCAL_BINDINGS = frozenset({Binding.LOCAL, Binding.ITEM})  # a set, not `Binding.X`: enum lookups are slow in 3.11


class CardSet(msgspec.Struct):
    decl: ast.Cards
    params: dict  # name -> T
    defaults: dict  # name -> ast.Value
    fields: dict  # name -> ast.FieldDecl (mutable per card)
    rows: list  # CardRow | CardProduct, base then extensions


class BoardInfo(msgspec.Struct):
    decl: ast.Board
    params: dict
    defaults: dict
    fields: dict
    spaces: list  # names in order


class Model(msgspec.Struct):
    """Everything the checker resolved, shared with the compiler."""
    title: str = "?"
    min_players: int = 1
    max_players: int = 1
    consts: dict = msgspec.field(default_factory=dict)  # name -> ast.Const
    const_types: dict = msgspec.field(default_factory=dict)
    enums: dict = msgspec.field(default_factory=lambda: {DIRECTION: list(DIRECTIONS)})
    enum_of_value: dict = msgspec.field(default_factory=lambda: {d: [DIRECTION] for d in DIRECTIONS})
    cardsets: dict = msgspec.field(default_factory=dict)
    boards: dict = msgspec.field(default_factory=dict)
    board_of_space: dict = msgspec.field(default_factory=dict)
    zones: dict = msgspec.field(default_factory=dict)
    player_fields: dict = msgspec.field(default_factory=dict)
    shared_fields: dict = msgspec.field(default_factory=dict)
    defs: dict = msgspec.field(default_factory=dict)
    rules: dict = msgspec.field(default_factory=dict)
    triggers: dict = msgspec.field(default_factory=dict)  # (kind, board) -> ast.Trigger
    ends: list = msgspec.field(default_factory=list)
    score: ast.Score | None = None
    tiebreaks: list = msgspec.field(default_factory=list)
    def_types: dict = msgspec.field(default_factory=dict)  # def name -> T of its value
    # rule -> (its locals: its parameters and every name its statements and comprehensions
    # bind; the parameters its body assigns, `k = 3` or `move k by ...`, or binds again),
    # for compiling calls in place
    rule_locals: dict = msgspec.field(default_factory=dict)
    # the type of each expression, and what each name stands for, is in its ast.Note

    def calls_rule(self, expr) -> bool:
        """Whether `expr` is a call of a rule, as in `let x = r(...)` and `return r(...)`."""
        return isinstance(expr, ast.Call) and expr.name in self.rules

    def resolve_type(self, ref: ast.TypeRef) -> T | None:
        name = ref.name
        if name in ("int", "bool", "player"):
            return T(name)
        if name in self.enums:
            return T("enum", name)
        if name in self.boards:
            return T("space", name)
        if name in self.cardsets:
            return T("card", name)
        return None
