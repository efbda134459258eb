"""`ruledsl cache`: where the caches live and what they hold; --clear empties them, and
removes nothing else from the folder."""
import re

from ruledsl import cache
from support import ROOT, run_cli, run_process


def counts(output: str) -> dict:
    return {kind: int(n) for kind, n in re.findall(r"^  (\w[\w ]*?)\s+(\d+) files", output, re.M)}


def test_a_run_fills_the_caches_and_clear_empties_them(cache_dir):
    game = ROOT / "examples" / "tic_tac_toe.game"
    assert run_process("check", game, cwd=ROOT).returncode == 0
    assert counts(run_cli("cache").output)["parse results"] == 1  # a check compiles (by Python) no short text
    # a process of its own writes the code it compiled at exit: the functions the games called
    assert run_process("simulate", game, "--games", "2", cwd=ROOT).returncode == 0
    shown = run_cli("cache")
    assert shown.exit_code == 0 and str(cache_dir) in shown.output
    filled = counts(shown.output)
    assert filled["parse results"] >= 1 and filled["compiled code"] >= 1
    (cache_dir / "notes.txt").write_text("the user's own")
    cleared = run_cli("cache", "--clear")
    assert cleared.exit_code == 0
    assert f"removed {sum(filled.values())} cache files" in cleared.output
    assert set(counts(run_cli("cache").output).values()) == {0}
    assert (cache_dir / "notes.txt").read_text() == "the user's own"


def test_an_empty_setting_means_no_cache(monkeypatch):
    monkeypatch.setenv(cache.CACHE_ENV, "")
    shown = run_cli("cache")
    assert shown.exit_code == 0 and "caching is off" in shown.output
    assert run_cli("cache", "--clear").output == "removed 0 cache files\n"
