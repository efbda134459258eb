"""A sample of the fuzzer (tests/fuzz.py): game mutants and corrupted transcripts give
diagnostics, coded runtime errors or refusals, never an internal error. The long run
(1,000 mutants, 200 transcripts) is `python tests/fuzz.py`; its figures are in
docs/language.md (2.19 Limits)."""
import pytest

import fuzz

pytestmark = pytest.mark.slow  # hundreds of mutants checked and played


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    fuzz.copy_games(tmp_path)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_game_mutants_never_crash(workdir):
    failures = [f"{label}: {failure}" for label, failure, _ in fuzz.mutants(90, seed=11, workdir=workdir) if failure]
    assert failures == []


def test_corrupted_transcripts_never_crash():
    failures = [f"{label}: {failure}" for label, failure, _ in fuzz.transcripts(80, seed=11) if failure]
    assert failures == []


def test_the_fuzzer_finds_a_crash_when_there_is_one(workdir, monkeypatch):
    """The fuzzer can fail: with the checker broken it reports every mutant it reaches."""
    def broken(path):
        raise KeyError("planted")
    monkeypatch.setattr(fuzz, "load_game", broken)
    found = [failure for _, failure, _ in fuzz.mutants(3, seed=1, workdir=workdir)]
    assert found == ["check: KeyError: 'planted'"] * 3
