"""MafiaDollar: what one seat sees, live and in a replay (hidden hands, sealed choices).

Its seeded snapshots are in tests/test_snapshots.py; rule-edit replays in tests/test_rule_edits.py.
"""
from click.testing import CliRunner

from ruledsl.cli import main
from scenario import play_recorded

GAME = "games/mafia_dollar.game"


def test_replay_as_a_seat_hides_offers_passes_and_returns_of_others(tmp_path, monkeypatch):
    """MD-04/MD-11: seen from seat 2, the cards other seats offer, give in return and
    pass to the left are sealed; its own are not. The full narration names them."""
    play_recorded(tmp_path, monkeypatch, GAME, 3, 1)
    seat = CliRunner().invoke(main, ["replay", str(tmp_path / "game.jsonl"), "--as-seat", "2"])
    full = CliRunner().invoke(main, ["replay", str(tmp_path / "game.jsonl")])
    assert seat.exit_code == 0 and full.exit_code == 0
    seen, all_lines = seat.output.splitlines(), full.output.splitlines()
    assert len(seen) == len(all_lines)
    secret = ("card to offer", "card in return", "card to pass left")
    sealed = [i for i, line in enumerate(all_lines) if any(f"for {s}" in line for s in secret)]
    assert sealed
    others = [i for i in sealed if "seat 2 chose" not in all_lines[i]]
    own = [i for i in sealed if "seat 2 chose" in all_lines[i]]
    assert others and own
    for i in others:
        assert "(sealed)" in seen[i]
        card = all_lines[i].split('"')[1]
        assert card not in seen[i]
    for i in own:
        assert "(sealed)" not in seen[i] and seen[i] == all_lines[i]
