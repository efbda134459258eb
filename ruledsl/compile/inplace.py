"""Compile stage: a stretch of simple statements as one generated Python function.

A stretch (OpEmitter.is_simple: straight statements, calls of straight rules, and ifs
and loops made only of those) runs as plain Python: its ifs and loops become Python's
own, each straight statement is written as the text of its generated code (texts.py)
or else is a call of its effect (from the statement compilers' `s_K` methods), each
condition is the text of its generated expression, each call of a straight rule a call
of that rule's own stretch. As in the expression code, nothing of
the game file reaches the generated text: it holds only names and numbers made here,
and every value it needs is passed in its namespace.

What the ops would have done, the stretch does too:
- a Python failure is a runtime error at the statement or condition that failed;
- each turn of a loop and each call of a straight rule costs one unit of work (after
  its arguments, as a call compiled in place or with a frame of its own does);
- a loop over players looks at the end conditions before each turn and after the last
  (turn boundaries); the end of the game there, or at an `end`, stops the stretch
  (GameOver) and the op pauses the Machine for good;
- the World is marked changed right after each statement that changes what the end
  conditions read, so that the end conditions see it at the next turn boundary. An op's
  own stretch with no turn boundary in it marks it once, at its end, if a statement at
  its top level changed it.
"""
from __future__ import annotations

import itertools
from functools import partial

from .. import budget
from ..check.types import PLAYER, Binding
from ..errors import RUNTIME_FAILURES, Diagnostic, GameRuntimeError, RuleError, failure_message
from ..syntax import ast
from . import deferred
from .expr import record_text
from .made import FAILURES
from .texts import StatementTexts, guarded, ticked

MAX_NESTING = 12  # ifs and loops inside each other in one stretch (Python allows 20 nested loops)


class GameOver(Exception):
    """Raised in a stretch when the game ended (an `end`, or end conditions that hold at a
    turn boundary); the op running the stretch pauses the Machine for good."""


OP_TEMPLATE = """\
def _op(vm, fr):
    env = fr.env
    w = vm.w
    try:
{body}
    except _FAILED as err:
        raise _failed(_spans[_at], err) from None
    except _Over:
        return True
{mark}    fr.pc = _next[0]
"""

RUN_TEMPLATE = """\
def _run(vm, env):
    w = vm.w
    try:
{body}
    except _FAILED as err:
        raise _failed(_spans[_at], err) from None
"""


def over_players(loop) -> bool:
    """Whether a for loop goes over players: each turn of it is a turn boundary (the end
    conditions are looked at before it, and after the last)."""
    return loop.source.note.type.elem == PLAYER


def every_seat_in_turn(loop) -> bool:
    """Whether a for loop goes over `players` as they are, in seat order: then it may go
    over every seat, as the players still in are those of them not out yet (the loop skips
    a player out at its turn, and nobody comes back into the game)."""
    src = loop.source
    return (isinstance(src, ast.Name) and src.note.binding is Binding.PLAYERS and loop.order is None
            and loop.start is None)


def looks_at_ends(loop, model) -> bool:
    """Whether a loop's turn boundaries look at the end conditions: it goes over players,
    and the game has some (`end when`; without, there is nothing to look at)."""
    return over_players(loop) and bool(model.ends)


def _failed(span, err) -> GameRuntimeError:
    return GameRuntimeError(span, "R000", failure_message(err))


def stretch_op(emitter, code, stmts, next_pc):
    """`op(vm, fr)`: the stretch, then on to `next_pc[0]` (a cell: it may be patched)."""
    def make(gen):
        body = gen.block(stmts, 2, mark=any(emitter.checks_ends(s) for s in stmts))
        mark = "    w.version += 1\n" if gen.changes else ""  # the stretch's top level changed the World
        return gen.build(OP_TEMPLATE.format(body=body, mark=mark), "_op", stmts[0].span, _next=next_pc)
    return _made(emitter, code, make)


def stretch_run(emitter, code, stmts, span):
    """`run(vm, env)`: the stretch of a straight rule's body, marking as it goes."""
    return _made(emitter, code, lambda gen: gen.build(RUN_TEMPLATE.format(body=gen.block(stmts, 2, mark=True)),
                                                      "_run", span))


def _made(emitter, code, make):
    """A stretch made by `make(gen)` with its statements written as text where they can be;
    where that text nests too deeply for Python, made again of calls of the statements'
    own functions (which then name an expression too deep for Python, E403). Where it
    calls straight rules or small defs, the text with them written in (as a generator
    writes them) is made on its first call, so `check` writes no copies."""
    def written_out(ns):
        gen = _Stretch(emitter, code, writes_out=True)
        gen.text_only, gen.ns = True, dict(ns)  # its values join ns under names of their own; its spans replace
        sites, emitter.sites = emitter.sites, (f"s{i}" for i in itertools.count(1))  # locals apart from the rule's
        try:
            return make(gen)
        except _TooDeep:  # an expression too deep to write out: the text with calls runs (deferred.function)
            raise SyntaxError("too deep to write out") from None
        finally:
            emitter.sites = sites
    try:
        return make(_Stretch(emitter, code, written_out=written_out))
    except _TooDeep:
        return make(_Stretch(emitter, code, as_text=False))


class _TooDeep(Exception):
    """Python could not compile a stretch written as text."""


class _Stretch(StatementTexts):
    """Generates the text of one stretch. A block made with `mark` marks the World changed
    right after each statement that changes it; one made without (an op's top level with
    no turn boundary) leaves that to the op, and `changes` says whether one did."""

    def __init__(self, emitter, code, as_text: bool = True, writes_out: bool = False, written_out=None):
        self.e, self.code = emitter, code
        self.as_text = as_text  # lets, assignments and conditions as text (else calls of their functions)
        self.writes_out = writes_out  # small straight rules and small defs written in (else called)
        self.written_out = written_out  # gives (the text written out, its namespace) for the first call
        self.calls_straight = False  # whether it calls a straight rule's stretch
        self.text_only = False  # build gives the text (a stretch written out on its first call)
        self.gens: list = []  # the expression generators of its text (their could_write)
        self.ns: dict = {"_FAILED": RUNTIME_FAILURES, "_failed": _failed, "_Over": GameOver,
                         "_charge": budget.charge, "_WORK": budget.WorkLimit, "_XFAIL": FAILURES}
        self.spans: list = []
        self.changes = False
        self.kept_locals = None  # a rule's generator keeps its locals in Python's too (whole.py, texts.KeptLocals)
        self.depth = 0  # of the statement being written, in blocks (texts.StatementTexts.evaluated)

    def const(self, value) -> str:
        name = f"_k{len(self.ns)}"
        self.ns[name] = value
        return name

    def at(self, span) -> int:
        self.spans.append(span)
        return len(self.spans) - 1

    def block(self, stmts, depth: int, mark: bool) -> str:
        lines: list = []
        for s in stmts:
            self.depth = depth
            gen = getattr(self, "g_" + type(s).__name__, None)
            if gen is None:
                self.leaf(lines, s, depth, mark)
            else:
                gen(lines, s, depth)
        return "\n".join(lines) if lines else "    " * depth + "pass"

    def build(self, source, name, span, **ns):
        self.ns.update(ns, _spans=self.spans)
        if self.text_only:
            return source, self.ns  # the text written out, for deferred.function's first call
        better = None
        if self.written_out is not None and (self.calls_straight or any(g.could_write for g in self.gens)):
            better = partial(self.written_out, self.ns)
        try:
            return deferred.function(source, f"<ruledsl code at {span.where()}>", self.e.p.path, self.ns, name,
                                     better)
        except (SyntaxError, RecursionError, MemoryError):
            if self.as_text:
                raise _TooDeep from None
            raise RuleError([Diagnostic(span, "E403", "these statements are nested too deeply or too long "
                                                      "to compile; split them into rules")]) from None

    # ------------------------------------------------------------ statements
    def leaf(self, lines, s, depth, mark):
        """A straight statement: a call of its effect."""
        pad = "    " * depth
        lines.append(f"{pad}_at = {self.at(s.span)}")
        self.effect(lines, s, pad)
        if self.e.changes_world(s):
            if mark:
                lines.append(f"{pad}w.version += 1")
            else:
                self.changes = True

    def effect(self, lines, s, pad):
        """A statement's effect: lets, parameters bound, assignments and the depth check of
        a call in place as the text of their generated code (with the same fallback as
        their own functions: a failing fast expression hands over to its checked version,
        a failing store to the reference assignment); the others as calls."""
        text = getattr(self, "t_" + type(s).__name__, None) if self.as_text else None
        try:
            written = text(s) if text is not None else None
        except RecursionError:  # an expression too deep to write out
            raise _TooDeep from None
        if written is None:  # (in a rule's generator, a local it binds is read again)
            lines.append(f"{pad}{self.const(self.e.leaf(self.code, s))}(vm, env)")
            lines.extend(pad + line for line in self.rebound(s))
        else:
            lines.extend(pad + line for line in written)

    def test(self, lines, e, pad):
        """`_val` = the value of condition `e`."""
        if not self.as_text:
            lines.append(f"{pad}_val = {self.const(self.e.x(e))}(w, env)")
            return
        try:
            lines.extend(pad + line for line in self.evaluated(e))
        except RecursionError:
            raise _TooDeep from None

    def tick(self, lines, k, depth):
        """One unit of work, charged against the step's budget (budget.charge)."""
        pad = "    " * depth
        lines.extend(pad + line for line in ticked(k))

    def g_CallStmt(self, lines, s, depth):
        """A call of a straight rule. Writing out, a small one (InlineCompiler.straight_in_place)
        is written here as its own stretch runs it: the arguments bound in order to its
        renamed parameters, the call's unit of work, then its statements, the World marked
        after each that changes it. Else its own stretch, on the arguments' env (as text,
        with the checked record behind it as an expression's: evaluated)."""
        pad, k = "    " * depth, self.at(s.span)
        lines.append(f"{pad}_at = {k}")
        if self.as_text and self.writes_out and self.e.straight_in_place(s.call.name):
            binds, body = self.e.renamed_call(s, s.call)
            for b in binds:
                self.effect(lines, b, pad)
            self.tick(lines, k, depth)
            lines.append(self.block(body, depth, True))
            return
        self.calls_straight = True
        run = self.const(self.e.straight_run(self.code, s.call.name))
        if self.as_text:
            names, args = [p.name for p in self.e.m.rules[s.call.name].params], s.call.args
            body = self.written(lambda gen: f"_args = {record_text(gen, names, args)}")
            fallback = f"_args = {self.const(self.e.x.record_checked(names, args))}(w, env)"
            lines += [pad + line for line in guarded(body, fallback)]
        else:
            lines.append(f"{pad}_args = {self.const(self.e.arguments(s.call, s.span))}(w, env)")
        self.tick(lines, k, depth)  # as every call: its arguments, then its unit of work (budget.py)
        lines.append(f"{pad}{run}(vm, _args)")

    def g_If(self, lines, s, depth):
        """Each condition is tested in turn (an `elif` is an `else:` holding an `if`)."""
        self.branches(lines, s.branches, s.other, depth)

    def branches(self, lines, branches, other, depth):
        pad = "    " * depth
        (cond, body), rest = branches[0], branches[1:]
        lines.append(f"{pad}_at = {self.at(cond.span)}")
        self.test(lines, cond, pad)
        lines += [f"{pad}if _val:", self.block(body, depth + 1, True)]
        if rest:
            lines.append(f"{pad}else:")
            self.branches(lines, rest, other, depth + 1)
        elif other is not None:
            lines += [f"{pad}else:", self.block(other, depth + 1, True)]

    def g_For(self, lines, s, depth):
        """Over players, each turn is a turn boundary; knocked-out players miss theirs."""
        pad, k = "    " * depth, self.at(s.span)
        lines += [f"{pad}_at = {k}", f"{pad}for _i{depth} in {self.for_items(s)}:"]
        lines += self.turn_start(s, k, depth + 1, f"_i{depth}")
        lines.append(self.block(s.body, depth + 1, True))
        self.for_else(lines, s, k, depth)

    def for_items(self, s) -> str:
        """The text of the items a for loop goes over."""
        return "range(w.n)" if every_seat_in_turn(s) else f"{self.const(self.e.order_fn(s))}(w, env)"

    def turn_start(self, s, k, depth, item: str) -> list:
        """What a for loop's turn does before its body (its item `item`): a knocked-out
        player's turn is skipped, the end conditions are looked at (a turn boundary), a
        unit of work, the loop's variable bound."""
        pad, lines = "    " * depth, []
        if over_players(s):
            lines += [f"{pad}if not w.alive[{item}]:", f"{pad}    continue"]
        if looks_at_ends(s, self.e.m):
            self.turn_boundary(lines, k, depth)
        self.tick(lines, k, depth)
        lines.append(f"{pad}{self.binding(s.var, self.const(s.var))} = {item}")
        return lines

    def for_else(self, lines, s, k, depth):
        """After the last turn of a loop over players, a turn boundary, unless a `break`
        (in a whole rule, whole.py) left the loop."""
        if looks_at_ends(s, self.e.m):
            lines.append(f"{'    ' * depth}else:")
            self.turn_boundary(lines, k, depth + 1)

    def turn_boundary(self, lines, k, depth):
        """The end conditions are looked at; the game may end here (GameOver)."""
        pad = "    " * depth
        lines += [f"{pad}_at = {k}", f"{pad}if w.version != vm.ends_false_at and vm.check_ends():",
                  f"{pad}    raise _Over"]

    def g_While(self, lines, s, depth):
        lines.append(f"{'    ' * depth}while True:")
        lines += self.while_start(s, self.at(s.span), depth + 1)
        lines.append(self.block(s.body, depth + 1, True))

    def while_start(self, s, k, depth) -> list:
        """What a while loop's turn does before its body: its test, a unit of work."""
        pad, lines = "    " * depth, []
        lines.append(f"{pad}_at = {k}")
        self.test(lines, s.cond, pad)
        lines += [f"{pad}if not _val:", f"{pad}    break"]
        self.tick(lines, k, depth)
        return lines

    def g_Repeat(self, lines, s, depth):
        pad, k = "    " * depth, self.at(s.span)
        lines += [f"{pad}_at = {k}", f"{pad}for _i{depth} in {self.repeat_items(s)}:"]
        self.tick(lines, k, depth + 1)
        lines.append(self.block(s.body, depth + 1, True))

    def repeat_items(self, s) -> str:
        return f"range({self.const(self.e.x.counted(s.count, 'repeat'))}(w, env))"
