"""Compile stage, reference version: expressions become nested Python closures.

Each node is a closure `f(w, env)` that checks its values as it goes, so a failure
names the exact expression (`R001` none has no attributes, `R002`, `R003`). Games
run the generated code of `compile_expr.py`; when that fails, the same expression is
evaluated again through these closures to report the precise error.
"""
from __future__ import annotations

import operator

from . import budget
from .builtins import BUILTINS
from .errors import GameRuntimeError
from .types import Binding

ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul}
COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
           ">": operator.gt, ">=": operator.ge}


class ClosureCompiler:
    def __init__(self, model, program):
        self.m = model
        self.p = program

    def __call__(self, e):
        return getattr(self, "c_" + type(e).__name__)(e)

    def c_Int(self, e):
        v = e.value
        return lambda w, env: v

    def c_Bool(self, e):
        v = e.value
        return lambda w, env: v

    def c_NoneLit(self, e):
        return lambda w, env: None

    def c_Str(self, e):
        pieces = []
        for part in e.parts:
            if isinstance(part, str):
                pieces.append(lambda w, env, s=part: s)
            else:
                f, lab = self(part), self.p.labeler(part.note.type)
                pieces.append(lambda w, env, f=f, lab=lab: lab(f(w, env)))
        span = e.span
        return lambda w, env: budget.text("".join(p(w, env) for p in pieces), span)

    def c_Name(self, e):
        name, m, binding = e.name, self.m, e.note.binding
        if binding.local:
            return lambda w, env: env[name]
        if binding is Binding.PLAYERS:
            return lambda w, env: [i for i, a in enumerate(w.alive) if a]
        if binding is Binding.SEATS:
            return lambda w, env: list(range(w.n))
        if binding is Binding.PLAYER_COUNT:
            return lambda w, env: w.n
        if binding is Binding.CONST:
            return lambda w, env: w.consts[name]
        if binding is Binding.SHARED_FIELD:
            return lambda w, env: w.shared[name]
        if binding in (Binding.ENUM_VALUE, Binding.SPACE):
            return lambda w, env: name
        if binding is Binding.ZONE:
            key = (name, None)
            return lambda w, env: key
        if binding is Binding.CARDSET:
            ids = self.p.cardset_ids  # filled after defs compile; read late
            return lambda w, env: list(ids[name])
        values = list(m.enums[name]) if binding is Binding.ENUM else list(m.boards[name].spaces)
        return lambda w, env: values

    def c_Attr(self, e):
        ot = e.obj.note.type
        name = e.name
        if e.obj.note.binding is Binding.ENUM:
            return lambda w, env: name
        obj = self(e.obj)
        span = e.span
        if ot.kind == "player":
            if name == "seat":
                return obj
            if name == "alive":
                return lambda w, env: w.alive[obj(w, env)]
            return lambda w, env: w.players[_need(obj(w, env), span)][name]
        if ot.kind == "space":
            board = self.p.boards[ot.name]
            if name in board.attrs_of_space:
                table = board.attrs_of_space[name]
                return lambda w, env: table[_need(obj(w, env), span)]
            bname = ot.name
            return lambda w, env: w.spaces[bname][_need(obj(w, env), span)][name]
        if ot.kind == "card":
            cards = self.p.cards
            if name in self.m.cardsets[ot.name].params:
                return lambda w, env: cards[_need(obj(w, env), span)].attrs[name]
            return lambda w, env: w.cardf[_need(obj(w, env), span)][name]
        raise AssertionError(f"attribute {name} of {ot}")

    def c_Index(self, e):
        if e.obj.note.binding is Binding.ZONE:
            zname = e.obj.name
            key = self(e.index)
            return lambda w, env: (zname, key(w, env))
        obj, idx, span = self(e.obj), self(e.index), e.span

        def index(w, env):
            items, i = obj(w, env), idx(w, env)
            if not 0 <= i < len(items):
                raise GameRuntimeError(span, "R002", f"index {i} is outside 0..{len(items) - 1}")
            return items[i]
        return index

    def c_Call(self, e):
        args = [self(a) for a in e.args]
        if e.name in self.m.defs:
            d = self.m.defs[e.name]
            names = [p.name for p in d.params]
            body, span = self.p.def_bodies[e.name], e.span
            return lambda w, env: budget.call_def(w, body, dict(zip(names, [a(w, env) for a in args])), span)
        run = BUILTINS[e.name].run
        if len(args) == 1:
            a0 = args[0]
            return lambda w, env: run(w, a0(w, env))
        return lambda w, env: run(w, *[a(w, env) for a in args])

    def optional(self, e):
        return self(e) if e is not None else None

    def source(self, e):
        """A closure giving the list of items of a collection or zone."""
        f = self(e)
        if e.note.type.kind == "zone":
            return lambda w, env: list(w.zone(f(w, env)))
        return f

    @staticmethod
    def counted(src, span):
        """The source, charged to the work budget one unit per item."""
        return lambda w, env: budget.visited(w, src(w, env), span)

    def c_Aggregate(self, e):
        src, var = self.counted(self.source(e.source), e.span), e.var
        where = self.optional(e.where)
        value = self.optional(e.value)
        func = e.func

        def items(w, env):
            env = dict(env)
            for x in src(w, env):
                env[var] = x
                if where is None or where(w, env):
                    yield x, env

        if func == "count":
            return lambda w, env: sum(1 for _ in items(w, env))
        if func == "first":
            return lambda w, env: next((x for x, _ in items(w, env)), None)
        if func == "any":
            if value is None:
                return lambda w, env: any(True for _ in items(w, env))
            return lambda w, env: any(value(w, en) for _, en in items(w, env))
        if func == "all":
            if value is None:  # all(x in S where c): every x of S meets c
                return lambda w, env: all(where(w, en) for en in _each(src, var, w, env))
            return lambda w, env: all(value(w, en) for _, en in items(w, env))
        if func == "sum":
            return lambda w, env: sum(value(w, en) for _, en in items(w, env))
        if func in ("max", "min"):
            pick = max if func == "max" else min
            return lambda w, env: pick((value(w, en) for _, en in items(w, env)), default=0)

        def best(w, env):
            top, top_v = None, None
            for x, en in items(w, env):
                v = value(w, en)
                if top_v is None or v > top_v:
                    top, top_v = x, v
            return top
        return best

    def c_Filter(self, e):
        src, var = self.source(e.source), e.var
        where = self.optional(e.where)
        if where is None:
            return src
        src = self.counted(src, e.span)

        def filt(w, env):
            env = dict(env)
            out = []
            for x in src(w, env):
                env[var] = x
                if where(w, env):
                    out.append(x)
            return out
        return filt

    def c_ListLit(self, e):
        items = [self(i) for i in e.items]
        return lambda w, env: [i(w, env) for i in items]

    def c_Range(self, e):
        lo, hi, span = self(e.lo), self(e.hi), e.span
        return lambda w, env: budget.make_range(w, lo(w, env), hi(w, env), span)

    def c_Binary(self, e):
        op, a, b, span = e.op, self(e.left), self(e.right), e.span
        if op == "and":
            return lambda w, env: a(w, env) and b(w, env)
        if op == "or":
            return lambda w, env: a(w, env) or b(w, env)
        if op in ARITH:
            f = ARITH[op]
            return lambda w, env: f(a(w, env), b(w, env))
        if op in ("/", "%"):
            def divide(w, env):
                x, y = a(w, env), b(w, env)
                if y == 0:
                    raise GameRuntimeError(span, "R003", "division by zero")
                return x // y if op == "/" else x % y
            return divide
        if op == "in":
            if e.right.note.type.kind == "zone":
                return lambda w, env: a(w, env) in w.zone(b(w, env))
            return lambda w, env: a(w, env) in b(w, env)
        f = COMPARE[op]
        return lambda w, env: f(a(w, env), b(w, env))

    def c_Not(self, e):
        a = self(e.operand)
        return lambda w, env: not a(w, env)

    def c_Neg(self, e):
        a = self(e.operand)
        return lambda w, env: -a(w, env)

    def c_Cond(self, e):
        t, a, b = self(e.test), self(e.then), self(e.other)
        return lambda w, env: a(w, env) if t(w, env) else b(w, env)

    def c_Match(self, e):
        subject, span = self(e.subject), e.span
        cases = [([self(k) for k in c.keys], self(c.value)) for c in e.cases]
        other = self(e.other) if e.other is not None else None

        def match(w, env):
            v = subject(w, env)
            for keys, value in cases:
                if any(k(w, env) == v for k in keys):
                    return value(w, env)
            if other is None:
                raise GameRuntimeError(span, "R001", "the value matched is none, and no case names none: add "
                                                     "'else: VALUE'")
            return other(w, env)
        return match


def _each(src, var, w, env):
    env = dict(env)
    for x in src(w, env):
        env[var] = x
        yield env


def _need(value, span):
    if value is None:
        raise GameRuntimeError(span, "R001", "this value is none here, so it has no attributes")
    return value
