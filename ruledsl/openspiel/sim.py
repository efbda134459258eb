"""The OpenSpiel adapter's simultaneous-move nodes (`load_game(..., simultaneous=True)`).

A *sealed run* is what the game asks next: a `secret` decision, then, as long as
each choice leads (with no chance in between) straight to another `secret`
decision by a seat not yet in the run, that one too. With `simultaneous=True` a
run of two or more seats is one simultaneous node: every seat of the run picks
at once, the others have one no-move action, and the choices are then applied
in the game's order.

The run is found by a probe (each seat takes its first option). That is exact
when no decision of the run is offered other options, nor shows its seat another
view, whatever the earlier seats of the run chose: then asking them one by one
and asking them at once are the same game. It is checked as the game is played:
each later seat of the run must be the same seat, asked the same decision with
the same options, and see the same `World.snapshot(seat)`, after the choices
actually made as after the probe's. Otherwise applying the joint action raises
`NotSimultaneous` (a ValueError) naming the decision, and the game should be
loaded without `simultaneous`.
"""
from __future__ import annotations

import json

from ..errors import GameRuntimeError
from ..runtime.chance import ChancePause, ScriptedChance


class NotSimultaneous(ValueError):
    pass


class Member:
    """One seat of a sealed run, as the probe saw it."""

    def __init__(self, decision, view: str):
        self.seat = decision.seat
        self.name = decision.name
        self.labels = list(decision.labels)
        self.view = view
        self.ids: list = []  # its action ids (the game's), set by the adapter

    def same(self, decision, view: str) -> bool:
        return (decision is not None and decision.secret and decision.seat == self.seat
                and decision.name == self.name and list(decision.labels) == self.labels and view == self.view)


def seat_view(machine, seat: int) -> str:
    return json.dumps(machine.w.snapshot(seat), sort_keys=True, separators=(",", ":"))


def step(machine, index: int):
    """A copy of `machine` after choice `index`; None if that step needs chance or fails."""
    after = machine.clone(chance=ScriptedChance(()))
    try:
        after.choose_index(index)
    except (ChancePause, GameRuntimeError):
        return None
    return after


def sealed_run(machine) -> list:
    """The seats of the sealed run pending at `machine` (one Member each, in order)."""
    d = machine.pending
    if d is None or not d.secret:
        return []
    run = [Member(d, "")]
    seats = {d.seat}
    while True:
        machine = step(machine, 0)
        d = None if machine is None else machine.pending
        if d is None or not d.secret or d.seat in seats:
            return run
        run.append(Member(d, seat_view(machine, d.seat)))
        seats.add(d.seat)


def play_run(machine, run: list, indices: list):
    """Applies all but the last choice of the run; returns the machine before the last
    choice and the machines after each earlier one (checked against the probe)."""
    after = []
    for k, (member, index) in enumerate(zip(run[:-1], indices[:-1])):
        nxt = run[k + 1]
        machine = step(machine, index)
        d = None if machine is None else machine.pending
        if machine is None or not nxt.same(d, seat_view(machine, nxt.seat)):
            where = "" if d is None else f" ({d.span.where()})"
            raise NotSimultaneous(
                f"simultaneous=True: after seat {member.seat} chose '{member.labels[index]}' for "
                f"{member.name}, seat {nxt.seat}'s '{nxt.name}'{where} was not asked as after its first "
                "option (other options, another view, or chance in between): these decisions are not "
                "simultaneous; load the game without simultaneous=True")
        after.append(machine)
    return machine, after
