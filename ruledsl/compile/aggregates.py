"""Compile stage, expressions part 2: collections (aggregates, filters, list literals
and ranges) as Python text, a mixin of the expression generator (expr.py `_Gen`).

Aggregates become comprehensions over the items, each visit charged to the work budget.
Three shortcuts in fast code, each with the checked code (no shortcut) behind it:
- a `where` conjunct `x.attr == K` on a fixed attribute of a board or card set (K not
  mentioning x) is an index lookup: only matching items are visited;
- else the `where` conjuncts that read only fixed attributes of x (`t.row == t.col`)
  are met by items listed once (`meeting`): only those are visited;
- count, any and all whose one test is `x.f == K` or `x.f != K` on a stored field (or
  on a fixed attribute of a card, by card id) run in C over the field's column
  (`by_column`), a fixed group's values (a board, an index's group, the items meeting
  fixed conjuncts: `Group`) read in one call; over a whole board of TALLY_MIN_SPACES
  or more, or one group of it by a fixed attribute, they are a lookup in the tally the
  column keeps as it is written (runtime/world.py Column).
What the text calls at run time (tallies read, a group's values, indexes by a fixed
attribute) is in aggregate_calls.py.
"""
from __future__ import annotations

from typing import NamedTuple

from .. import budget
from ..check.types import Binding
from ..syntax import ast
from .aggregate_calls import BY_COLUMN_EQ, BY_COLUMN_NE, AttrIndex, Group, Kept, best, tally, tally_all, tally_any
from .checked_calls import number_given


def var(name: str) -> str:
    """The Python name of a game's local `name` in generated code."""
    return "_v_" + name


class CollectionGen:
    """The collection methods of the expression generator; `_Gen` has `expr`, `const`,
    `checked`, `m` (the model) and `p` (the program)."""

    def items(self, e) -> str:
        """The iterable of a collection or zone, not copied (expressions don't mutate)."""
        src = self.expr(e)
        return f"w.zones[{src}]" if e.note.type.kind == "zone" else src

    def loop(self, e, make) -> str:
        """`MADE for x in SOURCE if WHERE`; `make()` builds MADE while `x` is bound."""
        src, conds, made = self.loop_parts(e, make)
        where = f" if {' and '.join(conds)}" if conds else ""
        return f"{made} for {self.item(e.var)} in {src}{where}"

    def loop_parts(self, e, make, apart=None) -> tuple:
        """(SOURCE, the texts of the WHERE conjuncts, MADE) of the loop over e's items.

        Over a board or card set, a `where` conjunct `x.attr == K` on a fixed attribute
        (K not mentioning x) becomes an index lookup: only matching items are visited.
        The conjunct `apart` (the last of them, written by `make`: looped.py) is left out.
        """
        conds = [c for c in _conjuncts(e.where) if c is not apart]
        index = self.find_index(e, conds)
        if index is not None:
            conds = index.rest
        self.iterable += 1  # Python refuses `:=` in a comprehension's iterable (defs.py)
        try:
            src = self.visited(e, index)
        finally:
            self.iterable -= 1
        self.looping += 1
        try:
            return src, [self.expr(c) for c in conds], make()
        finally:
            self.looping -= 1

    def visited(self, e, index, grouped: bool = False) -> str:
        """The code of the items to visit, each charged to the work budget: through the
        index found by find_index, or all of the source (`grouped`: a board's spaces as a
        Group)."""
        if index is None:
            src = self.const(Group(self.m.boards[e.source.name].spaces)) if grouped else self.items(e.source)
        elif index.fixed:
            src = self.meeting(e, index.fixed)
        else:
            src = f"{self.const(AttrIndex(index.table))}[{self.expr(index.key)}]"
        if e is self.charged_ahead:  # a statement's own aggregate: charged by lines before it (looped.py)
            return self.charge_ahead(src, e.span)
        return f"{self.const(budget.visited)}(w, {src}, {self.const(e.span)})"

    def meeting(self, e, conds) -> str:
        """The code of the items of a board or card set that meet `conds` (conjuncts on
        fixed attributes alone), listed in order on first use and kept: no World is read
        and nothing is charged. Should a conjunct fail on an item the rules would never
        test it on, the fast code fails and the checked code decides, as for an index."""
        kept, x = self.const(Kept()), self.item(e.var)
        where = " and ".join(self.expr(c) for c in conds)
        self.iterable += 1
        try:
            items = self.items(e.source)
        finally:
            self.iterable -= 1
        return f"({kept}.items if {kept}.items is not None else {kept}.keep([{x} for {x} in {items} if {where}]))"

    def last_conjunct(self, e):
        """The `where` conjunct of `e` its loop tests last: the last of those an index
        (find_index) leaves to test on each item, or None."""
        conds = _conjuncts(e.where)
        index = self.find_index(e, conds)
        rest = conds if index is None else index.rest
        return rest[-1] if rest else None

    def find_index(self, e, conds):
        """The _Index of the first conjunct `x.attr == K` on a fixed attribute of a board or
        card set (K not mentioning x), else of the conjuncts on its fixed attributes alone,
        or None (always in checked code: an index evaluates its key before the other
        conjuncts, and meeting evaluates its conjuncts on every item)."""
        src = e.source
        if self.checked or not isinstance(src, ast.Name) or src.note.binding.local:
            return None
        tables = self.fixed_attrs(src.name)
        if tables is None:
            return None
        for i, c in enumerate(conds):
            test = _attr_test(c, e.var)
            if test is not None and test[0].name in tables:
                return _Index(tables[test[0].name], test[1], conds[:i] + conds[i + 1:], test[0].name)
        fixed = [c for c in conds if _fixed_only(c, e.var, tables)]
        if fixed:
            return _Index(None, None, [c for c in conds if not any(c is f for f in fixed)], None, fixed)
        return None

    def fixed_attrs(self, name):
        """Attribute tables {attr: function giving [(item, value)...]} of a board or card set."""
        if name in self.m.boards:
            prog = self.p  # boards are built after the field defaults compile: read them on first use
            return {a: (lambda a=a, n=name: [(s, prog.boards[n].attrs_of_space[a][s]) for s in prog.boards[n].spaces])
                    for a in self.m.boards[name].params}
        if name in self.m.cardsets:
            prog = self.p  # cards are built after defs compile: read them on first use
            return {a: (lambda a=a, n=name: [(c, prog.cards[c].attrs[a]) for c in prog.cardset_ids[n]])
                    for a in self.m.cardsets[name].params}
        return None

    def by_column(self, e):
        """count, any or all whose one test is `x.f == K` (or `x.f != K`) on a stored field
        of a board or card set (K not mentioning x; other conjuncts only on fixed
        attributes, through their index or the items meeting them), as one pass in C over
        the field's column: `count(x in S where x.f == K)`, `any(x in S where x.f == K)`,
        `all(x in S [where ...]: x.f == K)`.
        K is evaluated once, before the items (the checked code, run when this fails,
        evaluates as the rules do)."""
        if e.func in ("count", "any") and e.value is None:
            conds, test = _conjuncts(e.where), None
        elif e.func == "all":
            conds, test = (_conjuncts(e.where), e.value) if e.value is not None else ([], e.where)
        else:
            return None
        index = self.find_index(e, conds) if conds else None
        rest = index.rest if index is not None else conds
        if test is None and len(rest) == 1:
            test, rest = rest[0], []
        match = self.column_eq(e.var, test) if test is not None and not rest else None
        if match is None:  # decided before any text is made: nested aggregates are made once
            return None
        column, key, attr, equal = match
        grouping = self.tallied(e, attr, index) if equal else None
        if grouping is not None:  # a lookup in the column's tally (world.Column)
            looked = self.looked_up(e, index, column, grouping, key)
            if looked is not None:
                return looked
            run = {"count": tally, "any": tally_any, "all": tally_all}[e.func]
            return f"{self.const(run)}({self.visited(e, index)}, {column}, {grouping}, {self.expr(key)})"
        if index is None and _is_board(e.source):  # a whole board: its column's values, every space's (a dict's view)
            items = self.visited(e, index, grouped=True)  # (charged by the statement's lines: the spaces themselves)
            values = f"{column}.values()" if self.consts.get(items) else f"({items} and {column}.values())"
        elif index is not None:  # a fixed group: its values in one call in C (Group)
            values = f"{self.visited(e, index, grouped=True)}.values({column})"
        else:
            values = f"map({column}.__getitem__, {self.visited(e, index)})"
        if e.func == ("any" if equal else "all") and unfailing(key):  # K first: it neither fails nor charges
            return f"({self.expr(key)} {'in' if equal else 'not in'} {values})"
        run = (BY_COLUMN_EQ if equal else BY_COLUMN_NE)[e.func]
        return f"{self.const(run)}({values}, {self.expr(key)})"

    def tallied(self, e, attr, index):
        """The number of the column's grouping that answers an aggregate over a whole board
        of TALLY_MIN_SPACES or more (through the index of a fixed attribute, or not) testing
        a stored field of a value that can be a dict key, registered with the program
        (Program.tally); else None."""
        src = e.source
        if not (isinstance(src, ast.Name) and src.note.binding is Binding.BOARD):
            return None
        if len(self.m.boards[src.name].spaces) < TALLY_MIN_SPACES or (index is not None and index.fixed):
            return None
        if attr.note.type.kind not in TALLIED:
            return None
        return self.p.tally(src.name, attr.name, index.attr if index is not None else None)

    def looked_up(self, e, index, column, grouping, key):
        """tally written out where the group is the index's key (the spaces whose fixed
        attribute is K make the group K of the grouping by that attribute) or the whole
        board (group None), and K and the key neither fail nor charge work: the items are
        charged (`visited`), then the count is the tally's entry; None otherwise."""
        if not unfailing(key) or (index is not None and not unfailing(index.key)):
            return None
        group = self.expr(index.key) if index is not None else "None"
        found = f"{column}.tallies[{grouping}][{group}].get({self.expr(key)}, 0)"
        items = self.visited(e, index)
        if e.func == "all":
            return f"({found} == len({items}))"
        return f"({found} if {items} else 0)" if e.func == "count" else f"({found} > 0 if {items} else False)"

    def column_eq(self, var, c):
        """(the column of x.f, K, x.f, whether ==) for a test `x.f == K` or `x.f != K` on a
        stored field, or on a fixed attribute of a card (its column by card id, made
        once: Program.card_column; a zone's cards are counted by it in C), or None."""
        test = _attr_test(c, var, ("==", "!="))
        if test is None:
            return None
        (attr, key), ot, equal = test, test[0].obj.note.type, c.op == "=="
        if ot.kind == "space" and attr.name not in self.m.boards[ot.name].params:
            return self.column(f"w.spaces[{ot.name!r}][{attr.name!r}]"), key, attr, equal
        if ot.kind == "card":
            if attr.name in self.m.cardsets[ot.name].params:  # fixed: its column by card id
                return self.const(self.p.card_column(attr.name)), key, attr, equal
            return self.column(f"w.cardf[{attr.name!r}]"), key, attr, equal
        return None

    def c_Aggregate(self, e):
        func, x = e.func, self.item(e.var)
        if func in ("count", "any", "all") and not self.checked:
            fast = self.by_column(e)
            if fast is not None:
                return fast
        value = lambda: self.expr(e.value)  # noqa: E731  (built only where x is bound)
        if func == "count":
            return f"len([{self.loop(e, lambda: '1')}])"  # lists beat generators on small sets
        if func == "first":
            return f"next(({self.loop(e, lambda: x)}), None)"
        if func == "any":
            return f"any({self.loop(e, value if e.value is not None else lambda: 'True')})"
        if func == "all" and e.value is None:  # all(x in S where c): every x of S meets c
            cond = lambda: self.expr(e.where)  # noqa: E731
            return f"all({self.loop(Unfiltered(e), cond)})"
        if func == "all":
            return f"all({self.loop(e, value)})"
        if func == "sum":
            return f"sum([{self.loop(e, value)}])"
        if func in ("max", "min"):
            return f"{func}([{self.loop(e, value)}], default=0)"
        return f"{self.const(best)}({self.loop(e, lambda: f'({x}, {value()})')})"

    def c_Filter(self, e):
        if e.where is None:
            src = self.expr(e.source)
            return f"list(w.zones[{src}])" if e.source.note.type.kind == "zone" else src
        return f"[{self.loop(e, lambda: self.item(e.var))}]"

    def c_ListLit(self, e):
        return "[" + ", ".join(self.kept(i) for i in e.items) + "]"

    def c_Range(self, e):
        lo, hi = self.expr(e.lo), self.expr(e.hi)
        if self.checked:  # an end that is none: R000 at it
            lo, hi = (f"{self.const(number_given)}({x}, {self.const(end.span)}, '..')" for x, end in ((lo, e.lo), (hi, e.hi)))
        return f"{self.const(budget.make_range)}(w, {lo}, {hi}, {self.const(e.span)})"


UNFAILING = (ast.Int, ast.Bool, ast.NoneLit)
UNFAILING_NAMES = frozenset({Binding.LOCAL, Binding.ITEM, Binding.CONST, Binding.SHARED_FIELD, Binding.ENUM_VALUE,
                             Binding.SPACE, Binding.PLAYER_COUNT})  # a local is always bound where it is named (the checker's scopes)


def unfailing(e) -> bool:
    """Whether evaluating `e` can neither fail nor charge work: a literal, or a name of a value."""
    if isinstance(e, ast.Name):
        return e.note.binding in UNFAILING_NAMES
    return isinstance(e, UNFAILING)


TALLIED = ("int", "bool", "str", "player", "enum", "space", "card")  # field types whose values are dict keys
# A tally costs at every write (a Python call) and every copy of the World; on a small
# board the scan in C is as quick as the lookup: a game on 9 spaces counted in rows and
# columns of 3 played 0.92x as fast tallied (instructions a game), one on 16 spaces in
# groups of 4 1.11x (benchmarks/HISTORY.md, "Stop 14").
TALLY_MIN_SPACES = 12


class _Index(NamedTuple):
    """A `where` conjunct `x.attr == key` answered by the table of a fixed attribute, or
    (with `fixed`) the conjuncts that read nothing but fixed attributes of x, answered by
    the items that meet them, listed once."""
    table: object  # function giving [(item, value of attr)...] (fixed_attrs)
    key: object  # the expression K
    rest: list  # the other conjuncts
    attr: str | None
    fixed: list = ()  # the conjuncts on fixed attributes alone (then table, key and attr are None)


def _is_board(e) -> bool:
    return isinstance(e, ast.Name) and e.note.binding is Binding.BOARD


class Unfiltered:
    """An aggregate seen without its `where` (for `all(x in S where c)`, c is the value)."""

    def __init__(self, e):
        self.source, self.var, self.where, self.span = e.source, e.var, None, e.span


def _attr_test(c, name: str, ops=("==",)):
    """(x.attr, K) for a test `x.attr == K` or `K == x.attr` (or another of `ops`) on the
    item `name` (K not mentioning it), else None."""
    if not (isinstance(c, ast.Binary) and c.op in ops):
        return None
    for attr, key in ((c.left, c.right), (c.right, c.left)):
        if isinstance(attr, ast.Attr) and isinstance(attr.obj, ast.Name) and attr.obj.name == name \
                and not _mentions(key, name):
            return attr, key
    return None


FIXED_OPS = frozenset({"==", "!=", "<", "<=", ">", ">=", "+", "-", "and", "or"})


def _fixed_only(e, name: str, attrs) -> bool:
    """Whether `e` reads the item `name` only through its fixed attributes `attrs`, and
    nothing else but literals, spaces and enum values, with operators that read nothing
    either: its value for an item is the same in every game."""
    if isinstance(e, ast.Attr):
        return isinstance(e.obj, ast.Name) and e.obj.name == name and e.obj.note.binding is Binding.ITEM \
            and e.name in attrs
    if isinstance(e, ast.Name):
        return e.note.binding in (Binding.SPACE, Binding.ENUM_VALUE) or \
            (e.name == name and e.note.binding is Binding.ITEM)
    if isinstance(e, (ast.Int, ast.Bool, ast.NoneLit)):
        return True
    if isinstance(e, ast.Binary):
        return e.op in FIXED_OPS and _fixed_only(e.left, name, attrs) and _fixed_only(e.right, name, attrs)
    if isinstance(e, (ast.Not, ast.Neg)):
        return _fixed_only(e.operand, name, attrs)
    return False


def _conjuncts(e) -> list:
    """`a and b and c` as [a, b, c]; no condition as []."""
    if e is None:
        return []
    if isinstance(e, ast.Binary) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _mentions(e, name: str) -> bool:
    """Whether a Name `name` occurs anywhere in the expression tree."""
    if isinstance(e, ast.Name):
        return e.name == name
    if isinstance(e, (list, tuple)):
        return any(_mentions(x, name) for x in e)
    if isinstance(e, ast.Expr):
        return any(_mentions(getattr(e, part), name) for part in ast.syntax_fields(type(e)))
    return False


