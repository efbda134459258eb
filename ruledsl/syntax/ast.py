"""AST of a .game file: attrs nodes, each with the source span it came from."""
from __future__ import annotations

from typing import Any, ClassVar

import attrs

from ..errors import Span

node = attrs.frozen(kw_only=True)


def added(default=None):
    """A field the language gained after rules were recorded: at its default it is left
    out of the rules hash (load.canonical), so transcripts of older rules still match."""
    return attrs.field(default=default, metadata={"omit_at_default": True})


class Note:
    """What the check stage found out about one expression, for every later stage:
    its type (`check.types.T`) and, for a name, what the name stands for (`check.types.Binding`).

    Each expression node gets its own empty Note when it is built; the checker fills it
    in once. It is not syntax: equality, the rules hash and tree walks leave it out."""
    __slots__ = ("type", "binding")

    def __init__(self):
        self.type = None
        self.binding = None


def _note():
    return attrs.field(init=False, factory=Note, eq=False, repr=False, metadata={"annotation": True})


def syntax_fields(cls) -> tuple:
    """The fields of a node class that hold its syntax (its parts), without the span
    and the checker's annotations."""
    fields = _SYNTAX.get(cls)
    if fields is None:  # a node with no parts (`none`) caches its empty tuple too
        fields = _SYNTAX[cls] = tuple(f for f in attrs.fields(cls)
                                      if f.name != "span" and not f.metadata.get("annotation"))
    return fields


_SYNTAX: dict = {}


# ---------------------------------------------------------------- expressions
@node
class Expr:
    span: Span
    note: Note = _note()


@node
class Int(Expr):
    value: int


@node
class Str(Expr):
    parts: tuple  # str pieces and Expr pieces (interpolation)


@node
class Bool(Expr):
    value: bool


@node
class NoneLit(Expr):
    pass


@node
class Name(Expr):
    name: str


@node
class Attr(Expr):
    obj: Expr
    name: str


@node
class Index(Expr):
    obj: Expr
    index: Expr


@node
class Call(Expr):
    name: str
    args: tuple


@node
class Aggregate(Expr):
    func: str
    var: str
    source: Expr
    where: Expr | None
    value: Expr | None


@node
class Filter(Expr):
    var: str
    source: Expr
    where: Expr | None


@node
class ListLit(Expr):
    items: tuple


@node
class Range(Expr):
    lo: Expr
    hi: Expr


@node
class Binary(Expr):
    op: str
    left: Expr
    right: Expr


@node
class Not(Expr):
    operand: Expr


@node
class Neg(Expr):
    operand: Expr


@node
class Cond(Expr):
    test: Expr
    then: Expr
    other: Expr


@node
class Case:
    span: Span
    keys: tuple  # the values that choose this case
    value: Expr


@node
class Match(Expr):
    """`match SUBJECT { case K1, K2: V ... else: V }`: the value of the first case with a key equal to SUBJECT."""
    subject: Expr
    cases: tuple
    other: Expr | None


# ---------------------------------------------------------------- statements
@node
class Stmt:
    """A statement. Each kind says here what the compiler must know of it:

    - `straight`: it runs without jumps, rule calls or decisions, so the compiler may run a
      stretch of such statements as one op (compile/ops.py, OpEmitter.block);
    - `changes_world`: it can change the World, so end conditions must be looked at
      again after it (an assignment to a local changes nothing: the compiler knows which).
    A kind that says neither is compiled to ops of its own, which bump the World's
    version themselves where they change it (as walks do)."""
    span: Span
    straight: ClassVar[bool] = False
    changes_world: ClassVar[bool] = False


@node
class Let(Stmt):
    straight = True
    name: str
    value: Expr


@node
class Roll(Stmt):
    straight = True
    name: str
    count: int
    sides: int


@node
class Assign(Stmt):
    straight = True
    changes_world = True
    target: Expr
    op: str
    value: Expr


@node
class CallStmt(Stmt):
    call: Call


@node
class If(Stmt):
    branches: tuple  # ((cond, body), ...)
    other: tuple | None


@node
class For(Stmt):
    var: str
    source: Expr
    order: Expr | None
    descending: bool
    start: Expr | None
    body: tuple


@node
class While(Stmt):
    cond: Expr
    body: tuple


@node
class Repeat(Stmt):
    count: Expr
    body: tuple


@node
class Loop(Stmt):
    body: tuple


@node
class Choose(Stmt):
    var: str
    source: Expr
    where: Expr | None
    by: Expr
    label: str | None
    secret: bool


@node
class Option:
    span: Span
    label: str
    guard: Expr | None
    body: tuple


@node
class Menu(Stmt):
    by: Expr
    label: str | None
    options: tuple


@node
class May(Stmt):
    by: Expr
    label: str
    guard: Expr | None
    body: tuple


@node
class Window(Stmt):
    """`window q in SEATS as "LABEL" [if GUARD] { BODY }`: a response window. The seats are
    asked in turn whether to LABEL (or pass); one who does runs BODY, and the window stays
    open until every seat in a row has passed (or was skipped by GUARD). `break` closes it.
    It is written in terms of other statements: sugar.py."""
    var: str
    seats: Expr
    label: str
    guard: Expr | None
    body: tuple


@node
class MoveCard(Stmt):
    straight = True
    changes_world = True
    card: Expr
    dest: Expr
    bottom: bool


@node
class Walk(Stmt):
    target: Expr
    count: Expr
    direction: Expr
    via: str | None = None  # graph boards: the name bound to a candidate next space
    route: Expr | None = None  # graph boards: `via t where ROUTE`, consulted at forks
    by: Expr | None = None  # graph boards: who picks the way at a fork
    label: str | None = None  # the fork decision's name (`as "..."`)


@node
class Draw(Stmt):
    straight = True
    changes_world = True
    count: Expr | None  # None: all
    source: Expr
    dest: Expr


@node
class Shuffle(Stmt):
    straight = True
    changes_world = True
    zone: Expr


@node
class Say(Stmt):
    straight = True
    text: Str


@node
class Reveal(Stmt):
    straight = True
    value: Expr
    to: Expr | None = None  # a player: a private reveal, seen by that seat only


@node
class Eliminate(Stmt):
    straight = True
    changes_world = True
    player: Expr


@node
class EndGame(Stmt):
    reason: str
    winner: Expr | None
    draw: bool = added(False)  # `end "..." draw`: nobody wins


@node
class Return(Stmt):
    value: Expr | None = added()  # `return EXPR` in a rule declared `-> TYPE`


@node
class Break(Stmt):
    """Leaves the innermost enclosing loop of the same rule."""


# ---------------------------------------------------------------- declarations
@node
class TypeRef:
    span: Span
    name: str
    optional: bool


@node
class Param:
    span: Span
    name: str
    type: TypeRef
    default: Any = None  # a Value or None


@node
class Value:
    """A literal in a data row: int, str, bool, None, or a bare name."""
    span: Span
    kind: str  # int | str | bool | none | name
    value: Any


@node
class Decl:
    span: Span
    override: bool = False

    @property
    def key(self) -> str | None:
        """The name a variant overrides this declaration by."""
        return getattr(self, "name", None)


@node
class GameDecl(Decl):
    title: str
    min_players: int
    max_players: int

    @property
    def key(self):
        return "game"


@node
class Extends(Decl):
    path: str

    @property
    def key(self):
        return None


@node
class Const(Decl):
    name: str
    value: Expr


@node
class Enum(Decl):
    name: str
    values: tuple


@node
class FieldDecl:
    span: Span
    name: str
    type: TypeRef
    default: Expr
    secret: bool = False


@node
class CardRow:
    span: Span
    values: tuple
    copies: int


@node
class CardProduct:
    span: Span
    bindings: tuple  # ((name, Expr), ...)


@node
class Cards(Decl):
    name: str
    params: tuple
    label: Str | None
    rows: tuple  # CardRow | CardProduct
    fields: tuple


@node
class ExtendCards(Decl):
    name: str
    rows: tuple
    fields: tuple

    @property
    def key(self):
        return None


@node
class SpaceRow:
    span: Span
    name: str
    values: tuple


@node
class SpaceProduct:
    """`each i in 1..9: space "ne{i}" VALUES`: a row per combination, lowered to SpaceRows (sugar.py)."""
    span: Span
    bindings: tuple  # ((name, Expr), ...)
    name: Str  # the space's name, interpolating the bindings
    values: tuple  # Value or Expr (written in parentheses)


@node
class Board(Decl):
    name: str
    params: tuple
    topology: str | None
    spaces: tuple  # SpaceRow (SpaceProduct until sugar.lower)
    links: tuple  # ((a, b, span), ...)
    fields: tuple


@node
class Fields(Decl):
    owner: str  # player | shared
    fields: tuple

    @property
    def key(self):
        return None


@node
class Zone(Decl):
    name: str
    per: str | None
    cards: str
    visibility: str
    show: tuple
    refill: str | None


@node
class Def(Decl):
    name: str
    params: tuple
    body: Expr


@node
class Rule(Decl):
    name: str
    params: tuple
    body: tuple
    returns: TypeRef | None = added()  # `rule f(...) -> TYPE`: its result, taken by `let x = f(...)`


@node
class Trigger(Decl):
    kind: str  # pass | land
    board: str
    params: tuple
    body: tuple

    @property
    def key(self):
        return f"on {self.kind} {self.board}"


@node
class EndWhen(Decl):
    name: str
    reason: str
    cond: Expr
    winner: Expr | None
    draw: bool = added(False)


@node
class Score(Decl):
    kind: str  # score | tiebreak
    var: str
    value: Expr

    @property
    def key(self):
        return self.kind


@node
class Module:
    """One parsed file."""
    path: str
    source: str
    decls: tuple


def walk(node):
    """Every node under `node` (itself included), depth first."""
    if isinstance(node, (tuple, list)):
        for item in node:
            yield from walk(item)
    elif attrs.has(type(node)):
        yield node
        for f in syntax_fields(type(node)):
            yield from walk(getattr(node, f.name))


_LEAVES = frozenset({str, int, bool, type(None)})


def transform(node, fn):
    """`node` rebuilt bottom up, with `fn(n)` in place of each attrs node `n` (children first)."""
    cls = node.__class__
    if cls in _LEAVES:  # most parts are names, numbers and absent parts
        return node
    if isinstance(node, tuple):
        items = tuple(transform(item, fn) for item in node)
        return node if all(a is b for a, b in zip(items, node)) else items
    if not attrs.has(cls):
        return node
    changes = {}
    for f in syntax_fields(cls):
        old = getattr(node, f.name)
        new = transform(old, fn)
        if new is not old:
            changes[f.name] = new
    return fn(attrs.evolve(node, **changes) if changes else node)  # unchanged parts are kept, not copied


def rename_calls(node, old: str, new: str):
    """`node` with every call of `old` (as an expression or a statement) calling `new`."""
    return transform(node, lambda n: attrs.evolve(n, name=new) if isinstance(n, Call) and n.name == old else n)
