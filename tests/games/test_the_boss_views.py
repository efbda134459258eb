"""The Boss: what one seat sees, live and in a replay (hidden hands, sealed choices).

Its seeded snapshots are in tests/play/test_snapshots.py; rule-edit replays in tests/play/test_rule_edits.py.
"""
import json

from ruledsl.pipeline import load_game
from ruledsl.runtime.machine import Machine, RandomChance
from support import ROOT

GAME = "games/the_boss.game"


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
    rewards = {m.program.cards[c].label for b in m.program.boards["boss"].spaces for c in m.w.zones[("reward", b)]}
    others = {m.program.cards[c].label for s in (0, 2) for c in m.w.zones[("hand", s)]}
    text = json.dumps(view)
    assert not any(f'"{lab}"' in text for lab in rewards | others)
    assert json.dumps(view, indent=1, sort_keys=True) == snapshot
