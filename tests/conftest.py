"""Test set-up: tests/support.py (the helpers) importable by name, and shared fixtures."""
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from support import GAMES  # noqa: E402

# ruledsl's caches (ruledsl/cache.py: the built parser, parse results, code objects) go to
# a folder of this session's own, made empty here and removed at the end: the suite starts
# cold, reads nothing an earlier run or another checkout left, and leaves its temporary
# games out of the user's cache. Subprocesses inherit it.
SESSION_CACHE = tempfile.mkdtemp(prefix="ruledsl-test-cache-")
os.environ["RULEDSL_CACHE_DIR"] = SESSION_CACHE


def pytest_sessionfinish(session):
    shutil.rmtree(SESSION_CACHE, ignore_errors=True)  # before exit, so the code caches find nowhere to go


@pytest.fixture
def cache_dir(tmp_path, monkeypatch) -> Path:
    """A cache folder of the test's own (RULEDSL_CACHE_DIR), with no code store of this
    process remembered: as a new process would start."""
    from ruledsl import cache
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.CACHE_ENV, str(folder))
    monkeypatch.setattr(cache, "_stores", {})
    return folder


@pytest.fixture
def python_recursion_limit():
    """Python's default recursion limit (1,000) while the test runs. An imported package
    may have raised it for the rest of the session (jedi, loaded through a Pygments plugin
    of IPython by tests/syntax/test_lexer.py, sets 3,000), and how deep Python's parser,
    compiler and Lark's Transformer go follows it."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    yield 1000
    sys.setrecursionlimit(limit)


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
