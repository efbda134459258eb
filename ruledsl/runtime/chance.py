"""Runtime: the sources of a game's chance (rolls and shuffles), which a Machine asks.

- RandomChance: seeded, keyed streams (streams.py), what every game plays with;
- ScriptedChance: outcomes given in order; past them it pauses the step (ChancePause),
  for a driver that decides chance itself: the OpenSpiel adapter, where chance is a
  node of the game tree, or a fuzzer or a table playing real dice.

A source has `roll(count, sides, what)` (the faces) and `shuffle(cards, what)` (the
cards in their new order); `what` names the dice ("2d6") or the zone. It may have
`clone()` (an independent copy, for Machine.clone; else it is deep-copied) and
`restart()` (a copy as it was before its first draw: a fast Machine cloned while a rule
with no resumed generator runs as one replays its game from it, Machine.as_op_lists).
"""
from __future__ import annotations

import copy

from .streams import KeyedStreams


class RandomChance:
    """The one seeded random source of a game's chance; outcomes are reported.

    Keyed (streams.py): the n-th roll of 2d6 and the n-th shuffle of a zone are
    fixed by the seed alone, whatever else the rules did before them."""

    def __init__(self, seed):
        self.seed = seed
        self.rolls = KeyedStreams(f"chance:{seed}:roll")  # keyed by the dice, e.g. "2d6"
        self.shuffles = KeyedStreams(f"chance:{seed}:shuffle")  # keyed by the zone
        self.cards: list = []

    def attach(self, machine):
        self.cards = machine.program.cards  # a shuffle orders cards by their labels' hashes

    def roll(self, count, sides, what):
        return self.rolls.dice(what, count, sides)

    def shuffle(self, cards, what):
        return self.shuffles.order(what, cards, [self.cards[c].label for c in cards])

    def clone(self) -> "RandomChance":
        """An independent copy: the same draws to come, whatever the original draws next."""
        other = copy.copy(self)
        other.rolls = self.rolls.clone()
        other.shuffles = self.shuffles.clone()
        return other

    def restart(self) -> "RandomChance":
        """A copy as this source was before its first draw (Machine.as_op_lists)."""
        return RandomChance(self.seed)


class ChancePause(Exception):
    """Raised by a chance source that doesn't know an outcome yet. It leaves the Machine's
    run; in a program compiled with chance_apart (compile_game) the op that asked changed
    nothing, or undid what it changed, so `Machine.resume()` runs it again once the source
    knows the outcome. Such a source has `mark()` and `rewind(mark)`: what an op took
    from it before it paused is given back.

    `event`: what was asked, ("roll", count, sides, what) or ("shuffle", cards, what)."""

    def __init__(self, event):
        super().__init__(event)
        self.event = event


class ScriptedChance:
    """Gives known outcomes in order; the first roll or shuffle past them raises ChancePause."""

    def __init__(self, outcomes=()):
        self.outcomes = list(outcomes)
        self.used = 0

    def roll(self, count, sides, what):
        return self.next(("roll", count, sides, what))

    def shuffle(self, cards, what):
        return self.next(("shuffle", tuple(cards), what))

    def next(self, event):
        if self.used >= len(self.outcomes):
            raise ChancePause(event)
        self.used += 1
        return list(self.outcomes[self.used - 1])

    def clone(self):
        other = ScriptedChance(self.outcomes)
        other.used = self.used
        return other

    def restart(self):
        return ScriptedChance(self.outcomes)

    def mark(self) -> int:
        """Where an op that may pause half-way starts taking outcomes (ChancePause)."""
        return self.used

    def rewind(self, mark: int):
        self.used = mark
