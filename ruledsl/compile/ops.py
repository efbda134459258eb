"""Compile stage: the op list of a rule (a state machine: a state is (rule, pc)).

OpEmitter appends ops; straight statements in a row share one op."""
from __future__ import annotations

from ..errors import RUNTIME_FAILURES, GameRuntimeError, failure_message
from ..runtime.program import Code
from ..syntax import ast
from .watch import watched, writes


class OpEmitter:
    """Appends ops to a rule's Code; a statement kind K is compiled by the method `s_K`
    (the subclasses: flow.FlowCompiler, decide.DecisionCompiler and
    game.StmtCompiler, which has the straight statements and calls)."""

    def __init__(self, model, prog, ex, fuse: bool = True):
        self.m, self.p, self.x = model, prog, ex
        self.fuse = fuse
        self.collecting: list | None = None  # where simple() puts effects (see simple_run)
        self.loop_exits: list = []  # (exit pc cell, iteration slot) of the loops being compiled

    def code(self, name, decl, body) -> Code:
        code = Code(name=name, span=decl.span, params=[p.name for p in decl.params])
        self.block(code, body)
        return code

    def emit(self, code, kind, span, op) -> int:
        code.ops.append(op)
        code.spans.append(span)
        code.kinds.append(kind)
        return len(code.ops) - 1

    def block(self, code, stmts):
        run: list = []  # consecutive simple statements, emitted as one op
        for s in stmts:
            if s.straight and not (isinstance(s, ast.Let) and self.m.calls_rule(s.value)):
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
        if len(effects) == 1:
            effect, span, kind = effects[0]

            def op(vm, fr):
                effect(vm, fr.env)
                if changes:
                    vm.w.version += 1
                fr.pc += 1
            self.emit(code, kind, span, op)
            return
        steps = [e for e, _, _ in effects]
        spans = [sp for _, sp, _ in effects]

        def ops(vm, fr):
            env, i = fr.env, 0
            try:
                for i, effect in enumerate(steps):
                    effect(vm, env)
            except RUNTIME_FAILURES as err:
                raise GameRuntimeError(spans[i], "R000", failure_message(err)) from None
            if changes:
                vm.w.version += 1
            fr.pc += 1
        self.emit(code, "effects", spans[0], ops)

    def changes_world(self, s) -> bool:
        """Whether a straight statement can change what an end condition reads."""
        return s.changes_world and watched(self.p.ends_read, writes(self.m, s))

    def simple(self, code, s, effect):
        self.collecting.append((effect, s.span, type(s).__name__.lower()))
