"""Compile stage: a rule's generator resumed after one of its pauses, for a copied game.

A Python generator can't be copied, but a copy of a game waiting in one (Machine.clone)
can go on in another generator of the same rule that starts where the first waits: right
after the pause at `point` (the line it waits on says which: whole.py's yield_points).
What the rule has made so far is in the frame (its locals, a walk's state) and in the
generator's own locals (the iterator of each for loop it is in, copied where it is into
the copy's frame: Resumes.taken); what is left is where it stands in its ifs and loops,
and the text of the resumed generator (`_Resumed`, written once for each point a copy
needs) says that. It is the rule's own text, with a
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
  carried into the frame, after a first item that stands for the turn under way.
- A call compiled in place is as written: a `return` in it still leaves it.

Each statement is written once, in the order the rule's own generator writes them, so
the calls compiled in place are numbered and their locals named as there. It plays the
same game as the rule's own generator would, charging the same work at the same
statements (tests/compile/test_random_programs.py clones at every decision).
"""
from __future__ import annotations

import copy
import inspect
import itertools

from ..syntax import ast
from .inplace import _TooDeep
from .whole import _Unsupported, _Whole, generator, whole_text

_AGAIN = object()  # the turn under way, first among a resumed for loop's items


def _again(items):
    return itertools.chain((_AGAIN,), items)


class Resumes:
    """A rule's resumed generator functions (Code.resumed), each written on first use."""

    def __init__(self, emitter, code, body, whole):
        self.emitter, self.code, self.body = emitter, code, body
        self.made: dict = {}  # point -> (function, [(its loop's local, the frame local it takes it from)]) or None
        self.lines: dict = {whole.__code__: whole.points}  # a generator function's code -> {line: point}
        self.starts: dict = {}  # a resumed generator function's code -> the point it starts after

    def __call__(self, point):
        """The generator function resumed after the pause at `point`, or None."""
        made = self.resumed(point)
        return made[0] if made is not None else None

    def resumed(self, point):
        """(The generator function resumed after the pause at `point`, the loops' iterators
        it takes), or None; written on first use."""
        if point not in self.made:
            made = self.made[point] = resumed_rule(self.emitter, self.code, self.body, point)
            if made is not None:
                self.lines[made[0].__code__] = made[0].points
                self.starts[made[0].__code__] = point
        return self.made[point]

    def point_of(self, gen):
        """The place of the pause a suspended generator of this rule waits at: its line."""
        return self.lines.get(gen.gi_code, {}).get(gen.gi_frame.f_lineno)

    def taken(self, gen, env):
        """(The generator function resumed where `gen` (its frame's locals `env`) waits,
        the frame locals it takes: copies of the iterators of the loops it is in, where
        they are), or None. A resumed generator not run yet (a clone's frame below the
        top) waits where it was made to start, the iterators it takes in `env`."""
        created = inspect.getgeneratorstate(gen) == inspect.GEN_CREATED
        point = self.starts.get(gen.gi_code) if created else self.point_of(gen)
        made = self.resumed(point) if point is not None else None
        if made is None:
            return None
        here = env if created else gen.gi_frame.f_locals
        return made[0], {key: copy.copy(here[key if created else name]) for name, key in made[1]}


def resumed_rule(emitter, code, body, point):
    """The generator function `whole(vm, fr)` of the rule resumed after its pause at
    `point`, or None (a place it does not have, or a text Python refuses)."""
    emitter.sites = itertools.count(1)  # as whole_rule numbers them
    gen = _Resumed(emitter, code, point)
    try:
        text = whole_text(gen, "        _rs = True\n" + gen.block(body, 2))
        if not gen.found:
            return None
        return generator(gen, text, f"<ruledsl rule at {code.span.where()}, resumed>", _again=_again), gen.carried
    except (_Unsupported, _TooDeep, SyntaxError, RecursionError, MemoryError):
        return None


def indented(lines) -> list:
    """Lines (or texts of lines) one level deeper."""
    return ["\n".join("    " + line for line in text.split("\n")) for text in lines]


class _Resumed(_Whole):
    """The text of a rule's generator resumed after the pause at `target` (the module's doc)."""

    def __init__(self, emitter, code, point):
        super().__init__(emitter, code)
        self.target = point
        self.found = False  # whether the pause at point was written
        self.carried: list = []  # (local of a loop on the way in, the frame local a clone puts its iterator in)

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
        """A statement of a block on the way in: before the way, run on later turns only;
        the pause, on from its yield; a menu or a may the way goes through, answered."""
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
        pad, n = "    " * depth, len(s.branches)
        tests, bodies = [f"{pad}if _rs:", f"{pad}    _b = {self.target[len(self.trail) - 1][1]}", f"{pad}else:"], []
        for i, (cond, body) in enumerate(s.branches):  # each body as deep as branches() writes it (its loops' names)
            inner, here = "    " * (depth + 1 + i), "    " * (depth + i)
            tests.append(f"{inner}_at = {self.at(cond.span)}")
            self.test(tests, cond, inner)
            tests += [f"{inner}if _val:", f"{inner}    _b = {i}", f"{inner}else:"]
            bodies += [f"{here}if _b == {i}:", self.block(body, depth + 1 + i)]
            if i < n - 1 or s.other is not None:
                bodies.append(f"{here}else:")
        tests.append(f"{'    ' * (depth + 1 + n)}_b = {n}")
        if s.other is not None:
            bodies.append(self.block(s.other, depth + n))
        lines += tests + bodies

    def kept_loop(self, lines, s, depth, k, items, start):
        """A for loop (or a repeat) on the way in: on with a copy of the iterator of the
        generator cloned (put in the frame's locals: carried), the turn under way first,
        whose start (`start(depth)`: its lines) is skipped."""
        if not self.on_the_way():
            super().kept_loop(lines, s, depth, k, items, start)
            return
        pad, inner, key = "    " * depth, "    " * (depth + 1), self.place_local()
        self.carried.append((f"_t{depth}", key))
        lines += [f"{pad}if _rs:", f"{inner}_t{depth} = env.pop({key!r})", f"{pad}else:", f"{inner}_at = {k}",
                  f"{inner}_t{depth} = iter({items})", f"{pad}for _i{depth} in (_again(_t{depth}) if _rs else _t{depth}):",
                  f"{inner}if not _rs:", *start(depth + 2), self.block(s.body, depth + 1)]

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
