"""The OpenSpiel adapter's information: what each seat saw, as hash chains over its
views (`Seen`), and the strings OpenSpiel asks for (`SeatObserver`)."""
from __future__ import annotations

import hashlib
import json
import math

import numpy as np

from ..runtime.machine import Machine
from ..runtime.chance import ScriptedChance


class Seen:
    """One step of a game as the seats saw it: a link of a chain worked out on demand
    (hashing views costs time, and search never asks for them).

    A link keeps the machine the step left, for its views, until a later step changes that
    machine in place (`detach`); a view still wanted then is made on a replay of the game
    from its set-up, which each link's `index` (the option the step applied, None at
    set-up) and `events` (its chance outcomes) tell."""

    def __init__(self, before, told, machine, game, index=None, events=()):
        self.before, self.told, self.machine, self.game = before, told, machine, game
        self.index, self.events = index, list(events)
        self.hashes: dict = {}  # seat -> hash of everything it saw up to here
        self.views: dict = {}

    def detach(self):
        """The machine is about to change in place: this link no longer holds it."""
        self.machine = None

    def view(self, seat: int) -> str:
        if seat not in self.views:
            self.views[seat] = json.dumps(self.world().snapshot(seat), sort_keys=True, separators=(",", ":"))
        return self.views[seat]

    def world(self):
        """The World this step left (made again by a replay once the machine moved on)."""
        if self.machine is None:
            self.replay()
        return self.machine.w

    def replay(self):
        """Plays the game again from its set-up to this link (the same options and chance
        outcomes), giving a copy of each step's machine to the detached links on the way."""
        chain, link = [], self
        while link is not None:
            chain.append(link)
            link = link.before
        chain.reverse()
        chance = ScriptedChance(chain[0].events)
        machine = Machine(self.game.program, self.game.players, chance)
        for link in chain:
            if link.index is not None:
                chance.outcomes.extend(link.events)
                machine.choose_index(link.index)
            if link.machine is None:
                link.machine = machine.clone(chance=ScriptedChance())

    def said(self, seat: int) -> str:
        if self.told is None:
            return "set-up"
        chooser, label, secret = self.told
        return f"{chooser}: {'?' if secret and not chooser.startswith(f'seat {seat} ') else label}"

    def hash(self, seat: int) -> str:
        chain, link = [], self
        while link is not None and seat not in link.hashes:
            chain.append(link)
            link = link.before
        known = link.hashes[seat] if link is not None else ""
        for link in reversed(chain):
            text = f"{known}|{link.said(seat)}|{link.view(seat)}"
            known = link.hashes[seat] = hashlib.sha256(text.encode()).hexdigest()[:16]
        return known


class SeatObserver:
    """A seat's information state (perfect recall: its hash chain and view, a string only)
    or its observation: its view as a string and as a tensor (`layout`, play/tensor.py;
    `dict` names each piece's part of `tensor`, shaped)."""

    def __init__(self, perfect_recall: bool, layout=None):
        self.perfect_recall = perfect_recall
        self.layout = None if perfect_recall else layout
        self.tensor = np.zeros(0 if self.layout is None else self.layout.size, np.float32)
        self.dict = {} if self.layout is None else \
            {name: self.tensor[start:start + math.prod(shape)].reshape(shape) for name, shape, start in self.layout.pieces}
        self.at_start: dict = {}  # seat -> its tensor at the game's start (set_from)

    def set_from(self, state, player):
        if self.layout is None:
            return
        if "play" not in state.__dict__:  # a state no step has touched: the game's start, the same every time
            start = self.at_start.get(player)  # (pyspiel makes such a state for each tensor it is asked for)
            if start is None:
                self._set_from(state, player)
                start = self.at_start[player] = self.tensor.copy()
            self.tensor[:] = start
            return
        self._set_from(state, player)

    def _set_from(self, state, player):
        play = state.play
        if play.seen is None:  # set-up waits for chance: nothing is seen yet
            self.tensor[:] = self.layout.unseen(player)
        elif play.event is not None:  # chance: what the last step left, no one to move
            self.tensor[:] = self.layout.encode(play.seen.world(), player)
        elif play.run:  # a simultaneous node: no one seat to move; a member's own decision
            member = play.member(player)
            self.tensor[:] = self.layout.encode(play.seen.world(), player, None,
                                                None if member is None else member.name)
        else:
            self.tensor[:] = self.layout.observe(play.machine, player)

    def string_from(self, state, player):
        state = state.play
        if state.machine is None:
            return f"seat {player} at set-up"
        head = f"seat {player} seen {state.seen.hash(player)} " if self.perfect_recall else f"seat {player} "
        d = state.machine.pending
        mine = f" to choose {d.name}: {d.labels}" if d is not None and d.seat == player and state.event is None else ""
        member = state.member(player) if state.run else None
        if state.run:
            mine = "" if member is None else f" to choose {member.name}: {member.labels}"
        return head + state.seen.view(player) + mine
