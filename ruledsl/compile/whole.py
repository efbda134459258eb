"""Compile stage: a whole rule as one generated Python generator (a Machine's fast mode).

A rule's op list (ops.py) is what every Machine can run, copy and trace: its state is
(rule, pc, locals), so a game in progress can be cloned at any decision. A Machine made
with `fast=True` runs instead, where it can, each rule as one generated generator that
holds the whole body as Python: its ifs, loops and menus are Python's own, a decision is
a `yield` (the Machine returns to its caller with the decision pending, and goes on with
`next` once the choice is bound), and so is a call of a rule with a frame of its own
(the Machine runs that frame, then goes on here). Nothing is dispatched between the
statements of a rule, and a loop keeps its state in Python's variables, not the frame's
locals. The rule's own locals are read from Python locals too, each written through to
the frame's `env` whenever the text binds it, so that `env` stays whole for what reads
a local by name (texts.KeptLocals).

It is made from the same parts as the op list: each straight statement is written as a
stretch writes it (inplace.py, which this extends: lets, assignments and conditions as
the text of their generated code, the others as calls of the effects their `s_K`
compilers make), each decision is written out as its op does it (what is offered, the
chooser, Machine.decide: decide.py's `choice` and helpers serve both), and each call
is compiled in place, framed or run as a straight rule's stretch exactly where the op
list does. So it plays the same games: the same statements run in the same order on the same values, the end conditions
are looked at at the same turn boundaries and decisions, and a failure names the same
statement, and the work budget is charged the same units in the same places (a loop's
turn, a walk's step, a call: budget.py), so a step that does too much fails at the same
statement either way. A Python generator can't be copied, but where it waits says which
pause it is at (the line of its yield), its locals hold the iterator of each for loop it
is in, and its frame the rest: a copy of the game goes on in the rule's generator resumed
after that pause (resume.py, Machine.clone).

A walk with `on pass` or `on land` triggers, or on a graph board (where it may stop for
a choice of way), runs the op list's own step until it has landed, yielding what the step
pushes or offers.
"""
from __future__ import annotations

import itertools

from ..errors import GameRuntimeError
from ..syntax import ast
from . import deferred
from .inline import _Inlined
from .inplace import _Stretch, _TooDeep
from .texts import KeptLocals, ticked
from .whole_decisions import WrittenDecisions
from .ops import RETURNED, statements

WHOLE_TEMPLATE = """\
def _whole(vm, fr):
    env = fr.env
    w = vm.w
{prologue}    _at = 0
    try:
{body}
    except _FAILED as err:
        raise _failed(_spans[_at], err) from None
    except RecursionError:
        raise _deep(_spans[_at]) from None
    except _Over:
        return
"""


class _Unsupported(Exception):
    """A statement only an op list runs: the rule keeps its op list alone."""


class _Returned(Exception):
    """A `return` of a rule compiled in place: on after the call."""


def _deep(span) -> GameRuntimeError:
    return GameRuntimeError(span, "R004", "defs call each other too deep")


def whole_rules(emitter, program, model):
    """Gives each rule of `program` its generator where it has one (Program.make_whole:
    made on first use, so that checking a game costs nothing more)."""
    from .resume import Resumes  # resume.py builds on this module
    for name, code in program.rules.items():
        rule = model.rules[name]
        code.whole = whole_rule(emitter, code, rule.body, [param.name for param in rule.params])
        if code.whole is not None:
            code.resumed = Resumes(emitter, code, rule.body, code.whole)
    program.make_whole = None


def whole_rule(emitter, code, body, params):
    """The generator function `whole(vm, fr)` of a rule's body, or None when the body has
    a statement only ops run, or nests too deeply for Python (its 20 nested loops and
    tries, its 100 levels of indentation). `params`: the names of the rule's parameters."""
    emitter.sites = itertools.count(1)  # calls compiled in place are numbered as in the op list
    gen = _Whole(emitter, code)
    try:
        text = whole_text(gen, gen.block(body, 2), params)
        if not gen.pauses:
            return None  # a straight rule: its stretch runs as fast (see _Whole.pause)
        return generator(gen, text, f"<ruledsl rule at {code.span.where()}>")
    except (_Unsupported, _TooDeep, SyntaxError, RecursionError, MemoryError):
        return None


def whole_text(gen, body: str, params=None) -> str:
    """The text of a rule's generator `gen` wrote: its locals read from `env`, then `body`.
    A rule's own generator (`params` given: the names of its parameters) starts where its
    frame starts, with only its arguments in `env`: the other locals start as None, which
    is what `env.get` gave, and the text binds each before it reads it (they are scoped by
    block). A resumed one (`params` None) reads every local from `env`."""
    lines = gen.kept_locals.prologue(params)
    return WHOLE_TEMPLATE.format(prologue="".join(f"    {line}\n" for line in lines), body=body)


def generator(gen, text: str, filename: str, **ns):
    """The generator function `_whole` that `gen` wrote as `text`, with the places of its
    yields noted (`points`: yield_points); `ns`: more names it uses. Raises compile()'s errors."""
    compiled = deferred.compiled(text, filename, gen.e.p.path)
    gen.ns.update(ns, _spans=gen.spans, _deep=_deep, _Returned=_Returned)
    exec(compiled, gen.ns)
    whole = gen.ns["_whole"]
    whole.points = yield_points(text, gen.points)
    return whole


YIELD_MARK = "# ·"  # ends each yield's line, with the number of its pause (yield_points)


def yield_points(text: str, points: list) -> dict:
    """{line of the text: the place of the pause whose yield is on it}: where a suspended
    generator waits (its frame's f_lineno) says which pause it waits at (resume.py)."""
    return {n: points[int(line[line.index(YIELD_MARK) + len(YIELD_MARK):])]
            for n, line in enumerate(text.split("\n"), 1) if YIELD_MARK in line}


class _Here:
    """Where a generator's text is being made, in one statement: its index in its block,
    how many of its blocks (an if's branches, a loop's body...) it began, the one being
    made, and where what follows its pause begins in its lines (resumes_here)."""
    __slots__ = ("index", "blocks", "block", "mark")

    def __init__(self, index: int):
        self.index, self.blocks, self.block, self.mark = index, 0, None, None


class _Whole(WrittenDecisions, _Stretch):
    """Generates the text of one rule's generator: the statements a stretch runs as it
    does, and here the others: decisions, calls with frames or in place, returns, breaks
    and endless loops. Small straight rules and small defs are written in (writes_out).

    It notes where it is as it goes (`trail`): for each statement it is in, that
    statement's index in its block, how many of its blocks it began and which it is in.
    Each pause's yield is marked with its place (`point`, yield_points), and each for
    loop that may pause keeps its iterator in a local of its own, so that a copy of the
    game can go on from there (resume.py). Neither costs the generator anything."""

    def __init__(self, emitter, code):
        super().__init__(emitter, code, writes_out=True)
        self.kept_locals = KeptLocals()
        self.trail: list = []  # a _Here per statement being made, outermost first
        self.points: list = []  # the place of each pause, in the order made (its yield's YIELD_MARK)

    def block(self, stmts, depth, mark=True) -> str:
        self.begin_block()
        lines: list = []
        for i, s in enumerate(stmts):
            self.trail.append(_Here(i))
            try:
                start = len(lines)
                self.statement(lines, s, depth)
                self.made(lines, s, start, depth)
            finally:
                self.trail.pop()
        return "\n".join(lines) if lines else "    " * depth + "pass"

    def statement(self, lines, s, depth):
        self.depth = depth
        name = type(s).__name__
        if self.e.is_simple(s):
            gen = getattr(self, "g_" + name, None)  # a compound statement, or a straight rule's call
            if gen is None:
                self.leaf(lines, s, depth, True)
                return
        else:
            gen = getattr(self, "w_" + name, None) or (getattr(self, "g_" + name) if s.compound else None)
            if gen is None:
                raise _Unsupported(name)
        gen(lines, s, depth)

    def begin_block(self):
        """The statement being made begins its next block (an if's branch, a loop's body...)."""
        if self.trail:
            here = self.trail[-1]
            here.block, here.blocks = here.blocks, here.blocks + 1

    def made(self, lines, s, start, depth):
        """After statement `s`'s text (`lines[start:]`): a resumed generator keeps part of it (resume.py)."""

    def point(self) -> tuple:
        """The place of the statement being made: (index, block) of each statement it is
        in, then (its index, None)."""
        return tuple((t.index, t.block) for t in self.trail[:-1]) + ((self.trail[-1].index, None),)

    def place_local(self) -> str:
        """A frame local of the statement being made (a walk's state, a loop's iterator a
        clone carries), named by its place, as no local of the rules can be: the same in
        the rule's generator and in a resumed one (resume.py)."""
        return "·" + "/".join(f"{t.index}.{t.block}" for t in self.trail[:-1]) + f"/{self.trail[-1].index}"

    @property
    def pauses(self) -> int:
        return len(self.points)

    def pause(self, lines, pad):
        """Hands the Machine a decision or a pushed frame; the World is read again after.
        A rule that never pauses gets no generator: its stretch runs it as fast, and making
        a generator per call costs more. Every rule that pauses gets one, also with no
        pause in a loop, since its decisions are written out (benchmarks/HISTORY.md,
        "Stop 22", has both measured)."""
        self.points.append(self.point())
        lines += [f"{pad}yield True  {YIELD_MARK}{len(self.points) - 1}", f"{pad}w = vm.w"]

    def resumes_here(self, lines):
        """Where what follows the statement's pause begins in `lines` (resume.py)."""
        self.trail[-1].mark = len(lines)

    # ------------------------------------------------------------ calls and returns
    def w_CallStmt(self, lines, s, depth):
        self.call(lines, s, s.call, None, depth)

    def w_Let(self, lines, s, depth):
        if not self.e.m.calls_rule(s.value):
            raise _Unsupported("Let")  # a straight let is simple: never here
        self.call(lines, s, s.value, s.name, depth)

    def call(self, lines, s, call, result, depth):
        """A call of a rule that is not straight: in place where the op list compiles it in
        place, else a frame pushed."""
        if self.e.inlines(call.name):
            self.inline(lines, s, call, result, depth)
            return
        if call.name not in self.e.p.rules:
            raise _Unsupported("a call of a rule with no op list")  # the op list compiled it in place
        pad = "    " * depth
        push = self.const(self.e.frame_call(s, call, result))
        lines += [f"{pad}_at = {self.at(s.span)}", f"{pad}{push}(vm, fr)"]
        self.pause(lines, pad)
        self.resumes_here(lines)
        lines.extend(pad + line for line in self.reread(result))  # the callee gave it in env

    def inline(self, lines, s, call, result, depth):
        """As InlineCompiler.inline: the rule's body here, its locals renamed, its
        parameters bound in order. A `return` is a `break` out of a loop around the body
        that runs once; one inside a loop of the body raises _Returned, caught after it."""
        e = self.e
        body = e.inlined_body(s, call, result)
        here = _Inlined(result, len(e.loop_exits))
        e.inlining.append(here)
        try:
            rule_body = e.m.rules[call.name].body
            if not any(isinstance(t, ast.Return) for t in statements(rule_body)):
                lines.append(self.block(body, depth))
                return
            pad = "    " * depth
            here.breaks = not returns_in_loops(rule_body)
            if here.breaks:
                lines += [f"{pad}while True:", self.block(body, depth + 1), f"{pad}    break"]
            else:
                lines += [f"{pad}try:", self.block(body, depth + 1), f"{pad}except _Returned:", f"{pad}    pass"]
        finally:
            e.inlining.pop()

    def w_Return(self, lines, s, depth):
        pad = "    " * depth
        e = self.e
        if e.inlining:
            here = e.inlining[-1]
            if s.value is not None and e.m.calls_rule(s.value):
                self.call(lines, s, s.value, here.result, depth)
            elif s.value is not None and here.result is not None:
                value = self.const(e.x.kept(s.value))  # kept by the caller
                lines += [f"{pad}_at = {self.at(s.span)}", f"{pad}{self.binding(here.result)} = {value}(w, env)"]
            lines.append(f"{pad}break" if here.breaks else f"{pad}raise _Returned")
            return
        if s.value is not None and e.m.calls_rule(s.value):
            self.call(lines, s, s.value, RETURNED, depth)
            value = self.kept_locals.read(RETURNED)  # read again after the call (`call`)
        else:
            value = f"{self.const(e.x.kept(s.value))}(w, env)" if s.value is not None else None
        lines.append(f"{pad}_at = {self.at(s.span)}")
        if value is not None:
            lines += [f"{pad}if fr.result is not None:", f"{pad}    vm.frames[-2].env[fr.result] = {value}"]
        lines.append(f"{pad}return")

    def w_Walk(self, lines, s, depth):
        """A walk that runs triggers (or may stop at a fork for a choice): the op list's own
        step, run until the walk has landed, yielding whatever it pushed or offered."""
        pad, inner = "    " * depth, "    " * (depth + 1)
        init, step = map(self.const, self.e.walk_ops(s, "#walk" + self.place_local()))  # a resumed copy's names too
        k = self.at(s.span)
        lines += [f"{pad}_at = {k}", f"{pad}{init}(vm, fr)", f"{pad}fr.pc = 0"]
        self.resumes_here(lines)  # resumed, the walk goes on stepping
        lines += [f"{pad}while fr.pc == 0:  # a step (a unit of work) moves pc on once the walk has landed (flow.py)",
                  f"{inner}if {step}(vm, fr) is not None:"]
        self.pause(lines, inner + "    ")
        lines.extend(pad + line for line in self.rebound(s))  # the step set it in env

    def g_EndGame(self, lines, s, depth):
        """`end`: the game finished as the statement's effect finishes it, then the
        generator returns (a stretch's end raises GameOver, which its op or a generator
        catches after the calls it went through)."""
        pad = "    " * depth
        lines.append(f"{pad}_at = {self.at(s.span)}")
        winner = "None"
        if s.winner is not None:
            lines.extend(pad + line for line in self.evaluated(s.winner))
            winner = "_val"
        lines += [f"{pad}vm.finish({self.const(s.reason)}, {winner}, True, {bool(s.draw)})", f"{pad}return"]

    def w_Break(self, lines, s, depth):
        lines.append(f"{'    ' * depth}break")

    def g_For(self, lines, s, depth):
        """A for loop that may pause keeps its iterator where a clone finds it (kept_loop)."""
        if self.e.is_simple(s):
            super().g_For(lines, s, depth)
            return
        k = self.at(s.span)
        self.kept_loop(lines, s, depth, k, self.for_items(s), lambda d: self.turn_start(s, k, d, f"_i{depth}"))
        self.for_else(lines, s, k, depth)

    def g_Repeat(self, lines, s, depth):
        if self.e.is_simple(s):
            super().g_Repeat(lines, s, depth)
            return
        k = self.at(s.span)
        self.kept_loop(lines, s, depth, k, self.repeat_items(s), lambda d: ["    " * d + t for t in ticked(k)])

    def kept_loop(self, lines, s, depth, k, items, start):
        """`for` over `items` (a text), its iterator kept in `_t{depth}` (where a clone
        finds it: resume.py); each turn `start(depth)` (the lines it begins with, that
        deep), then the body."""
        pad = "    " * depth
        lines += [f"{pad}_at = {k}", f"{pad}_t{depth} = iter({items})", f"{pad}for _i{depth} in _t{depth}:",
                  *start(depth + 1), self.block(s.body, depth + 1)]

    def w_Loop(self, lines, s, depth):
        pad = "    " * depth
        k = self.at(s.span)
        lines += [f"{pad}while True:", f"{pad}    _at = {k}"]
        self.tick(lines, k, depth + 1)
        lines.append(self.block(s.body, depth + 1))


# The statements a generator writes as Python loops (a window is sugar for a loop).
LOOPS = (ast.For, ast.While, ast.Repeat, ast.Loop)


def returns_in_loops(body) -> bool:
    """Whether a `return` of this body is inside one of its loops (where `break` would
    leave the loop, not the rule)."""
    return any(isinstance(t, ast.Return) for s in statements(body) if isinstance(s, LOOPS) for t in statements(s.body))
