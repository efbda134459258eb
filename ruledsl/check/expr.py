"""Check stage: the type of every expression, and what each name in it stands for.

The ExprChecker writes both into the expression's `note` (ast.Note), once; the compiler
and every later stage read them there. Statements: stmt.py."""
from __future__ import annotations

from ..budget import MAX_RANGE
from ..errors import Diagnostic, Suggestions
from ..syntax import ast
from ..syntax.load import BASE_CALL
from .types import ANY, BOOL, INT, NONE, PLAYER, STR, Binding, T, assignable, coll, comparable, elem_of

AGGREGATES = ("count", "sum", "max", "min", "any", "all", "first", "best")
GLOBAL_NAMES = {"players": (Binding.PLAYERS, coll(PLAYER)), "seats": (Binding.SEATS, coll(PLAYER)),
                "player_count": (Binding.PLAYER_COUNT, INT)}


MAX_NESTING = 120  # deeper expressions are E232 (Python itself parses ~200 nested levels)


class Scope:
    """The names a block binds. `items` scopes bind the item of a comprehension
    (`count(x in S ...)`, `[x in S where ...]`, `choose x from S where ...`). A scope
    and those inside it note every name bound (`bind`) and every name assigned
    (`name = ...`, `move name by ...`) in them: a rule's locals (Model.rule_locals)."""

    def __init__(self, parent=None, items=False):
        self.parent = parent
        self.names: dict = {}  # name -> T
        self.binding = Binding.ITEM if items else Binding.LOCAL
        self.bound, self.assigned = (set(), set()) if parent is None else (parent.bound, parent.assigned)

    def bind(self, name, t):
        self.names[name] = t
        self.bound.add(name)

    def find(self, name) -> tuple | None:
        """(Binding, T) of the innermost binding of `name`, or None."""
        s = self
        while s is not None:
            if name in s.names:
                return s.binding, s.names[name]
            s = s.parent
        return None

    def child(self, items=False):
        return Scope(self, items)


class ExprChecker:
    """Types expressions and resolves their names; records every error, never stops early."""

    def __init__(self, model, errors: list):
        self.m = model
        self.errors = errors
        self.depth = 0  # how deep expr() is nested now
        self.too_deep = False  # E232 already reported (once is enough)
        self.suggest = Suggestions()

    def err(self, node, code, msg):
        self.errors.append(Diagnostic(node.span, code, msg))

    # ------------------------------------------------------------ expressions
    def expr(self, e, scope) -> T:
        if self.depth >= MAX_NESTING:
            if not self.too_deep:
                self.err(e, "E232", f"expression nested more than {MAX_NESTING} levels deep; split it with 'let' or defs")
            self.too_deep = True
            return ANY
        self.depth += 1
        try:
            t = getattr(self, "x_" + type(e).__name__)(e, scope)
        finally:
            self.depth -= 1
        e.note.type = t
        return t

    def want(self, e, scope, want: T, what: str) -> T:
        t = self.expr(e, scope)
        if not assignable(t, want):
            self.err(e, "E201", f"{what} must be {want}, not {t}")
        return t

    def x_Int(self, e, scope):
        return INT

    def x_Bool(self, e, scope):
        return BOOL

    def x_NoneLit(self, e, scope):
        return NONE

    def x_Str(self, e, scope):
        for part in e.parts:
            if not isinstance(part, str):
                self.expr(part, scope)
        return STR

    def x_Name(self, e, scope):
        found = self.resolve(e.name, scope)
        if found is None:
            self.err(e, "E202", f"unknown name '{e.name}'{self.suggest(e.name, self.known_names(scope))}")
            return ANY
        e.note.binding, t = found
        if e.note.binding is Binding.ZONE and self.m.zones[e.name].per is not None:
            self.err(e, "E205", f"zone '{e.name}' is per {self.m.zones[e.name].per}: write {e.name}[...]")
        return t

    def known_names(self, scope):
        """Every name an expression here can read (for "did you mean"), locals first."""
        m, s = self.m, scope
        while s is not None:
            yield from s.names
            s = s.parent
        for table in (GLOBAL_NAMES, m.const_types, m.shared_fields, m.enum_of_value,
                      m.board_of_space, m.zones, m.enums, m.boards, m.cardsets):
            yield from table

    def resolve(self, name, scope) -> tuple | None:
        """(Binding, T) of what `name` stands for here, or None: a local first, then
        the game's names in one fixed order."""
        found = scope.find(name)
        if found is not None:
            return found
        m = self.m
        if name in GLOBAL_NAMES:
            return GLOBAL_NAMES[name]
        if name in m.const_types:
            return Binding.CONST, m.const_types[name]
        if name in m.shared_fields:
            return Binding.SHARED_FIELD, m.resolve_type(m.shared_fields[name].type) or ANY
        if name in m.enum_of_value:
            return Binding.ENUM_VALUE, T("enum", m.enum_of_value[name][0])
        if name in m.board_of_space:
            return Binding.SPACE, T("space", m.board_of_space[name][0])
        if name in m.zones:
            return Binding.ZONE, T("zone", m.zones[name].cards)
        if name in m.enums:
            return Binding.ENUM, coll(T("enum", name))
        if name in m.boards:
            return Binding.BOARD, coll(T("space", name))
        if name in m.cardsets:
            return Binding.CARDSET, coll(T("card", name))
        return None

    def name_type(self, name, scope) -> T | None:
        found = self.resolve(name, scope)
        return None if found is None else found[1]

    def names(self, e, scope, binding) -> bool:
        """Whether `e` is a name that stands here for `binding` (a local of the same name
        hides the game's); if so, it is recorded as such."""
        found = self.resolve(e.name, scope) if isinstance(e, ast.Name) else None
        if found is None or found[0] is not binding:
            return False
        e.note.binding, e.note.type = found
        return True

    def x_Attr(self, e, scope):
        if self.names(e.obj, scope, Binding.ENUM):  # `Color.red`
            if e.name not in self.m.enums[e.obj.name]:
                self.err(e, "E203", f"enum '{e.obj.name}' has no value '{e.name}'"
                                    f"{self.suggest(e.name, self.m.enums[e.obj.name])}")
            return T("enum", e.obj.name)
        ot = self.expr(e.obj, scope)
        t = self.attr_type(ot, e.name)
        if t is None:
            self.err(e, "E204", f"{ot} has no attribute '{e.name}'{self.suggest(e.name, self.attr_names(ot))}")
            return ANY
        return t

    def attr_names(self, ot: T) -> list:
        m = self.m
        if ot.kind == "player":
            return [*m.player_fields, "seat", "alive"]
        info = m.boards.get(ot.name) if ot.kind == "space" else m.cardsets.get(ot.name) if ot.kind == "card" else None
        return [*info.params, *info.fields] if info is not None else []

    def attr_type(self, ot: T, name: str):
        m = self.m
        if ot.kind == "any":
            return ANY
        if ot.kind == "player":
            if name in m.player_fields:
                return m.resolve_type(m.player_fields[name].type) or ANY
            return {"seat": INT, "alive": BOOL}.get(name)
        if ot.kind == "card" and ot.name not in m.cardsets:
            return ANY  # the cards of a zone whose card set is unknown (E319 says so)
        info = m.boards[ot.name] if ot.kind == "space" else m.cardsets[ot.name] if ot.kind == "card" else None
        if info is None:
            return None
        if name in info.params:
            return info.params[name]  # fixed per space or card
        if name in info.fields:
            return m.resolve_type(info.fields[name].type) or ANY
        return None

    def x_Index(self, e, scope):
        if self.names(e.obj, scope, Binding.ZONE):  # `hand[p]`
            zone = self.m.zones[e.obj.name]
            if zone.per is None:
                self.err(e, "E205", f"zone '{zone.name}' is not per anything; write just '{zone.name}'")
                self.expr(e.index, scope)
            else:
                self.want(e.index, scope, self.key_type(zone), f"the key of zone '{zone.name}'")
            return T("zone", zone.cards)
        ot = self.expr(e.obj, scope)
        self.want(e.index, scope, INT, "an index")
        if ot.kind == "coll":
            return ot.elem
        if ot.kind != "any":
            self.err(e, "E206", f"{ot} cannot be indexed")
        return ANY

    def key_type(self, zone) -> T:
        if zone.per == "player":
            return PLAYER
        if zone.per in self.m.enums:
            return T("enum", zone.per)
        if zone.per in self.m.boards:
            return T("space", zone.per)
        if zone.per in self.m.cardsets:
            return T("card", zone.per)
        return ANY

    def x_Call(self, e, scope):
        from .builtins import BUILTINS
        if e.name in self.m.defs:
            d = self.m.defs[e.name]
            self.call_args(e, d.params, scope)
            return self.m.def_types.get(e.name, ANY)
        if e.name in self.m.rules:
            self.err(e, "E207", f"rule '{e.name}' has effects; call it as a statement, or take its result "
                                f"with 'let NAME = {e.name}(...)', not inside an expression")
            return ANY
        if e.name in BUILTINS:
            return BUILTINS[e.name].check(self, e, scope)
        if e.name in AGGREGATES:
            self.err(e, "E208", f"'{e.name}' takes a binding: write {e.name}(x in S ...)")
            return ANY
        self.unknown_call(e, "E209", f"unknown function '{e.name}'"
                                     f"{self.suggest(e.name, [*self.m.defs, *BUILTINS, *AGGREGATES, *self.m.rules])}")
        for a in e.args:
            self.expr(a, scope)
        return ANY

    def unknown_call(self, call, code, msg):
        if call.name == BASE_CALL:
            self.err(call, "E237", f"'{BASE_CALL}(...)' calls the version that an override replaces: it works inside "
                                   "'override rule' or 'override def' of a variant, where the base game has that rule "
                                   "or def")
            return
        self.err(call, code, msg)

    def call_args(self, e, params, scope):
        if len(e.args) != len(params):
            self.err(e, "E210", f"'{e.name}' takes {len(params)} argument(s), got {len(e.args)}")
        for arg, p in zip(e.args, params):
            want = self.m.resolve_type(p.type) or ANY
            self.want(arg, scope, want, f"argument '{p.name}' of '{e.name}'")
        for arg in e.args[len(params):]:
            self.expr(arg, scope)

    def element_scope(self, source, var, scope, items=False):
        """The element type of `source` and a child scope binding `var` to it."""
        st = self.expr(source, scope)
        el = elem_of(st)
        if el is None:
            self.err(source, "E211", f"cannot iterate over {st}")
            el = ANY
        inner = scope.child(items)
        inner.bind(var, el)
        return el, inner

    def binder(self, e, scope):
        """`x in S where C` of a comprehension (or of `choose`, which offers one)."""
        el, inner = self.element_scope(e.source, e.var, scope, items=True)
        if e.where is not None:
            self.want(e.where, inner, BOOL, "a 'where' condition")
        return el, inner

    def x_Aggregate(self, e, scope):
        if e.func not in AGGREGATES:
            self.err(e, "E212", f"unknown aggregate '{e.func}'; use one of {', '.join(AGGREGATES)}")
            return ANY
        el, inner = self.binder(e, scope)
        f = e.func
        if f in ("count", "first"):
            if e.value is not None:
                self.err(e.value, "E213", f"'{f}' takes no ': value' part; use 'where'")
            return INT if f == "count" else el
        if e.value is None:
            if f in ("any", "all") and e.where is not None:
                return BOOL
            self.err(e, "E214", f"'{f}' needs a value: write {f}(x in S: expr)")
            return ANY
        if f in ("any", "all"):
            self.want(e.value, inner, BOOL, f"the value of '{f}'")
            return BOOL
        self.want(e.value, inner, INT, f"the value of '{f}'")
        return el if f == "best" else INT

    def x_Filter(self, e, scope):
        el, _ = self.binder(e, scope)
        return coll(el)

    def x_ListLit(self, e, scope):
        if not e.items:
            return coll(ANY)
        first = self.expr(e.items[0], scope)
        for item in e.items[1:]:
            self.want(item, scope, first, "every item of a list")
        return coll(first)

    def x_Range(self, e, scope):
        self.want(e.lo, scope, INT, "a range bound")
        self.want(e.hi, scope, INT, "a range bound")
        if isinstance(e.lo, ast.Int) and isinstance(e.hi, ast.Int) and e.hi.value - e.lo.value >= MAX_RANGE:
            self.err(e, "E335", f"a range of {e.hi.value - e.lo.value + 1:,} numbers; a range has at most "
                                f"{MAX_RANGE:,} (budget.py)")
        return coll(INT)

    def x_Binary(self, e, scope):
        op = e.op
        if op in ("and", "or"):
            self.want(e.left, scope, BOOL, f"each side of '{op}'")
            self.want(e.right, scope, BOOL, f"each side of '{op}'")
            return BOOL
        if op in ("+", "-", "*", "/", "%"):
            self.want(e.left, scope, INT, f"each side of '{op}'")
            self.want(e.right, scope, INT, f"each side of '{op}'")
            return INT
        if op in ("<", "<=", ">", ">="):
            self.want(e.left, scope, INT, f"each side of '{op}'")
            self.want(e.right, scope, INT, f"each side of '{op}'")
            return BOOL
        if op == "in":
            lt = self.expr(e.left, scope)
            rt = self.expr(e.right, scope)
            el = elem_of(rt)
            if el is None:
                self.err(e.right, "E211", f"cannot look inside {rt}")
            elif not comparable(lt, el):
                self.err(e, "E215", f"cannot look for {lt} in {rt}")
            return BOOL
        lt = self.expr(e.left, scope)
        rt = self.expr(e.right, scope)
        if not comparable(lt, rt):
            self.err(e, "E215", f"cannot compare {lt} with {rt}")
        return BOOL

    def x_Not(self, e, scope):
        self.want(e.operand, scope, BOOL, "the operand of 'not'")
        return BOOL

    def x_Neg(self, e, scope):
        self.want(e.operand, scope, INT, "the operand of '-'")
        return INT

    def x_Match(self, e, scope):
        subject = self.expr(e.subject, scope)
        result = NONE
        for value in [c.value for c in e.cases] + ([e.other] if e.other is not None else []):
            t = self.expr(value, scope)
            if not comparable(t, result) and result != NONE:
                self.err(value, "E216", f"every case of a match must have one type, not {result} and {t}")
            elif result == NONE:
                result = t
        for case in e.cases:
            for key in case.keys:
                kt = self.expr(key, scope)
                if not comparable(kt, subject):
                    self.err(key, "E215", f"a case of {kt} can't match a value of {subject}")
        if e.other is None:
            self.exhaustive(e, subject)
        return result

    def exhaustive(self, e, subject):
        """Without `else`, the cases must name every value of the subject's enum (or true and false)."""
        if subject.kind not in ("enum", "bool", "any"):
            self.err(e, "E238", f"a match on {subject} needs 'else: VALUE' for the values no case names")
            return
        if subject.kind == "any":
            return
        named = {_key_name(k) for c in e.cases for k in c.keys}
        values = self.m.enums[subject.name] if subject.kind == "enum" else [True, False]
        missing = [str(v).lower() if isinstance(v, bool) else v for v in values if v not in named]
        if missing:
            self.err(e, "E238", f"no case for {', '.join(missing)}: add them, or 'else: VALUE'")

    def x_Cond(self, e, scope):
        self.want(e.test, scope, BOOL, "an 'if' condition")
        a = self.expr(e.then, scope)
        b = self.expr(e.other, scope)
        if not comparable(a, b):
            self.err(e, "E216", f"both branches must have one type, not {a} and {b}")
        return a if a != NONE else b


def _key_name(key):
    """The enum value (or bool) a case key names literally, else None."""
    if isinstance(key, ast.Name):
        return key.name
    if isinstance(key, ast.Attr) and isinstance(key.obj, ast.Name):
        return key.name
    if isinstance(key, ast.Bool):
        return key.value
    return None
