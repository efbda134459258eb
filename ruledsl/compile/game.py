"""Compile stage: the checked game becomes a Program of Code blocks (a state machine).

Each rule compiles to a flat list of ops; a state is (rule, pc), transitions are
pc moves and jumps, and decision points are the ops that pause the Machine.
"""
from __future__ import annotations

import itertools

from .. import budget
from ..errors import RUNTIME_FAILURES, Diagnostic, GameRuntimeError, RuleError
from ..runtime.program import BoardRT, Card, EndRT, Program
from ..syntax import ast
from .cards import CardCompiler
from .checked_calls import WHY_NONE, no_attribute, none_checked, operated, stored_number
from .decide import DecisionCompiler
from .defs import light_cell
from .expr import ExprCompiler
from .flow import FlowCompiler
from .inline import InlineCompiler
from .inplace import GameOver
from .ops import RETURNED
from .stores import number_field
from .telling import TellingCompiler
from .watch import ends_read, zones_watched
from .whole import whole_rules


def compile_game(model, path: str, sources: dict | None = None, fuse: bool = True, watch: bool = True,
                 chance_apart: bool = False) -> Program:
    """Raises RuleError when a card set's rows or label can't be fixed (E401, E402) or an
    expression is too deep for the code generator (E403).

    With `fuse`, consecutive straight-line statements run as one op (fast); without,
    each statement is an op of its own (for tracing which statement wrote what). With
    `watch`, only writes of what the end conditions read mark the World changed
    (watch.py); without, every write does. With `chance_apart`, each statement that may
    ask for chance is an op of its own that asks before it changes anything (OpEmitter),
    so that a chance source may pause the Machine there (Machine.resume)."""
    try:
        return _compile_game(model, path, sources, fuse, watch, chance_apart)
    except RuleError as err:
        raise RuleError(err.diagnostics, {**(sources or {}), **err.sources}) from None


def _compile_game(model, path, sources, fuse, watch, chance_apart) -> Program:
    prog = Program(title=model.title, path=path, min_players=model.min_players, max_players=model.max_players)
    prog.ends_read = ends_read(model) if watch else None
    prog.zones_watched = zones_watched(prog.ends_read)
    prog.enums = {k: list(v) for k, v in model.enums.items()}
    ex = ExprCompiler(model, prog)
    for name in model.defs:
        prog.def_bodies[name] = [None]  # placeholders: defs may call each other
        prog.def_light[name] = light_cell(ex, name)
    _tables(model, prog, ex)
    for name, d in model.defs.items():
        prog.def_bodies[name][0] = ex.define(d)
    errors = _cards(model, prog, ex)  # after defs: card labels may call them
    if errors:
        raise RuleError(errors, sources)
    prog.fill_card_columns()
    sc = StmtCompiler(model, prog, ex, fuse, chance_apart)
    prog.chance_apart = chance_apart
    for (kind, board), trig in model.triggers.items():
        prog.triggers[(kind, board)] = sc.code(f"on {kind} {board}", trig, trig.body)
    prog.rules.update(sc.rule_codes())
    if fuse and not chance_apart:  # the rules' generators are made when a fast Machine first runs the game
        prog.make_whole = lambda: whole_rules(sc, prog, model)
    for end in model.ends:
        prog.ends.append(EndRT(end.name, end.reason, ex(end.cond), ex(end.winner) if end.winner else None, end.span,
                               end.draw))
    if model.score is not None:
        value = model.score.value
        prog.score_fn, prog.score_var = _scored(ex, value, ex(value), "score"), model.score.var
        prog.scores_fn = _scored(ex, value, ex.each_seat(value, model.score.var, prog.score_fn), "score", each=True)
    prog.tiebreaks = [_bind_var(_scored(ex, t.value, ex(t.value), "tiebreak"), t.var, prog.score_var)
                      for t in model.tiebreaks]
    return prog


def _scored(ex, value, fn, what: str, each: bool = False):
    """`fn`, a seat's score or tiebreak (`each`: every seat's), failing with R000 where it
    is a number that is none (bounds.Nones), which no seat can be ranked by."""
    return fn if not ex.nones.may_be_none(value) else none_checked(fn, value.span, f"a seat's {what}", each)


SETUP_ORDER = ("constants, shared fields, player fields, board fields and card fields are set up in that "
               "order, zones last")


def _start(ex, e, span, what):
    """The starting value `e` of a constant or field (`what` names it), made at set-up:
    failing, it is a runtime error at its declaration (R009), not a crash; beyond R012's
    bound, R012 there; a number that is none (where it may be: bounds.Nones), R000 there."""
    fn, t = ex.once(e), e.note.type
    number = t is not None and t.kind == "int" and ex.nones.may_be_none(e)

    def initial(w, env):
        try:
            value = fn(w, env)
            if number and value is None:
                raise GameRuntimeError(span, "R000", f"{what} is a number, and it is none here {WHY_NONE}")
            return budget.number(value, span)  # kept, as every number a game keeps (bounds.py)
        except (budget.WorkLimit, GameRuntimeError):
            raise
        except RecursionError:
            raise GameRuntimeError(span, "R004", f"{what}: defs call each other too deep") from None
        except RUNTIME_FAILURES:
            raise GameRuntimeError(span, "R009", f"{what} can't be computed at set-up: it reads something not "
                                                 f"set up yet ({SETUP_ORDER})") from None
    return initial


def _bind_var(fn, var, as_var):
    if var == as_var:
        return fn
    return lambda w, env: fn(w, {var: env[as_var]})


def _tables(model, prog, ex):
    for name, c in model.consts.items():
        prog.consts.append((name, _start(ex, c.value, c.span, f"constant '{name}'")))
    for name, info in model.boards.items():
        spaces = info.spaces
        attrs_of = {a: {} for a in info.params}
        for row in info.decl.spaces:
            vals = _row_values(row.values, info.params, info.defaults)
            for a, v in vals.items():
                attrs_of[a][row.name] = v
        fwd, bwd = {}, {}
        topo = info.decl.topology
        for i, s in enumerate(spaces):
            if i + 1 < len(spaces) or topo == "loop":
                nxt = spaces[(i + 1) % len(spaces)]
                fwd[s], bwd[nxt] = nxt, s
        for s in spaces:
            fwd.setdefault(s, s)
            bwd.setdefault(s, s)
        fields = [(f.name, _start(ex, f.default, f.span, f"the starting value of {name} field '{f.name}'"))
                  for f in info.fields.values()]
        for f in info.fields.values():
            _labeler(model, prog, name, f)
        links = {s: [] for s in spaces}
        for a, b, _ in info.decl.links:
            for x, y in ((a, b), (b, a)):
                if y not in links[x]:
                    links[x].append(y)
        ways = {"forward": {}, "backward": {}}
        for a, b, _ in info.decl.links:
            for d, x, y in (("forward", a, b), ("backward", b, a)):
                if y not in ways[d].setdefault(x, []):
                    ways[d][x].append(y)
        prog.boards[name] = BoardRT(name, spaces, attrs_of, fwd, bwd, fields, links, ways)
    for owner, table, out in (("shared", model.shared_fields, prog.shared_fields),
                              ("player", model.player_fields, prog.player_fields)):
        for name, f in table.items():
            out.append((name, _start(ex, f.default, f.span, f"the starting value of {owner} field '{name}'")))
            _labeler(model, prog, owner, f)
            if f.secret:
                prog.secret_player_fields[name] = True
    prog.zones = dict(model.zones)
    prog.zone_order = list(model.zones)


class FixedWorld:
    """What card rows and labels can read: they are fixed before a game starts, so only
    constants that don't depend on the player count (anything else is missing here)."""

    def __init__(self, prog):
        self.consts = _FixedConsts(dict(prog.consts), self)
        self.work = budget.STEP_WORK


class _FixedConsts(dict):
    def __init__(self, fns, world):
        super().__init__()
        self.fns, self.world = fns, world

    def __missing__(self, name):
        value = self[name] = self.fns[name](self.world, {})
        return value


def _cards(model, prog, ex):
    fixed = FixedWorld(prog)
    errors = []
    for name, cs in model.cardsets.items():
        ids = []
        try:
            label_of = _card_labeler(cs, ex, fixed)
            for attrs_ in _expand(cs, ex, fixed):
                cid = len(prog.cards)
                if cid >= budget.MAX_CARDS:
                    raise budget.WorkLimit(cs.decl.span, "E402", "")
                prog.cards.append(Card(cid, name, attrs_, label_of(attrs_)))
                ids.append(cid)
        except budget.WorkLimit:
            errors.append(Diagnostic(cs.decl.span, "E402", f"card set '{name}': a game has at most "
                                     f"{budget.MAX_CARDS:,} cards, and a row's range at most {budget.MAX_RANGE:,}"))
        except (AttributeError, KeyError, TypeError, ValueError, GameRuntimeError, RecursionError):
            errors.append(Diagnostic(cs.decl.span, "E401",
                                     f"card set '{name}': its rows and label are fixed before a game starts, so they "
                                     "can use literals, the card's attributes, enum values and constants that don't "
                                     "depend on the player count, and defs of those"))
        prog.cardset_ids[name] = ids
        if cs.fields:
            prog.card_fields[name] = [(f.name, _start(ex, f.default, f.span, f"the starting value of {name} field '{f.name}'"))
                                      for f in cs.fields.values()]
    return errors


def _labeler(model, prog, owner, f):
    t = model.resolve_type(f.type)
    if t is not None and t.kind not in ("int", "bool"):
        prog.field_labelers[(owner, f.name)] = prog.labeler(t)


def _row_values(values, params, defaults) -> dict:
    out = {}
    for name, v in zip(params, values):
        out[name] = v.value
    for name in list(params)[len(values):]:
        out[name] = defaults[name].value
    return out


def _expand(cs, ex, fixed):
    for row in cs.rows:
        if isinstance(row, ast.CardRow):
            vals = _row_values(row.values, cs.params, cs.defaults)
            for _ in range(row.copies):
                yield dict(vals)
            continue
        names = [n for n, _ in row.bindings]
        domains = [ex.once(e)(fixed, {}) for _, e in row.bindings]
        for combo in itertools.product(*domains):
            vals = {n: cs.defaults[n].value for n in cs.params if n in cs.defaults}
            vals.update(zip(names, combo))
            yield vals


def _card_labeler(cs, ex, fixed):
    """attrs -> the card's label: its set's `label` (compiled once for the set), else the
    attribute values that differ from their defaults."""
    if cs.decl.label is not None:
        label = ex.once(cs.decl.label)
        return lambda attrs_: label(fixed, dict(attrs_))

    def shown(attrs_):
        values = [str(v) for n, v in attrs_.items() if not (n in cs.defaults and cs.defaults[n].value == v)]
        return " ".join(values) or cs.decl.name
    return shown


class StmtCompiler(FlowCompiler, DecisionCompiler, TellingCompiler, InlineCompiler, CardCompiler):
    """Every statement: control flow, decisions, what the rules tell (say, reveal,
    eliminate), calls compiled in place, and cards and dice from the base classes, and
    here the other straight ones (effects), rule calls and returns."""

    # ------------------------------------------------------------ simple effects
    def s_Let(self, code, s):
        if self.m.calls_rule(s.value):  # `let x = r(...)`: a call of rule r
            self.rule_call(code, s, s.value, result=s.name)
            return
        f, name = self.x(s.value), s.name

        span = s.span

        def let(vm, env):
            value = env[name] = f(vm.w, env)
            if value.__class__ is int and not -budget.MAX_NUMBER < value < budget.MAX_NUMBER:
                budget.number(value, span)

        def bind(vm, env):  # a player or card, say, or a count: never a big number (bounds.py)
            env[name] = f(vm.w, env)
        self.simple(code, s, let if self.x.bounds.may_be_big(s.value) else bind)

    def s_Assign(self, code, s):
        self.simple(code, s, self.x.store(s.target, s.op, s.value, self.assign_reference(s)))

    def assign_reference(self, s):
        """`assign(vm, env)`: the assignment evaluated step by step through checked code,
        for its precise error, where its generated code failed."""
        value = self.x(s.value)
        setter = self.setter(s.target)
        getter = self.x(s.target) if s.op != "=" else None
        field = number_field(s.target) if s.op == "=" else None  # a field's number is never none

        def assign(vm, env):  # the reference version: checks each step for a precise error
            w = vm.w
            v = value(w, env)
            if getter is not None:
                v = operated(getter(w, env), v, s.op, s.target.span, s.value.span)
            setter(w, env, budget.number(v, s.value.span) if field is None else stored_number(v, s.value.span, field))
        return assign

    def setter(self, target):
        """A closure (w, env, value) that stores into a local, shared or entity field."""
        if isinstance(target, ast.Name):
            name = target.name
            if target.note.binding.local:
                return lambda w, env, v: env.__setitem__(name, v)
            return lambda w, env, v: w.shared.__setitem__(name, v)
        obj, name, span = self.x(target.obj), target.name, target.obj.span
        ot = target.obj.note.type

        def need(w, env):
            o = obj(w, env)
            if o is None:
                raise no_attribute(span, name)
            return o
        if ot.kind == "player":
            return lambda w, env, v: w.players[need(w, env)].__setitem__(name, v)
        if ot.kind == "space":
            board = ot.name
            return lambda w, env, v: w.spaces[board][name].__setitem__(need(w, env), v)
        return lambda w, env, v: w.cardf[name].__setitem__(need(w, env), v)

    def s_CallStmt(self, code, s):
        """A call of a rule that is not straight (a straight one runs in its stretch,
        inplace.py)."""
        self.rule_call(code, s, s.call)

    def arguments(self, call, span):
        """`f(w, env)` giving the {parameter: value} dict a rule call passes."""
        return self.x.record([p.name for p in self.m.rules[call.name].params], call.args, span)

    def emit_call(self, code, s, call_expr, result=None):
        """A rule call; with `result`, the caller's local of that name takes what the rule
        gives (none until it returns a value)."""
        back = self.next_pc(code)  # where the rule returns to
        self.emit(code, "call", s.span, self.frame_call(s, call_expr, result, back))

    def frame_call(self, s, call_expr, result=None, back=None):
        """`push(vm, fr)`: the arguments evaluated, then the caller's pc set to `back[0]`
        (where the rule returns to in an op list; None: a generated rule's, whole.py) and a
        frame pushed for the rule called."""
        rule, args, rules = call_expr.name, self.arguments(call_expr, s.span), self.p.rules
        inlined, span = len(self.inlining), s.span
        self.framed.append(rule)

        def push(vm, fr):
            w = vm.w
            env = args(w, fr.env)
            budget.charge(w, 1, span)  # as every call: its arguments, then its unit of work
            if result is not None:
                fr.env[result] = None
            if back is not None:
                fr.pc = back[0]
            return vm.call(rules[rule], env, result, inlined)
        return push

    def s_EndGame(self, code, s):
        winner = self.x(s.winner) if s.winner is not None else None
        reason, draw = s.reason, s.draw

        def end(vm, env):
            vm.finish(reason, winner=winner(vm.w, env) if winner else None, draw=draw)
            raise GameOver  # the op running this pauses the Machine for good
        self.simple(code, s, end)

    def s_Return(self, code, s):
        if self.inlining:  # the return of a rule compiled in place (inline.py)
            self.inline_return(code, s)
            return
        if self.m.calls_rule(s.value):  # `return r(...)`: r's result
            self.rule_call(code, s, s.value, result=RETURNED)
            value = lambda w, env: env[RETURNED]  # noqa: E731
        else:
            value = self.x.kept(s.value) if s.value is not None else None  # kept by the caller

        def ret(vm, fr):
            if value is not None and fr.result is not None:
                vm.frames[-2].env[fr.result] = value(vm.w, fr.env)
            fr.pc = len(fr.code.ops)
        self.emit(code, "return", s.span, ret)
