"""The Python API (ruledsl.api, docs/api.md): the docs' example runs as it stands, the
example script runs, and what the page promises holds."""
from __future__ import annotations

import io
import random
import re
import subprocess
import sys

import pytest

import ruledsl
from ruledsl import api
from ruledsl.errors import RuleError
from ruledsl.play.replay import Divergence
from support import ROOT

DOC = ROOT / "docs" / "api.md"


def test_the_docs_examples_run(tmp_path, monkeypatch, capsys):
    """Each python block of docs/api.md runs on its own and prints something."""
    blocks = re.findall(r"^```python\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.M | re.S)
    assert len(blocks) == 2
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), {"__name__": "docs_api"})
        assert capsys.readouterr().out.strip()


def test_the_example_script_runs_from_anywhere(tmp_path):
    script = ROOT / "examples" / "api" / "play_random.py"
    proc = subprocess.run([sys.executable, str(script), "tic_tac_toe", "2", "1"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "Tic-tac-toe" in proc.stdout and "all match" in proc.stdout


def test_the_package_exports_the_api():
    assert ruledsl.load is api.load and ruledsl.Match is api.Match and ruledsl.replay is api.replay
    assert set(api.__all__) <= set(ruledsl.__all__)


def test_loading_by_path_and_name_and_from_files():
    by_name = ruledsl.load("tic_tac_toe")
    by_path = ruledsl.load(ROOT / "examples" / "tic_tac_toe.game")
    assert by_name.rules_sha256 == by_path.rules_sha256
    text = (ROOT / "examples" / "tic_tac_toe.game").read_text()
    from_files = ruledsl.load("memory/t.game", files={"memory/t.game": text})
    assert from_files.rules_sha256 == by_name.rules_sha256
    with pytest.raises(ruledsl.GameNotFound):
        ruledsl.load("no_such_game")
    with pytest.raises(RuleError):
        ruledsl.load("memory/t.game", files={"memory/t.game": "game"})


def test_decisions_choices_and_refusals():
    match = ruledsl.load("tic_tac_toe").start(seed=3)
    d = match.decision
    assert d.seat == 0 and len(d.labels) == 9 and d.rule.startswith(str(ROOT / "examples" / "tic_tac_toe.game"))
    with pytest.raises(ruledsl.IllegalChoice) as err:
        match.choose("no such square")
    assert err.value.legal == list(d.labels) and match.steps == 0
    while not match.over:
        match.choose(match.decision.labels[0])
    assert match.decision is None and match.result.by_rule
    with pytest.raises(ruledsl.IllegalChoice):
        match.choose(d.labels[0])
    with pytest.raises(ValueError):
        ruledsl.load("tic_tac_toe").start(players=3)


def test_a_seat_sees_only_its_own_hand():
    match = ruledsl.load("kuhn_poker").start(seed=2)
    full, mine = match.view(), match.view(seat=0)
    assert mine["zones"]["hand/seat 0"] == full["zones"]["hand/seat 0"] and len(full["zones"]["hand/seat 1"]) == 1
    assert mine["zones"]["hand/seat 1"] == {"count": 1} and mine["zones"]["deck"] == {"count": 1}
    with pytest.raises(ValueError):
        match.view(seat=2)


def test_clone_through_the_api():
    match = ruledsl.load("pig").start(seed=4)
    for _ in range(5):
        match.choose(match.decision.labels[0])
    copy = match.clone()
    before = match.view(), match.digest()
    while not copy.over:
        copy.choose(copy.decision.labels[0])
    assert (match.view(), match.digest()) == before
    while not match.over:
        match.choose(match.decision.labels[0])
    assert match.result == copy.result and match.digest() == copy.digest()


def test_record_and_replay(tmp_path):
    out = io.StringIO()
    game = ruledsl.load("pig")
    match = game.start(seed=5, record=out, agents=["me", "you"])
    rng = random.Random(0)
    while not match.over:
        match.choose(rng.choice(match.decision.labels))
    path = tmp_path / "pig.jsonl"
    path.write_text(out.getvalue())
    report = ruledsl.replay(path)
    assert report.steps == match.steps and report.result["winners"] == list(match.result.winners)
    assert '"agents":["me","you"]' in out.getvalue().splitlines()[0]
    edited = tmp_path / "fast_pig.game"
    edited.write_text('extends "ruledsl:pig"\n\noverride const GOAL = 10\n')
    with pytest.raises(Divergence):
        ruledsl.replay(path, game=edited)


def test_a_stopped_match_leaves_a_transcript_that_replays_as_far_as_it_goes(tmp_path):
    path = tmp_path / "cut.jsonl"
    with ruledsl.load("pig").start(seed=5, record=path) as match:
        for _ in range(3):
            match.choose(match.decision.labels[0])
    assert ruledsl.replay(path).steps == 3
    match = ruledsl.load("pig").start(seed=5, record=tmp_path / "stopped.jsonl")
    match.stop("enough")
    assert match.over and match.result.by_rule is False and match.result.winners == ()
    assert ruledsl.replay(tmp_path / "stopped.jsonl").result["reason"] == "enough"
