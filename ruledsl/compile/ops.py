"""Compile stage: the op list of a rule (a state machine: a state is (rule, pc)).

OpEmitter appends ops; straight statements in a row share one op."""
from __future__ import annotations

from ..errors import RUNTIME_FAILURES, GameRuntimeError, failure_message
from ..runtime.program import Code
from ..syntax import ast
from .watch import watched, writes

INLINE_DEPTH = 16  # straight rules calling straight rules: at most this deep is run in place


def _goto(target):
    def op(vm, fr):
        fr.pc = target[0]
    return op


class OpEmitter:
    """Appends ops to a rule's Code; a statement kind K is compiled by the method `s_K`
    (the subclasses: flow.FlowCompiler, decide.DecisionCompiler and
    game.StmtCompiler, which has the straight statements and calls)."""

    def __init__(self, model, prog, ex, fuse: bool = True):
        self.m, self.p, self.x = model, prog, ex
        self.fuse = fuse
        self.collecting: list | None = None  # where simple() puts effects (see simple_run)
        self.loop_exits: list = []  # (exit pc cell, iteration slot) of the loops being compiled
        self.straight: set | None = None  # the straight rules (straight_rules), found on first use
        self.straight_runs: dict = {}  # rule -> its body's effects run as one function (straight_run)
        self.rule_changes: dict = {}  # straight rule -> whether its body can change what end conditions read

    def code(self, name, decl, body) -> Code:
        code = Code(name=name, span=decl.span, params=[p.name for p in decl.params])
        self.jumps: dict = {}  # index of a jump op -> its target cell
        self.targets: list = []  # target cells of conditional ops (if, loop heads, may)
        self.block(code, body)
        self.thread_jumps()
        return code

    def thread_jumps(self):
        """A target that is a jump op becomes that jump's target (jump threading): an `if`
        that is false at the end of a loop body goes straight back to the loop's head."""
        jumps = self.jumps
        for cell in [*self.targets, *jumps.values()]:
            seen: set = set()
            while cell[0] in jumps and cell[0] not in seen:  # `loop {}` jumps to itself
                seen.add(cell[0])
                cell[0] = jumps[cell[0]][0]

    def target(self, cell: list) -> list:
        """Registers a cell holding a pc some op may go to, for jump threading."""
        self.targets.append(cell)
        return cell

    def emit(self, code, kind, span, op) -> int:
        code.ops.append(op)
        code.spans.append(span)
        code.kinds.append(kind)
        return len(code.ops) - 1

    def next_pc(self, code) -> list:
        """A cell holding the pc after the op about to be emitted, for an op that always goes
        on. If that next op is a jump, thread_jumps makes the cell the jump's target: one op
        less to step at the end of a loop body or an if branch."""
        return self.target([len(code.ops) + 1])

    def jump(self, code, span, target):
        """An unconditional jump to `target[0]` (a cell: the target may be patched later).
        The jump op stays even when every way to it was threaded: each pc keeps its op."""
        self.jumps[self.emit(code, "jump", span, _goto(target))] = target

    def is_simple(self, s) -> bool:
        """A statement that runs as an effect: a straight one (no jumps, calls or decisions),
        or, when fusing, a call of a straight rule."""
        if isinstance(s, ast.CallStmt):
            return self.fuse and self.straight_rule(s.call.name)
        return s.straight and not (isinstance(s, ast.Let) and self.m.calls_rule(s.value))

    def straight_rule(self, name) -> bool:
        """Whether a call of rule `name` runs its effects in place (see straight_rules)."""
        if self.straight is None:
            self.straight = straight_rules(self.m, self.is_simple)
        return name in self.straight

    def straight_run(self, code, name):
        """`run(vm, env)`: the effects of straight rule `name`'s body in order (compiled once
        per rule), a failure named at its statement as in a run of effects."""
        run = self.straight_runs.get(name)
        if run is None:  # straight rules never reach themselves: this compiles each once
            saved, effects = self.collecting, []
            self.collecting = effects
            try:
                for s in self.m.rules[name].body:
                    getattr(self, "s_" + type(s).__name__)(code, s)
            finally:
                self.collecting = saved
            run = self.straight_runs[name] = _in_order(effects)
        return run

    def block(self, code, stmts):
        run: list = []  # consecutive simple statements, emitted as one op
        for s in stmts:
            if self.is_simple(s):
                run.append(s)
                if not self.fuse:
                    self.simple_run(code, run)
                    run = []
                continue
            self.simple_run(code, run)
            run = []
            getattr(self, "s_" + type(s).__name__)(code, s)
        self.simple_run(code, run)

    def simple_run(self, code, stmts):
        """Straight-line effects (no jumps, no decisions) run in one op, in order."""
        if not stmts:
            return
        effects: list = []
        self.collecting = effects
        try:
            for s in stmts:
                getattr(self, "s_" + type(s).__name__)(code, s)
        finally:
            self.collecting = None
        changes = any(self.changes_world(s) for s in stmts)
        if len(effects) == 1:  # a failure is named at the op's span, the statement's
            run, span, kind = effects[0]
        else:
            run = _in_order(effects)
            span, kind = effects[0][1], "effects"
        nxt = self.next_pc(code)

        def op(vm, fr):
            run(vm, fr.env)
            if changes:
                vm.w.version += 1
            fr.pc = nxt[0]
        self.emit(code, kind, span, op)

    def changes_world(self, s) -> bool:
        """Whether a simple statement can change what an end condition reads (a call of a
        straight rule: whether any statement of its body can)."""
        if isinstance(s, ast.CallStmt):  # once per rule: a rule may call another many times, 16 deep
            name = s.call.name
            if name not in self.rule_changes:
                self.rule_changes[name] = any(self.changes_world(t) for t in self.m.rules[name].body)
            return self.rule_changes[name]
        return s.changes_world and watched(self.p.ends_read, writes(self.m, s))

    def simple(self, code, s, effect):
        self.collecting.append((effect, s.span, type(s).__name__.lower()))


def _in_order(effects):
    """`run(vm, env)`: the effects (effect, span, kind) one after another; a Python failure
    in one is a runtime error at its statement."""
    steps, spans = [e for e, _, _ in effects], [sp for _, sp, _ in effects]

    def run(vm, env):
        i = 0
        try:
            for i, effect in enumerate(steps):
                effect(vm, env)
        except RUNTIME_FAILURES as err:
            raise GameRuntimeError(spans[i], "R000", failure_message(err)) from None
    return run


def straight_rules(model, is_simple) -> set:
    """The rules whose calls run their effects in place, with no frame of their own: made
    only of simple statements and calls of such rules, giving no result, and at most
    INLINE_DEPTH deep counting the calls below. No decision, jump or end can happen in
    them. A rule that reaches itself again is never one (it keeps its frames and their
    depth limit, R004), nor is one that calls it.

    Worked out from the rules that call no rule upwards (not by recursion: a file may
    chain thousands of rules)."""
    callees: dict = {}
    simple: dict = {}
    for name, rule in model.rules.items():
        calls = {s.call.name for s in rule.body if isinstance(s, ast.CallStmt)}
        callees[name] = calls
        simple[name] = rule.returns is None and all(
            isinstance(s, ast.CallStmt) or is_simple(s) for s in rule.body)
    callers: dict = {name: [] for name in callees}
    waiting = {name: len(calls) for name, calls in callees.items()}
    for name, calls in callees.items():
        for c in calls:
            callers[c].append(name)
    ready = [name for name, n in waiting.items() if n == 0]
    depth: dict = {}  # rule -> how deep its calls of straight rules go (1: none), or 0: not straight
    while ready:
        name = ready.pop()
        below = [depth[c] for c in callees[name]]
        ok = simple[name] and all(below)
        depth[name] = 1 + max(below, default=0) if ok else 0
        if depth[name] > INLINE_DEPTH:
            depth[name] = 0
        for caller in callers[name]:
            waiting[caller] -= 1
            if waiting[caller] == 0:
                ready.append(caller)
    return {name for name, d in depth.items() if d}  # rules on or above a cycle never got ready
