"""Action ids for a game: each label a decision can offer numbered the same in every state,
for the RL adapters (OpenSpiel's, ruledsl/openspiel; PettingZoo's, ruledsl/pettingzoo).

The labels a game can offer that are known before play (menu and `may` labels, "pass",
card labels with their ` #k` variants, board spaces, enum values, seats, "none", "yes",
"no" and, where a `choose` may offer numbers, 0..100) are sorted and a label's id is its
place; then, where numbers may be offered, 101..9,999 by value (prices, bids); then,
where a `choose` may offer a value no name labels (a number outside those, a zone, a
list), OVERFLOW hashed ids (a collision within one decision moves to the next free id).
"""
from __future__ import annotations

import hashlib

from ..check.types import Binding, elem_of
from ..syntax import ast

NUMBERS = range(0, 101)  # number labels with ids of their own, among the known labels
MORE_NUMBERS = range(101, 10_000)  # number labels with ids after the known labels, by value (a price, a bid)
OVERFLOW = 512  # hashed ids for any other label; a decision may offer at most this many such labels
NAMED_KINDS = frozenset({"player", "card", "bool", "space", "enum"})  # values labelled by names the vocabulary has
SMALL = "small int"  # the kind of a choice among numbers within NUMBERS (`choose n from 1..min(3, p.stash)`)


class ActionSpace:
    """The action ids of `compiled` (pipeline.Game): `size` of them, 0..size-1."""

    def __init__(self, compiled):
        kinds = offered_kinds(compiled)
        self.labels = label_vocabulary(compiled, numbers=bool({"int", SMALL} & kinds))
        self.more_numbers = MORE_NUMBERS if "int" in kinds else range(0)
        self.overflow = OVERFLOW if kinds - NAMED_KINDS - {SMALL} else 0
        self.label_ids = {label: i for i, label in enumerate(self.labels)}
        for n in self.more_numbers:  # "101" -> the first id after the known labels, and so on
            self.label_ids.setdefault(str(n), len(self.labels) + n - MORE_NUMBERS.start)
        self.hashed = len(self.labels) + len(self.more_numbers)  # the first hashed id
        self.size = self.hashed + self.overflow

    def label_of(self, action: int) -> str | None:
        """The label an action id stands for in every state (known labels and numbers);
        None for a hashed id."""
        if action < len(self.labels):
            return self.labels[action]
        if action < self.hashed:
            return str(action - len(self.labels) + MORE_NUMBERS.start)
        return None

    def ids(self, labels, name: str = "") -> list:
        """Each label's id, in the order given; distinct within one decision (`name`)."""
        known = self.label_ids
        ids = [known.get(label) for label in labels]
        if None not in ids:  # all known labels or numbers (the common case): distinct, as the labels are
            return ids
        if ids.count(None) > self.overflow:
            raise ValueError(f"'{name}' offers {ids.count(None):,} options that are neither labels the game "
                             f"names nor numbers 0..{MORE_NUMBERS.stop - 1:,}; the action space "
                             f"numbers at most {self.overflow} such options apart in one decision")
        ids, taken = [], set()
        for label in labels:
            i = known.get(label)
            if i is None:
                h = label_hash(label)
                while self.hashed + h in taken:
                    h = (h + 1) % self.overflow
                i = self.hashed + h
            taken.add(i)
            ids.append(i)
        return ids


def statements(game) -> list:
    """The rules and triggers as the checker and compiler see them: sugar lowered (a
    `window` is `may`s in a loop), each node typed."""
    return [*game.model.rules.values(), *game.model.triggers.values()]


def label_vocabulary(game, numbers: bool = True) -> list:
    """Every label the game can offer that is known before play, sorted; the numbers
    0..100 only where a decision may offer numbers (`numbers`)."""
    program, labels = game.program, {"pass", "none", "yes", "no"}
    for node in ast.walk(statements(game)):
        if isinstance(node, ast.Menu):
            labels.update(o.label for o in node.options)
        elif isinstance(node, ast.May):
            labels.add(node.label)
    copies: dict = {}
    for card in program.cards:
        copies[card.label] = copies.get(card.label, 0) + 1
        labels.add(card.label if copies[card.label] == 1 else f"{card.label} #{copies[card.label]}")
    for board in program.boards.values():
        labels.update(board.spaces)
    for values in program.enums.values():
        labels.update(values)
    labels.update(f"seat {s}" for s in range(program.max_players))
    if numbers:
        labels.update(str(i) for i in NUMBERS)
    return sorted(labels)


def offered_kinds(game) -> set:
    """The kinds of value `choose` may offer (types.T kinds; "any" where the checker left
    one untyped; SMALL for a range of numbers within NUMBERS): every other decision offers
    labels the rules' text names (menu and `may` labels, "pass", a walk's spaces)."""
    kinds = set()
    for node in ast.walk(statements(game)):
        if isinstance(node, ast.Choose):
            t = node.source.note.type
            elem = elem_of(t) if t is not None else None
            kind = "any" if elem is None else elem.kind
            kinds.add(SMALL if kind == "int" and within_numbers(game, node.source) else kind)
    return kinds


def within_numbers(game, source) -> bool:
    """Whether a choice's source is a range whose every number is in NUMBERS, by its shape."""
    if not isinstance(source, ast.Range):
        return False
    lo, hi = least(game, source.lo), most(game, source.hi)
    return lo is not None and hi is not None and lo >= NUMBERS.start and hi < NUMBERS.stop


def most(game, e) -> int | None:
    """The most a number can be, where its shape tells: a literal, a constant, the `min` of
    anything one of whose arguments is bounded, the `size` of a zone (its card set's cards);
    None where it can't tell."""
    if isinstance(e, ast.Int):
        return e.value
    if isinstance(e, ast.Name) and e.note.binding is Binding.CONST and e.name in game.model.consts:
        return most(game, game.model.consts[e.name].value)
    if isinstance(e, ast.Call) and e.name == "min":
        bounds = [b for b in (most(game, a) for a in e.args) if b is not None]
        return min(bounds) if bounds else None
    if isinstance(e, ast.Call) and e.name == "size" and len(e.args) == 1:
        t = e.args[0].note.type
        if t is not None and t.kind == "zone" and t.name in game.program.cardset_ids:
            return len(game.program.cardset_ids[t.name])
    return None


def least(game, e) -> int | None:
    """The least a number can be, where its shape tells (a literal, a constant); else None."""
    if isinstance(e, ast.Int):
        return e.value
    if isinstance(e, ast.Name) and e.note.binding is Binding.CONST and e.name in game.model.consts:
        return least(game, game.model.consts[e.name].value)
    return None


def label_hash(label: str) -> int:
    return int.from_bytes(hashlib.blake2b(label.encode(), digest_size=8).digest(), "big") % OVERFLOW
