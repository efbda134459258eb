"""Any game as a PettingZoo environment (ruledsl/pettingzoo.py): PettingZoo's own API and
seed tests, and the environment against the Machine it drives.

Skipped only when pettingzoo is not installed (the `pettingzoo` extra, which CI installs).
"""
import functools

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from ruledsl.pettingzoo import env  # noqa: E402
from support import ROOT  # noqa: E402

# api_test warns that a Dict observation (an observation and its action mask, as
# PettingZoo's own classic games have) is neither a Box nor a NumPy array
pytestmark = pytest.mark.filterwarnings("ignore:Observation:UserWarning")
CLASSICS = [str(ROOT / "examples" / f"{n}.game") for n in ("tic_tac_toe", "kuhn_poker", "goofspiel", "pig")]
FIVE = ["mafialand", "road_to_infamy", "the_boss", "mafia_dollar", "bada_bing"]  # by their shipped names


def random_game(game, seed: int) -> list:
    """Plays a game with uniformly random legal actions; the observations seen, in order."""
    rng = np.random.RandomState(seed)
    game.reset(seed=seed)
    seen = []
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        seen.append((agent, observation["observation"].tolist()))
        legal = np.flatnonzero(observation["action_mask"])
        game.step(None if terminated or truncated else int(rng.choice(legal)))
    return seen


@pytest.mark.parametrize("path", CLASSICS)
def test_pettingzoos_api_and_seed_tests_pass_on_the_classics(path):
    api_test(env(path), num_cycles=200, verbose_progress=False)
    seed_test(functools.partial(env, path), num_cycles=50)


@pytest.mark.parametrize("name", FIVE)
def test_pettingzoos_api_and_seed_tests_pass_on_the_five_games(name):
    api_test(env(name, players=3, max_steps=300), num_cycles=300, verbose_progress=False)
    seed_test(functools.partial(env, name, players=3, max_steps=300), num_cycles=50)


def test_the_agent_to_act_is_the_seat_asked_and_its_mask_its_options():
    game = env(str(ROOT / "examples" / "tic_tac_toe.game"))
    game.reset(seed=3)
    m = game.machine
    assert game.agent_selection == "seat_0"
    mask = game.observe("seat_0")["action_mask"]
    assert sorted(game.label_of(int(a)) for a in np.flatnonzero(mask)) == sorted(m.pending.labels)
    assert not game.observe("seat_1")["action_mask"].any()  # not its turn
    assert game.observe("seat_1")["observation"].tolist() == game.layout.observe(m, 1)
    b2 = next(int(a) for a in np.flatnonzero(mask) if game.label_of(int(a)) == "b2")
    game.step(b2)
    assert game.agent_selection == "seat_1" and m.w.spaces["grid"]["owner"]["b2"] == 0


def test_an_illegal_action_is_refused_with_the_legal_ones_named():
    game = env(str(ROOT / "examples" / "tic_tac_toe.game"))
    game.reset(seed=3)
    with pytest.raises(ValueError, match=r"not legal for seat_0's 'mark a cell'; legal: .*\(b2\)"):
        game.step(game.action_space("seat_0").n + 5)


def test_the_end_pays_as_openspiels_returns_and_sums_to_zero():
    game = env(str(ROOT / "examples" / "kuhn_poker.game"), returns="score")
    for seed in range(20):
        game.reset(seed=seed)
        paid = dict.fromkeys(game.possible_agents, 0.0)
        for agent in game.agent_iter():
            observation, reward, terminated, truncated, info = game.last()
            paid[agent] += reward
            game.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
        scores = game.machine.result.scores
        assert list(paid.values()) == [s - sum(scores) / 2 for s in scores] and sum(paid.values()) == 0
        assert info["reason"] == game.machine.result.reason


def test_a_game_stopped_at_max_steps_is_truncated_for_every_seat_with_no_reward():
    game = env(str(ROOT / "examples" / "pig.game"), max_steps=5)
    game.reset(seed=1)
    ended = {}
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        if terminated or truncated:
            ended[agent] = (terminated, truncated, reward)
            game.step(None)
        else:
            game.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert ended == {"seat_0": (False, True, 0.0), "seat_1": (False, True, 0.0)}
    assert game.machine.steps == 5 and not game.machine.result.by_rule


def test_the_same_seed_and_actions_play_the_same_game_and_another_seed_another():
    game = env("mafialand", players=3, max_steps=60)
    first = random_game(game, seed=4)
    assert random_game(game, seed=4) == first
    assert random_game(game, seed=5) != first


def test_a_game_is_found_by_path_or_shipped_name_and_bad_arguments_are_refused():
    assert env("kuhn_poker").players == 2
    with pytest.raises(FileNotFoundError, match="nor a shipped game"):
        env("no_such_game")
    with pytest.raises(ValueError, match="takes 2 to 2 players, not 3"):
        env("kuhn_poker", players=3)
    with pytest.raises(ValueError, match="returns="):
        env("kuhn_poker", returns="money")
