"""Compile stage, expressions part 4: calls of defs, a mixin of the expression generator
(expr.py `_Gen`).

A def is one generated function `f(w, *args)` (ExprCompiler.define), and a call of it
costs one unit of work (budget.py). A light call, whose arguments neither fail nor charge
work (literals, names of values and `seat(N)`: light_argument), of a small def (SMALL_DEF nodes at
most, counting the small defs it calls written out; never one that can reach itself)
costs none: what it does is bounded by its text, at most SMALL_DEF nodes a call, so by
the size of the game file as any other expression's work, and its aggregates still
charge their items. Fast code in a whole rule's generator (and a stretch's or an
expression's own function, from its first call: deferred.py) writes such a call in
place: the def's body as text, each parameter read as its argument's text, the body's
own items renamed so that an argument naming an item of the caller is not captured by
an aggregate of the body, and a number it gives checked as the def's own function
checks it (R012 at the def). Elsewhere (the text made when a game is loaded, which
`check` makes and never runs; checked code; where Python refuses `:=`) it calls the
def's function without the unit (Program.def_light), so the work a step costs is the
same however its code was made.
"""
from __future__ import annotations

from .. import budget
from ..syntax import ast
from .aggregates import unfailing, var
from .made import body_lines

SMALL_DEF = 24  # nodes of a def's body (with the small defs it calls written out) written at its calls


# A def: a function of the World and its parameters (Python variables, not an env dict),
# called directly by the expressions that use it. Each call costs one unit of work (but
# a light call of a small def), and its value, where it may be a number (bounds.py),
# is checked like a stored number. When the fast code fails, its checked version runs on
# the parameters as an env.
DEF_CHECK = """\
    if _r.__class__ is int and not -MAX < _r < MAX:
        _number(_r, _span)
"""
DEF_CHARGE = """\
    w.work -= 1
    if w.work < 0:
        _charge(w, 0, _span)
"""
DEF_TEMPLATE = """\
def _expr(w, PARAMS):
""" + DEF_CHARGE + """\
    try:
{pre}        {body}
    except _WORK:
        raise
    except _FAILURES:
        _r = _checked(w, ENV)
""" + DEF_CHECK + """\
    return _r
"""


DEF_ROOM = 4  # blocks deep the parts of an `and` or `or` may be written in a def's or an expression's own function (looped.py)


def def_body(gen, d) -> str:
    """The lines of def `d`'s body setting `_r`, as DEF_TEMPLATE holds them: a statement's
    (looped.StatementLoops: an aggregate a loop of its own where it can be)."""
    return body_lines(gen.statement(d.body, "_r", DEF_ROOM))


def def_template(d, big: bool, charged: bool) -> str:
    """The template of def `d`'s function (expr.ExprCompiler.define), its value checked
    where `big`, a call charged a unit of work where `charged`."""
    names = [var(p.name) for p in d.params]
    env = "{{" + ", ".join(f"{p.name!r}: {n}" for p, n in zip(d.params, names)) + "}}"
    template = DEF_TEMPLATE.replace("PARAMS", ", ".join(names)).replace("ENV", env)
    if not big:
        template = template.replace(DEF_CHECK, "")
    return template if charged else template.replace(DEF_CHARGE, "")


class SmallDefs:
    """Which defs may be written into their callers: those of at most SMALL_DEF nodes, with
    the small defs they call written out, that can't reach themselves through calls.
    Found for each def on first asking (a game's check asks for none)."""

    def __init__(self, defs: dict):
        self.defs = defs
        self.sizes: dict = {}  # name -> its written size, or None where it stays a call
        self.nodes: dict = {}  # name -> the nodes of its body
        self.calls: dict = {}  # name -> the defs its body calls

    def __contains__(self, name) -> bool:
        return self.size(name) is not None

    def size(self, name):
        if name not in self.sizes:
            self.sizes[name] = None  # while its callees are sized: a call back to it stays a call
            total = len(self.body(name)) + sum(self.size(callee) or 0 for callee in self.called(name))
            if total <= SMALL_DEF and not self.reaches(name, name):
                self.sizes[name] = total
        return self.sizes[name]

    def body(self, name) -> list:
        if name not in self.nodes:
            self.nodes[name] = list(ast.walk(self.defs[name].body))
        return self.nodes[name]

    def called(self, name) -> list:
        if name not in self.calls:
            self.calls[name] = [n.name for n in self.body(name) if n.__class__ is ast.Call and n.name in self.defs]
        return self.calls[name]

    def reaches(self, start: str, target: str) -> bool:
        """Whether def `start` calls `target`, directly or through other defs."""
        seen, todo = set(), list(self.called(start))
        while todo:
            name = todo.pop()
            if name == target:
                return True
            if name not in seen:
                seen.add(name)
                todo.extend(self.called(name))
        return False


class DefCalls:
    """`_Gen` has `owner` (the ExprCompiler, with its `small_defs`), `checked`, `inlining`,
    `could_write`, `expr`, `const`, `m`, `p`, `given` (parameter name -> its argument's
    text), `suffix` (added to the names of items) and `iterable` (inside a comprehension's
    iterable, where Python refuses `:=`)."""

    def def_call(self, e) -> str:
        """A call of a def: a light call (each argument a light_argument) written in where
        the def is small and this is fast code, else a call of the def's function."""
        light = all(self.light_argument(a) for a in e.args)
        written = self.written_def(e) if light and not self.checked else None
        if written is not None:
            return written
        cells = self.p.def_light if light else self.p.def_bodies  # cells: defs may call each other
        return f"{self.const(cells[e.name])}[0]({', '.join(['w', *(self.kept(a) for a in e.args)])})"

    def light_argument(self, a) -> bool:
        """An argument that neither fails nor charges work, cheap to read again: a literal, a
        name of a value (`unfailing`), or `seat(N)` of a number N (the builtin: no def of
        that name)."""
        if unfailing(a):
            return True
        return a.__class__ is ast.Call and a.name == "seat" and a.name not in self.m.defs \
            and len(a.args) == 1 and a.args[0].__class__ is ast.Int

    def written_def(self, e) -> str | None:
        """The text of a light call of a small def written in place, or None where it
        stays a call."""
        if not self.inlining:  # whether the def is small is found when the text is written (SmallDefs)
            self.could_write = True
            return None
        d = self.m.defs[e.name]
        checks = self.def_checked(d)
        if checks is None or (checks and self.iterable) or e.name not in self.owner.small_defs:
            return None
        body = self.written_body(e, d, self.expr)
        if not checks:
            return body
        r = f"_d{self.const(None)[2:]}"  # `:=` binds in the function around the expression: a name of its own
        big = budget.MAX_NUMBER
        return f"({r} if (({r} := {body}).__class__ is not int or -{big} < {r} < {big}) " \
               f"else {self.const(budget.number)}({r}, {self.const(d.span)}))"

    def written_body(self, e, d, make):
        """make(the body of def `d`) as written in for light call `e`: its parameters read
        as the arguments, its items renamed."""
        given = {p.name: self.kept(a) for p, a in zip(d.params, e.args)}
        outer = self.given, self.suffix
        self.given, self.suffix = given, f"{self.suffix}··{self.const(None)[2:]}"  # inline.py renames with one ·
        try:
            return make(d.body)
        finally:
            self.given, self.suffix = outer

    def unchecked_written(self, e):
        """The def of call `e` where written_def writes it in with its value unchecked (no
        number of it can be big), else None."""
        d = self.written_in(e)
        return d if d is not None and self.def_checked(d) is False else None

    def written_in(self, e):
        """The def of call `e` where written_def writes it in (its value checked for R012
        or not: def_checked), else None."""
        if e.name not in self.m.defs or self.checked or not self.inlining \
                or not all(self.light_argument(a) for a in e.args):
            return None
        d = self.m.defs[e.name]
        return d if self.def_checked(d) is not None and e.name in self.owner.small_defs else None

    def def_checked(self, d):
        """Whether a def's value is checked for R012 where it is written (a number), False
        where no value of its type or shape can be big (bounds.py), None where its type
        isn't known."""
        t = d.body.note.type
        if t is None or t.kind == "any":
            return None
        return self.owner.bounds.may_be_big(d.body)


def light_cell(ex, name: str) -> list:
    """The cell of def `name`'s function for light calls (DefCalls.light_argument): on
    first call, its version charging no unit of work where the def is small (SmallDefs),
    else its own function (Program.def_bodies)."""
    cell: list = []

    def first_call(w, *args):
        fn = ex.define(ex.m.defs[name], charged=False) if name in ex.small_defs else ex.p.def_bodies[name][0]
        cell[0] = fn
        return fn(w, *args)
    cell.append(first_call)
    return cell
