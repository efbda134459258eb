"""Mafialand: replays of recorded games (as a seat, after a rule edit) and seat views.

Its seeded snapshots are in tests/test_snapshots.py, with every other game's.
"""
from click.testing import CliRunner

from ruledsl.cli import main
from scenario import ROOT, play_with

GAME = "games/mafialand.game"


def test_replay_diverges_after_a_rule_edit(tmp_path, monkeypatch):
    """A house rule capping casino bets at 2 bags breaks a transcript with a bet of 3."""
    _, transcript, _ = play_with(tmp_path, monkeypatch, GAME, 2, '"decision":"bags to gamble","choice":"3"')
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
