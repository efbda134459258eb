"""Seeded Mafialand transcripts as snapshots: a rule edit shows up as a diff here.

The shared tests come from tests/snapshot_suite.py; update snapshots with
`pytest --snapshot-update` and say in the commit message which rule change caused the diff.
"""
from click.testing import CliRunner

from ruledsl.cli import main
from scenario import ROOT
from snapshot_suite import seeded_tests

GAME = "games/mafialand.game"
CASES = [  # (players, seed, max decisions or None for a whole game)
    (2, 11, None),
    (3, 1, 80),
    (4, 2, 80),
]

play, test_seeded_transcript, test_seeded_narration_of_a_whole_game, test_replaying_a_seeded_game_succeeds = \
    seeded_tests(GAME, CASES, whole=(2, 11), replayed=(2, 11))


def test_replay_diverges_after_a_rule_edit(tmp_path, monkeypatch):
    """A house rule capping casino bets at 2 bags breaks a transcript with a bet of 3."""
    _, transcript = play(tmp_path, monkeypatch, 2, 11, None)
    assert '"decision":"bags to gamble","choice":"3"' in transcript
    base = (ROOT / "games/mafialand.game").read_text()
    edited = base.replace("choose n from 1..min(3, p.stash)", "choose n from 1..min(2, p.stash)")
    assert edited != base
    copy = tmp_path / "mafialand.game"
    copy.write_text(edited)
    result = CliRunner().invoke(main, ["replay", str(tmp_path / "game.jsonl"), "--game", str(copy)])
    assert result.exit_code == 1
    assert "diverged at step " in result.output
    assert 'chose "3" for bags to gamble' in result.output and '(allowed: "1", "2")' in result.output
    line = edited.splitlines().index("  choose n from 1..min(2, p.stash) by p as \"bags to gamble\"") + 1
    assert f"{copy}:{line}" in result.output
