"""Compile stage: decision points (choose, menu, may). Each op pauses the Machine."""
from __future__ import annotations

from typing import NamedTuple

from ..budget import visited
from ..check.types import Binding, coll, elem_of
from ..errors import GameRuntimeError
from ..runtime.machine import Decision
from ..syntax import ast
from .ops import OpEmitter


DISTINCT = frozenset({Binding.BOARD, Binding.ENUM, Binding.PLAYERS, Binding.SEATS})  # names of no repeats


def _distinct(e) -> bool:
    """Whether collection `e` can't hold an item twice: a name of DISTINCT, or filtered from one."""
    while isinstance(e, ast.Filter):
        e = e.source
    return isinstance(e, ast.Name) and e.note.binding in DISTINCT


def _all_differ(e) -> bool:
    """Whether collection `e` can't hold a value twice: a range, a zone (a card lies in
    one zone at a time: World.put), a name of DISTINCT, or filtered from one of those."""
    while isinstance(e, ast.Filter):
        e = e.source
    return isinstance(e, ast.Range) or e.note.type.kind == "zone" or _distinct(e)


def _dedupe(labels, values, state_of=None):
    """Identical choices (e.g. two equal cards) are offered once, the first of them.

    Cards with the same label but different field values are different choices:
    the second and later get a stable suffix ' #2', ' #3' in offering order.
    """
    if len(set(labels)) == len(labels):
        return labels, values  # no label repeats (the common case): no field tells two apart
    seen, variants, out_l, out_v = set(), {}, [], []
    for lab, v in zip(labels, values):
        key = (lab, state_of(v)) if state_of else lab
        if key in seen:
            continue
        seen.add(key)
        n = variants[lab] = variants.get(lab, 0) + 1
        out_l.append(lab if n == 1 else f"{lab} #{n}")
        out_v.append(v)
    return out_l, out_v


class Choice(NamedTuple):
    """A `choose` as DecisionCompiler.choice gives it."""
    offered: object  # the expression of the items offered (a Filter for a `where`)
    zone: bool  # whether `offered` names a zone: its cards are offered, copied
    label: object  # label(w, values) -> (labels or None, values), or None: each value is its own label
    labeller: object  # labeller(values) -> their labels, where label gave None (Decision.labels)
    name: str  # the decision's name
    bind: object  # bind(vm, fr, value), or None for a secret choice, whose bind is made by
    sealed: object  # sealed(who, values) -> its bind, which also notes whose it was (mcts.determinize)


def _binder(var):
    def bind(vm, fr, value):
        fr.env[var] = value
        fr.pc += 1
    return bind


def _sealed_binder(var):
    def sealed(who, options):
        """A sealed choice's binding also notes whose it was and what it was chosen from,
        so a search agent of another seat can redraw it (mcts.determinize). The frame's
        note is its own (Frame.copy copies it), so it is changed in place."""
        def bind_sealed(vm, fr, value):
            if fr.sealed is None:
                fr.sealed = {var: (who, options)}
            else:
                fr.sealed[var] = (who, options)
            fr.env[var] = value
            fr.pc += 1
        return bind_sealed
    return sealed


def _unlabelled(w, values):
    """No labels yet, for values no two of which are alike or labelled alike (the players)."""
    return None, values


def no_option_allowed(name, span):
    raise GameRuntimeError(span, "R007", f"'{name}': no option is allowed here")


def nothing_to_choose(name, span):
    raise GameRuntimeError(span, "R007", f"'{name}': there is nothing to choose from")


def nobody_chooses(span):
    raise GameRuntimeError(span, "R006", "nobody to make this choice (the chooser is none)")


class DecisionCompiler(OpEmitter):
    """The statements that stop for a decision: choose, a menu of options, may."""

    def chooser(self, by, span):
        def seat(w, env):
            p = by(w, env)
            if p is None:
                nobody_chooses(span)
            return p
        return seat

    def s_Choose(self, code, s):
        self.emit(code, "choose", s.span, self.offer_choice(s))

    def choice(self, s) -> "Choice":
        """What a `choose` offers and how, for its op (offer_choice) and for the text of a
        whole rule (whole.py), which do the same in the same order."""
        elem = elem_of(s.source.note.type)
        offered = s.source
        if s.where is not None:  # `choose x from S where c` offers [x in S where c]
            offered = ast.Filter(span=s.span, var=s.var, source=s.source, where=s.where)
            offered.note.type = coll(elem)
        var, name = s.var, s.label or s.var
        label, labeller = self.labelling(s, elem)
        return Choice(offered, offered.note.type.kind == "zone", label, labeller, name,
                      _binder(var) if not s.secret else None, _sealed_binder(var) if s.secret else None)

    def labelling(self, s, elem) -> tuple:
        """(label, labeller): `label(w, values) -> (labels, values)` gives the labels of the
        values offered, two alike offered once (_dedupe), a unit of work each (a list kept
        from an earlier step could otherwise offer a million options at every decision for
        free); label is None where each value is its own label (distinct spaces or enum
        values). Where no two values offered can share a label (different values of a type
        whose labels differ: Program.labels_differ), label gives None for the labels, which
        `labeller(values)` makes when they are first read (Decision.labels): an agent that
        only counts the options never makes them. The players are labelled free."""
        labels_of = self.p.labels_fn(elem)
        differ = self.p.labels_differ(elem)
        with_fields = elem.kind == "card" and bool(self.m.cardsets[elem.name].fields)
        field_names = list(self.m.cardsets[elem.name].fields) if with_fields else []
        if elem.kind == "card" and any(z.per == elem.name for z in self.m.zones.values()):
            # cards that key zones are told apart by what lies on them: offer every one, by its
            # unique label ('unit 2', 'unit 2 #2'), as the zone labels name them
            key_label, with_fields, differ = self.p.card_key_label, False, True
            labels_of = lambda vs: [key_label(v) for v in vs]  # noqa: E731
        if _distinct(s.source):  # a board's spaces, an enum's values or the players, or some of them
            if elem.kind in ("space", "enum"):
                return None, labels_of  # no two are alike, and a space or value is its own label
            return _unlabelled, labels_of

        span, apart = s.span, _all_differ(s.source)

        def label(w, values):
            visited(w, values, span)  # each value labelled costs a unit of work, as an item visited
            if differ and (apart or len(set(values)) == len(values)):
                return None, values  # all different, and so are their labels: made when read
            state_of = (lambda c: tuple(w.cardf[f][c] for f in field_names)) if with_fields else None
            return _dedupe(labels_of(values), values, state_of)
        return label, labels_of

    def offer_choice(self, s):
        """`choose(vm, fr)`: offers the items; the one chosen is bound to the variable."""
        c = self.choice(s)
        src, label, labeller, name = self.x.source(c.offered), c.label, c.labeller, c.name
        span, secret = s.span, s.secret
        seat = self.chooser(self.x(s.by), s.span)

        def choose(vm, fr):
            w, env = vm.w, fr.env
            values = src(w, env)  # a fresh list, or a constant one that nothing changes
            if not values:
                nothing_to_choose(name, span)
            labels, values = (values, values) if label is None else label(w, values)
            who = seat(w, env)
            return vm.decide(Decision(who, name, labels, values, span, secret, "choose",
                                      c.sealed(who, values) if secret else c.bind, labeller))
        return choose

    def s_Menu(self, code, s):
        starts = []

        def bind(vm, fr, value):
            fr.pc = value
        self.emit(code, "menu", s.span, self.offer_menu(s, starts, bind))
        exits = []
        for opt in s.options:
            starts.append(len(code.ops))
            self.block(code, opt.body)
            ref = [0]
            exits.append(ref)
            self.jump(code, opt.span, ref)
        for ref in exits:
            ref[0] = len(code.ops)

    def offer_menu(self, s, values, bind):
        """`menu(vm, fr)`: offers the options whose guards hold, option i as `values[i]`
        (filled in later by an op list: where the option's ops start), chosen by `bind`."""
        seat = self.chooser(self.x(s.by), s.span)
        guards = [self.x(o.guard) if o.guard is not None else None for o in s.options]
        labels = [o.label for o in s.options]
        unguarded = all(g is None for g in guards)
        name, span = s.label or "choice", s.span

        def menu(vm, fr):
            w, env = vm.w, fr.env
            if unguarded:
                offered_labels, offered_values = labels, values  # shared, never changed
            else:
                offered = [i for i, g in enumerate(guards) if g is None or g(w, env)]
                if not offered:
                    no_option_allowed(name, span)
                offered_labels, offered_values = [labels[i] for i in offered], [values[i] for i in offered]
            return vm.decide(Decision(seat(w, env), name, offered_labels, offered_values, span, False, "menu", bind))
        return menu

    def s_May(self, code, s):
        skip = self.target([0])

        def bind(vm, fr, value):
            fr.pc = fr.pc + 1 if value else skip[0]

        def passed(vm, fr):
            fr.pc = skip[0]
        self.emit(code, "may", s.span, self.offer_may(s, bind, passed))
        self.block(code, s.body)
        skip[0] = len(code.ops)

    def offer_may(self, s, bind, passed):
        """`may(vm, fr)`: offers the option and "pass", chosen by `bind` (True: the option);
        when its guard fails nothing is offered: `passed` runs and it returns None."""
        seat = self.chooser(self.x(s.by), s.span)
        guard = self.x(s.guard) if s.guard is not None else None
        label, span = s.label, s.span

        def may(vm, fr):
            w, env = vm.w, fr.env
            if guard is not None and not guard(w, env):
                passed(vm, fr)
                return None
            return vm.decide(Decision(seat(w, env), label, [label, "pass"], [True, False], span, False, "may", bind))
        return may
