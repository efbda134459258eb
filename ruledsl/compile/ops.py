"""Compile stage: the op list of a rule (a state machine: a state is (rule, pc)).

OpEmitter appends ops; straight statements in a row share one op."""
from __future__ import annotations

from ..runtime.program import Code
from ..syntax import ast
from .inplace import MAX_NESTING, over_players, stretch_op, stretch_run
from .watch import watched, writes

INLINE_DEPTH = 16  # straight rules calling straight rules: at most this deep is run in place
# Statements (those inside ifs and loops too) written into one stretch: a longer run is
# split, a longer if or loop or straight rule runs as ops, so that no generated function
# comes near deferred.MAX_SOURCE (the shipped games' longest run is about 40).
MAX_STRETCH = 200
RETURNED = "returned value"  # the local `return r(...)` passes the result of r through (no file can name it)
# The statements that may ask for chance: a roll, a shuffle, a draw (from a zone that
# refills, by shuffling). Compiled apart (compile_game's chance_apart), each asks before it
# changes anything (a draw undoes its moves if paused half-way), so it may be run again.
CHANCE = (ast.Roll, ast.Shuffle, ast.Draw)


def _goto(target):
    def op(vm, fr):
        fr.pc = target[0]
    return op


class OpEmitter:
    """Appends ops to a rule's Code; a statement kind K is compiled by the method `s_K`
    (the subclasses: flow.FlowCompiler, decide.DecisionCompiler and
    game.StmtCompiler, which has the straight statements and calls)."""

    def __init__(self, model, prog, ex, fuse: bool = True, chance_apart: bool = False):
        self.m, self.p, self.x = model, prog, ex
        self.fuse = fuse
        self.chance_apart = chance_apart  # statements that may ask for chance are ops of their own
        self.collecting: list | None = None  # where simple() puts an effect (see leaf)
        self.loop_exits: list = []  # (exit pc cell, iteration slot) of the loops being compiled
        self.straight: set | None = None  # the straight rules (straight_rules), found on first use
        self.callees = rule_calls(model)  # rule -> the rules it calls
        self.straight_runs: dict = {}  # rule -> its body's effects run as one function (straight_run)
        self.rule_checks: dict = {}  # straight rule -> whether its body looks at the end conditions

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
        """A statement that runs as an effect (see runs_in_place)."""
        return self.runs_in_place(s, self.straight_rule)

    def runs_in_place(self, s, straight_rule, depth: int = 0) -> bool:
        """A straight statement (no jumps, calls or decisions), or, when fusing: a call of a
        rule for which `straight_rule(name)` holds; an if or loop whose bodies are made
        only of such statements (a compound statement), at most MAX_NESTING deep; or a
        statement whose compiler's `in_place_K` says that it is straight in this game."""
        if isinstance(s, ast.CallStmt):
            return self.fuse and straight_rule(s.call.name)
        if self.chance_apart and isinstance(s, CHANCE):
            return False  # its own op (block), and so never in a stretch, a straight rule or a simple if
        if s.compound:
            return self.fuse and depth < MAX_NESTING and (depth > 0 or written_size(s) <= MAX_STRETCH) and all(
                self.runs_in_place(t, straight_rule, depth + 1) for body in s.bodies() for t in body)
        in_place = getattr(self, "in_place_" + type(s).__name__, None)  # straight in some games only
        if in_place is not None:
            return self.fuse and in_place(s)
        return s.straight and not (isinstance(s, ast.Let) and self.m.calls_rule(s.value))

    def straight_rule(self, name) -> bool:
        """Whether a call of rule `name` runs its effects in place (see straight_rules)."""
        if self.straight is None:
            self.straight = straight_rules(self.m, lambda s: self.runs_in_place(s, lambda _: True), self.callees)
        return name in self.straight

    def straight_run(self, code, name):
        """`run(vm, env)`: the stretch of straight rule `name`'s body (compiled once per
        rule), a failure named at its statement."""
        run = self.straight_runs.get(name)
        if run is None:  # straight rules never reach themselves: this compiles each once
            rule = self.m.rules[name]
            run = self.straight_runs[name] = stretch_run(self, code, rule.body, rule.span)
        return run

    def leaf(self, code, s):
        """The effect `f(vm, env)` of a straight statement, made by its compiler `s_K`."""
        saved, effects = self.collecting, []
        self.collecting = effects
        try:
            getattr(self, "s_" + type(s).__name__)(code, s)
        finally:
            self.collecting = saved
        return effects[0]

    def block(self, code, stmts):
        run: list = []  # consecutive simple statements, emitted as one op
        written = 0  # statements in the run, those inside its ifs and loops too
        for s in stmts:
            if self.is_simple(s):
                size = written_size(s)
                if written + size > MAX_STRETCH:
                    self.simple_run(code, run)
                    run, written = [], 0
                run.append(s)
                written += size
                if not self.fuse:
                    self.simple_run(code, run)
                    run, written = [], 0
                continue
            self.simple_run(code, run)
            run, written = [], 0
            if self.chance_apart and isinstance(s, CHANCE):
                self.simple_run(code, [s])  # an op that asks for chance before it changes anything
            else:
                getattr(self, "s_" + type(s).__name__)(code, s)
        self.simple_run(code, run)

    def simple_run(self, code, stmts):
        """A stretch of simple statements (no jumps, no decisions) runs as one op, one
        generated function (inplace.py)."""
        if not stmts:
            return
        kind = type(stmts[0]).__name__.lower() if len(stmts) == 1 else "effects"
        self.emit(code, kind, stmts[0].span, stretch_op(self, code, stmts, self.next_pc(code)))

    def changes_world(self, s) -> bool:
        """Whether a statement can change what an end condition reads by itself (a compound
        statement or a call run in place: its own effects say, and mark it as they run)."""
        return s.changes_world and watched(self.p.ends_read, writes(self.m, s))

    def checks_ends(self, s) -> bool:
        """Whether a simple statement looks at the end conditions: a loop over players run
        in place does at each turn boundary, as its op would. Inside a compound statement
        or the straight rule a call runs (worked out once per rule: a rule may call
        another many times, 16 deep)."""
        if isinstance(s, ast.CallStmt):
            name = s.call.name
            if name not in self.rule_checks:
                self.rule_checks[name] = any(self.checks_ends(t) for t in self.m.rules[name].body)
            return self.rule_checks[name]
        if isinstance(s, ast.For) and over_players(s):
            return True
        return s.compound and any(self.checks_ends(t) for body in s.bodies() for t in body)

    def simple(self, code, s, effect):
        """What `s_K` calls with a straight statement's effect (see leaf)."""
        self.collecting.append(effect)


def statements(body):
    """Every statement of a body, also those inside others (not looking into expressions)."""
    for item in body:
        if isinstance(item, tuple):
            yield from statements(item)  # an if's (condition, body) branches
        elif isinstance(item, (ast.Stmt, ast.Option)):
            if isinstance(item, ast.Stmt):
                yield item
            for name in ast.syntax_fields(type(item)):
                part = getattr(item, name)
                if isinstance(part, tuple):
                    yield from statements(part)


def written_size(s) -> int:
    """The statements a stretch writes for statement `s`: itself and those inside it."""
    return sum(1 for _ in statements((s,))) if s.compound else 1


def called(s) -> str | None:
    """The rule a statement calls (`r(...)`, `let x = r(...)`, `return r(...)`), if any:
    rules are called nowhere else."""
    if isinstance(s, ast.CallStmt):
        return s.call.name
    value = getattr(s, "value", None) if isinstance(s, (ast.Let, ast.Return)) else None
    return value.name if isinstance(value, ast.Call) else None


def rule_calls(model) -> dict:
    """rule -> the names of the rules it calls, anywhere in its body."""
    out = {}
    for name, rule in model.rules.items():
        calls = (called(s) for s in statements(rule.body))
        out[name] = [c for c in calls if c is not None and c in model.rules]
    return out


def straight_rules(model, is_simple, callees: dict) -> set:
    """The rules whose calls run their effects in place, with no frame of their own: made
    only of simple statements and calls of such rules, giving no result, and at most
    INLINE_DEPTH deep counting the calls below (also calls inside an if or loop run in
    place). No decision or jump can happen in them; an `end` can (the op running them
    pauses for good, see GameOver). A rule that reaches itself again is never one (it
    keeps its frames and their depth limit, R004), nor is one that calls it.

    Worked out from the rules that call no rule upwards (not by recursion: a file may
    chain thousands of rules)."""
    # (`callees`: rule_calls; a rule calling others where no stretch can, a loop or a let, is not simple)
    simple = {name: rule.returns is None and sum(map(written_size, rule.body)) <= MAX_STRETCH
              and all(is_simple(s) for s in rule.body) for name, rule in model.rules.items()}
    depth: dict = {}  # rule -> how deep its calls of straight rules go (1: none), or 0: not straight
    for name in upwards(callees):
        below = [depth[c] for c in callees[name]]
        ok = simple[name] and all(below)
        depth[name] = 1 + max(below, default=0) if ok else 0
        if depth[name] > INLINE_DEPTH:
            depth[name] = 0
    return {name for name, d in depth.items() if d}  # rules on or above a cycle never got ready


def upwards(callees: dict):
    """The rules (the keys of `callees`: rule -> the rules it calls) from those that call
    none upwards, each after every rule it calls; rules on or above a cycle of calls never
    come. Not by recursion: a file may chain thousands of rules."""
    callers: dict = {name: [] for name in callees}
    waiting = {name: len(set(calls)) for name, calls in callees.items()}
    for name, calls in callees.items():
        for c in set(calls):
            callers[c].append(name)
    ready = [name for name, n in waiting.items() if n == 0]
    while ready:
        name = ready.pop()
        yield name
        for caller in callers[name]:
            waiting[caller] -= 1
            if waiting[caller] == 0:
                ready.append(caller)
