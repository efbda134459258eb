"""Compile stage: the decisions of a rule's generator (whole.py), written out.

Each is written out as its op does it (decide.py: what is offered, a menu's guards in
order, the chooser, then Machine.decide): the end conditions first, then the Decision
pending, a `yield`, and the choice read from the frame (`fr.got`) or, for a secret one,
bound by the Decision. A decision whose labels and values are fixed at compile time (a
menu's with no guards, a may's, a choose of all of an enum's values or a board's
spaces) is made once for each seat. (A whole rule is always written as text: one too
deep for Python has no generator.)
"""
from __future__ import annotations

from ..check.types import Binding
from ..runtime.machine import Decision
from ..syntax import ast
from .decide import no_option_allowed, nobody_chooses, nothing_to_choose


class WrittenDecisions:
    """The `w_K` of `_Whole` for choose, menu and may; `_Whole` has `at`, `const`, `e`,
    `evaluated`, `binding`, `reread`, `block`, `pause` and `resumes_here`."""

    def w_Choose(self, lines, s, depth):
        pad = "    " * depth
        lines.append(f"{pad}_at = {self.at(s.span)}")
        lines.extend(pad + line for line in self.choose_text(s))
        self.pause(lines, pad)
        self.resumes_here(lines)
        if not s.secret:  # the Decision's bind None: the choice is the frame's `got`
            lines.append(f"{pad}{self.binding(s.var)} = fr.got")
        else:  # bound in env by the Decision's bind
            lines.extend(pad + line for line in self.reread(s.var))

    def choose_text(self, s) -> list:
        c, span = self.e.choice(s), self.const(s.span)
        fixed = self.fixed_offer(s)
        if fixed:  # made once for each seat (decided)
            return self.decided(s, c.name, fixed, fixed, "choose")
        lines = [*self.evaluated(c.offered), "_vs = list(w.zones[_val])" if c.zone else "_vs = _val",
                 "if not _vs:", f"    {self.const(nothing_to_choose)}({self.const(c.name)}, {span})",
                 "_ls = _vs" if c.label is None else f"_ls, _vs = {self.const(c.label)}(w, _vs)"]
        bind = f"{self.const(c.sealed)}(_val, _vs)" if s.secret else "None"
        return [*lines, *self.decided(s, c.name, "_ls", "_vs", "choose", bind, s.secret, c.labeller)]

    def fixed_offer(self, s) -> list | None:
        """The values a `choose` offers where they are the same at every decision, each its
        own label (decide.labelling): all of an enum's values or a board's spaces, open,
        with no `where`."""
        src = s.source
        if s.secret or s.where is not None or not isinstance(src, ast.Name):
            return None
        if src.note.binding is Binding.ENUM:
            return list(self.e.m.enums[src.name])
        if src.note.binding is Binding.BOARD:
            return list(self.e.m.boards[src.name].spaces)
        return None

    def decided(self, s, name, labels, values, kind, bind="None", secret=False, labeller=None) -> list:
        """The chooser (`_val`, R006 if none), then Machine.decide written out: the end
        conditions first (if the game has any), then the Decision of seat `_val` pending,
        its `bind` a text (None: the generator reads the choice from `fr.got`). Labels and
        values are texts (the labels' may be None: `labeller` makes them when read), or
        lists fixed at compile time: then each seat's Decision is made once (nothing
        changes a Decision once made)."""
        chooser = [*self.evaluated(s.by), "if _val is None:",
                   f"    {self.const(nobody_chooses)}({self.const(s.span)})"]
        if isinstance(labels, list):
            each = [Decision(i, name, labels, values, s.span, False, kind, None) for i in range(self.e.m.max_players)]
            made = f"vm.pending = {self.const(each)}[_val]"
        else:
            made = (f"vm.pending = {self.const(Decision)}(_val, {self.const(name)}, {labels}, {values}, "
                    f"{self.const(s.span)}, {bool(secret)}, {kind!r}, {bind}, {self.const(labeller)})")
        if not self.e.m.ends:
            return [*chooser, made]
        return [*chooser, "if w.version == vm.ends_false_at or not vm.check_ends():", "    " + made]

    def w_Menu(self, lines, s, depth):
        """The options as the branches of an if, on the index chosen (`fr.got`: a Decision's bind None)."""
        pad = "    " * depth
        options = list(range(len(s.options)))
        lines.append(f"{pad}_at = {self.at(s.span)}")
        if all(o.guard is None for o in s.options):  # all offered: labels and values shared
            made = self.decided(s, s.label or "choice", [o.label for o in s.options], options, "menu")
        else:
            made = self.guarded_options(s)
        lines.extend(pad + line for line in made)
        self.pause(lines, pad)
        lines.append(f"{pad}_o = fr.got")
        self.resumes_here(lines)
        for i, opt in enumerate(s.options):
            lines.append(f"{pad}{'if' if i == 0 else 'elif'} _o == {i}:")
            lines.append(self.block(opt.body, depth + 1))

    def guarded_options(self, s) -> list:
        """A menu with guards, as its op offers it (decide.offer_menu): each guard in order,
        the options allowed by number in `_vs` (R007 if none), then `decided`. Their
        labels are made when read (Decision.labels)."""
        lines = ["_vs = []"]
        for i, o in enumerate(s.options):
            if o.guard is None:
                lines.append(f"_vs.append({i})")
            else:
                lines += [*self.evaluated(o.guard), "if _val:", f"    _vs.append({i})"]
        name = s.label or "choice"
        lines += ["if not _vs:", f"    {self.const(no_option_allowed)}({self.const(name)}, {self.const(s.span)})"]
        labels = [o.label for o in s.options]
        return [*lines, *self.decided(s, name, "None", "_vs", "menu", labeller=lambda vs: [labels[i] for i in vs])]

    def w_May(self, lines, s, depth):
        pad = "    " * depth
        lines.append(f"{pad}_at = {self.at(s.span)}")
        inner = pad
        if s.guard is not None:  # a guard that fails offers nothing: the body is skipped
            lines.extend(pad + line for line in self.evaluated(s.guard))
            lines.append(f"{pad}if _val:")
            inner = pad + "    "
        made = self.decided(s, s.label, [s.label, "pass"], [True, False], "may")
        lines.extend(inner + line for line in made)
        self.pause(lines, inner)
        if s.guard is not None:
            lines += [f"{pad}else:", f"{pad}    fr.got = False"]
        lines.append(f"{pad}_o = fr.got")
        self.resumes_here(lines)
        lines += [f"{pad}if _o:", self.block(s.body, depth + 1)]
