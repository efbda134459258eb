"""Property: seeded random games of Mafialand end without error, by a rule of the game."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support import random_playout, repository_game

pytestmark = pytest.mark.slow  # a property over many random games

GAME = "games/mafialand.game"
WILD = "games/mafialand/wild_cards.game"
RULE_ENDS = {"locked down three sectors", "eliminated every opponent"}
MAX_DECISIONS = 20_000


def random_game(game, players, seed):
    return random_playout(repository_game(game).program, players, seed, MAX_DECISIONS)


def assert_ended_by_rule(m, players):
    assert m.result is not None, f"no end after {MAX_DECISIONS} decisions"
    assert m.result.by_rule and m.result.reason in RULE_ENDS
    assert len(m.result.winners) == 1
    assert sorted(m.result.ranking) == list(range(players))
    winner = m.result.winners[0]
    assert m.w.alive[winner]
    # bags are never created or destroyed: players' bags and the bank add up to 80
    held = sum(p["stash"] for p in m.w.players) + sum(
        1 for owner in m.w.spaces["houses"]["owner"].values() if owner is not None)
    assert held + m.w.shared["bank"] == 80


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_games_end_by_a_rule(players, seed):
    assert_ended_by_rule(random_game(GAME, players, seed), players)


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.sampled_from([2, 3, 4]))
def test_random_wild_card_games_end_by_a_rule(seed, players):
    assert_ended_by_rule(random_game(WILD, players, seed), players)
