"""Test set-up: helper modules importable by name, and shared fixtures."""
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from helpers import GAMES  # noqa: E402


@pytest.fixture
def games_dir(monkeypatch) -> Path:
    """Runs the test inside the fixture games folder, so games are named by file name."""
    monkeypatch.chdir(GAMES)
    return GAMES


@pytest.fixture
def game_copy(tmp_path, monkeypatch):
    """Copies a fixture game into tmp_path (the working folder) and returns its file name."""
    monkeypatch.chdir(tmp_path)

    def copy(name: str) -> str:
        shutil.copy(GAMES / name, tmp_path / name)
        return name
    return copy
