"""The pytest plugin installed with ruledsl (entry point `pytest11`): rule snapshots.

Fixtures (see docs/testing.md):

    def test_high_roller(ruledsl_snapshot):
        ruledsl_snapshot("variants/high_roller.game", players=3, seeds=range(3))

plays each seeded game with random agents and compares it with the snapshot
stored by syrupy (`pytest --snapshot-update` stores them); and

    def test_golden_games(ruledsl_replay):
        ruledsl_replay("golden/*.jsonl")

replays stored transcripts against the current rules. Either fails with one
short message per diverging game: the step, the differing fields or choices and
the rule line responsible. Game and transcript paths are relative to pytest's
rootdir, and games are played from there, so stored snapshots name the same
paths on every machine.
"""
from __future__ import annotations

import glob
import os

import pytest

MAX_GAMES_IN_FULL = 3  # diverging games shown in full; the rest get a line each


@pytest.fixture
def ruledsl_snapshot(request, monkeypatch):
    """`ruledsl_snapshot(game, players=None, seeds=range(3), max_steps=10_000)`: snapshot seeded games."""
    try:
        snapshot = request.getfixturevalue("snapshot")
        from .play.snapshot import TranscriptSnapshotExtension, explanation_for, play_transcript
    except (pytest.FixtureLookupError, ImportError):
        pytest.fail("ruledsl_snapshot needs syrupy: pip install 'ruledsl[pytest]'", pytrace=False)
    root = request.config.rootpath
    monkeypatch.chdir(root)

    def check(game_path, players: int | None = None, seeds=range(3), max_steps: int | None = 10_000):
        game, n = _load(root, game_path, players)
        failures = []
        for seed in seeds:
            text = play_transcript(game, n, seed, max_steps)
            name = f"{n}p-seed{seed}"
            if not snapshot(extension_class=TranscriptSnapshotExtension, name=name) == text:
                failures.append((name, explanation_for(text) or ["no snapshot stored yet: run pytest "
                                                                  "--snapshot-update to store it"]))
        if failures:
            pytest.fail(_message(game.path, failures), pytrace=False)
    return check


@pytest.fixture
def ruledsl_replay(request, monkeypatch):
    """`ruledsl_replay(pattern, game=None)`: every transcript matching the glob replays under the
    current rules (the game each names, or `game`); returns how many were replayed."""
    from .cli.commands import read_records, recorded_game_path
    from .play.replay import replay
    root = request.config.rootpath
    monkeypatch.chdir(root)

    def check(pattern: str, game: str | None = None) -> int:
        paths = sorted(glob.glob(_relative(root, pattern)))
        if not paths:
            pytest.fail(f"no transcript matches {pattern!r} (from {root})", pytrace=False)
        failures = []
        for path in paths:
            try:
                records = read_records(path)
                rules = _load_game(game or recorded_game_path(records[0]["game"], path))
                replay(rules, records)
            except Exception as err:  # noqa: BLE001 - every failure is reported, none is a traceback
                failures.append((path, _lines(err)))
        if failures:
            pytest.fail(_message(pattern, failures), pytrace=False)
        return len(paths)
    return check


def _load(root, game_path, players):
    game = _load_game(_relative(root, str(game_path)))
    prog = game.program
    n = prog.min_players if players is None else players
    if not prog.min_players <= n <= prog.max_players:
        pytest.fail(f"{game.path}: {prog.title!r} takes {prog.min_players}..{prog.max_players} players, not {n}",
                    pytrace=False)
    return game, n


def _load_game(path: str):
    from .errors import RuleError
    from .pipeline import load_game
    if not os.path.exists(path):
        pytest.fail(f"{path}: no such game file", pytrace=False)
    try:
        return load_game(path)
    except RuleError as err:
        pytest.fail(err.render(), pytrace=False)


def _relative(root, path: str) -> str:
    """A path as given, made relative to the rootdir when it lies below it."""
    full = os.path.abspath(os.path.join(root, path))
    rel = os.path.relpath(full, root)
    return full if rel.startswith("..") else rel


def _lines(err) -> list:
    from .cli.common import user_message
    return (user_message(err) or f"{type(err).__name__}: {err}").splitlines()


def _message(what: str, failures: list) -> str:
    lines = [f"{what}: {len(failures)} game(s) no longer play as stored"]
    for name, why in failures[:MAX_GAMES_IN_FULL]:
        lines.append(f"[{name}] " + why[0])
        lines += why[1:]
    for name, why in failures[MAX_GAMES_IN_FULL:]:
        lines.append(f"[{name}] " + why[0][:150])
    lines.append("(if the change is intended: pytest --snapshot-update, and say in the commit which rule "
                 "change caused it)")
    return "\n".join(lines)
