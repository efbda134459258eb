"""Seeded MafiaDollar transcripts as snapshots: a rule edit shows up as a diff here.

The shared tests come from tests/snapshot_suite.py; update snapshots with
`pytest --snapshot-update` and say in the commit message which rule change caused the diff.
"""
from click.testing import CliRunner

from ruledsl.cli import main
from scenario import ROOT
from snapshot_suite import seeded_tests

GAME = "games/mafia_dollar.game"
CASES = [  # (players, seed, max decisions or None for a whole game)
    (2, 3, None),
    (4, 1, 100),
    (6, 2, 100),
]

play, test_seeded_transcript, test_seeded_narration_of_a_whole_game, test_replaying_a_seeded_game_succeeds = \
    seeded_tests(GAME, CASES, whole=(2, 3), replayed=(3, 1), mark='End of the prohibition')


def test_replay_as_a_seat_hides_offers_passes_and_returns_of_others(tmp_path, monkeypatch):
    """MD-04/MD-11: seen from seat 2, the cards other seats offer, give in return and
    pass to the left are sealed; its own are not. The full narration names them."""
    play(tmp_path, monkeypatch, 3, 1, None)
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


def test_replay_diverges_after_a_rule_edit(tmp_path, monkeypatch):
    """A house rule without trades breaks a transcript that trades."""
    _, transcript = play(tmp_path, monkeypatch, 2, 3, None)
    assert '"decision":"offer a trade","choice":"offer a trade"' in transcript
    base = (ROOT / GAME).read_text()
    edited = base.replace('may q "offer a trade" if size(hand[q]) > 0', 'may q "offer a trade" if false')
    assert edited != base
    copy = tmp_path / "mafia_dollar.game"
    copy.write_text(edited)
    result = CliRunner().invoke(main, ["replay", str(tmp_path / "game.jsonl"), "--game", str(copy)])
    assert result.exit_code == 1
    assert "diverged at step " in result.output
