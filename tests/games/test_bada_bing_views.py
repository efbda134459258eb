"""Bada Bing: what one seat sees, live and in a replay (hidden hands, sealed choices).

Its seeded snapshots are in tests/play/test_snapshots.py; rule-edit replays in tests/play/test_rule_edits.py.
"""
import json

from ruledsl.pipeline import load_game
from ruledsl.runtime.machine import Machine, RandomChance
from support import ROOT

GAME = "games/bada_bing.game"



def test_seat_view_shows_titles_and_passes_but_not_the_decks(snapshot):
    """What seat 1 sees at its first decision after 40 first-option ones in a 3-player game."""
    game = load_game(str(ROOT / GAME))
    m = Machine(game.program, 3, RandomChance(6))
    while m.steps < 40 or m.pending.seat != 1:
        m.choose_index(0)
    view = m.w.snapshot(1)
    zones = view["zones"]
    for deck in ("offer_deck", "special_deck"):
        assert set(zones[f"pile/{deck}"]) == {"count"}  # face down for everyone
    for seat in range(3):
        held = [m.program.cards[c].label for c in m.w.zones[("passes", seat)]]
        assert zones[f"passes/seat {seat}"] == held     # passes are public
    assert view["boards"]["square"]["casino"].keys() == {"owner", "policy"}
    assert json.dumps(view, indent=1, sort_keys=True) == snapshot
