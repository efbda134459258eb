"""Resuming an interrupted recorded game: `ruledsl play --resume T`.

The recorded choices are made again under the recorded rules, through a chance
source that gives the recorded outcomes while there are any and then goes on
with the game's own seeded streams. The streams are keyed (streams.py), so
drawing every recorded outcome from them as well leaves them exactly where the
interrupted game left them: outcomes cut from the end of the file are drawn
again as they were, and play goes on as the game would have. Random agents'
streams are advanced past their recorded picks the same way. The transcript is
written anew, complete, as the replayed steps make their records again.
"""
from __future__ import annotations

from ..runtime.machine import Machine, RandomChance
from .divergence import ReplayChance, ReplayError, decisions_of


class ContinuedChance:
    """Recorded outcomes first, then the seeded streams, which keep count all along."""

    def __init__(self, records, seed):
        self.recorded = ReplayChance(r for r in records if r["type"] == "chance")
        self.fresh = RandomChance(seed)

    def attach(self, machine):
        self.recorded.attach(machine)
        self.fresh.attach(machine)

    def roll(self, count, sides, what):
        outcome = self.fresh.roll(count, sides, what)
        return self.recorded.roll(count, sides, what) if self._left() else outcome

    def shuffle(self, cards, what):
        order = self.fresh.shuffle(cards, what)
        return self.recorded.shuffle(cards, what) if self._left() else order

    def _left(self) -> bool:
        return self.recorded.next_index < len(self.recorded.records)


def resume(program, records, agents, writer):
    """A Machine at the first decision not yet recorded, its records written again by `writer`
    (a TranscriptWriter listening, header written); returns (machine, steps replayed)."""
    if any(r["type"] == "result" for r in records):
        raise ReplayError("the recorded game is over: there is nothing to resume")
    header = records[0]
    chance = ContinuedChance(records, header["seed"])
    machine = Machine(program, header["players"], chance, listener=writer)
    decisions = decisions_of(records)
    for record in decisions:
        d = machine.pending
        if d is None or d.index_of(record["choice"]) is None:
            raise ReplayError(f"step {record['step']}: the recorded choice is not offered by the recorded rules")
        skip = getattr(agents[d.seat], "skip", None)
        if skip is not None:
            skip(d)  # a random agent's stream moves past the pick it made then
        chance.recorded.step = record["step"]
        machine.choose(record["choice"])
    return machine, len(decisions)
