"""Property: seeded random games of Road to Infamy end without error, by the rule of
the game (the gangster deck runs out), with every component accounted for."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support import random_playout, repository_game

pytestmark = pytest.mark.slow  # a property over many random games

GAME = "games/road_to_infamy.game"
MAX_DECISIONS = 5_000
HANDS = 12  # one gangster is flipped per hand


def random_game(players, seed):
    return random_playout(repository_game(GAME).program, players, seed, MAX_DECISIONS)


def zone_total(m, name):
    return sum(len(cards) for (zone, _), cards in m.w.zones.items() if zone == name)


def assert_ended_by_rule(m, players):
    w = m.w
    assert m.result is not None, f"no end after {MAX_DECISIONS} decisions"
    assert m.result.by_rule and m.result.reason == "the gangster deck ran out"
    assert w.shared["round"] == HANDS and w.shared["turn"] == 3 * HANDS
    assert sorted(m.result.ranking) == list(range(players)) and m.result.winners
    # tokens are never created or destroyed: gangs + bag + box hold all 52
    assert zone_total(m, "gang") + zone_total(m, "bag") + zone_total(m, "box") == 52
    assert zone_total(m, "prize") == 0
    # every gangster was won and is in a crew, or was assassinated
    assert zone_total(m, "crew") + zone_total(m, "morgue") == 12
    assert zone_total(m, "gdeck") + zone_total(m, "for_hire") == 0
    # all 57 bids are in the deck, the discard pile or a hand; none is left in play
    assert zone_total(m, "bids") + zone_total(m, "bid_discard") + zone_total(m, "hand") == 57
    assert zone_total(m, "brawl_deck") == 4
    # the score is the infamy: favoured tokens twice, plus Mob Boss points
    cards = m.program.cards
    for s in range(players):
        tokens = [cards[t].attrs["type"] for t in w.zones[("gang", s)]]
        crew = [cards[g].attrs["ability"] for g in w.zones[("crew", s)]]
        bosses = (len(crew) if "kingpin" in crew else 0) + (len(set(tokens)) if "the_suit" in crew else 0) \
            + (3 if "blades" in crew else 0)
        assert m.result.scores[s] == len(tokens) + tokens.count(w.players[s]["favoured"]) + bosses
    assert len({p["favoured"] for p in w.players}) == players


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_games_end_by_the_rule(players, seed):
    assert_ended_by_rule(random_game(players, seed), players)
