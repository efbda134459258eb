"""The OpenSpiel adapter's observation tensor (ruledsl/openspiel/info.py over
ruledsl/play/tensor.py), and OpenSpiel's RL environment and a learner on it.

Skipped only when open_spiel is not installed (the `openspiel` extra, which CI installs).
"""
import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import random_agent, tabular_qlearner  # noqa: E402

from ruledsl.openspiel.game import load_game  # noqa: E402
from support import ROOT  # noqa: E402

EXAMPLES = ROOT / "examples"
GAMES = [str(EXAMPLES / f"{n}.game") for n in ("tic_tac_toe", "kuhn_poker", "goofspiel", "pig")] + \
         [str(ROOT / "games" / f"{n}.game") for n in ("mafialand", "road_to_infamy", "the_boss", "mafia_dollar",
                                                        "bada_bing")]


def to_a_decision(state, rng):
    while state.is_chance_node():
        outcomes = [a for a, _ in state.chance_outcomes()]
        state.apply_action(outcomes[rng.randint(len(outcomes))])
    return state


def test_the_game_type_offers_observation_tensors_not_information_state_tensors():
    game = load_game(str(EXAMPLES / "kuhn_poker.game"))
    kind = game.get_type()
    assert kind.provides_observation_tensor and not kind.provides_information_state_tensor
    assert game.observation_tensor_shape() == [game.layout.size]


@pytest.mark.parametrize("path", GAMES[:4])
def test_the_tensor_at_a_decision_is_the_seats_view_of_the_machine(path):
    game = load_game(path)
    rng = np.random.RandomState(4)
    state = to_a_decision(game.new_initial_state(), rng)
    for _ in range(6):
        if state.is_terminal():
            break
        for seat in range(game.num_players()):
            got = state.observation_tensor(seat)
            assert got == pytest.approx(game.layout.observe(state.play.machine, seat))
        state.apply_action(state.legal_actions()[rng.randint(len(state.legal_actions()))])
        state = to_a_decision(state, rng)


def test_at_a_chance_node_no_seat_is_to_move_and_the_last_step_is_shown():
    game = load_game(str(EXAMPLES / "pig.game"))
    state = game.new_initial_state()
    roll = [a for a in state.legal_actions() if state.action_to_string(0, a) == "roll"][0]
    before = state.observation_tensor(0)
    state.apply_action(roll)
    assert state.is_chance_node()
    during = state.observation_tensor(0)
    layout = game.layout
    to_move = during[layout.to_move:layout.to_move + 3]
    assert to_move == [0.0, 0.0, 1.0] and before[layout.to_move:layout.to_move + 3] == [1.0, 0.0, 0.0]
    assert during[layout.shared_at:layout.players_at] == before[layout.shared_at:layout.players_at]


def test_a_simultaneous_node_names_each_members_decision_and_no_seat_to_move():
    game = load_game(str(EXAMPLES / "goofspiel.game"), simultaneous=True)
    state = to_a_decision(game.new_initial_state(), np.random.RandomState(0))
    assert state.is_simultaneous_node()
    layout = game.layout
    for seat in (0, 1):
        got = state.observation_tensor(seat)
        assert got[layout.to_move:layout.to_move + 3] == [0.0, 0.0, 1.0]
        assert sum(got[layout.decision:layout.shared_at]) == 1.0  # its own sealed bid, named
        assert got[layout.decision + layout.decisions.get(state.play.member(seat).name)] == 1.0


@pytest.mark.slow
@pytest.mark.parametrize("path", GAMES)
def test_openspiels_rl_environment_plays_every_game(path):
    np.random.seed(3)
    game = load_game(path, max_steps=300)
    env = rl_environment.Environment(game)
    env.seed(3)
    assert env.observation_spec()["info_state"] == (game.layout.size,)
    agents = [random_agent.RandomAgent(p, env.action_spec()["num_actions"]) for p in range(game.num_players())]
    ts = env.reset()
    while not ts.last():
        seat = ts.observations["current_player"]
        assert len(ts.observations["info_state"][seat]) == game.layout.size
        ts = env.step([agents[seat].step(ts).action])
    assert len(ts.rewards) == game.num_players()


@pytest.mark.slow
def test_a_q_learner_on_the_tensors_learns_to_beat_random_play_at_tic_tac_toe():
    """Tabular Q-learning keyed by the observation tensor: a tensor that told two boards
    apart too little (or not at all) would leave it near random play's 0.59 as X."""
    np.random.seed(0)  # the learner's exploration and the random agent draw from numpy's
    env = rl_environment.Environment(load_game(str(EXAMPLES / "tic_tac_toe.game")))
    env.seed(1)
    actions = env.action_spec()["num_actions"]
    agents = [tabular_qlearner.QLearner(player_id=0, num_actions=actions, step_size=0.5),
              random_agent.RandomAgent(1, actions)]

    def play(training: bool) -> float:
        ts = env.reset()
        while not ts.last():
            ts = env.step([agents[ts.observations["current_player"]].step(ts, is_evaluation=not training).action])
        for agent in agents:
            agent.step(ts, is_evaluation=not training)
        return ts.rewards[0]

    for _ in range(2000):
        play(True)
    wins = sum(play(False) > 0 for _ in range(300)) / 300
    assert wins > 0.8


def test_before_set_up_ends_a_seat_sees_only_itself():
    """Kuhn poker's set-up waits for the deal (chance): nothing is seen yet."""
    game = load_game(str(EXAMPLES / "kuhn_poker.game"))
    state = game.new_initial_state()
    assert state.is_chance_node() and state.play.seen is None
    got = state.observation_tensor(1)
    layout = game.layout
    assert [i for i, x in enumerate(got) if x] == [layout.observer + 1, layout.to_move + 2]


def test_a_state_no_step_touched_shows_the_games_start_each_time():
    """pyspiel makes a new state for each tensor it is asked for; the observer writes the
    start it worked out once (and a state asked first, then played, shows its own view)."""
    game = load_game(str(EXAMPLES / "tic_tac_toe.game"))
    fresh = [game.new_initial_state().observation_tensor(seat) for seat in (0, 1)]
    for seat in (0, 1):
        state = game.new_initial_state()
        assert state.observation_tensor(seat) == fresh[seat]
        assert fresh[seat] == pytest.approx(game.layout.observe(state.play.machine, seat))
    state.apply_action(state.legal_actions()[0])
    assert state.observation_tensor(0) != fresh[0]
    assert state.observation_tensor(0) == pytest.approx(game.layout.observe(state.play.machine, 0))
