"""What the end conditions read, and which writes can change it.

The Machine looks at the end conditions before each decision, unless the World's
version is unchanged since they were all false. A write bumps the version only if an
end condition may read what it writes, so most steps skip the conditions. Keys:

    ("shared", f), ("player", f), ("space", f), ("card", f)   a field, by its owner kind
    ("zone", z)                                                the cards of zone z
    ("alive",)                                                 who is still in

`None` for a set means "anything": unknown, so every write counts (always correct).
"""
from __future__ import annotations

from ..check.types import Binding
from ..syntax import ast

ALIVE = ("alive",)
OWNERS = ("player", "space", "card")


def ends_read(model) -> frozenset | None:
    """Every key the end conditions may read, following defs; None if some read is unknown."""
    reader = _Reader(model)
    try:
        for end in model.ends:
            reader.expr(end.cond)
    except _Unknown:
        return None
    return frozenset(reader.keys)


def write_key(model, target):
    """The key an assignment to `target` writes; None for a local (nothing), or unknown."""
    if isinstance(target, ast.Name):
        if target.note.binding.local:
            return None
        return ("shared", target.name)
    owner = target.obj.note.type.kind if isinstance(target, ast.Attr) else "any"
    return (owner, target.name) if owner in OWNERS else ("any",)


def writes(model, s):
    """The key a straight statement writes: None for nothing the World tracks by itself
    (card moves and shuffles mark the World changed in World.put and shuffle_zone when a
    watched zone changes), ("any",) for a kind this module does not know."""
    if isinstance(s, (ast.Assign, ast.Walk)):
        return write_key(model, s.target)
    if isinstance(s, ast.Eliminate):
        return ALIVE
    if isinstance(s, (ast.MoveCard, ast.Draw, ast.Shuffle)):
        return None
    return ("any",)


def zones_watched(read: frozenset | None):
    """The zone names whose changes count, or None for all."""
    return None if read is None else frozenset(k[1] for k in read if k[0] == "zone")


def watched(read: frozenset | None, key) -> bool:
    """Whether a write of `key` may change what the end conditions read."""
    if key is None:
        return False
    return read is None or key in read or key == ("any",)


class _Unknown(Exception):
    pass


class _Reader:
    def __init__(self, model):
        self.m = model
        self.keys: set = set()
        self.defs_seen: set = set()

    def expr(self, e):
        getattr(self, "r_" + type(e).__name__, self.unknown)(e)

    def unknown(self, e):
        raise _Unknown(type(e).__name__)

    def r_Int(self, e):
        pass

    r_Bool = r_NoneLit = r_Int

    def r_Str(self, e):
        for part in e.parts:
            if not isinstance(part, str):
                self.expr(part)

    def r_Name(self, e):
        name, binding = e.name, e.note.binding
        if binding is Binding.PLAYERS:
            self.keys.add(ALIVE)
        elif binding is Binding.SHARED_FIELD:
            self.keys.add(("shared", name))
        elif binding is Binding.ZONE:
            self.keys.add(("zone", name))

    def r_Attr(self, e):
        if e.obj.note.binding is Binding.ENUM:  # `Color.red`: fixed
            return
        self.expr(e.obj)
        kind = e.obj.note.type.kind
        if kind == "player" and e.name == "alive":
            self.keys.add(ALIVE)
        elif kind in OWNERS:
            self.keys.add((kind, e.name))  # a fixed attribute too: harmless, nothing writes it
        elif kind not in ("enum", "any"):
            raise _Unknown(kind)

    def r_Index(self, e):
        self.expr(e.obj)
        self.expr(e.index)

    def r_Call(self, e):
        for a in e.args:
            self.expr(a)
        if e.name in self.m.defs:
            if e.name not in self.defs_seen:
                self.defs_seen.add(e.name)
                self.expr(self.m.defs[e.name].body)
        elif e.name in ("next_player", "opponents"):
            self.keys.add(ALIVE)

    def r_Aggregate(self, e):
        self.parts(e.source, e.where, e.value)

    def r_Filter(self, e):
        self.parts(e.source, e.where)

    def parts(self, *parts):
        for part in parts:
            if part is not None:
                self.expr(part)

    def r_ListLit(self, e):
        for item in e.items:
            self.expr(item)

    def r_Range(self, e):
        self.expr(e.lo)
        self.expr(e.hi)

    def r_Binary(self, e):
        self.expr(e.left)
        self.expr(e.right)

    def r_Not(self, e):
        self.expr(e.operand)

    r_Neg = r_Not

    def r_Cond(self, e):
        for part in (e.test, e.then, e.other):
            self.expr(part)

    def r_Match(self, e):
        self.expr(e.subject)
        for case in e.cases:
            for key in case.keys:
                self.expr(key)
            self.expr(case.value)
        if e.other is not None:
            self.expr(e.other)

