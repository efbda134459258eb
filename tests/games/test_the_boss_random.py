"""Property: seeded random games of The Boss end without error, by a rule of the game.

Invariants checked along the way: every cube is somewhere (ten per colour, in the
reserve, on the score track, on a boss, in hospital or prison, killed or used up),
and whoever has the most cubes on a boss has strictly more than anyone else there
(the placement rule, TB-04).
"""
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support import random_playout, repository_game

pytestmark = pytest.mark.slow  # a property over many random games

GAME = "games/the_boss.game"
RULE_ENDS = {"the third matching police badge ended the game", "the game ended after overtime"}
MAX_DECISIONS = 5_000
CUBE_ZONES = ("reserve", "track", "gang", "hospital_bed", "prison_first", "prison_second", "dead", "gone")


def cubes_by_owner(m):
    count = Counter()
    for (zone, _), cards in m.w.zones.items():
        if zone in CUBE_ZONES:
            for c in cards:
                count[m.program.cards[c].attrs["owner"]] += 1
    return count


def assert_single_majorities(m):
    for boss in m.program.boards["boss"].spaces:
        per = Counter(m.program.cards[c].attrs["owner"] for c in m.w.zones[("gang", boss)])
        if per:
            top = max(per.values())
            assert list(per.values()).count(top) == 1, f"tied majority on {boss}: {per}"


def random_game(players, seed):
    program = repository_game(GAME).program
    return random_playout(program, players, seed, MAX_DECISIONS, each_step=assert_single_majorities)


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_games_end_by_a_rule(players, seed):
    m = random_game(players, seed)
    assert m.result is not None, f"no end after {MAX_DECISIONS} decisions"
    assert m.result.by_rule and m.result.reason in RULE_ENDS
    assert m.result.winners and sorted(m.result.ranking) == list(range(players))
    # TB-05/TB-09: three to five police cards were flipped, the last one completing a colour
    up = [m.program.cards[c].attrs for c in m.w.zones[("police_up", None)]]
    assert 3 <= len(up) <= 5
    assert max(sum(a["blue"] for a in up), sum(a["red"] for a in up)) >= 3
    # cube conservation: ten per colour in play, none lost or made
    assert cubes_by_owner(m) == Counter({s: 10 for s in range(players)})
    assert len(m.w.zones[("unused", None)]) == 10 * (4 - players)
    # TB-08: after the last cleanup no cube sits on a boss, and only small cubes are used up
    assert all(m.w.zones[("gang", b)] == [] for b in m.program.boards["boss"].spaces)
    assert all(m.program.cards[c].attrs["n"] > 7 for c in m.w.zones[("gone", None)])
    # TB-09: the winners are exactly the seats with the best key (points, points in the
    # last round, cubes in reserve); more than one only after the overtime limit
    keys = [(p["points"], p["round_points"], len(m.w.zones[("reserve", s)])) for s, p in enumerate(m.w.players)]
    assert sorted(m.result.winners) == [s for s in range(players) if keys[s] == max(keys)]
    if len(m.result.winners) > 1:
        assert m.w.shared["overtime"] == 3
