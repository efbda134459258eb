"""Compile stage: a rule's generator resumed after one of its pauses, for a copied game.

A Python generator can't be copied, but a copy of a game waiting in one (Machine.clone)
can go on in another generator of the same rule that starts where the first waits: right
after the pause at `point` (whole.py: each pause stores its place in the frame before it
yields). Everything the rule has made so far is in the frame: its locals, the iterator of
each for loop it is in (kept under the loop's place), a walk's state; what is left is
where it stands in its ifs and loops, and the text of the resumed generator (`_Resumed`,
written once for each point a copy needs) says that. It is the rule's own text, with a
flag `_rs`, true from the start until the pause's yield would have returned, on the way
in: the blocks from the rule's body down to the pause, through the ifs, menus, mays,
loops and calls compiled in place that hold it.

- A statement of the way in before the one it goes through runs only `if not _rs` (so
  a loop's later turns run it, the resumed turn does not).
- The pause itself (a choose, a menu, a may, a walk, a call with a frame) skips what
  comes before its yield, sets `_rs` false, and goes on with what follows (the choice
  bound, the menu's options...).
- A menu or a may the way goes through, already answered, takes the option the way
  names instead of asking; an if takes its branch without its tests.
- A loop the way goes through skips the start of the turn under way (the turn's unit
  of work, its end-condition look, its variable); a for loop goes on with the iterator
  the frame keeps, after a first item that stands for the turn under way.
- A call compiled in place is as written: a `return` in it still leaves it.

Each statement is written once, in the order the rule's own generator writes them, so
the calls compiled in place are numbered and their locals named as there. It plays the
same game as the rule's own generator would, charging the same work at the same
statements (tests/compile/test_random_programs.py clones at every decision).
"""
from __future__ import annotations

import itertools

from ..syntax import ast
from . import deferred
from .inplace import _TooDeep
from .whole import WHOLE_TEMPLATE, _deep, _Returned, _Unsupported, _Whole

_AGAIN = object()  # the turn under way, first among a resumed for loop's items


def _again(items):
    return itertools.chain((_AGAIN,), items)


class Resumes:
    """A rule's resumed generator functions (Code.resumed), each written on first use."""

    def __init__(self, emitter, code, body):
        self.emitter, self.code, self.body = emitter, code, body
        self.made: dict = {}

    def __call__(self, point):
        if point not in self.made:
            self.made[point] = resumed_rule(self.emitter, self.code, self.body, point)
        return self.made[point]


def resumed_rule(emitter, code, body, point):
    """The generator function `whole(vm, fr)` of the rule resumed after its pause at
    `point`, or None (a place it does not have, or a text Python refuses)."""
    emitter.sites = itertools.count(1)  # as whole_rule numbers them
    gen = _Resumed(emitter, code, point)
    try:
        text = WHOLE_TEMPLATE.format(body="        _rs = True\n" + gen.block(body, 2))
        if not gen.found:
            return None
        compiled = deferred.compiled(text, f"<ruledsl rule at {code.span.where()}, resumed>", emitter.p.path)
    except (_Unsupported, _TooDeep, SyntaxError, RecursionError, MemoryError):
        return None
    gen.ns.update(_spans=gen.spans, _deep=_deep, _Returned=_Returned, _again=_again)
    exec(compiled, gen.ns)
    return gen.ns["_whole"]


def indented(lines) -> list:
    """Lines (or texts of lines) one level deeper."""
    return ["\n".join("    " + line for line in text.split("\n")) for text in lines]


class _Resumed(_Whole):
    def __init__(self, emitter, code, point):
        super().__init__(emitter, code)
        self.target = point
        self.found = False  # whether the pause at point was written

    def on_the_way(self) -> bool:
        """Whether the statement being made is on the way in (or is the pause at the target)."""
        t, n = self.target, len(self.trail)
        if n > len(t):
            return False
        return all(h.index == t[j][0] and (j == n - 1 or h.block == t[j][1]) for j, h in enumerate(self.trail))

    def along(self) -> bool:
        """Whether the statement being made is in a block of the way in."""
        t, n = self.target, len(self.trail)
        return n <= len(t) and all(h.index == t[j][0] and h.block == t[j][1] for j, h in enumerate(self.trail[:-1]))

    def made(self, lines, s, start, depth):
        if not self.along():
            return
        pad, t, n = "    " * depth, self.target, len(self.trail)
        i, mark = self.trail[-1].index, self.trail[-1].mark
        if i < t[n - 1][0]:  # before the way in: on later turns only
            lines[start:] = [f"{pad}if not _rs:", *indented(lines[start:])]
        elif i > t[n - 1][0] or mark is None:
            return  # after it; or an if, a loop or a call in place on it (their own texts)
        elif n == len(t):  # the pause: on from its yield
            self.found = True
            answer = "; _o = fr.got" if isinstance(s, (ast.Menu, ast.May)) else ""  # as its text after the yield
            self.skipped(lines, start, mark, pad, "_rs = False" + answer)
        elif isinstance(s, (ast.Menu, ast.May)):  # answered (`_o`): the option the way names
            self.skipped(lines, start, mark, pad, f"_o = {t[n - 1][1] if isinstance(s, ast.Menu) else True}")

    def skipped(self, lines, start, mark, pad, instead):
        """A pause's statement whose part up to `mark` (its yield, what it took from it) is
        skipped while resuming: its `_at`, then `instead`."""
        lines[start:] = [f"{pad}if _rs:", "    " + lines[start], f"{pad}    {instead}", f"{pad}else:",
                         *indented(lines[start:mark]), *lines[mark:]]

    # ------------------------------------------------------------ ifs and loops on the way in
    def g_If(self, lines, s, depth):
        """The branch the way names, without the tests; later (in a loop), as ever."""
        if not self.on_the_way():
            super().g_If(lines, s, depth)
            return
        pad = "    " * depth
        tests, bodies = [f"{pad}if _rs:", f"{pad}    _b = {self.target[len(self.trail) - 1][1]}", f"{pad}else:"], []
        for i, (cond, body) in enumerate(s.branches):
            inner = "    " * (depth + 1 + i)
            tests.append(f"{inner}_at = {self.at(cond.span)}")
            self.test(tests, cond, inner)
            tests += [f"{inner}if _val:", f"{inner}    _b = {i}", f"{inner}else:"]
            bodies += [f"{pad}{'if' if i == 0 else 'elif'} _b == {i}:", self.block(body, depth + 1)]
        tests.append(f"{'    ' * (depth + 1 + len(s.branches))}_b = {len(s.branches)}")
        if s.other is not None:
            bodies += [f"{pad}else:", self.block(s.other, depth + 1)]
        lines += tests + bodies

    def g_For(self, lines, s, depth):
        if self.e.is_simple(s) or not self.on_the_way():
            super().g_For(lines, s, depth)
            return
        k = self.at(s.span)
        self.again(lines, s, depth, k, self.for_items(s), self.turn_start(s, k, depth + 2, f"_i{depth}"))
        self.for_else(lines, s, k, depth)

    def g_Repeat(self, lines, s, depth):
        if self.e.is_simple(s) or not self.on_the_way():
            super().g_Repeat(lines, s, depth)
            return
        k, start = self.at(s.span), []
        self.tick(start, k, depth + 2)
        self.again(lines, s, depth, k, self.repeat_items(s), start)

    def again(self, lines, s, depth, k, items, start):
        """A for loop on the way in: on with the iterator the frame keeps, the turn under
        way first, whose start (`start`: lines) is skipped."""
        pad, inner, key = "    " * depth, "    " * (depth + 1), self.const(self.place_local())
        lines += [f"{pad}if _rs:", f"{inner}_t{depth} = _again(env[{key}])", f"{pad}else:", f"{inner}_at = {k}",
                  f"{inner}env[{key}] = _t{depth} = iter({items})", f"{pad}for _i{depth} in _t{depth}:",
                  f"{inner}if not _rs:", *start, self.block(s.body, depth + 1)]

    def g_While(self, lines, s, depth):
        if self.e.is_simple(s) or not self.on_the_way():
            super().g_While(lines, s, depth)
            return
        self.again_while(lines, s, depth, self.while_start(s, self.at(s.span), depth + 2))

    def w_Loop(self, lines, s, depth):
        if not self.on_the_way():
            super().w_Loop(lines, s, depth)
            return
        k = self.at(s.span)
        start = [f"{'    ' * (depth + 2)}_at = {k}"]
        self.tick(start, k, depth + 2)
        self.again_while(lines, s, depth, start)

    def again_while(self, lines, s, depth, start):
        """A while loop (or `loop`) on the way in: the start of the turn under way (its
        test, its unit of work) skipped."""
        inner = "    " * (depth + 1)
        lines += [f"{'    ' * depth}while True:", f"{inner}if not _rs:", *start, self.block(s.body, depth + 1)]
