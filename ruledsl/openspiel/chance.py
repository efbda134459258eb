"""The OpenSpiel adapter's explicit chance: a rule step stops (NeedChance) at the first
roll or shuffle it has no outcome for, and goes on from there (or, at set-up and in a
simultaneous game, is run again from its start) once it has; a roll is a chance node
per die, a shuffle one card per node."""
from __future__ import annotations

from ..runtime.machine import ChancePause


class NeedChance(ChancePause):
    """A rule step asked for a roll or shuffle whose outcome is not known yet."""

    def __init__(self, event):
        super().__init__(event)
        self.event = event  # ("roll", count, sides) or ("shuffle", cards)


class ScriptedChance:
    """Gives known outcomes in order; the first roll or shuffle past them raises NeedChance."""

    def __init__(self, outcomes=()):
        self.outcomes = list(outcomes)
        self.used = 0

    def roll(self, count, sides, what):
        return self.next(("roll", count, sides))

    def shuffle(self, cards, what):
        return self.next(("shuffle", tuple(cards)))

    def next(self, event):
        if self.used >= len(self.outcomes):
            raise NeedChance(event)
        self.used += 1
        return list(self.outcomes[self.used - 1])

    def clone(self):
        other = ScriptedChance(self.outcomes)
        other.used = self.used
        return other

    def mark(self) -> int:
        """Where an op that may pause half-way starts taking outcomes (ChancePause)."""
        return self.used

    def rewind(self, mark: int):
        self.used = mark


def event_nodes(event) -> int:
    """How many chance nodes an event takes."""
    return event[1] if event[0] == "roll" else len(event[1]) - 1


def node_outcomes(event, picks) -> int:
    """How many outcomes the next chance node of an event has."""
    return event[2] if event[0] == "roll" else len(event[1]) - len(picks)


def event_outcome(event, picks) -> list:
    """The outcome of a finished event: dice faces, or the shuffled cards."""
    if event[0] == "roll":
        return [a + 1 for a in picks]
    left, order = list(event[1]), []
    for a in picks:
        order.append(left.pop(a))
    return order + left
