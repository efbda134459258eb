"""The OpenSpiel adapter's game in progress (`Play`): a Machine at a decision, or a rule
step waiting for chance, and what the seats saw; RuledslState (game.py) is its pyspiel
face."""
from __future__ import annotations

import copy
import json

import pyspiel

from ..runtime.chance import ChancePause, ScriptedChance
from ..runtime.machine import Machine
from .chance import event_nodes, event_outcome, node_outcomes
from .info import Seen
from .sim import play_run, sealed_run


class Play:
    """A game in progress, apart from pyspiel: a Machine at a decision, or a rule step
    waiting for chance. pyspiel's clone() deep-copies a state's attributes; this one's
    deep copy is cheap: the copies share the machine, and neither changes it after that
    (a step of a shared machine runs on a clone). A step of a machine a Play holds alone
    runs on it in place when the game allows (RuledslGame.in_place): no copy per step,
    which is what a playout (OpenSpiel's MCTS, an RL loop) mostly does. Such a step, and
    set-up, stops where it asks for chance (`paused`: the op that asked changed nothing)
    and goes on from there with the outcome. The steps of a simultaneous game run on a
    copy, again from their start with the outcomes known so far."""

    def __init__(self, game):
        self.g = game
        self.machine = None  # the live machine, at a decision or the end
        self.base = None  # while chance is pending: the machine before the step (None: set-up)
        self.paused = None  # or the machine stopped in the step where it asked for chance (in place)
        self.halfway = None  # the machine stopped for chance, in place or not (shown by text())
        self.step_index = None  # the decision index the step applies (None: set-up)
        self.told = None  # what the step's chooser did, kept while the step waits for chance
        self.events: list = []  # outcomes of the step's finished chance events
        self.event = None  # the chance event being drawn
        self.picks: list = []  # its outcomes so far, one per chance node
        self.seen = None  # the last step's Seen
        self.ids: list = []  # the pending decision's action ids
        self.legal: list = []  # the same, sorted (OpenSpiel's legal actions)
        self.run: list = []  # a simultaneous node's seats (openspiel_sim.Member), else empty
        self.world_text = None
        self.owned = True  # no other Play holds this machine (set-up makes a new one)
        self.run_step(None)

    def __deepcopy__(self, memo):
        other = copy.copy(self)
        self.owned = other.owned = False  # the machine is shared from now on
        other.events, other.picks = list(self.events), list(self.picks)
        # ids, legal and the run's Members are never changed once made: shared
        return other

    def run_step(self, told):
        """Runs the pending step: on from where it paused for chance, in place, or from its
        start with the chance outcomes known so far. `told`: what its chooser did (None
        when chance goes on with the same step)."""
        if told is not None:
            self.told = told
        index, events = self.step_index, self.events
        machine = None
        try:
            if self.paused is not None:
                machine = self.go_on(events[-1])
            elif self.base is None and index is None:  # set-up, paused where it asks for chance
                machine = self.paused = Machine(self.g.program, self.g.players, ScriptedChance(), start=False)
                self.owned = True
                machine.run()
            elif self.g.in_place:
                machine = self.paused = self.own(self.base, ScriptedChance())
                machine.choose_index(index)
            else:
                machine = self.base.clone(chance=ScriptedChance(events))
                self.owned = True
                machine.choose_index(index)
        except ChancePause as need:
            self.event, self.picks, self.halfway = need.event, [], machine or self.paused
            return
        self.paused = self.halfway = None
        self.machine, self.base, self.step_index, self.events, self.event = machine, None, None, [], None
        told, self.told = self.told, None
        self.world_text = None
        if machine.pending is not None and machine.steps >= self.g.max_steps:
            machine.stop_at_limit(f"step limit: {self.g.max_steps} decisions")
        self.remember(told, index, events)

    def own(self, machine, chance):
        """`machine` to step in place, with `chance` for the step: itself when this Play
        holds it alone, else a copy."""
        if self.owned:
            if machine is self.machine:
                self.seen.detach()  # its views, if still wanted, are made again by a replay
            machine.chance = chance
            return machine
        self.owned = True
        return machine.clone(chance=chance)

    def go_on(self, outcome):
        """The paused step, on from the op that asked for chance, with its outcome."""
        machine = self.paused
        if not self.owned:  # a clone shares it: go on on a copy (its chance source copied too)
            machine = self.paused = machine.clone()
            self.owned = True
        machine.chance.outcomes.append(outcome)
        machine.resume()
        return machine

    def remember(self, told, index=None, events=()):
        """Notes the step for the seats' information states; `told` is (chooser, label,
        secret), `index` and `events` what replays the step (the option, chance outcomes)."""
        self.seen = Seen(self.seen, told, self.machine, self.g, index, events)
        d = self.machine.pending
        self.ids = [] if d is None else self.g.action_ids(d.labels, d.name)
        self.legal = sorted(self.ids)
        run = sealed_run(self.machine) if self.g.simultaneous and d is not None else []
        self.run = run if len(run) > 1 else []
        for member in self.run:
            member.ids = self.g.action_ids(member.labels, member.name)

    def current_player(self):
        if self.event is not None:
            return pyspiel.PlayerId.CHANCE
        if self.machine.pending is None:
            return pyspiel.PlayerId.TERMINAL
        if self.run:
            return pyspiel.PlayerId.SIMULTANEOUS
        return self.machine.pending.seat

    def legal_actions(self, player=None):
        if self.event is not None:
            return list(range(node_outcomes(self.event, self.picks)))
        if self.run:
            member = self.member(player)
            return [self.g.no_move] if member is None else sorted(member.ids)
        if self.g.simultaneous and player is not None and player != self.current_player():
            return []  # a simultaneous game's sequential node: only its seat moves
        return self.legal

    def member(self, seat):
        return next((m for m in self.run if m.seat == seat), None)

    def apply_joint(self, actions):
        """A simultaneous node: the run's choices applied in the game's order."""
        indices = [m.ids.index(actions[m.seat]) for m in self.run]
        last, after = play_run(self.machine, self.run, indices)
        for member, index, machine in zip(self.run, indices, after):
            self.seen = Seen(self.seen, (f"seat {member.seat} chose for {member.name}",
                                         member.labels[index], True), machine, self.g)
        member = self.run[-1]
        told = (f"seat {member.seat} chose for {member.name}", member.labels[indices[-1]], True)
        self.base, self.step_index = last, indices[-1]
        self.run_step(told)

    def apply(self, action):
        if self.event is not None:
            self.picks.append(action)
            if len(self.picks) < event_nodes(self.event):
                return
            self.events.append(event_outcome(self.event, self.picks))
            self.event, self.picks = None, []
            self.run_step(None)
            return
        d = self.machine.pending
        index = self.ids.index(action)
        told = (f"seat {d.seat} chose for {d.name}", d.labels[index], d.secret)
        self.base, self.step_index = self.machine, index
        self.run_step(told)

    def action_text(self, action, player=None) -> str:
        if self.run:
            member = self.member(player)
            if member is not None and action in member.ids:
                return member.labels[member.ids.index(action)]
            return "no move" if action == self.g.no_move else f"action {action}"
        if self.event is None and self.machine.pending is not None and action in self.ids:
            return self.machine.pending.labels[self.ids.index(action)]
        label = self.g.label_of(action)
        return label if label is not None else f"action {action}"

    def is_terminal(self):
        return self.event is None and self.machine.pending is None

    def text(self) -> str:
        """The whole state as text (the World's JSON, made once per machine; at a chance
        node, the World of the step so far)."""
        if self.machine is None:
            return f"set-up, chance outcomes {self.events} {self.picks}"
        if self.halfway is not None:  # a step stopped for chance: its World so far
            world = json.dumps(self.halfway.w.snapshot(), sort_keys=True, separators=(",", ":"))
            return f"chance {self.events} {self.picks} in decision {self.halfway.steps}: {world}"
        if self.world_text is None:
            self.world_text = json.dumps(self.machine.w.snapshot(), sort_keys=True, separators=(",", ":"))
        status = "over" if self.is_terminal() else f"waiting for seat {self.machine.pending.seat}"
        if self.run:
            status = "waiting for seats " + ", ".join(str(m.seat) for m in self.run) + " at once"
        return f"{status} after {self.machine.steps} decisions: {self.world_text}"
