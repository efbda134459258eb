"""Property: seeded random games of MafiaDollar end without error, by the rule of the
game (the End of the prohibition is drawn), for every player count, with every card
accounted for and every attachment consistent."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support import random_playout, repository_game

pytestmark = pytest.mark.slow  # a property over many random games

GAME = "games/mafia_dollar.game"
MAX_DECISIONS = 20_000
PENALTY = {1: 25, 2: 50, 3: 100}


def random_game(players, seed):
    return random_playout(repository_game(GAME).program, players, seed, MAX_DECISIONS)


def assert_ended_by_rule(m, players):
    w, cards = m.w, m.program.cards
    assert m.result is not None, f"no end after {MAX_DECISIONS} decisions"
    assert m.result.by_rule and m.result.reason == "End of the prohibition"
    assert sorted(m.result.ranking) == list(range(players)) and m.result.winners
    # every card is in exactly one zone: 173 in all, none created or lost
    placed = [c for zone in w.zones.values() for c in zone]
    assert sorted(placed) == list(range(173))
    assert [cards[c].label for c in w.zones[("aside", None)]] == ["End of the prohibition"]
    for key in [k for k in w.zones if k[0] in ("offer", "counter", "passing", "lower")]:
        assert w.zones[key] == []

    def kind(c):
        return cards[c].attrs["kind"]

    in_play = {c: s for s in range(players) for z in ("hideout", "street") for c in w.zones[(z, s)]}
    yards = {c: s for s in range(players) for c in w.zones[("yard", s)]}
    for s in range(players):
        assert all(kind(c) != "loot" for c in w.zones[("hand", s)])
        assert all(kind(c) == "warehouse" for c in w.zones[("yard", s)]) and w.zones[("yard", s)]
        assert all(kind(c) == "gangster" for c in w.zones[("hideout", s)] + w.zones[("street", s)])
    # what lies on or under a card (zones per card) lies only on cards in play:
    # MD-07 loot under warehouses, at most one dog each; MD-09/10 blocks and items on
    # gangsters, at most one item of each type
    for (name, on), zone in w.zones.items():
        if name in ("stock", "guard") and zone:
            assert on in yards and all(kind(c) == ("loot" if name == "stock" else "dog") for c in zone)
            assert name == "stock" or len(zone) == 1
        if name in ("blocks", "gear") and zone:
            assert on in in_play
            assert all(kind(c) == "block" for c in zone) if name == "blocks" else len({kind(c) for c in zone}) == len(zone)
    # MD-13 the score, recomputed
    for s in range(players):
        loot = sum(cards[l].attrs["value"] for wh in w.zones[("yard", s)] for l in w.zones[("stock", wh)])
        police = sum(PENALTY[cards[c].attrs["stars"]] for c in w.zones[("hand", s)] if kind(c) == "police")
        gangsters = len(w.zones[("hideout", s)]) + len(w.zones[("street", s)])
        assert m.result.scores[s] == loot - 5 * gangsters - 10 * len(w.zones[("yard", s)]) - police


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_games_end_by_the_rule(players, seed):
    assert_ended_by_rule(random_game(players, seed), players)
