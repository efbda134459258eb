"""The OpenSpiel adapter's steps in place (ruledsl/openspiel/game.py, Play.run_step): a
state no clone shares steps its machine in place, and what it shows must be what a copy
per step shows: the same states, information states made again by a replay when a later
step changed the machine they were seen on, and clones left alone by the original's steps.
"""
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from ruledsl.openspiel.game import chance_after_setup, load_game  # noqa: E402
from support import ROOT  # noqa: E402

EXAMPLES = ROOT / "examples"
GAMES = [(EXAMPLES / "tic_tac_toe.game", 2), (EXAMPLES / "kuhn_poker.game", 2),
         (EXAMPLES / "goofspiel.game", 2), (ROOT / "games" / "mafia_dollar.game", 2)]


def both_ways(path, players):
    """The game twice: stepping in place where it can, and with a copy per step."""
    fast, slow = load_game(str(path), players=players), load_game(str(path), players=players)
    slow.in_place = False
    return fast, slow


def random_actions(state, rng, limit):
    """A random line of play from `state` (changed in place), as a list of actions."""
    actions = []
    while not state.is_terminal() and len(actions) < limit:
        if state.is_chance_node():
            action = rng.choice([a for a, _ in state.chance_outcomes()])
        else:
            action = rng.choice(state.legal_actions())
        actions.append(action)
        state.apply_action(action)
    return actions


def views(state, players):
    return [str(state)] + [state.information_state_string(s) for s in range(players)] + \
        [state.observation_string(s) for s in range(players)]


@pytest.mark.parametrize("path,players", GAMES, ids=lambda v: getattr(v, "stem", v))
def test_in_place_states_show_what_a_copy_per_step_shows(path, players):
    fast, slow = both_ways(path, players)
    assert fast.in_place
    for seed in range(6):
        line = random_actions(fast.new_initial_state(), random.Random(seed), 60)
        a, b = fast.new_initial_state(), slow.new_initial_state()
        for action in line:
            if seed % 2:  # asked at every step: every link's views made while it is live
                assert views(a, players) == views(b, players)
            a.apply_action(action)
            b.apply_action(action)
        # asked at the end only: the earlier links' machines were changed in place since,
        # so their views come from a replay
        assert views(a, players) == views(b, players)
        assert a.returns() == b.returns()


@pytest.mark.parametrize("path,players", GAMES, ids=lambda v: getattr(v, "stem", v))
def test_a_clone_is_left_alone_by_the_originals_steps(path, players):
    fast, _ = both_ways(path, players)
    rng = random.Random(7)
    for _ in range(4):
        state = fast.new_initial_state()
        first = random_actions(state, rng, 3)
        branch = state.clone()
        before = views(branch, players)
        rest = random_actions(state, rng, 60)  # the original goes on (a copy first, then in place)
        assert views(branch, players) == before
        for action in rest:
            branch.apply_action(action)
        replayed = fast.new_initial_state()
        for action in first + rest:
            replayed.apply_action(action)
        assert views(branch, players) == views(state, players) == views(replayed, players)


def test_games_whose_steps_may_ask_for_chance_copy_per_step():
    def of(path):
        return load_game(str(path), players=2).ruledsl
    assert not chance_after_setup(of(EXAMPLES / "tic_tac_toe.game"))
    assert not chance_after_setup(of(EXAMPLES / "kuhn_poker.game"))  # its one shuffle is in setup
    assert chance_after_setup(of(EXAMPLES / "pig.game"))  # a roll in the flow
    assert chance_after_setup(of(ROOT / "games" / "mafialand.game"))  # dice, and a deck that refills
    assert not load_game(str(EXAMPLES / "goofspiel.game"), simultaneous=True).in_place
