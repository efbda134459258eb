"""Property: seeded random games of Bada Bing end without error, by a rule of the game,
for every player count 2-8, and the crew/title/card bookkeeping stays consistent."""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruledsl.runtime.machine import Machine, RandomChance
from support import repository_game

pytestmark = pytest.mark.slow  # a property over many random games

GAME = "games/bada_bing.game"
RULE_ENDS = {"last Boss standing", "declared the Boss of Bosses"}
MAX_DECISIONS = 20_000
# a "stubborn" table never quits, never proposes and never agrees to a declaration,
# so games run until Bosses are whacked or ruined (the long way to an end)
STUBBORN = {"buckle under", "propose a Boss of Bosses", "agree"}


def random_game(players, seed, stubborn=False):
    m = Machine(repository_game(GAME).program, players, RandomChance(seed))
    rng = random.Random(seed)
    while m.result is None and m.steps < MAX_DECISIONS:
        labels = m.pending.labels
        allowed = [i for i, lab in enumerate(labels) if not (stubborn and lab in STUBBORN)] or list(range(len(labels)))
        m.choose_index(rng.choice(allowed))
    return m


def assert_ended_by_rule(m, players):
    assert m.result is not None, f"no end after {MAX_DECISIONS} decisions"
    assert m.result.by_rule and m.result.reason in RULE_ENDS
    assert len(m.result.winners) == 1
    assert sorted(m.result.ranking) == list(range(players))
    w = m.w
    owners, policies = w.spaces["square"]["owner"], w.spaces["square"]["policy"]
    for seat, p in enumerate(w.players):
        owned = [s for s, owner in owners.items() if owner == seat]
        if not w.alive[seat]:
            # BB-11 a Boss who is out holds nothing: titles, policies, soldiers, passes
            assert owned == [] and p["soldiers"] == p["posted"] == 0
            assert w.zones[("passes", seat)] == []
            continue
        # every Policy has exactly one Soldier of its owner on it (BB-07)
        assert p["posted"] == sum(1 for s in owned if policies[s])
        assert 1 <= p["soldiers"] + p["posted"] <= 7 and 0 <= p["bought"] <= 2  # BB-10
    assert all(owners[s] is not None for s, policy in policies.items() if policy)
    # the 60 cards are all somewhere: the two piles, the passes held, the box
    assert sum(len(cards) for (zone, _), cards in w.zones.items()) == 60
    assert w.shared["stash_money"] >= 0


@pytest.mark.parametrize("players", range(2, 9))
@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_games_end_by_a_rule(players, seed):
    assert_ended_by_rule(random_game(players, seed), players)


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.sampled_from(range(2, 9)))
def test_stubborn_random_games_end_by_whacking_or_ruin(seed, players):
    m = random_game(players, seed, stubborn=True)
    assert_ended_by_rule(m, players)
    assert m.result.reason == "last Boss standing"
