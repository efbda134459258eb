"""Compile stage, expressions part 3: how generated code reads the World's tables, a
mixin of the expression generator (expr.py `_Gen`).

A stored field's column (`w.spaces[B][F]`, `w.cardf[F]`) or another table of the World
(`w.loc`, where each card lies) is the same object all through one expression's run
(expressions change nothing), so fast code that reads it inside a comprehension, or more
than once, reads it once into a local before the expression (`prologue`); read once
outside a loop it stays in place (`settled`). Checked code reads every table in place.
"""
from __future__ import annotations

from ..check.types import Binding
from ..syntax import ast


KEY_NAMES = (Binding.LOCAL, Binding.ITEM, Binding.ENUM_VALUE, Binding.SPACE)  # zone keys whose evaluation can't fail


class TableReads:
    """`_Gen` has `checked`, `expr`, `columns`, `reads` and `looping`."""

    def column(self, text: str) -> str:
        """A stored field's column, `w.spaces[B][F]` or `w.cardf[F]` (or another table of
        the World, `w.loc`): in fast code a local read once before the expression
        (prologue) where the expression reads it in a comprehension or more than once, else
        the text itself (settled). A World's tables stay the same objects while an
        expression runs (expressions change nothing)."""
        if self.checked:
            return text
        name = self.columns.setdefault(text, f"_col{len(self.columns)}_")
        self.reads[name] = self.reads.get(name, 0) + (2 if self.looping else 1)
        return name

    def settled(self, text: str) -> str:
        """`text` with each column read once, outside a loop, written back in place."""
        for column, name in self.columns.items():
            if self.reads[name] < 2:
                text = text.replace(name, column)
        return text

    def prologue(self) -> list:
        """The lines that read the columns the expression's text names as locals (settled first)."""
        return [f"{name} = {column}" for column, name in self.columns.items() if self.reads[name] >= 2]

    def located(self, z):
        """`{card} in {zone}` as where the card lies (World.loc, kept by every move), for a
        zone named alone or by a name that can't fail (a local, say): a template, or None.
        A key of none names no zone: the cards of the zone are looked at, and fail there."""
        if self.checked:
            return None
        if isinstance(z, ast.Name):
            return f"({self.column('w.loc')}.get({{card}}) == {{zone}})"
        if isinstance(z, ast.Index) and isinstance(z.index, ast.Name) and z.index.note.binding in KEY_NAMES:
            return f"({self.column('w.loc')}.get({{card}}) == {{zone}} if {self.expr(z.index)} is not None " \
                   f"else {{card}} in w.zones[{{zone}}])"
        return None
