"""The OpenSpiel adapter's explicit chance: a rule step stops (runtime.chance's
ScriptedChance raises ChancePause) at the first roll or shuffle it has no outcome for,
and goes on from there (or, in a simultaneous game, is run again from its start) once
it has; a roll is a chance node per die, a shuffle one card per node."""
from __future__ import annotations

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
