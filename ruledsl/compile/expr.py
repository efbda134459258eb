"""Compile stage: each expression becomes one generated Python function.

An expression tree is translated into the text of a single Python expression
(aggregates become generator expressions, attribute reads become table lookups)
and made at load time into `f(w, env)` (made.py; compiled by Python on its first call:
deferred.py): `w` is the runtime World, `env` the current frame's locals. Nothing of
the game file reaches the generated text but names checked against
`[A-Za-z_][A-Za-z0-9_]*` and values passed by reference in the function's namespace,
so a game file cannot inject host code.

One generator, two modes (as Jinja2's compiler has one code generator). The fast
code skips the per-node checks and uses attribute indexes. When it fails (a none
where a value was needed, an index out of range, a division by zero), the same
expression is generated again in checked mode, built on first use: every operation
that can fail names its sub-expression's span, and nothing is evaluated that the
rules would not evaluate. The checked code raises the precise error, or gives the
value the rules mean (e.g. where an index evaluated a key that the `where` would
have skipped).
"""
from __future__ import annotations

from .. import budget
from ..check.builtins import BUILTINS
from ..check.types import Binding
from ..syntax import ast
from .aggregates import CollectionGen, var as _var
from .bounds import Bounds, Nones
from .checked_calls import OPERATORS, divide, index, need, no_case, number_given, operated
from .defs import DEF_ROOM, DefCalls, SmallDefs, def_body, def_template
from .looped import StatementLoops
from .made import (CHECKED_TEMPLATE, LINES_TEMPLATE, STORE_TEMPLATE, TEMPLATE, Checked, body_lines, built, namespace,
                   source_text)
from .reads import TableReads
from .stores import stored_text

ARITH = {"+", "-", "*"}
_NAME_CODERS = {b: "n_" + b.name for b in Binding}  # how a name's code is made, by what it stands for (n_LOCAL...)
COMPARE = {"==", "!=", "<", "<=", ">", ">="}
class ExprCompiler:
    """Called with an AST expression, returns its compiled function `f(w, env)`."""

    def __init__(self, model, program):
        self.m = model
        self.p = program
        self.small_defs = SmallDefs(model.defs)  # the defs written into the text of their calls
        self.bounds = Bounds(model)  # how big each expression's numbers can be (R012's checks)
        self.nones = Nones(model)  # which numbers may be none (a field's store checks them)

    def __call__(self, e, checked: bool = False):
        """The fast function of `e`, or with `checked` its checked version."""
        if checked:
            gen = _Gen(self, checked)
            return built(source_text(CHECKED_TEMPLATE, gen.expr(e), gen), namespace(gen, None), gen, e.span)
        return self.fast(LINES_TEMPLATE, lambda gen: body_lines(gen.returned(e, DEF_ROOM)), Checked(self, e), e.span)

    def told(self, e):
        """The fast function of `e` as a value told (_Gen.told: a list's items charged)."""
        return self.fast(TEMPLATE, lambda gen: gen.told(e), Checked(self, e), e.span)

    def kept(self, e):
        """The fast function of `e` as a value kept (_Gen.kept: checked against R012's
        bound unless it can't pass it), with its checked version behind it."""
        return self.fast(TEMPLATE, lambda gen: gen.kept(e), self.kept_checked(e), e.span)

    def once(self, e):
        """The fast function of an expression evaluated once or a few times as a game is
        loaded or set up (a constant, a start value, a card row's values, a card's label),
        mostly while `check` loads it: its text is not written out again (fast)."""
        return self.fast(TEMPLATE, lambda gen: gen.expr(e), Checked(self, e), e.span, written_out=False)

    def fast(self, template, body, checked, span, setup=None, written_out: bool = True):
        """The fast function of `template` holding `body(gen)` (a generator made ready by
        `setup(gen)`), with `checked` behind it. Where the text calls small defs, the text
        with them written in (defs.py) is made on the function's first call, so that
        checking a game pays for neither; should Python refuse it, the text with the calls
        (compiled at once where it might fail: E403) runs instead."""
        gen = _Gen(self, inlining=False)
        if setup is not None:
            setup(gen)
        text = source_text(template, body(gen), gen)
        ns = namespace(gen, checked)

        def written():
            better = _Gen(self)
            better.consts = dict(ns)  # its values join the namespace, under names of their own
            if setup is not None:
                setup(better)
            return source_text(template, body(better), better), better.consts
        return built(text, ns, gen, span, written if gen.could_write and written_out else None)

    def define(self, d, charged: bool = True):
        """The function `f(w, *args)` of a def (defs.def_template); not `charged`, a call
        costs no unit of work (a light call of a small def)."""
        names = frozenset(p.name for p in d.params)

        def setup(gen):
            gen.params = names
            gen.consts.update(_span=d.span, _charge=budget.charge, _number=budget.number, MAX=budget.MAX_NUMBER)
        return self.fast(def_template(d, self.bounds.may_be_big(d.body), charged), lambda gen: def_body(gen, d),
                         Checked(self, d.body), d.span, setup)

    def counted(self, e, what: str):
        """`f(w, env)`: the number `e` a statement (`what`: repeat, draw, move) needs, R000 at
        `e` where it is none (bounds.Nones); `e`'s own function where it can't be."""
        fn = self(e)
        if not self.nones.may_be_none(e):
            return fn
        span = e.span
        return lambda w, env: number_given(fn(w, env), span, what)

    def each_seat(self, e, var: str, one):
        """`f(w, env)` giving [the value of `e` with `var` each seat in turn] (every seat's
        score): one comprehension, and where it fails, seat by seat by `one(w, {var: seat})`
        (e's own function)."""
        def setup(gen):
            gen.params = frozenset([var])
        return self.fast(TEMPLATE, lambda gen: f"[{gen.expr(e)} for {_var(var)} in range(w.n)]",
                         lambda w, env: [one(w, {var: s}) for s in range(w.n)], e.span, setup)

    def record(self, names, exprs, span):
        """`f(w, env)` giving the dict {name: value} of a rule call's arguments."""
        return self.fast(TEMPLATE, lambda gen: record_text(gen, names, exprs), self.record_checked(names, exprs), span)

    def record_checked(self, names, exprs):
        """The checked version of `record`: each value by its expression's checked code,
        and checked as a value kept where `record`'s is (_Gen.kept)."""
        refs = [self.kept_checked(e) for e in exprs]
        return lambda w, env: {n: r(w, env) for n, r in zip(names, refs)}

    def kept_checked(self, e):
        """`f(w, env)`: the checked code of `e`, its value checked as a value kept (_Gen.kept)."""
        ref = Checked(self, e)
        if not self.bounds.may_be_big(e):
            return ref
        span = e.span
        return lambda w, env: budget.number(ref(w, env), span)

    def values(self, exprs, span):
        """`f(w, env)` giving the tuple of the values of exprs, evaluated in order."""
        refs = [Checked(self, e) for e in exprs]
        return self.fast(TEMPLATE, lambda gen: "(" + "".join(f"{gen.told(e)}, " for e in exprs) + ")",
                         lambda w, env: tuple(r(w, env) for r in refs), span)

    def store(self, target, op, value, reference):
        """An effect `(vm, env)` doing `target op value` (op: = += -=) as generated code;
        `reference(vm, env)`, which evaluates step by step through checked code, runs
        instead when the fast code fails."""
        return self.fast(STORE_TEMPLATE, lambda gen: stored_text(gen, target, op, value, "\n        ", DEF_ROOM), reference,
                         target.span)

    def source(self, e):
        """A function giving a fresh list of the items of a collection or zone."""
        f = self(e)
        if e.note.type.kind == "zone":
            return lambda w, env: list(w.zones[f(w, env)])
        return f


def record_text(gen, names, exprs) -> str:
    """The text of the dict {name: value of expression} (a rule call's arguments, each
    checked as a value kept: _Gen.kept), by `gen`."""
    return "{" + ", ".join(f"{n!r}: {gen.kept(e)}" for n, e in zip(names, exprs)) + "}"


class _Gen(CollectionGen, StatementLoops, TableReads, DefCalls):
    """Translates one expression tree to Python source text. `checked` code checks each
    operation that can fail, naming its span, and uses no attribute index."""

    def __init__(self, owner: ExprCompiler, checked: bool = False, inlining: bool = True):
        self.owner, self.m, self.p = owner, owner.m, owner.p
        self.checked = checked
        self.inlining = inlining  # small defs written in place (defs.py)
        self.could_write = False  # whether a light def call was left a call (inlining off): written out later
        self.given: dict = {}  # a written def's parameters -> its arguments' text
        self.suffix = ""  # added to item names in a written def's body
        self.iterable = 0  # inside a comprehension's iterable (no `:=` there)
        self.consts: dict = {}
        self.params: frozenset = frozenset()  # locals that are Python variables (a def's parameters)
        self.columns: dict = {}  # a World table's text -> the local that holds it (TableReads.column)
        self.reads: dict = {}  # that local -> how often the expression reads it (2 for each read in a loop)
        self.looping = 0  # the comprehensions around the text being generated
        self.kept_locals = None  # in a rule's generator: its locals, also kept in Python's (texts.KeptLocals)
        self.charged_ahead = None  # the aggregate whose items the statement's lines charge (looped.py)
        self.ahead: list = []  # those lines

    def const(self, value) -> str:
        name = f"_k{len(self.consts)}"
        self.consts[name] = value
        return name

    def expr(self, e) -> str:
        return getattr(self, "c_" + type(e).__name__)(e)

    def kept(self, e) -> str:
        """The text of `e` as a value kept by what it is given to (a def's or rule's
        parameter, a list): checked against R012's bound, at `e`, unless it can't pass it
        (bounds.py)."""
        text = self.expr(e)
        if not self.owner.bounds.may_be_big(e):
            return text
        return f"{self.const(budget.number)}({text}, {self.const(e.span)})"

    # ------------------------------------------------------------ leaves
    def c_Int(self, e):
        return repr(int(e.value))

    def c_Bool(self, e):
        return "True" if e.value else "False"

    def c_NoneLit(self, e):
        return "None"

    def c_Str(self, e):
        parts = []
        for part in e.parts:
            if isinstance(part, str):
                parts.append(self.const(part))
            else:
                lab = self.const(self.p.labeler(part.note.type))
                parts.append(f"{lab}({self.told(part)})")
        if len(parts) < 2:
            return parts[0] if parts else "''"
        return f"{self.const(budget.text)}({' + '.join(parts)}, {self.const(e.span)})"

    def c_Name(self, e):
        return getattr(self, _NAME_CODERS[e.note.binding])(e.name)

    # what a name stands for (check.types.Binding, recorded by the checker) -> its code
    def item(self, name):
        """The Python variable of an item of a comprehension being generated."""
        return _var(name) + self.suffix

    def n_ITEM(self, name):
        return self.item(name)

    def n_LOCAL(self, name):
        if name in self.given:
            return self.given[name]
        if name in self.params:
            return _var(name)
        return self.kept_locals.read(name) if self.kept_locals is not None else f"env[{name!r}]"

    def n_PLAYERS(self, name):
        return "w.playing"  # made once for who is in (World.put_out): a rule's lists are never changed

    def n_SEATS(self, name):
        return "list(range(w.n))"

    def n_PLAYER_COUNT(self, name):
        return "w.n"

    def n_CONST(self, name):
        value = self.m.consts[name].value
        if value.__class__ in (ast.Int, ast.Bool) and -budget.MAX_NUMBER < value.value < budget.MAX_NUMBER:
            return self.expr(value)  # a number or truth written as such: the value every World holds
        return f"w.consts[{name!r}]"

    def n_SHARED_FIELD(self, name):
        return f"w.shared[{name!r}]"

    def n_ENUM_VALUE(self, name):
        return repr(name)

    n_SPACE = n_ENUM_VALUE

    def n_ZONE(self, name):
        return repr((name, None))

    def n_ENUM(self, name):
        return self.const(list(self.m.enums[name]))

    def n_BOARD(self, name):
        return self.const(list(self.m.boards[name].spaces))

    def n_CARDSET(self, name):
        return f"list({self.const(self.p.cardset_ids)}[{name!r}])"  # filled after defs compile

    # ------------------------------------------------------------ access
    def c_Attr(self, e):
        name = e.name
        if e.obj.note.binding is Binding.ENUM:  # `Color.red`
            return repr(name)
        ot, obj = e.obj.note.type, self.expr(e.obj)
        if ot.kind == "player":
            if name == "seat":
                return obj
            if name == "alive":
                return f"w.alive[{obj}]"
        if self.checked:  # a none has no attributes: R001 at the value that is none
            obj = f"{self.const(need)}({obj}, {self.const(e.obj.span)}, {name!r})"
        if ot.kind == "player":
            return f"w.players[{obj}][{name!r}]"
        column = self.field_column(e)
        if column is not None:
            return f"{column}[{obj}]"
        if ot.kind == "space":
            return f"{self.const(self.p.boards[ot.name].attrs_of_space[name])}[{obj}]"
        if ot.kind == "card":
            if self.checked:
                return f"{self.const(self.p.cards)}[{obj}].attrs[{name!r}]"
            return f"{self.const(self.p.card_column(name))}[{obj}]"
        raise AssertionError(f"attribute {name} of {ot}")

    def field_column(self, e) -> str | None:
        """The column `{item: value}` of the stored field that `x.f` names, x a space or a
        card (TableReads.column); None for a fixed attribute or a player's field."""
        ot, name = e.obj.note.type, e.name
        if ot.kind == "space" and name not in self.p.boards[ot.name].attrs_of_space:
            return self.column(f"w.spaces[{ot.name!r}][{name!r}]")
        if ot.kind == "card" and name not in self.m.cardsets[ot.name].params:
            return self.column(f"w.cardf[{name!r}]")
        return None

    def c_Index(self, e):
        if e.obj.note.binding is Binding.ZONE:  # `hand[p]`
            return f"({e.obj.name!r}, {self.expr(e.index)})"
        return f"{self.const(index)}({self.expr(e.obj)}, {self.expr(e.index)}, {self.const(e.span)}, " \
               f"{self.const(e.index.span)})"

    def c_Call(self, e):
        if e.name in self.m.defs:
            return self.def_call(e)
        args = [self.expr(a) for a in e.args]
        builtin = BUILTINS[e.name]
        if self.checked:  # a number given that is none: R000 at it
            args = [f"{self.const(number_given)}({x}, {self.const(a.span)}, {e.name!r})" if kind == "int" else x
                    for x, a, kind in zip(args, e.args, builtin.args)]
        text = builtin.text([a.note.type for a in e.args]) if builtin.text is not None else None
        if text is not None and len(args) == len(builtin.args):  # none left out
            return f"({text.format(*args)})"
        return f"{self.const(builtin.run)}(w, {', '.join(args)})"

    # ------------------------------------------------------------ operators
    def c_Binary(self, e):
        op, a, b = e.op, self.expr(e.left), self.expr(e.right)
        if op in ("==", "!=") and (type(e.left) is ast.NoneLit or type(e.right) is ast.NoneLit):
            return f"({a} {'is' if op == '==' else 'is not'} {b})"  # no value of the language equals none but none
        if op in ("==", "!=") and _is_list(e.left):  # item by item: charged as visited
            same = f"{self.const(budget.same_items)}(w, {a}, {b}, {self.const(e.span)})"
            return f"({same})" if op == "==" else f"(not {same})"
        if self.checked and op in OPERATORS:  # a side that is none: R000 at that side
            return f"{self.const(operated)}({a}, {b}, {op!r}, {self.const(e.left.span)}, {self.const(e.right.span)})"
        if op in ("and", "or") or op in ARITH or op in COMPARE:
            return f"({a} {op} {b})"
        if op in ("/", "%"):
            if self.checked:
                spans = ", ".join(self.const(x.span) for x in (e, e.left, e.right))
                return f"{self.const(divide)}({a}, {b}, {op == '/'}, {spans})"
            return f"({a} // {b})" if op == "/" else f"({a} % {b})"
        if op == "in":  # where a card lies, else the items looked through, charged as visited
            if e.right.note.type.kind == "zone":
                where = self.located(e.right)
                if where is not None:
                    return where.format(card=a, zone=b)
                return f"({a} in {self.looked_through(f'w.zones[{b}]', e)})"
            return f"({a} in {self.looked_through(b, e)})"
        raise AssertionError(f"operator {op}")

    def told(self, e) -> str:
        """The text of `e` as a part of a text: a list's items charged (budget.told_items),
        as its label lists them all, whether anybody listens or not."""
        if not _is_list(e):
            return self.expr(e)
        return f"{self.const(budget.told_items)}(w, {self.expr(e)}, {self.const(e.span)})"

    def looked_through(self, items: str, e) -> str:
        """The text of `items` charged a unit of work each (budget.visited), at `e`: a list or
        zone an operator looks through, as an aggregate visits its items."""
        return f"{self.const(budget.visited)}(w, {items}, {self.const(e.span)})"

    def c_Not(self, e):
        return f"(not {self.expr(e.operand)})"

    def c_Neg(self, e):
        if self.checked:
            return f"(-{self.const(number_given)}({self.expr(e.operand)}, {self.const(e.operand.span)}, '-'))"
        return f"(-{self.expr(e.operand)})"

    def c_Cond(self, e):
        return f"({self.expr(e.then)} if {self.expr(e.test)} else {self.expr(e.other)})"

    def c_Match(self, e):
        """`(lambda _mN: V1 if _mN == K1 or _mN == K2 else ... else OTHER)(SUBJECT)`."""
        m = f"_m{len(self.consts)}"
        self.const(None)  # reserves the number, so nested matches get names of their own
        chain = "".join(f"{self.expr(c.value)} if {' or '.join(f'{m} == {self.expr(k)}' for k in c.keys)} else "
                        for c in e.cases)
        other = self.expr(e.other) if e.other is not None else f"{self.const(no_case)}({self.const(e.span)})"
        return f"(lambda {m}: {chain}{other})({self.expr(e.subject)})"


def _is_list(e) -> bool:
    t = e.note.type
    return t is not None and t.kind == "coll"

