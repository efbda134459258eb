"""Seeded transcripts of the classic games as snapshots: a rule edit shows up as a diff.

Update with `pytest --snapshot-update` and say in the commit message which rule
change caused the diff.
"""
import pytest
from click.testing import CliRunner

from ruledsl.cli import main
from scenario import play_recorded

CASES = [("tic_tac_toe", 1), ("tic_tac_toe", 2), ("kuhn_poker", 1), ("kuhn_poker", 4),
         ("goofspiel", 1), ("pig", 1)]


@pytest.mark.parametrize("name,seed", CASES)
def test_seeded_transcript(tmp_path, monkeypatch, snapshot, name, seed):
    _, transcript = play_recorded(tmp_path, monkeypatch, f"examples/{name}.game", 2, seed)
    assert '"type":"result"' in transcript.splitlines()[-1]
    assert transcript == snapshot
    replay = CliRunner().invoke(main, ["replay", str(tmp_path / "game.jsonl")])
    assert replay.exit_code == 0, replay.output
