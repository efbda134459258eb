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

import pyspiel

from ..pipeline import load_game as load_ruledsl
from ..play.actions import ActionSpace
from ..play.mcts import check_returns, seat_returns
from ..play.tensor import Layout
from ..syntax import ast
from .chance import node_outcomes
from .info import SeatObserver
from .play import Play

SHORT_NAME = "python_ruledsl"
DEFAULT_MAX_STEPS = 10_000


# ---------------------------------------------------------------- static tables
def most_dice_sides(game) -> int:
    return max([n.sides for n in ast.walk(game.loaded.decls) if isinstance(n, ast.Roll)], default=1)


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
    provides_observation_tensor=True,
    parameter_specification={"game": "", "players": 0, "returns": "win", "max_steps": DEFAULT_MAX_STEPS,
                             "simultaneous": False})
# The same with sealed runs of secret decisions as simultaneous-move nodes (openspiel_sim.py).
GAME_TYPE_SIMULTANEOUS = pyspiel.GameType(
    short_name=SHORT_NAME + "_simultaneous", long_name="ruledsl game, simultaneous sealed choices",
    dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS, chance_mode=GAME_TYPE.chance_mode,
    information=GAME_TYPE.information, utility=GAME_TYPE.utility, reward_model=GAME_TYPE.reward_model,
    max_num_players=100, min_num_players=1, provides_information_state_string=True,
    provides_information_state_tensor=False, provides_observation_string=True,
    provides_observation_tensor=True,
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
        self.returns_mode = check_returns(str(params.get("returns", "win")))
        self.max_steps = int(params.get("max_steps", DEFAULT_MAX_STEPS))
        self.simultaneous = bool(params.get("simultaneous", False))
        self.layout = Layout(self.ruledsl, self.players)  # the observation tensor's (play/tensor.py)
        # numbers and hashed ids only where a choice may offer them (play/actions.py):
        # tic-tac-toe has 17 actions, not 10,529
        self.actions = ActionSpace(self.ruledsl)
        self.labels, self.label_ids = self.actions.labels, self.actions.label_ids
        self.action_ids, self.label_of = self.actions.ids, self.actions.label_of
        bound = 1.0 if self.returns_mode == "win" else 1e9
        info = pyspiel.GameInfo(
            num_distinct_actions=self.actions.size + self.simultaneous,
            max_chance_outcomes=max(len(program.cards), most_dice_sides(self.ruledsl), 2),
            num_players=self.players, min_utility=-bound, max_utility=bound, utility_sum=0.0,
            max_game_length=self.max_steps)
        params = {"game": self.path, "players": self.players, "returns": self.returns_mode,
                  "max_steps": self.max_steps, "simultaneous": self.simultaneous}
        self.no_move = self.actions.size  # a seat outside a simultaneous node's run
        # a step may change its machine in place (not on a copy), pausing where it asks for
        # chance; not in a simultaneous game, whose runs keep the machines between members
        self.in_place = not self.simultaneous
        super().__init__(GAME_TYPE_SIMULTANEOUS if self.simultaneous else GAME_TYPE, info, params)

    def new_initial_state(self):
        return RuledslState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return SeatObserver(perfect_recall, self.layout)


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
