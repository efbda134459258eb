"""Statement nodes, each saying what the compiler must know of it (see Stmt)."""
from __future__ import annotations

from typing import ClassVar

from ...errors import Span
from .expr import Call, Expr, Str
from .node import Node, added


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
