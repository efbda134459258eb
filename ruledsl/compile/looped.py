"""Compile stage, expressions part 3: a statement's aggregate as a loop of its own, a
mixin of the expression generator (expr.py `_Gen`).

Where a statement's expression (a `let`'s value, an `if`'s condition, a choice's
options...) is an aggregate that stops at an item or counts them (first, any, all,
count), a sum, max or min of numbers, the best item by a number, a filter (`[x in S
where c]`), one of those under `not`, compared with or added to another number
(`bags(p) == 0`, `mine(p, b) + n > best_other(p, b)`), or the body of a small def written
in (defs.py), its text (texts.StatementTexts.evaluated) is a Python loop of the statement's
own instead of a comprehension and a call of budget.visited: no frame is made and no
generator resumed at each item, and the items are charged by the statement's lines. An
any's or all's value, a sum's, max's, min's or best's value, and the last conjunct of a
`where`, that is one of those is a loop too, inside its aggregate's (`nested`, `most`,
`nested_where`). The loop visits and charges the same items, runs the same tests in the
same order and stops at the same item, so it spends the same work and fails at the same
place (tests/compile/test_aggregates.py and the random programs, against every aggregate
written as a comprehension). A sum, max, min or best adds or compares each value as it
is made, where the comprehension made them all first: adding or comparing numbers can't
fail, so the values are made in the same order and the first failure is the same.
"""
from __future__ import annotations

from .. import budget
from ..syntax import ast
from .aggregates import Unfiltered
from .bounds import beyond

# what a statement writes as its own loop (a filter: ast.Filter; best: of numbers, _of_ints)
LOOPED = ("first", "any", "all", "count", "filter", "best")
COUNTED = ("==", "!=", "<", "<=", ">", ">=")  # a count compared with a number, after its loop
SUMMED = ("+", "-", "*")  # a number with a count as a part (`p.stash + count(...)`): the parts in order
MOST = ("sum", "max", "min")  # of numbers: each value added or compared as it is made (`most`)
CHAINED = ("and", "or")  # each part a statement of its own, the next under an `if` (chained)
NESTED_ROOM = 2  # blocks an aggregate's loop takes around its value or `where` written as a loop too (nested)
FOUND = {  # an aggregate's loop: its start, and its lines at an item found (their `break` stops it)
    "first": lambda target, x: (f"{target} = None", [f"{target} = {x}", "break"]),
    "count": lambda target, x: (f"{target} = 0", [f"{target} += 1"]),
    "any": lambda target, x: (f"{target} = False", [f"{target} = True", "break"]),
    "all": lambda target, x: (f"{target} = True", [f"{target} = False", "break"]),  # found: an item failing
    "filter": lambda target, x: (f"{target} = []", [f"{target}.append({x})"]),
}
WHERE_NESTED = ("first", "count", "any", "filter")  # whose `where` may be a loop in its loop (nested_where)


def _chain(e) -> list:
    """The parts of `a or b or c` (parsed `(a or b) or c`), or of `and`, in order."""
    op, parts = e.op, []
    while e.__class__ is ast.Binary and e.op == op:
        parts.append(e.right)
        e = e.left
    return [e, *parts[::-1]]


def _loop(x: str, src: str, tests: list, body: list, start: str, end=()) -> str:
    """`start`, then for each item `x` of `src` that passes every test (in order, as
    `and` does), the lines `body`; then the lines `end`."""
    if tests:
        body = [f"if {' and '.join(tests)}:", *_indented(body)]
    return "\n".join([start, f"for {x} in {src}:", *_indented(body), *end])


def _of_ints(e) -> bool:
    """Whether aggregate `e`'s value is a number (an `int`, not a value of a type in error)."""
    return e.value is not None and e.value.note.type.kind == "int"


def _indented(lines: list) -> list:
    return ["    " + line for line in lines]


class StatementLoops:
    """`_Gen` has `checked`, `expr`, `item`, `m`, CollectionGen's `loop_parts` and
    `by_column`, and DefCalls' `unchecked_written` and `written_body`."""

    def statement(self, e, target: str, room: int = 0) -> str:
        """`target = e` as a statement's lines: a loop of the statement's own where `e` is
        `lowerable`, else the expression. `room`: how many blocks deep the parts of an
        `and` or `or` may be written (`chained`)."""
        if self.checked or not self.lowerable(e, room):
            return f"{target} = {self.expr(e)}"
        return self.lowered(e, target, room)

    def returned(self, e, room: int) -> str:
        """`return e` as an expression's own function's lines (made.LINES_TEMPLATE): the
        statement's lines, then `return _r`, where `e` is `lowerable`."""
        if self.checked or not self.lowerable(e, room):
            return f"return {self.expr(e)}"
        return f"{self.lowered(e, '_r', room)}\nreturn _r"

    def lowerable(self, e, room: int = 0) -> bool:
        """Whether `e` is first, any, all, count, a best by a number or a filter with a
        `where` (or the body of a light call of a small def written in whose value is not
        checked), a number made with a loop (`numeric`), under `not`, compared with or added
        to another number, or, with room for a block, an `and` or `or` of which a part is
        one of those."""
        if e.__class__ is ast.Not:
            return self.lowerable(e.operand, room)
        if e.__class__ is ast.Binary:
            if e.op in CHAINED:
                return room > 0 and any(self.lowerable(part, room - 1) for part in _chain(e))
            # numbers compared or added, one made by a loop: `count(...) == 0`, `mine(p, b) + n > best_other(p, b)`
            return (e.op in COUNTED or e.op in SUMMED) and (self.numeric(e.left) or self.numeric(e.right))
        return self.loops(e, LOOPED) or self.numeric(e)

    def numeric(self, e) -> bool:
        """Whether `e` is a number made with a loop: a count, a sum, max or min of numbers,
        `a + b` (`-`, `*`) with a part that is one, or a light call written in of a small
        def whose body is one (its value checked for R012 after it, as written_def checks
        it)."""
        if e.__class__ is ast.Binary:
            return e.op in SUMMED and (self.numeric(e.left) or self.numeric(e.right))
        if e.__class__ is ast.Call:
            d = self.written_in(e)
            return d is not None and self.numeric(d.body)
        if e.__class__ is not ast.Aggregate:
            return False
        return e.func == "count" or (e.func in MOST and _of_ints(e))

    def loops(self, e, funcs) -> bool:
        """Whether `e` is an aggregate of `funcs`, or a light call written in of a small def
        whose body is one."""
        if e.__class__ is ast.Call:
            d = self.unchecked_written(e)
            return d is not None and self.loops(d.body, funcs)
        if e.__class__ is ast.Filter:
            return "filter" in funcs and e.where is not None
        return e.__class__ is ast.Aggregate and e.func in funcs and (e.func != "best" or _of_ints(e))

    def lowered(self, e, target: str, room: int = 0) -> str:
        if e.__class__ is ast.Not:
            return f"{self.lowered(e.operand, target, room)}\n{target} = not {target}"
        if e.__class__ is ast.Binary:
            if e.op in CHAINED:
                return self.chained(e, target, room)
            return self.operated(e, target, room)
        if e.__class__ is ast.Call:
            d = self.m.defs[e.name]
            lines = self.written_body(e, d, lambda body: self.lowered(body, target, room))
            if not self.def_checked(d):
                return lines
            return f"{lines}\nif {beyond(target)}:\n    {self.const(budget.number)}({target}, {self.const(d.span)})"
        x = self.item(e.var)
        if e.__class__ is not ast.Filter and e.func != "first":
            fast = self.charging(e, lambda: (self.by_column(e),), lambda made: None if made is None else f"{target} = {made}")
            if fast is not None:
                return fast
        last = self.lowerable_where(e, room)
        if last is not None:
            return self.nested_where(e, x, target, last, room - NESTED_ROOM)
        if e.__class__ is ast.Filter:  # [x in S where c]: the items that pass, in order
            start, found = FOUND["filter"](target, x)
            return self.charging(e, lambda: self.loop_parts(e, lambda: ""),
                                 lambda src, conds, _: _loop(x, src, conds, found, start))
        if e.func in MOST or e.func == "best":
            return self.most(e, x, target, room)
        start, found = FOUND[e.func](target, x)
        if e.func == "all" and e.value is None:  # all(x in S where c): every x of S meets c
            every = Unfiltered(e)
            return self.charging(every, lambda: self.loop_parts(every, lambda: self.expr(e.where)),
                                 lambda src, _, made: _loop(x, src, [f"not ({made})"], found, start))
        valued = e.value is not None and e.func in ("any", "all")
        if valued and room >= NESTED_ROOM and self.lowerable(e.value, room - NESTED_ROOM):
            return self.nested(e, x, target, room - NESTED_ROOM)

        def loop(src, conds, made):  # an any's (all's) value tested after the `where`, as a conjunct
            tests = [*conds, f"({made})" if e.func == "any" else f"not ({made})"] if valued else conds
            return _loop(x, src, tests, found, start)
        return self.charging(e, lambda: self.loop_parts(e, (lambda: self.expr(e.value)) if valued else (lambda: "")),
                             loop)

    def operated(self, e, target: str, room: int) -> str:
        """`a op b` (compared, added, ...) with a part that is `numeric`: the parts in order
        as Python evaluates them, a numeric part as its lines, the other as its expression;
        the left part's value kept in a name of its own while the right part is made."""
        if not self.numeric(e.right):
            return f"{self.lowered(e.left, target, room)}\n{target} = ({target} {e.op} {self.expr(e.right)})"
        left = f"_a{self.const(None)[2:]}"
        kept = f"{self.lowered(e.left, target, room)}\n{left} = {target}" if self.numeric(e.left) \
            else f"{left} = {self.expr(e.left)}"
        return f"{kept}\n{self.lowered(e.right, target, room)}\n{target} = ({left} {e.op} {target})"

    def most(self, e, x, target: str, room: int) -> str:
        """sum, max or min of numbers, or the best item by a number, as a loop: each item's
        value made (as a loop of its own where it is `numeric` and there is room), then
        added or compared at once. The comprehension made every value first (best: as it
        went), but adding or comparing numbers can't fail, so the same values are made in
        the same order; max and min of no items are 0, as the comprehension's default, and
        best of none is none; best keeps the first of the items of the greatest value, as
        aggregate_calls.best does."""
        value = target + "m"
        nested = room >= NESTED_ROOM and self.numeric(e.value)
        if e.func == "sum":
            start, take, end = f"{target} = 0", [f"{target} += {value}"], []
        elif e.func == "best":
            top = target + "t"
            start, end = f"{target} = None\n{top} = None", []
            take = [f"if {top} is None or {value} > {top}:", f"    {top} = {value}", f"    {target} = {x}"]
        else:
            start, end = f"{target} = None", [f"if {target} is None:", f"    {target} = 0"]
            better = ">" if e.func == "max" else "<"
            take = [f"if {target} is None or {value} {better} {target}:", f"    {target} = {value}"]

        def make():
            return self.lowered(e.value, value, room - NESTED_ROOM) if nested else f"{value} = {self.expr(e.value)}"

        return self.charging(e, lambda: self.loop_parts(e, make),
                             lambda src, conds, made: _loop(x, src, conds, [*made.split("\n"), *take], start, end))

    def chained(self, e, target: str, room: int) -> str:
        """`a or b or ...` (`and`) as Python evaluates it: `target = a`, then each next part
        only while `target` is false (true), one block deep. The parts are evaluated in the
        same order and as far, and `target` holds the same value: the last part evaluated."""
        first, *rest = _chain(e)
        lines = [self.statement(first, target, room)]
        test = f"if not {target}:" if e.op == "or" else f"if {target}:"
        for part in rest:
            lines += [test, *("    " + line for line in self.statement(part, target, room - 1).split("\n"))]
        return "\n".join(lines)

    def nested(self, e, x, target, room) -> str:
        """`any(x in S where c: v)` (`all`) whose value `v` is `lowerable` itself: v's
        lines in the loop's body (`target`v holds it), then the item's test. Each item's
        `where` first, then its value, as the comprehension evaluates them."""
        inner = target + "v"
        start, found = FOUND[e.func](target, x)
        test = f"if {inner}:" if e.func == "any" else f"if not {inner}:"
        return self.charging(e, lambda: self.loop_parts(e, lambda: self.lowered(e.value, inner, room)),
                             lambda src, conds, made: _loop(x, src, conds, [*made.split("\n"), test, *_indented(found)],
                                                            start))

    def lowerable_where(self, e, room):
        """The last conjunct its loop tests of the `where` of a filter, or of a first, count
        or any with no value, where that conjunct is `lowerable` itself and there is room
        for it (`nested_where`), else None."""
        if room < NESTED_ROOM or e.where is None:
            return None
        if e.__class__ is ast.Aggregate and (e.func not in WHERE_NESTED or e.value is not None):
            return None
        last = self.last_conjunct(e)
        return last if last is not None and self.lowerable(last, room - NESTED_ROOM) else None

    def nested_where(self, e, x, target, last, room) -> str:
        """A filter, first, count or any whose `where` ends in `last`, lowerable: for each
        item, the other conjuncts tested (as `and` does), then last's lines (`target`w holds
        its value), then the item kept, counted or found. The conjuncts are evaluated in
        the same order and as far as the comprehension evaluates them."""
        inner = target + "w"
        start, found = FOUND["filter" if e.__class__ is ast.Filter else e.func](target, x)
        return self.charging(e, lambda: self.loop_parts(e, lambda: self.lowered(last, inner, room), apart=last),
                             lambda src, conds, made: _loop(x, src, conds, [*made.split("\n"), f"if {inner}:",
                                                                            *_indented(found)], start))

    def charging(self, e, make, write) -> str | None:
        """write(*make()), after the lines that charge the items of aggregate `e` (its
        `visited`: charge_ahead) instead of a call of budget.visited; None where write
        gives None. An aggregate's charge being made is kept across this one's: a value
        written as a loop inside its aggregate's (nested) has lines of its own."""
        outer = self.charged_ahead, self.ahead
        self.charged_ahead, self.ahead = e, []
        try:
            made, ahead = make(), self.ahead
        finally:
            self.charged_ahead, self.ahead = outer
        text = write(*made)
        return None if text is None else "\n".join([*ahead, text])

    def charge_ahead(self, src: str, span) -> str:
        """The items `src` held in `_items`, charged a unit each as budget.visited does, by
        lines the statement runs first (charging): no call. `src` is the first thing
        the aggregate evaluates, as it was the call's first argument, so the same work is
        charged in the same order. A source that is a constant list (a whole board's
        spaces) is charged its length, written as a number."""
        self.charged_ahead = None
        charge = ["if w.work < 0:", f"    {self.const(budget.charge)}(w, 0, {self.const(span)})"]
        fixed = self.consts.get(src)
        if isinstance(fixed, (list, tuple)):  # the same items in every game (a whole board's spaces)
            self.ahead = [f"w.work -= {len(fixed)}", *charge]
            return src
        self.ahead = ["_items = " + src, "w.work -= len(_items)", *charge]
        return "_items"

