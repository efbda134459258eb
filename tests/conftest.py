"""Test set-up: tests/support.py (the helpers) importable by name, and shared fixtures."""
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from support import GAMES  # noqa: E402


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


@pytest.fixture(autouse=True, scope="session")
def transcripts_match_their_schema():
    """Every record a TranscriptWriter writes during the suite must validate against
    `ruledsl schema transcript` (jsonschema): the suite's transcripts are the schema's test."""
    import jsonschema

    from ruledsl.play.schema import TRANSCRIPT
    from ruledsl.play.transcript import TranscriptWriter

    validator = jsonschema.Draft202012Validator(TRANSCRIPT)
    write = TranscriptWriter.write

    def checked(self, record):
        validator.validate(record)
        write(self, record)
    TranscriptWriter.write = checked
    yield validator
    TranscriptWriter.write = write
