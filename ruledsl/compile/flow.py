"""Compile stage: control flow (if, for, while, repeat, loop, walking a track).

Loops keep their iteration state in the frame's locals under keys no game name can
spell (they start with '#'). Each turn of a loop and each step of a walk that runs an
`on pass` trigger costs a unit of work (budget.py) where a stretch's or a whole rule's
loop charges it (a walk with no such trigger moves in one go and costs none, as in a
stretch), so a step runs out of work at the same place whichever way its rule runs.
"""
from __future__ import annotations

import itertools
from bisect import bisect_left

from ..budget import charge
from ..check.types import PLAYER, Binding
from ..syntax import ast
from .inplace import looks_at_ends, over_players
from .ops import OpEmitter
from .watch import watched, write_key

_uid = itertools.count()


def _land(vm, fr, slot, getter, on_land, inlined):
    """The end of a walk: forget its state, go on after it, and run `on land` if any
    (`inlined`: the calls compiled in place the walk is inside, Machine.call)."""
    env = fr.env
    mover = env.pop(slot)[2]
    fr.pc += 1
    land = on_land()
    if land is not None:
        return vm.call(land, dict(zip(land.params, (getter(vm.w, env), mover))), None, inlined)
    return None


def clockwise(seats, first, n: int) -> list:
    """`seats` in turn clockwise from seat `first` (ties in the order given)."""
    return sorted(seats, key=lambda q: (q - first) % n)


class FlowCompiler(OpEmitter):
    """Control flow as jumps between ops: if, loops, break, walks on a board. An if or
    loop whose bodies are all simple (OpEmitter.is_simple) is no op of its own: it runs
    as plain Python in the stretch around it (inplace.py)."""

    def s_If(self, code, s):
        exits = []
        for cond, body in s.branches:
            test = self.x(cond)
            at = self.emit(code, "if", cond.span, None)
            self.block(code, body)
            exit_ref = [0]
            exits.append(exit_ref)
            self.jump(code, s.span, exit_ref)
            skip = self.target([len(code.ops)])

            def branch(vm, fr, test=test, skip=skip):
                fr.pc = fr.pc + 1 if test(vm.w, fr.env) else skip[0]
            code.ops[at] = branch
        if s.other is not None:
            self.block(code, s.other)
        for ref in exits:
            ref[0] = len(code.ops)

    def order_fn(self, s):
        """`items(w, env)`: how a for loop lists its items: the collection as its expression
        gives it (no value of the language changes in place, and ExprCompiler.source copies
        a zone's cards), by key, or clockwise from a player."""
        src = self.x.source(s.source)
        if s.order is None and s.start is None:
            return src
        key = self.x(s.order) if s.order is not None else None
        start = self.x(s.start) if s.start is not None else None
        var, desc = s.var, s.descending
        if key is None and isinstance(s.source, ast.Name) and s.source.note.binding in (Binding.PLAYERS, Binding.SEATS):
            def turned(w, env):  # seats in seat order (distinct, rising): turned at the first clockwise
                xs, first = src(w, env), start(w, env)
                if first.__class__ is not int:
                    return clockwise(xs, first, w.n)  # none: fails as the sort does
                i = bisect_left(xs, first % w.n)
                return xs[i:] + xs[:i]
            return turned

        def items(w, env):
            xs = src(w, env)  # each sort below makes a list of its own
            if start is not None:
                xs = clockwise(xs, start(w, env), w.n)
            if key is not None:
                e = dict(env)

                def k(x):
                    e[var] = x
                    return key(w, e)
                xs = sorted(xs, key=k, reverse=desc)  # stable: ties keep clockwise order
            return xs
        return items

    def s_For(self, code, s):
        items = self.order_fn(s)
        var, slot = s.var, f"#for{next(_uid)}"
        players = over_players(s)

        def init(vm, fr):
            fr.env[slot] = [items(vm.w, fr.env), 0]
            fr.pc += 1
        self.emit(code, "for", s.span, init)
        head = len(code.ops)
        exit_ref = [0]
        span = s.span

        turns = looks_at_ends(s, self.m)

        def step(vm, fr):
            if turns and vm.w.version != vm.ends_false_at and vm.check_ends():
                return True  # a turn boundary: the game may have ended
            it = fr.env[slot]
            w = vm.w
            xs, alive = it[0], w.alive
            while it[1] < len(xs):
                x = xs[it[1]]
                it[1] += 1
                if players and not alive[x]:
                    continue  # players knocked out during the loop miss their turn
                charge(w, 1, span)
                fr.env[var] = x
                fr.pc += 1
                return None
            del fr.env[slot]
            fr.pc = exit_ref[0]
        self.loop_body(code, s, "for-next", step, head, exit_ref, slot)

    def loop_body(self, code, s, kind, check, head, exit_ref, slot=None):
        """Emits a loop's head check, its body and the jump back; then patches the exit."""
        if check is not None:
            self.emit(code, kind, s.span, check)
        self.loop_exits.append((exit_ref, slot))  # where a `break` in the body goes
        try:
            self.block(code, s.body)
        finally:
            self.loop_exits.pop()
        self.jump(code, s.span, [head])
        exit_ref[0] = len(code.ops)
        self.target(exit_ref)

    def s_Break(self, code, s):
        """Leaves the innermost loop: forget its iteration state, go to its exit."""
        exit_ref, slot = self.loop_exits[-1]  # the checker puts every break inside a loop

        def brk(vm, fr):
            if slot is not None:
                fr.env.pop(slot, None)
            fr.pc = exit_ref[0]
        self.emit(code, "break", s.span, brk)

    def s_While(self, code, s):
        test, span = self.x(s.cond), s.span
        head = len(code.ops)
        exit_ref = [0]

        def check(vm, fr):
            w = vm.w
            if not test(w, fr.env):
                fr.pc = exit_ref[0]
                return
            charge(w, 1, span)
            fr.pc += 1
        self.loop_body(code, s, "while", check, head, exit_ref)

    def s_Repeat(self, code, s):
        count, slot = self.x.counted(s.count, "repeat"), f"#rep{next(_uid)}"

        def init(vm, fr):
            fr.env[slot] = count(vm.w, fr.env)
            fr.pc += 1
        self.emit(code, "repeat", s.span, init)
        head = len(code.ops)
        exit_ref = [0]
        span = s.span

        def check(vm, fr):
            if fr.env[slot] > 0:
                fr.env[slot] -= 1
                charge(vm.w, 1, span)
                fr.pc += 1
            else:
                del fr.env[slot]
                fr.pc = exit_ref[0]
        self.loop_body(code, s, "repeat-next", check, head, exit_ref, slot)

    def s_Loop(self, code, s):
        span = s.span

        def turn(vm, fr):
            charge(vm.w, 1, span)
            fr.pc += 1
        self.loop_body(code, s, "loop", turn, len(code.ops), [0])

    def in_place_Walk(self, s) -> bool:
        """A walk on a track with no `on pass` or `on land` trigger is straight: nothing
        runs between its steps, so it is one effect (walk_in_place)."""
        board = s.target.note.type.name
        return (self.m.boards[board].decl.topology != "graph"
                and not any((kind, board) in self.m.triggers for kind in ("pass", "land")))

    def walk_in_place(self, s):
        count, direction = self.x.counted(s.count, "move"), self.x(s.direction)
        setter, getter, walk_to = self.setter(s.target), self.x(s.target), self.p.walk_to

        def walk(vm, env):
            w = vm.w
            steps, way = count(w, env), direction(w, env)
            if steps > 0:
                setter(w, env, walk_to(getter(w, env), way, steps))
        return walk

    def s_Walk(self, code, s):
        """`move X.f by N steps D`: one space at a time, running `on pass` and `on land`."""
        if self.collecting is not None:
            return self.simple(code, s, self.walk_in_place(s))
        init, step = self.walk_ops(s)
        self.emit(code, "walk", s.span, init)
        # the step op leaves pc alone until the count runs out, so it runs again
        # (after any `on pass` trigger it called has returned, or a fork's choice)
        self.emit(code, "walk-step", s.span, step)

    def walk_ops(self, s, slot=None):
        """(init, step), each `op(vm, fr)`: init sets the walk's state up and moves pc on;
        step takes a step (or all of them, with no `on pass` trigger), returning what it
        pushed or offered, and moves pc on once the walk has landed (`_land`). `slot`: the
        local that holds the walk's state (a generator names it by the walk's place)."""
        board = s.target.note.type.name
        setter = self.setter(s.target)
        getter = self.x(s.target)
        count, direction = self.x.counted(s.count, "move"), self.x(s.direction)
        mover = self.x(s.target.obj) if getattr(s.target, "obj", s.target).note.type == PLAYER else None
        slot, span = slot or f"#walk{next(_uid)}", s.span
        on_pass = self.p.triggers_ref(("pass", board))
        on_land = self.p.triggers_ref(("land", board))
        step_space, walk_to = self.p.step_space, self.p.walk_to
        bump = watched(self.p.ends_read, write_key(self.m, s.target))  # whether an end condition reads the field
        inlined = len(self.inlining)
        if self.m.boards[board].decl.topology == "graph":
            return self.graph_walk(s, slot, board, setter, getter, count, direction, mover, on_pass, on_land, bump)

        def init(vm, fr):
            env = fr.env
            env[slot] = [count(vm.w, env), direction(vm.w, env), mover(vm.w, env) if mover else None]
            fr.pc += 1

        def step(vm, fr):
            w, env = vm.w, fr.env
            st = env[slot]
            if on_pass() is None:
                return straight_to_the_end(w, env, st, vm, fr)
            charge(w, 1, span)  # a step (or the landing) with an `on pass` trigger costs a unit of work
            if st[0] <= 0:
                return _land(vm, fr, slot, getter, on_land, inlined)
            st[0] -= 1
            here = step_space(getter(w, env), st[1])
            setter(w, env, here)
            if bump:
                w.version += 1
            if st[0] > 0 and step_space(here, st[1]) == here:
                st[0] = 0  # the end of a line: this space is landed on, not passed
            trig = on_pass() if st[0] > 0 else None
            if trig is not None:
                return vm.call(trig, dict(zip(trig.params, (here, st[2]))), None, inlined)

        def straight_to_the_end(w, env, st, vm, fr):
            """No `on pass` trigger: nothing runs between the steps, so they are taken in one go,
            costing no work, as in a stretch (walk_in_place: walk_to's work does not grow
            with the steps)."""
            if st[0] > 0:
                setter(w, env, walk_to(getter(w, env), st[1], st[0]))
                st[0] = 0
                if bump:
                    w.version += 1
            return _land(vm, fr, slot, getter, on_land, inlined)
        return init, step

    def graph_walk(self, s, slot, board, setter, getter, count, direction, mover, on_pass, on_land, bump):
        """`move X.f by N steps D [via t where ROUTE] [by P [as "name"]]` on a graph board.

        Each step follows a `link` row (forward: `link here X`, backward: `link X here`),
        never straight back to the space just left. Where more than one way is left (a
        fork), the route condition keeps the ways it accepts; if still more than one, P
        chooses (an ordinary decision); with no chooser that is R008. A space with no way
        on ends the walk there: it is landed on, not passed.
        """
        from ..errors import GameRuntimeError
        from ..runtime.machine import Decision
        inlined = len(self.inlining)
        route = self.x(s.route) if s.route is not None else None
        chooser = self.x(s.by) if s.by is not None else None
        var, name, span = s.via, s.label or "route", s.span
        labels_of = self.p.labels_fn(s.target.note.type)
        ways_of = self.p.graph_ways

        def init(vm, fr):
            env = fr.env
            # count, direction, mover, the space just left, the way chosen at a fork
            env[slot] = [count(vm.w, env), direction(vm.w, env), mover(vm.w, env) if mover else None, None, None]
            fr.pc += 1

        def bind(vm, fr, value):
            fr.env[slot][4] = value  # the step op runs again and takes this way

        def fork(w, env, st, here, ways):
            if route is not None:
                e = dict(env)
                kept = []
                for t in ways:
                    e[var] = t
                    if route(w, e):
                        kept.append(t)
                if not kept:
                    raise GameRuntimeError(span, "R008", f"no way on from '{here}' fits the route (ways: {', '.join(ways)})")
                ways = kept
            if len(ways) == 1:
                return ways[0], None
            if chooser is None:
                raise GameRuntimeError(span, "R008", f"a fork at '{here}' ({', '.join(ways)}) and nobody to choose the way")
            seat = chooser(w, env)
            if seat is None:
                raise GameRuntimeError(span, "R006", "nobody to choose the way at a fork (the chooser is none)")
            return None, Decision(seat, name, labels_of(ways), list(ways), span, False, "choose", bind)

        def step(vm, fr):
            w, env = vm.w, fr.env
            charge(w, 1, span)  # a step (or the landing) costs a unit of work
            st = env[slot]
            if st[0] <= 0:
                return _land(vm, fr, slot, getter, on_land, inlined)
            here = getter(w, env)
            there, st[4] = st[4], None
            if there is None:
                ways = ways_of(board, here, st[1], st[3])
                if not ways:
                    st[0] = 0  # a dead end at the start: this space is landed on
                    return None
                if len(ways) == 1:
                    there = ways[0]
                else:
                    there, decision = fork(w, env, st, here, ways)
                    if decision is not None:
                        return vm.decide(decision)
            st[0] -= 1
            st[3] = here
            setter(w, env, there)
            if bump:
                w.version += 1
            if st[0] > 0 and not ways_of(board, there, st[1], here):
                st[0] = 0  # a dead end: this space is landed on, not passed
            trig = on_pass() if st[0] > 0 else None
            if trig is not None:
                return vm.call(trig, dict(zip(trig.params, (there, st[2]))), None, inlined)
        return init, step
