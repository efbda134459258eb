"""The seeded-transcript tests every game shares: a rule edit shows up as a diff.

Update with `pytest --snapshot-update` and say in the commit message which rule
change caused the diff. A game's snapshot module writes

    play, test_seeded_transcript, test_seeded_narration_of_a_whole_game, \\
        test_replaying_a_seeded_game_succeeds = seeded_tests(GAME, CASES, ...)

and adds its own tests (views, replays as a seat, divergence after a rule edit).
"""
from __future__ import annotations

import functools

import pytest
from click.testing import CliRunner

from ruledsl.cli import main
from scenario import play_recorded


def seeded_tests(game: str, cases: list, whole: tuple, replayed: tuple, mark: str | None = None):
    """`cases`: (players, seed, max decisions or None); `whole`: (players, seed) of the
    whole game whose narration is snapshotted (and must say `mark`); `replayed`:
    (players, seed) of a whole game that must replay."""
    play = functools.partial(play_recorded, game_path=game)

    @pytest.mark.parametrize("players,seed,max_steps", cases)
    def test_seeded_transcript(tmp_path, monkeypatch, snapshot, players, seed, max_steps):
        _, transcript = play(tmp_path, monkeypatch, players=players, seed=seed, max_steps=max_steps)
        assert transcript == snapshot

    def test_seeded_narration_of_a_whole_game(tmp_path, monkeypatch, snapshot):
        narration, transcript = play(tmp_path, monkeypatch, players=whole[0], seed=whole[1])
        assert '"type":"result"' in transcript.splitlines()[-1]
        assert mark is None or mark in narration
        assert narration == snapshot

    def test_replaying_a_seeded_game_succeeds(tmp_path, monkeypatch):
        play(tmp_path, monkeypatch, players=replayed[0], seed=replayed[1])
        result = CliRunner().invoke(main, ["replay", str(tmp_path / "game.jsonl")])
        assert result.exit_code == 0, result.output
        assert "replay ok" in result.output

    def game_play(tmp_path, monkeypatch, players, seed, max_steps=None):
        return play(tmp_path, monkeypatch, players=players, seed=seed, max_steps=max_steps)

    return game_play, test_seeded_transcript, test_seeded_narration_of_a_whole_game, test_replaying_a_seeded_game_succeeds
