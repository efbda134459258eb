"""`simulate --profile` (play/profile.py): the samples go to the line of the game the
engine runs, the busiest first; the report's numbers add up; it takes one process."""
from __future__ import annotations

import json
import signal
import sys

import pytest

from ruledsl.play.profile import Profile, source_line, statement_line
from support import run_cli, run_process

BUSY = """game "Busy" players 2..2
shared { total: int = 0  small: int = 0 }
def light(n: int) = n + 1
rule flow() {
  small = light(small)
  total = sum(i in 1..20000: i * i)
  choose x from [1, 2] by seat(0) as "pick"
  end "done" winner seat(0)
}
"""
BUSY_LINE = 6  # the sum over 20,000 numbers: nearly all of a game's time

pytestmark = pytest.mark.skipif(not Profile.available(), reason="no CPU-time signals on this platform")


@pytest.fixture
def busy(tmp_path):
    path = tmp_path / "busy.game"
    path.write_text(BUSY)
    return path


def test_the_busiest_line_of_the_game_comes_first(busy):
    result = run_cli("simulate", busy, "--games", 300, "--profile")
    assert result.exit_code == 0, result.output
    report = result.stdout[result.stdout.index("profile: "):].splitlines()
    first = report[1].split()
    assert first[1] == f"{busy}:{BUSY_LINE}" and " ".join(first[2:]) == "total = sum(i in 1..20000: i * i)"
    assert float(first[0].rstrip("%")) >= 50, report
    assert report[-1].split()[1:3] == ["outside", "the"]


def test_the_json_profile_adds_up_and_names_the_line(busy):
    result = run_cli("simulate", busy, "--games", 300, "--profile", "--json")
    assert result.exit_code == 0, result.output
    profile = json.loads(result.stdout)["profile"]
    lines = profile["lines"]
    assert profile["samples"] > 0 and profile["cpu_seconds"] > 0
    assert profile["samples"] == sum(row["samples"] for row in lines) + profile["outside_the_rules"]
    assert lines[0]["at"] == f"{busy}:{BUSY_LINE}" and lines[0]["text"].startswith("total = sum(")
    assert lines[0]["samples"] >= profile["samples"] / 2
    assert [row["samples"] for row in lines] == sorted((row["samples"] for row in lines), reverse=True)


def test_without_profile_nothing_samples_and_the_signal_is_given_back(busy):
    before = signal.getsignal(signal.SIGPROF)
    assert "profile" not in json.loads(run_cli("simulate", busy, "--games", 5, "--json").stdout)
    run_cli("simulate", busy, "--games", 5, "--profile")
    assert signal.getsignal(signal.SIGPROF) == before
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)


def test_the_agents_share_of_the_time_outside_the_rules_is_told_apart(tmp_path):
    """A game of nothing but decisions among 30 numbers: the random agents' picks (a hash
    of every label: play/agents.py) are most of its time, and outside the rules."""
    path = tmp_path / "picks.game"
    path.write_text('game "Picks" players 2..2\nshared { n: int = 0 }\nrule flow() {\n  repeat 200 {\n'
                    '    choose x from 1..30 by seat(0) as "number"\n    n = x\n  }\n  end "done" draw\n}\n')
    profile = json.loads(run_cli("simulate", path, "--games", 60, "--profile", "--json").stdout)["profile"]
    assert 0 < profile["agents_choosing"] <= profile["outside_the_rules"]
    assert profile["agents_choosing"] >= profile["samples"] / 4, profile


@pytest.mark.parametrize("args", [("--jobs", 2), ("--backend", "ray")])
def test_profile_samples_this_process_only(busy, args):
    result = run_cli("simulate", busy, "--games", 5, "--profile", *args)
    assert result.exit_code == 1
    assert "--profile samples this process: use it with --jobs 1 and --backend process" in result.stderr


def test_only_frames_of_generated_code_name_a_line():
    assert statement_line(sys._getframe()) is None


def test_a_line_is_shown_stripped_printable_and_cut():
    sources = {"g.game": "rule a() {\n    say \"\x1b[31m\"\n" + "  let x = " + "1 + " * 40 + "1\n}"}
    assert source_line(sources, "g.game", 2) == 'say "\\x1b[31m"'
    long = source_line(sources, "g.game", 3)
    assert len(long) == 70 and long.endswith("...")
    assert source_line(sources, "g.game", 9) == "" and source_line(sources, "other.game", 1) == ""


@pytest.mark.slow  # a real process
def test_a_real_process_prints_the_profile_and_exits_0(busy):
    out = run_process("simulate", busy, "--games", 100, "--profile")
    assert out.returncode == 0, out.stderr
    assert "profile: " in out.stdout and f"{busy}:{BUSY_LINE}" in out.stdout


def test_the_text_shows_the_busiest_lines_then_what_is_outside_the_rules():
    profile = Profile()
    profile.samples, profile.cpu = 10, 0.04
    profile.lines.update({("g.game", 1): 5, ("g.game", 2): 3, ("g.game", 3): 1})
    text = profile.text({"g.game": "a\nb\nc"}, top=2)
    assert "10 samples, one every 4.0 ms" in text[0]
    assert text[1].split() == ["50.0%", "g.game:1", "a"] and text[2].split() == ["30.0%", "g.game:2", "b"]
    assert len(text) == 4 and text[3].split()[:3] == ["10.0%", "outside", "the"]
    assert "agents choosing 0.0%, the Machine between decisions and set-up 10.0%" in text[3]
    assert [row["at"] for row in profile.as_json({})["lines"]] == ["g.game:1", "g.game:2", "g.game:3"]
