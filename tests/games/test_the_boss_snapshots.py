"""Seeded The Boss transcripts as snapshots: a rule edit shows up as a diff here.

The shared tests come from tests/snapshot_suite.py; update snapshots with
`pytest --snapshot-update` and say in the commit message which rule change caused the diff.
"""
import json


from ruledsl.pipeline import load_game
from ruledsl.runtime import Machine, RandomChance
from scenario import ROOT
from snapshot_suite import seeded_tests

GAME = "games/the_boss.game"
CASES = [  # (players, seed, max decisions or None for a whole game)
    (2, 5, None),
    (3, 1, 90),
    (4, 2, 90),
]

play, test_seeded_transcript, test_seeded_narration_of_a_whole_game, test_replaying_a_seeded_game_succeeds = \
    seeded_tests(GAME, CASES, whole=(2, 5), replayed=(3, 1))


def test_seat_view_hides_rewards_and_hand_values_but_shows_colours(snapshot):
    """What seat 1 sees at its first decision of a seeded 3-player game."""
    game = load_game(str(ROOT / GAME))
    m = Machine(game.program, 3, RandomChance(4))
    m.choose_index(0)  # the dealer (seat 0) picks the first boss combination
    while m.pending.seat != 1:
        m.choose_index(0)
    view = m.w.snapshot(1)
    zones = view["zones"]
    for b in ("new_york", "detroit", "kansas_city", "cincinnati", "memphis"):
        assert zones[f"reward/{b}"] == {"count": 1}  # face down for everyone
    for other in (0, 2):
        hand = zones[f"hand/seat {other}"]
        assert set(hand) == {"count", "show"} and len(hand["show"]) == hand["count"]
        real = [m.program.cards[c].attrs["boss"] for c in m.w.zones[("hand", other)]]
        assert hand["show"] == real  # the colours, in hand order
    assert all(isinstance(x, str) and " " in x for x in zones["hand/seat 1"])  # own hand: full labels
    rewards = {m.program.cards[c].label for b in m.w.spaces["boss"] for c in m.w.zones[("reward", b)]}
    others = {m.program.cards[c].label for s in (0, 2) for c in m.w.zones[("hand", s)]}
    text = json.dumps(view)
    assert not any(f'"{lab}"' in text for lab in rewards | others)
    assert json.dumps(view, indent=1, sort_keys=True) == snapshot
