"""AST of a .game file: frozen nodes, each with the source span it came from.

Nodes are msgspec Structs (frozen, keyword-only, compared and hashed by their
fields). attrs made them before; creating its ~70 classes cost 50-65 ms at every
start of ruledsl (about a fifth of a cold `ruledsl check`), msgspec's cost 3 ms
plus 10 ms to import it."""
from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from ..errors import Span


class _Added:
    """What `added()` puts in a class body: the field's default, marked."""

    def __init__(self, default):
        self.default = default


def added(default=None):
    """A field the language gained after rules were recorded: at its default it is left
    out of the rules hash (load.canonical), so transcripts of older rules still match."""
    return _Added(default)


class _NodeMeta(type(msgspec.Struct)):
    """Every node class is keyword-only, and notes its `added()` fields in `added_fields`."""

    def __new__(mcls, name, bases, ns, **config):
        config.setdefault("kw_only", True)
        added_here = {k for k, v in ns.items() if isinstance(v, _Added)}
        for k in added_here:
            ns[k] = ns[k].default
        inherited = frozenset().union(*(getattr(b, "added_fields", ()) for b in bases))
        ns["added_fields"] = inherited | added_here
        return super().__new__(mcls, name, bases, ns, **config)


class Node(msgspec.Struct, metaclass=_NodeMeta, frozen=True):
    """A syntax node. `is_node`, `evolve` and `syntax_fields` are the ways to handle one
    generically."""


def is_node(value) -> bool:
    return isinstance(value, Node)


def evolve(node, **changes):
    """A copy of `node` with some fields changed; an expression's copy gets its own
    (empty) Note, as a newly built node does."""
    if "note" in node.__struct_fields__:
        changes.setdefault("note", Note())
    return msgspec.structs.replace(node, **changes)


class Note:
    """What the check stage found out about one expression, for every later stage:
    its type (`check.types.T`) and, for a name, what the name stands for (`check.types.Binding`).

    Each expression node gets its own empty Note when it is built; the checker fills it
    in once. It is not syntax: equality, hashing, the rules hash and tree walks leave it
    out (every Note equals every other)."""
    __slots__ = ("type", "binding")

    def __init__(self):
        self.type = None
        self.binding = None

    def __eq__(self, other):
        return isinstance(other, Note)

    def __hash__(self):
        return 0

    def __repr__(self):
        return "Note()"


def _note():
    return msgspec.field(default_factory=Note)


NOT_SYNTAX = ("span", "note")


def syntax_fields(cls) -> tuple:
    """The fields (msgspec FieldInfo) of a node class that hold its syntax (its parts),
    without the span and the checker's annotations."""
    fields = _SYNTAX.get(cls)
    if fields is None:  # a node with no parts (`none`) caches its empty tuple too
        fields = _SYNTAX[cls] = tuple(f for f in msgspec.structs.fields(cls) if f.name not in NOT_SYNTAX)
    return fields


_SYNTAX: dict = {}


# ---------------------------------------------------------------- expressions
class Expr(Node):
    span: Span
    note: Note = _note()


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


# ---------------------------------------------------------------- statements
class Stmt(Node):
    """A statement. Each kind says here what the compiler must know of it:

    - `straight`: it runs without jumps, rule calls or decisions (it may end the game), so
      the compiler may run a stretch of such statements as one op (compile/ops.py,
      OpEmitter.block);
    - `compound`: an if or a loop that runs as one effect too when every statement of its
      `bodies()` can (and so can a stretch around it);
    - `changes_world`: it can change the World, so end conditions must be looked at
      again after it (an assignment to a local changes nothing: the compiler knows which).
    A kind that says none of these is compiled to ops of its own, which bump the World's
    version themselves where they change it (as walks do)."""
    span: Span
    straight: ClassVar[bool] = False
    compound: ClassVar[bool] = False
    changes_world: ClassVar[bool] = False

    def bodies(self) -> tuple:
        """The statement lists a compound statement runs."""
        return ()


class Let(Stmt):
    straight = True
    name: str
    value: Expr


class Roll(Stmt):
    straight = True
    name: str
    count: int
    sides: int


class Assign(Stmt):
    straight = True
    changes_world = True
    target: Expr
    op: str
    value: Expr


class CallStmt(Stmt):
    call: Call


class If(Stmt):
    compound = True
    branches: tuple  # ((cond, body), ...)
    other: tuple | None

    def bodies(self) -> tuple:
        return tuple(body for _, body in self.branches) + ((self.other,) if self.other is not None else ())


class For(Stmt):
    compound = True
    var: str
    source: Expr
    order: Expr | None
    descending: bool
    start: Expr | None
    body: tuple

    def bodies(self) -> tuple:
        return (self.body,)


class While(Stmt):
    compound = True
    cond: Expr
    body: tuple

    def bodies(self) -> tuple:
        return (self.body,)


class Repeat(Stmt):
    compound = True
    count: Expr
    body: tuple

    def bodies(self) -> tuple:
        return (self.body,)


class Loop(Stmt):
    body: tuple


class Choose(Stmt):
    var: str
    source: Expr
    where: Expr | None
    by: Expr
    label: str | None
    secret: bool


class Option(Node):
    span: Span
    label: str
    guard: Expr | None
    body: tuple


class Menu(Stmt):
    by: Expr
    label: str | None
    options: tuple


class May(Stmt):
    by: Expr
    label: str
    guard: Expr | None
    body: tuple


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


class MoveCard(Stmt):
    straight = True
    changes_world = True
    card: Expr
    dest: Expr
    bottom: bool


class Walk(Stmt):
    changes_world = True
    target: Expr
    count: Expr
    direction: Expr
    via: str | None = None  # graph boards: the name bound to a candidate next space
    route: Expr | None = None  # graph boards: `via t where ROUTE`, consulted at forks
    by: Expr | None = None  # graph boards: who picks the way at a fork
    label: str | None = None  # the fork decision's name (`as "..."`)


class Draw(Stmt):
    straight = True
    changes_world = True
    count: Expr | None  # None: all
    source: Expr
    dest: Expr


class Shuffle(Stmt):
    straight = True
    changes_world = True
    zone: Expr


class Say(Stmt):
    straight = True
    text: Str


class Reveal(Stmt):
    straight = True
    value: Expr
    to: Expr | None = None  # a player: a private reveal, seen by that seat only


class Eliminate(Stmt):
    straight = True
    changes_world = True
    player: Expr


class EndGame(Stmt):
    straight = True
    reason: str
    winner: Expr | None
    draw: bool = added(False)  # `end "..." draw`: nobody wins


class Return(Stmt):
    value: Expr | None = added()  # `return EXPR` in a rule declared `-> TYPE`


class Break(Stmt):
    """Leaves the innermost enclosing loop of the same rule."""


# ---------------------------------------------------------------- declarations
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


def walk(node):
    """Every node under `node` (itself included), depth first."""
    if isinstance(node, (tuple, list)):
        for item in node:
            yield from walk(item)
    elif isinstance(node, Node):
        yield node
        for f in syntax_fields(type(node)):
            yield from walk(getattr(node, f.name))


_LEAVES = frozenset({str, int, bool, type(None)})


def transform(node, fn):
    """`node` rebuilt bottom up, with `fn(n)` in place of each node `n` (children first)."""
    cls = node.__class__
    if cls in _LEAVES:  # most parts are names, numbers and absent parts
        return node
    if isinstance(node, tuple):
        items = tuple(transform(item, fn) for item in node)
        return node if all(a is b for a, b in zip(items, node)) else items
    if not issubclass(cls, Node):
        return node
    changes = {}
    for f in syntax_fields(cls):
        old = getattr(node, f.name)
        new = transform(old, fn)
        if new is not old:
            changes[f.name] = new
    return fn(evolve(node, **changes) if changes else node)  # unchanged parts are kept, not copied


def rename_calls(node, old: str, new: str):
    """`node` with every call of `old` (as an expression or a statement) calling `new`."""
    return transform(node, lambda n: evolve(n, name=new) if isinstance(n, Call) and n.name == old else n)
