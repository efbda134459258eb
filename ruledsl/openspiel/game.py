"""An OpenSpiel adapter: any .game as a pyspiel game (needs the `openspiel` extra).

    from ruledsl.openspiel.game import load_game
    game = load_game("games/base.game", players=2, returns="score")
    state = game.new_initial_state()

Also registered with pyspiel as `python_ruledsl`:
`pyspiel.load_game("python_ruledsl", {"game": PATH, "players": 2})`.

The model, in short (docs/agents.md#openspiel has it in full): every decision
is a player node of its seat, a sealed choice hidden from the other seats'
information states; chance is explicit (a die per chance node, a shuffle one
card per node; a rule step stops at the first roll or shuffle it has no outcome
for, and goes on from there once it has); action ids are stable per game
(the sorted labels the game can offer, then hashed ids); information states are
hash chains over the seat's views (openspiel_info.py); returns are "win"
(winners share +1, the others -1) or "score" (score minus the mean score).
`simultaneous=True` (registered as `python_ruledsl_simultaneous`): a run of
`secret` decisions by distinct seats is one simultaneous-move node, checked as
played (openspiel_sim.py says when that is exact).
"""
from __future__ import annotations

import copy
import hashlib
import json

import pyspiel

from ..pipeline import load_game as load_ruledsl
from ..play.mcts import shares
from ..runtime.chance import ChancePause, ScriptedChance
from ..runtime.machine import Machine
from ..syntax import ast
from .chance import event_nodes, event_outcome, node_outcomes
from .info import SeatObserver, Seen
from .sim import play_run, sealed_run

SHORT_NAME = "python_ruledsl"
NUMBERS = range(0, 101)  # number labels with ids of their own
OVERFLOW = 512  # hashed ids for any other label
DEFAULT_MAX_STEPS = 10_000


# ---------------------------------------------------------------- static tables
def label_vocabulary(game) -> list:
    """Every label the game can offer that is known before play, sorted."""
    program, labels = game.program, {"pass", "none", "yes", "no"}
    for node in ast.walk(game.loaded.decls):
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
    labels.update(str(i) for i in NUMBERS)
    return sorted(labels)


def most_dice_sides(game) -> int:
    return max([n.sides for n in ast.walk(game.loaded.decls) if isinstance(n, ast.Roll)], default=1)


def label_hash(label: str) -> int:
    return int.from_bytes(hashlib.blake2b(label.encode(), digest_size=8).digest(), "big") % OVERFLOW


# ---------------------------------------------------------------- the game
GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="ruledsl game",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=100,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification={"game": "", "players": 0, "returns": "win", "max_steps": DEFAULT_MAX_STEPS,
                             "simultaneous": False})
# The same with sealed runs of secret decisions as simultaneous-move nodes (openspiel_sim.py).
GAME_TYPE_SIMULTANEOUS = pyspiel.GameType(
    short_name=SHORT_NAME + "_simultaneous", long_name="ruledsl game, simultaneous sealed choices",
    dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS, chance_mode=GAME_TYPE.chance_mode,
    information=GAME_TYPE.information, utility=GAME_TYPE.utility, reward_model=GAME_TYPE.reward_model,
    max_num_players=100, min_num_players=1, provides_information_state_string=True,
    provides_information_state_tensor=False, provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification={**GAME_TYPE.parameter_specification, "simultaneous": True})


class RuledslGame(pyspiel.Game):
    """A .game file as an OpenSpiel game; parameters game (path), players, returns, max_steps."""

    def __init__(self, params=None):
        params = dict(params or {})
        self.path = str(params.get("game", ""))
        self.ruledsl = load_ruledsl(self.path, chance_apart=True)  # a step may pause for chance
        program = self.program = self.ruledsl.program
        self.players = int(params.get("players") or program.min_players)
        if not program.min_players <= self.players <= program.max_players:
            raise ValueError(f"{program.title} takes {program.min_players} to {program.max_players} players, "
                             f"not {self.players}")
        self.returns_mode = str(params.get("returns", "win"))
        if self.returns_mode not in ("win", "score"):
            raise ValueError(f"returns={self.returns_mode!r}: use 'win' or 'score'")
        self.max_steps = int(params.get("max_steps", DEFAULT_MAX_STEPS))
        self.simultaneous = bool(params.get("simultaneous", False))
        self.labels = label_vocabulary(self.ruledsl)
        self.label_ids = {label: i for i, label in enumerate(self.labels)}
        bound = 1.0 if self.returns_mode == "win" else 1e9
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.labels) + OVERFLOW + self.simultaneous,
            max_chance_outcomes=max(len(program.cards), most_dice_sides(self.ruledsl), 2),
            num_players=self.players, min_utility=-bound, max_utility=bound, utility_sum=0.0,
            max_game_length=self.max_steps)
        params = {"game": self.path, "players": self.players, "returns": self.returns_mode,
                  "max_steps": self.max_steps, "simultaneous": self.simultaneous}
        self.no_move = len(self.labels) + OVERFLOW  # a seat outside a simultaneous node's run
        # a step may change its machine in place (not on a copy), pausing where it asks for
        # chance; not in a simultaneous game, whose runs keep the machines between members
        self.in_place = not self.simultaneous
        super().__init__(GAME_TYPE_SIMULTANEOUS if self.simultaneous else GAME_TYPE, info, params)

    def new_initial_state(self):
        return RuledslState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return SeatObserver(perfect_recall)

    def action_ids(self, labels) -> list:
        """Each label's id, in the order given; distinct within one decision."""
        known = self.label_ids
        ids = [known.get(label) for label in labels]
        if None not in ids:  # all in the vocabulary (the common case): distinct, as the labels are
            return ids
        ids, taken = [], set()
        overflow = len(self.labels)
        for label in labels:
            i = self.label_ids.get(label)
            if i is None:
                h = label_hash(label)
                while overflow + h in taken:
                    h = (h + 1) % OVERFLOW
                i = overflow + h
            taken.add(i)
            ids.append(i)
        return ids


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
        self.ids = [] if d is None else self.g.action_ids(d.labels)
        self.legal = sorted(self.ids)
        run = sealed_run(self.machine) if self.g.simultaneous and d is not None else []
        self.run = run if len(run) > 1 else []
        for member in self.run:
            member.ids = self.g.action_ids(member.labels)

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
        if action < len(self.g.labels):
            return self.g.labels[action]
        return f"action {action}"

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


class RuledslState(pyspiel.State):
    """OpenSpiel's side of a `Play`."""

    def __getattr__(self, name):
        """`play` is made on first use (pyspiel's clone() makes a new state, then copies
        the attributes into it), then read as a plain attribute: OpenSpiel asks for the
        current player several times a move."""
        if name != "play":
            raise AttributeError(name)
        play = self.play = Play(self.get_game())
        return play

    def current_player(self):
        return self.play.current_player()

    def _legal_actions(self, player):
        return self.play.legal_actions(player)

    def legal_actions(self, player=None):
        """pyspiel's, answered here at a player node for its seat (the common call, which
        through pyspiel's C++ costs several microseconds); pyspiel's own otherwise."""
        play = self.play
        d = play.machine.pending if play.machine is not None else None
        if d is not None and play.event is None and not play.run and (player is None or player == d.seat):
            return list(play.legal)
        return super().legal_actions() if player is None else super().legal_actions(player)

    def is_chance_node(self):
        """Answered here, like legal_actions: pyspiel's own asks current_player through C++."""
        return self.play.event is not None

    def is_simultaneous_node(self):
        return self.play.event is None and bool(self.play.run)

    def chance_outcomes(self):
        n = node_outcomes(self.play.event, self.play.picks)
        return [(a, 1.0 / n) for a in range(n)]

    def _apply_action(self, action):
        self.play.apply(action)

    def _apply_actions(self, actions):
        self.play.apply_joint(list(actions))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {action}"
        return self.play.action_text(action, player)

    def is_terminal(self):
        return self.play.is_terminal()

    def returns(self):
        play = self.play
        if not play.is_terminal():
            return [0.0] * play.g.players
        return seat_returns(play.machine.result, play.g.players, play.g.returns_mode)

    def __str__(self):
        return self.play.text()


def seat_returns(result, players: int, mode: str) -> list:
    if mode == "score":
        mean = sum(result.scores) / players
        return [float(s - mean) for s in result.scores]
    return shares(result.winners, players)


def load_game(path: str, players: int | None = None, returns: str = "win", max_steps: int = DEFAULT_MAX_STEPS,
              simultaneous: bool = False):
    """A .game file as an OpenSpiel game (see the module doc); `simultaneous=True`: sealed
    runs of secret decisions as simultaneous-move nodes (openspiel_sim.py says when exact)."""
    params = {"game": path, "returns": returns, "max_steps": max_steps, "simultaneous": simultaneous}
    if players is not None:
        params["players"] = players
    return RuledslGame(params)


pyspiel.register_game(GAME_TYPE, RuledslGame)
pyspiel.register_game(GAME_TYPE_SIMULTANEOUS, RuledslGame)
