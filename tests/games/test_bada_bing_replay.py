"""Bada Bing: replays of recorded games (as a seat, after a rule edit) and seat views.

Its seeded snapshots are in tests/test_snapshots.py, with every other game's.
"""
import json

from click.testing import CliRunner

from ruledsl.cli import main
from ruledsl.pipeline import load_game
from ruledsl.runtime import Machine, RandomChance
from scenario import ROOT, play_with

GAME = "games/bada_bing.game"


def test_replay_diverges_after_a_rule_edit(tmp_path, monkeypatch):
    """A house rule with no Overpasses breaks a transcript where one was announced."""
    play_with(tmp_path, monkeypatch, GAME, 2, '"decision":"use the Overpass","choice":"use the Overpass"')
    base = (ROOT / GAME).read_text()
    edited = base.replace('may p "use the Overpass" if p.at.pathway', 'may p "use the Overpass" if false')
    assert edited != base
    copy = tmp_path / "bada_bing.game"
    copy.write_text(edited)
    result = CliRunner().invoke(main, ["replay", str(tmp_path / "game.jsonl"), "--game", str(copy)])
    assert result.exit_code == 1
    assert "diverged at step " in result.output


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
