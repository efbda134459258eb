"""Check stage: the statements inside rule bodies. A StmtChecker holds an ExprChecker
(expr.py) for the expressions in them."""
from __future__ import annotations

from ..syntax import ast
from .expr import ExprChecker
from .types import ANY, BOOL, DIRECTION, INT, PLAYER, Binding, T, assignable


class StmtChecker:
    """Checks statements; records every error, never stops early."""

    def __init__(self, model, errors: list):
        self.m = model
        self.x = ExprChecker(model, errors)
        self.err = self.x.err
        self.suggest = self.x.suggest
        self.loop_depth = 0  # loops around the statement being checked (for 'break')
        self.result: T | None = None  # the type the rule being checked gives (`-> TYPE`), if any
        self.result_may_be_none = False

    def block(self, stmts, scope):
        for s in stmts:
            getattr(self, "s_" + type(s).__name__)(s, scope)

    def declare(self, node, scope, name, t):
        if name in scope.names:
            self.err(node, "E220", f"'{name}' is already defined in this block")
        else:
            self.not_hiding(node, scope.parent, name)
        scope.bind(name, t)

    def not_hiding(self, node, scope, name):
        """E220 for a local of a block inside the one that defines `name`: a rule's locals
        live until it returns (one per name), so the inner one would replace the outer past
        the inner block's end. (An item of a comprehension or a route is its own: allowed.)"""
        while scope is not None and scope.binding is Binding.LOCAL:
            if name in scope.names:
                self.err(node, "E220", f"'{name}' is already defined in an enclosing block; use another name")
                return
            scope = scope.parent

    def s_Let(self, s, scope):
        if self.m.calls_rule(s.value):
            t = self.rule_result(s.value, scope)
        else:
            t = self.x.expr(s.value, scope)
        self.declare(s, scope, s.name, t)

    def rule_result(self, call, scope):
        rule = self.m.rules[call.name]
        self.x.call_args(call, rule.params, scope)
        if rule.returns is None:
            self.err(call, "E236", f"rule '{call.name}' gives no result: declare it "
                                   f"'rule {call.name}(...) -> TYPE' and end it with 'return VALUE'")
            return ANY
        return self.m.resolve_type(rule.returns) or ANY

    def s_Roll(self, s, scope):
        if s.count < 1 or s.count > 100 or s.sides < 1 or s.sides > 1000:
            self.err(s, "E221", f"dice {s.count}d{s.sides}: 1-100 dice of 1-1000 sides")
        self.declare(s, scope, s.name, INT)

    def s_Assign(self, s, scope):
        target = s.target
        tt = self.assign_target(target, scope)
        if s.op == "=":
            self.x.want(s.value, scope, tt, f"the new value of '{_show(target)}'")
        else:
            if tt not in (INT, ANY):
                self.err(s, "E222", f"'{s.op}' needs an int target, not {tt}")
            self.x.want(s.value, scope, INT, f"the right side of '{s.op}'")

    def assign_target(self, target, scope) -> T:
        """The type of what `name = ...` or `move name by ...` changes; a name is noted as
        assigned (a parameter changed: a call compiled in place gives it a local)."""
        if isinstance(target, ast.Name):
            scope.assigned.add(target.name)
            found = self.x.resolve(target.name, scope)
            if found is not None and found[0] in (Binding.LOCAL, Binding.SHARED_FIELD):
                target.note.binding, target.note.type = found
                return found[1]
            if found is not None:
                self.err(target, "E223", f"'{target.name}' cannot be assigned")
                return ANY
            self.err(target, "E202", f"unknown name '{target.name}'"
                                     f"{self.suggest(target.name, self.x.known_names(scope))}")
            return ANY
        if isinstance(target, ast.Attr):
            t = self.x.expr(target, scope)
            ot = target.obj.note.type
            if t != ANY and not self.is_field(ot, target.name):
                self.err(target, "E223", f"'{target.name}' of {ot} is fixed; only fields can change")
            return t
        self.err(target, "E223", "only names and fields can be assigned")
        return ANY

    def is_field(self, ot, name):
        m = self.m
        if ot.kind == "player":
            return name in m.player_fields
        if ot.kind == "space":
            return name in m.boards[ot.name].fields
        if ot.kind == "card":  # the cards of a zone whose card set is unknown: E319 says so
            return ot.name not in m.cardsets or name in m.cardsets[ot.name].fields
        return ot.kind == "any"

    def s_CallStmt(self, s, scope):
        call = s.call
        if call.name in self.m.rules:
            self.x.call_args(call, self.m.rules[call.name].params, scope)
        elif call.name in self.m.defs:
            self.err(s, "E224", f"'{call.name}' is a def (a value); use it inside an expression")
        else:
            self.x.unknown_call(call, "E225", f"unknown rule '{call.name}'{self.suggest(call.name, self.m.rules)}")
            for a in call.args:
                self.x.expr(a, scope)

    def s_If(self, s, scope):
        for cond, body in s.branches:
            self.x.want(cond, scope, BOOL, "an 'if' condition")
            self.block(body, scope.child())
        if s.other is not None:
            self.block(s.other, scope.child())

    def s_For(self, s, scope):
        self.not_hiding(s, scope, s.var)
        el, inner = self.x.element_scope(s.source, s.var, scope)
        if s.order is not None:
            self.x.want(s.order, inner, INT, "a 'by' key")
        if s.start is not None:
            if el not in (PLAYER, ANY):
                self.err(s.start, "E226", "'from' needs a loop over players")
            self.x.want(s.start, scope, PLAYER, "the 'from' player")
        self.loop_body(s.body, inner)

    def s_While(self, s, scope):
        self.x.want(s.cond, scope, BOOL, "a 'while' condition")
        self.loop_body(s.body, scope.child())

    def s_Repeat(self, s, scope):
        self.x.want(s.count, scope, INT, "a 'repeat' count")
        self.loop_body(s.body, scope.child())

    def s_Loop(self, s, scope):
        self.loop_body(s.body, scope.child())

    def loop_body(self, body, scope):
        self.loop_depth += 1
        try:
            self.block(body, scope)
        finally:
            self.loop_depth -= 1

    def s_Break(self, s, scope):
        if self.loop_depth == 0:
            self.err(s, "E233", "'break' outside a loop (a loop in a calling rule doesn't count)")

    def s_Choose(self, s, scope):
        el, inner = self.x.binder(s, scope)
        self.x.want(s.by, scope, PLAYER, "the chooser ('by')")
        self.declare(s, scope, s.var, el)

    def s_Menu(self, s, scope):
        self.x.want(s.by, scope, PLAYER, "the chooser ('by')")
        seen = set()
        for opt in s.options:
            if opt.label in seen:
                self.err(opt, "E227", f"option '{opt.label}' appears twice")
            seen.add(opt.label)
            if opt.guard is not None:
                self.x.want(opt.guard, scope, BOOL, "an option's condition")
            self.block(opt.body, scope.child())

    def s_May(self, s, scope):
        self.x.want(s.by, scope, PLAYER, "the chooser of 'may'")
        if s.guard is not None:
            self.x.want(s.guard, scope, BOOL, "a 'may' condition")
        self.block(s.body, scope.child())

    def s_MoveCard(self, s, scope):
        ct = self.x.expr(s.card, scope)
        zt = self.x.expr(s.dest, scope)
        if zt.kind not in ("zone", "any"):
            self.err(s.dest, "E228", f"cards move to a zone, not {zt}")
        elif ct.kind not in ("card", "any"):
            self.err(s.card, "E228", f"only cards move between zones, not {ct}")
        elif ct.kind == "card" and zt.kind == "zone" and ct.name != zt.name:
            self.err(s, "E228", f"zone holds {zt.name} cards, not {ct.name}")

    def s_Walk(self, s, scope):
        tt = self.assign_target(s.target, scope)
        if tt.kind not in ("space", "any"):
            self.err(s.target, "E229", f"'move ... by' moves a space-valued field, not {tt}")
        elif tt.kind == "space" and self.m.boards[tt.name].decl.topology not in ("loop", "line", "graph"):
            self.err(s.target, "E229", f"board '{tt.name}' has no track order: give it 'loop', 'line' or 'graph'")
        self.x.want(s.count, scope, INT, "a step count")
        self.x.want(s.direction, scope, T("enum", DIRECTION), "a direction")
        self.walk_route(s, scope, tt)

    def walk_route(self, s, scope, tt):
        """`via t where ROUTE` and `by P`: how a walk on a graph board picks its way at forks."""
        has_route = s.route is not None or s.by is not None
        if s.route is not None:
            inner = scope.child()
            inner.bind(s.via, tt)
            self.x.want(s.route, inner, BOOL, "a route condition ('via ... where')")
        if s.by is not None:
            self.x.want(s.by, scope, PLAYER, "the chooser at a fork ('by')")
        if tt.kind != "space":
            return
        decl = self.m.boards[tt.name].decl
        if decl.topology != "graph":
            if has_route and decl.topology in ("loop", "line"):
                self.err(s, "E230", f"board '{tt.name}' is a {decl.topology} with no forks: "
                                    "'via ... where' and 'by' pick a way on graph boards only")
            return
        if not has_route and _has_fork(decl.links, _literal_direction(s.direction)):
            self.err(s, "E231", f"board '{tt.name}' has forks (a space with more than one way on): "
                                "say how the walk picks its way, with a route ('via t where ...') "
                                "and/or a chooser ('by P')")

    def s_Draw(self, s, scope):
        if s.count is not None:
            self.x.want(s.count, scope, INT, "a draw count")
        a = self.x.expr(s.source, scope)
        b = self.x.expr(s.dest, scope)
        for node, t in ((s.source, a), (s.dest, b)):
            if t.kind not in ("zone", "any"):
                self.err(node, "E228", f"draw works on zones, not {t}")
        if a.kind == b.kind == "zone" and a.name != b.name:
            self.err(s, "E228", f"cannot draw {a.name} cards into a zone of {b.name}")

    def s_Shuffle(self, s, scope):
        t = self.x.expr(s.zone, scope)
        if t.kind not in ("zone", "any"):
            self.err(s.zone, "E228", f"only zones can be shuffled, not {t}")

    def s_Say(self, s, scope):
        self.x.expr(s.text, scope)

    def s_Reveal(self, s, scope):
        self.x.expr(s.value, scope)
        if s.to is not None:
            self.x.want(s.to, scope, PLAYER, "the 'to' of a reveal")

    def s_Eliminate(self, s, scope):
        self.x.want(s.player, scope, PLAYER, "who is eliminated")

    def s_EndGame(self, s, scope):
        if s.winner is not None:
            self.x.want(s.winner, scope, PLAYER, "the winner")

    def s_Return(self, s, scope):
        result = self.result
        if s.value is None:
            if result is not None and result != ANY and not self.result_may_be_none:
                self.err(s, "E234", f"this rule gives {result}: write 'return VALUE'")
            return
        if result is None:
            self.err(s, "E234", "'return VALUE' in a rule that declares no result: write '-> TYPE' after its "
                                "parameters")
            self.x.expr(s.value, scope)
            return
        if self.m.calls_rule(s.value):  # `return r(...)`: the result of another rule
            given = self.rule_result(s.value, scope)
            if not assignable(given, result):
                self.err(s.value, "E201", f"the rule's result must be {result}, not {given}")
            return
        self.x.want(s.value, scope, result, "the rule's result")


def can_fall_through(stmts) -> bool:
    """Whether running `stmts` can go on past their end: no `return`, `end` or endless
    `loop` on every path stops it first."""
    return all(_goes_on(s) for s in stmts)


def _goes_on(s) -> bool:
    if isinstance(s, (ast.Return, ast.EndGame)):
        return False
    if isinstance(s, ast.If):
        return (s.other is None or can_fall_through(s.other)
                or any(can_fall_through(body) for _, body in s.branches))
    if isinstance(s, ast.Menu):
        return any(o.guard is not None or can_fall_through(o.body) for o in s.options)
    if isinstance(s, ast.Loop):
        return _breaks(s.body)
    return True


LOOPS = (ast.For, ast.While, ast.Repeat, ast.Loop)


def _breaks(stmts) -> bool:
    """Whether a `break` of the enclosing loop is among `stmts` (not inside an inner loop)."""
    for s in stmts:
        if isinstance(s, ast.Break):
            return True
        if not isinstance(s, LOOPS) and any(_breaks(body) for body in _branches(s)):
            return True
    return False


def _branches(s) -> list:
    """The blocks of a statement that branches without looping."""
    if isinstance(s, ast.If):
        return [body for _, body in s.branches] + [s.other or ()]
    if isinstance(s, ast.Menu):
        return [o.body for o in s.options]
    if isinstance(s, ast.May):
        return [s.body]
    return []


def _literal_direction(e):
    """'forward'/'backward' when the walk names one, else None (either may happen)."""
    if isinstance(e, ast.Name) and e.name in ("forward", "backward"):
        return e.name
    if isinstance(e, ast.Attr) and isinstance(e.obj, ast.Name) and e.obj.name == DIRECTION:
        return e.name
    return None


def _has_fork(links, direction):
    """Whether some space has two or more ways on: links written from it (forward) or to it (backward)."""
    for d in (("forward", "backward") if direction is None else (direction,)):
        ways: dict = {}
        for a, b, _ in links:
            src, dst = (a, b) if d == "forward" else (b, a)
            ways.setdefault(src, set()).add(dst)
        if any(len(v) > 1 for v in ways.values()):
            return True
    return False


def _show(e) -> str:
    if isinstance(e, ast.Name):
        return e.name
    if isinstance(e, ast.Attr):
        return f"{_show(e.obj)}.{e.name}"
    return "..."
