"""What the text of an aggregate (compile/aggregates.py) calls at run time: the tallies
a board's column keeps, read for count, any and all; count, any and all over the values
of a column in C; the items of a board or card set grouped by a fixed attribute, and a
fixed group's values read in one call; the items meeting fixed conditions, listed once;
and the item of the greatest value."""
from __future__ import annotations

import operator
from functools import partial


def tally(items, column, i, key) -> int:
    """How many of `items` (all the spaces of one group of grouping i) hold `key`."""
    if not items:
        return 0
    return column.tallies[i][column.groupings[i][items[0]]].get(key, 0)


def tally_any(items, column, i, key) -> bool:
    return tally(items, column, i, key) > 0


def tally_all(items, column, i, key) -> bool:
    return tally(items, column, i, key) == len(items)


def all_equal(values, key) -> bool:
    return not any(map(partial(operator.ne, key), values))


def count_unequal(values, key) -> int:
    return sum(map(partial(operator.ne, key), values))


def any_unequal(values, key) -> bool:
    return any(map(partial(operator.ne, key), values))


def none_equal(values, key) -> bool:
    return not operator.contains(values, key)


BY_COLUMN_EQ = {"count": operator.countOf, "any": operator.contains, "all": all_equal}  # x.f == K
BY_COLUMN_NE = {"count": count_unequal, "any": any_unequal, "all": none_equal}  # x.f != K


class Kept:
    """The items of a collection that meet fixed conditions, once listed (CollectionGen.meeting)."""

    def __init__(self):
        self.items = None

    def keep(self, items: list) -> list:
        self.items = Group(items)
        return self.items


class AttrIndex(dict):
    """Items of a board or card set grouped by one fixed attribute, in declared order.

    Filled on first use (cards exist only after defs compile); a plain dict lookup after.
    """

    def __init__(self, pairs_of):
        super().__init__()
        self.pairs_of = pairs_of

    def __missing__(self, key):
        if self.pairs_of is not None:
            groups: dict = {}
            for item, value in self.pairs_of():
                groups.setdefault(value, []).append(item)
            self.update((value, Group(items)) for value, items in groups.items())
            self.pairs_of = None
            if key in self:
                return self[key]
        return NO_ITEMS


class Group(list):
    """The items of a fixed group (an index's group, the items meeting fixed conditions),
    with `values(column)`: what a column holds for each of them, in order, in one call in C
    where it can (operator.itemgetter), for count, any and all over the column."""
    __slots__ = ("values",)

    def __init__(self, items=()):
        super().__init__(items)
        if len(self) >= 2:
            self.values = operator.itemgetter(*self)
        else:  # itemgetter of one item gives the value, not a tuple
            self.values = partial(values, tuple(self))


def values(items: tuple, column) -> tuple:
    return tuple([column[i] for i in items])


NO_ITEMS = Group()


def best(pairs):
    top, top_v = None, None
    for x, v in pairs:
        if top_v is None or v > top_v:
            top, top_v = x, v
    return top
