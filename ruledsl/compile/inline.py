"""Compile stage: calls of rules compiled into their caller's ops (inlining).

A call of a rule that holds a decision (a straight rule runs in its caller's stretch,
inplace.py) would push a frame: a Frame, a dict of locals, and a switch of the
Machine's dispatch loop to the rule's ops and back at its end. A rule that never
reaches itself again is compiled instead into its caller's ops at the call:

- its locals renamed, so that no local of the caller is touched: `x` becomes `x·3` at
  the third call compiled in place (a game's names can't spell '·');
- its parameters bound as locals of the caller, the arguments evaluated in order;
- each `return` a jump to the end of the call, its value taken to the caller's local
  for `let x = r(...)`, and the iteration state of the rule's loops it leaves dropped.

The game plays the same: the same statements run in the same order on the same values,
each decision keeps its name (a choice named after its variable keeps the variable's
own name). Only a rule called from one place, or a small one (SMALL_RULE) called from
at most SMALL_SITES places, is compiled in place (so the code made stays about the size
of the game's, and a rule so compiled has no Code of its own), at most INLINE_NESTING
calls deep.
"""
from __future__ import annotations

import itertools

import msgspec

from ..budget import charge
from ..check.types import Binding
from ..errors import GameRuntimeError
from ..runtime.machine import MAX_DEPTH
from ..syntax import ast
from .ops import OpEmitter, called, statements, upwards

INLINE_NESTING = 6  # calls compiled in place inside calls compiled in place
# A rule of at most SMALL_RULE statements (its nested ones counted) is compiled in place at
# up to SMALL_SITES calls, each a copy of its own: a small rule with a decision called
# from two places then pushes no frame and, on a fast Machine, makes no generator of its
# own (measured, and larger limits tried: benchmarks/HISTORY.md, "Stop 22").
SMALL_RULE = 8
SMALL_SITES = 2

# The fields that bind a local: (node class, field). A choice with no label of its own is
# named after its variable, so a renamed one is given the old name as its label.
BINDERS = {ast.Let: "name", ast.Roll: "name", ast.For: "var", ast.Choose: "var", ast.Walk: "via",
           ast.Aggregate: "var", ast.Filter: "var"}


class Bind(ast.Let):
    """A parameter bound at a call compiled in place: a local set to an argument, checked
    as a rule call's arguments are (a value kept: ExprCompiler.kept)."""


class Enter(ast.Stmt):
    """The start of a call compiled in place, `level` calls deep in its frame's ops: the
    depth limit (R004) counts it as the frame a call would push."""
    straight = True
    rule: str
    level: int


class _Inlined:
    """A call being compiled in place: where its returns go, and what they leave."""
    breaks = False  # in a generator (whole.py): whether its returns are `break`s out of a loop run once

    def __init__(self, result, loops_before: int):
        self.result = result  # the caller's local taking the value (None: none)
        self.loops_before = loops_before  # loop_exits of the caller, below the rule's own
        self.end = [0]  # the pc after the call, patched when its ops are made


def inlinable(model, callees) -> set:
    """The rules whose calls may be compiled in place: rules called from one place only
    (so each rule's code is made once), or small ones from a few (SMALL_RULE,
    SMALL_SITES), that reach no cycle of calls (worked out upwards from the rules that
    call none, as straight_rules does)."""
    sites: dict = {name: 0 for name in callees}
    for calls in callees.values():
        for c in calls:
            sites[c] += 1
    for trig in model.triggers.values():
        for name in map(called, statements(trig.body)):
            if name in sites:
                sites[name] += 1
    acyclic = set(upwards(callees))
    return {name for name in acyclic if sites[name] == 1
            or (sites[name] <= SMALL_SITES and len(list(statements(model.rules[name].body))) <= SMALL_RULE)}


_PLAIN = frozenset({str, int, bool, type(None)})
_RENAMED = frozenset({*BINDERS, ast.Name})  # the nodes `renamed` looks at: binders and names


def rewritten(node, rewrite, classes):
    """`node` with each Node under it (itself included) of one of `classes` made again by
    `rewrite(n, changes)`, where `changes` has the parts of n that changed, made again
    first ({field: new part}); a node of another class is made again only where a part
    changed, a part with nothing changed is kept as it is, and each node keeps its Note
    (types and bindings, as the checker found them)."""
    cls = node.__class__
    if cls is tuple:
        items = tuple([item if item.__class__ in _PLAIN else rewritten(item, rewrite, classes) for item in node])
        return node if all(x is y for x, y in zip(items, node)) else items
    if cls in _PLAIN or not isinstance(node, ast.Node):
        return node
    changes = {}
    for name in ast.syntax_fields(cls):
        old = getattr(node, name)
        if old.__class__ in _PLAIN:  # most parts are names, numbers and absent parts: not looked into
            continue
        new = rewritten(old, rewrite, classes)
        if new is not old:
            changes[name] = new
    if cls in classes:
        return rewrite(node, changes)
    return msgspec.structs.replace(node, **changes) if changes else node


def _local(node, names) -> bool:
    """Whether `node` is a name of a local among `names`."""
    return isinstance(node, ast.Name) and node.name in names and node.note.binding is not None \
        and node.note.binding.local


def renamed(node, names: set, suffix: str, given=None):
    """`node` with each local in `names` renamed (binders and uses alike); a use of one
    whose new name is in `given` is replaced by its expression there."""
    def rename(n, changes):
        binder = BINDERS.get(type(n))
        if binder is not None and getattr(n, binder) in names:
            if isinstance(n, ast.Choose) and n.label is None:
                changes["label"] = n.var
            changes[binder] = getattr(n, binder) + suffix
        if _local(n, names):
            if given and n.name + suffix in given:
                return given[n.name + suffix]
            changes["name"] = n.name + suffix
        return msgspec.structs.replace(n, **changes) if changes else n
    return rewritten(node, rename, _RENAMED)


def fixed_argument(arg) -> bool:
    """An argument that reads the same wherever the rule's body would read it, and can
    neither fail nor charge work: a literal, a constant, or a local of the caller (which
    the called rule's statements can't name, its own being renamed)."""
    if isinstance(arg, ast.Name):
        return arg.note.binding in (Binding.LOCAL, Binding.CONST)
    if isinstance(arg, ast.Str):
        return all(isinstance(part, str) for part in arg.parts)
    return isinstance(arg, (ast.Int, ast.Bool, ast.NoneLit))


class InlineCompiler(OpEmitter):
    """Rule calls compiled in place (a base of game.StmtCompiler)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.inlining: list = []  # the calls being compiled in place, innermost last
        self.inlinable: set | None = None  # the rules that may be (inlinable), found on first use
        self.framed: list = []  # the rules some op calls with a frame (StmtCompiler.emit_call)
        self.sizes: dict = {}  # straight rule -> its statements, its calls written out (written_size)

    def rule_codes(self) -> dict:
        """rule -> its Code, for the rules that need one: those nobody calls (flow, set-up,
        and rules a check must still compile) and those some op calls with a frame of
        their own. A rule only ever compiled in place has no Code of its own (when not
        fusing, every rule has one). Call after compiling the triggers: their calls count."""
        some_call = {c for calls in self.callees.values() for c in calls}
        todo = [name for name in self.m.rules if not self.fuse or name not in some_call]
        codes: dict = {}
        while todo:
            name = todo.pop(0)
            if name not in codes:
                rule = self.m.rules[name]
                codes[name] = self.code(name, rule, rule.body)
                todo += [c for c in self.framed if c not in codes]
        return codes

    def code(self, name, decl, body):
        self.sites = itertools.count(1)  # numbers the calls compiled in place in this rule's ops
        return super().code(name, decl, body)

    def rule_call(self, code, s, call, result=None):
        """A call of a rule that is not straight: compiled in place when it may be, else an
        op pushing a frame (StmtCompiler.emit_call)."""
        if self.inlines(call.name):
            self.inline(code, s, call, result)
        else:
            self.emit_call(code, s, call, result)

    def inlines(self, name) -> bool:
        """Whether a call of rule `name`, here, is compiled in place."""
        if not self.fuse or len(self.inlining) >= INLINE_NESTING:
            return False
        if self.inlinable is None:
            self.inlinable = inlinable(self.m, self.callees)
        return name in self.inlinable

    def inline(self, code, s, call, result=None):
        """Rule `call.name`'s body, compiled here with its locals renamed; with `result`,
        the caller's local of that name takes what the rule gives (none until it returns)."""
        body = self.inlined_body(s, call, result)
        here = _Inlined(result, len(self.loop_exits))
        self.inlining.append(here)
        try:
            self.block(code, body)
        finally:
            self.inlining.pop()
        here.end[0] = len(code.ops)
        self.target(here.end)

    def inlined_body(self, s, call, result) -> list:
        """The statements a call compiled in place runs: its parameters bound in order (and
        `result` set to none), the depth check, and the rule's body with its locals renamed
        for this call (whole.py compiles the same)."""
        binds, body = self.renamed_call(s, call, result)
        if result is not None:  # after the arguments, which may read the caller's old `result`
            binds.append(Bind(span=s.span, name=result, value=ast.NoneLit(span=s.span)))
        enter = Enter(span=s.span, rule=call.name, level=len(self.inlining) + 1)
        return [*binds, enter, *body]

    def renamed_call(self, s, call, result=None) -> tuple:
        """([its parameters bound to the arguments, in order], the rule's body) of a call of
        rule `call.name` at statement `s`, the rule's locals renamed for this call. A
        parameter given a fixed argument (fixed_argument) that the body never changes is
        not bound: the body reads the argument where it read the parameter (but not the
        caller's local `result`, which the call sets to none before the body runs)."""
        rule = self.m.rules[call.name]
        suffix = f"·{next(self.sites)}"
        names = self.rule_locals(call.name)
        binds, given = [], {}
        for p, arg in zip(rule.params, call.args):
            if fixed_argument(arg) and not self.x.bounds.may_be_big(arg) \
                    and p.name not in self.changed_params(call.name) \
                    and not (isinstance(arg, ast.Name) and arg.name == result):
                given[p.name + suffix] = arg
            else:
                binds.append(Bind(span=s.span, name=p.name + suffix, value=arg))
        return binds, renamed(rule.body, names, suffix, given)

    def rule_locals(self, name) -> set:
        """The locals of rule `name`: its parameters and every name its statements and
        comprehensions bind (as the checker found them: Model.rule_locals)."""
        return self.m.rule_locals[name][0]

    def changed_params(self, name) -> set:
        """The parameters of rule `name` that its body assigns (`k = 3`, `move k by ...`) or
        binds again."""
        return self.m.rule_locals[name][1]

    def straight_in_place(self, name) -> bool:
        """Whether a call of straight rule `name` in a generator (whole.py) is written there
        rather than calling the rule's own stretch (OpEmitter.straight_run): a small one,
        whose statements with those of the straight rules it calls written in place too
        number at most SMALL_RULE, at any number of calls, each a copy (so the copies add
        at most SMALL_RULE statements per call written)."""
        return self.written_size(name) <= SMALL_RULE

    def written_size(self, name) -> int:
        """The statements of straight rule `name` with each call of another written out
        (each rule's count found once; straight rules never reach themselves, and call each
        other at most INLINE_DEPTH deep)."""
        size = self.sizes.get(name)
        if size is None:
            body = list(statements(self.m.rules[name].body))
            size = self.sizes[name] = len(body) + sum(
                self.written_size(s.call.name) for s in body if isinstance(s, ast.CallStmt))
        return size

    def s_Enter(self, code, s):
        span, level, site = self.m.rules[s.rule].span, s.level, s.span

        def enter(vm, env):
            charge(vm.w, 1, site)  # as every call: its arguments, then its unit of work
            if vm.frames[-1].depth + level > MAX_DEPTH:
                raise GameRuntimeError(span, "R004", f"rules call each other more than {MAX_DEPTH} deep")
        self.simple(code, s, enter)

    def s_Bind(self, code, s):
        f, name = self.x.kept(s.value), s.name

        def bind(vm, env):
            env[name] = f(vm.w, env)
        self.simple(code, s, bind)

    def inline_return(self, code, s):
        """A `return` of a rule compiled in place: its value to the caller's local, its
        loops' state dropped, then on after the call."""
        here = self.inlining[-1]
        if s.value is not None and self.m.calls_rule(s.value):  # `return r(...)`: r's result is the value
            self.rule_call(code, s, s.value, result=here.result)
            value = None
        else:
            value = self.x.kept(s.value) if s.value is not None and here.result is not None else None
        result, end = here.result, here.end
        slots = [slot for _, slot in self.loop_exits[here.loops_before:] if slot is not None]

        def ret(vm, fr):
            env = fr.env
            if value is not None:
                env[result] = value(vm.w, env)
            for slot in slots:
                env.pop(slot, None)
            fr.pc = end[0]
        self.emit(code, "return", s.span, ret)
