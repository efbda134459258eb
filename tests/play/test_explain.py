"""Divergences that explain themselves: fields, the statement, the rule edit (explain.py, statediff.py)."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruledsl.cli import main
from ruledsl.pipeline import load_game
from ruledsl.play.replay import Divergence, replay
from ruledsl.play.statediff import FieldDiff, diff, field_name, values_text
from support import GAMES, ROOT, edit, record_game, records_of, run_process


def line_of(path, text: str) -> int:
    return next(i for i, line in enumerate(Path(path).read_text().splitlines(), start=1) if text in line)


def diverge(game_path, records) -> Divergence:
    with pytest.raises(Divergence) as info:
        replay(load_game(str(game_path)), records)
    return info.value


# ---------------------------------------------------------------- statediff
def test_diff_names_each_differing_field_with_both_values():
    before = {"shared": {"round": 1}, "players": [{"seat": 0, "alive": True, "points": 1}],
              "zones": {"hand/seat 0": ["a", "b"]}, "boards": {"map": {"x": {"owner": None}}}}
    after = {"shared": {"round": 1}, "players": [{"seat": 0, "alive": True, "points": 2}],
             "zones": {"hand/seat 0": ["a"]}, "boards": {"map": {"x": {"owner": "seat 0"}}}}
    assert [d.text() for d in diff(before, after)] == [
        "seat 0 points: recorded 1, now 2",
        'zone hand/seat 0: recorded ["a", "b"], now ["a"]',
        "board map space x owner: recorded null, now \"seat 0\""]
    assert diff(before, before) == []


def test_a_field_only_one_side_has_is_absent_on_the_other():
    assert diff({"shared": {"a": 1}}, {"shared": {"b": 1}}) == [
        FieldDiff(("shared", "a"), 1, "(absent)"), FieldDiff(("shared", "b"), "(absent)", 1)]


def test_long_zones_are_told_by_what_came_and_went():
    deck = [f"card {i}" for i in range(20)]
    assert values_text(deck, deck[1:] + ["joker"]) == \
        "recorded 20 items, now 20; no longer there: card 0; new: joker"
    assert values_text(deck, list(reversed(deck))) == "recorded 20 items, now 20; the same items in another order"
    assert field_name(("card_fields", "gear #2", "worn")) == "card gear #2 worn"


# ---------------------------------------------------------------- replay explains
def test_an_edited_constant_is_named_with_the_statement_that_read_it(game_copy):
    name = game_copy("dice_race.game")
    edit(name, "    p.pos += r + 2", "    p.pos += r + BONUS")
    edit(name, "const GOAL = 15", "const GOAL = 15\nconst BONUS = 2")
    _, text = record_game(name, 2, seed=2, kinds=["scripted", "random"], scripts={0: ["dash"]}, max_steps=1)
    edit(name, "const BONUS = 2", "const BONUS = 4")
    err = diverge(name, records_of(text))
    lines = str(err).splitlines()
    assert lines[0].startswith('diverged at step 1: after seat 0 chose "dash" for pace the state differs')
    assert re.fullmatch(r"  seat 0 pos: recorded (\d+), now (\d+)", lines[1])
    was, now = map(int, re.fullmatch(r"  seat 0 pos: recorded (\d+), now (\d+)", lines[1]).groups())
    assert now - was == 2
    assert lines[2] == f"  first differing value: seat 0 pos, written by {name}:{line_of(name, 'r + BONUS')}"
    assert lines[3] == f"  rule change responsible: {name}:5: const BONUS = 4   (recorded: const BONUS = 2)"


def test_of_several_edits_only_the_one_that_diverges_is_named(game_copy):
    name = game_copy("dice_race.game")
    _, text = record_game(name, 2, seed=5)
    edit(name, "const GOAL = 15", "const GOAL = 15\nconst SPARE = 3")  # plays no part
    edit(name, "stamina: int = 2", "stamina: int = 3")  # shows at set-up
    edit(name, 'say "{p} rests"', 'say "{p} rests a while"')  # a later step at most
    err = diverge(name, records_of(text))
    assert err.step == 0
    text_ = str(err)
    assert "seat 0 stamina: recorded 2, now 3" in text_
    assert "first differing value: seat 0 stamina, written by the game's starting components" in text_
    assert re.search(rf"rule change responsible: {name}:\d+: stamina: int = 3   \(recorded: stamina: int = 2\)$",
                     text_, re.M)
    assert "SPARE" not in text_ and "a while" not in text_


def test_an_edit_in_a_variant_file_is_named_in_the_variant(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "games" / "mafialand.game", tmp_path / "mafialand.game")
    variant = tmp_path / "lean.game"
    variant.write_text('extends "mafialand.game"\n\n# fewer bags\noverride const BAGS_EACH = 10\n')
    _, text = record_game("lean.game", 2, seed=3, max_steps=4)
    edit(variant, "BAGS_EACH = 10", "BAGS_EACH = 9")
    err = diverge("lean.game", records_of(text))
    assert "rule change responsible: lean.game:4: override const BAGS_EACH = 9   " \
           "(recorded: override const BAGS_EACH = 10)" in str(err)
    assert re.search(r"^  seat 0 \w+: recorded \d+, now \d+$|^  zone [^:]+: recorded", str(err), re.M)


def test_a_new_decision_is_told_apart_from_one_no_longer_asked(game_copy):
    name = game_copy("dice_race.game")
    _, text = record_game(name, 2, seed=1)
    edit(name, '  choose speed from pace by p as "pace"',
         '  may p "stretch" { p.stamina += 0 }\n  choose speed from pace by p as "pace"')
    err = diverge(name, records_of(text))
    assert err.kind == "decision"
    assert err.detail.startswith("a new decision appears: the current rules ask seat 0 to choose stretch")
    assert f"(rule at {name}:15)" in err.detail
    assert "rule change responsible: " in str(err)
    shutil.copy(GAMES / name, name)
    edit(name, '  may p "rest" if p.stamina < 2 {', '  may p "rest" if false {')
    err = diverge(name, records_of(text))
    assert re.match(r'the recorded decision is no longer asked here \(seat 0 chose "\w+" for rest\)', err.detail)
    assert "the current rules go on to ask seat 0 to choose finish" in err.detail


def test_a_comment_only_edit_replays_without_any_note(game_copy):
    name = game_copy("secret_bid.game")
    _, text = record_game(name, 3, seed=2)
    edit(name, "rule bid(p: player) {", "# bidding, as the rulebook says\nrule bid(p: player) {  # one card")
    report = replay(load_game(name), records_of(text))
    assert report.notes == [] and report.result is not None


def test_a_transcript_whose_rules_record_was_tampered_with_is_refused(game_copy):
    name = game_copy("dice_race.game")
    _, text = record_game(name, 2, seed=1)
    lines = text.splitlines()
    rules = json.loads(lines[1])
    rules["files"][0]["text"] = "game ? broken"
    lines[1] = json.dumps(rules)
    edit(name, "const GOAL = 15", "const GOAL = 16")
    Path("t.jsonl").write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(main, ["replay", "t.jsonl"])
    assert result.exit_code == 1
    assert "the rules recorded in the transcript do not load" in result.output
    assert "dice_race.game:1:6: error: unexpected" in result.output
    assert "Traceback" not in result.output


# ---------------------------------------------------------------- the Boss, as the issue asks
def test_doubling_a_reward_of_the_boss_names_the_field_and_the_edited_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "games" / "the_boss.game", "the_boss.game")
    runner = CliRunner()
    assert runner.invoke(main, ["play", "the_boss.game", "-n", "3", "--seed", "4", "--record", "g.jsonl"]).exit_code == 0
    edit("the_boss.game", "  card detroit      4\n", "  card detroit      8\n")
    result = runner.invoke(main, ["replay", "g.jsonl"])
    assert result.exit_code == 1
    message = result.stderr
    assert message.startswith("diverged at step 0: after set-up")
    assert "zone box: recorded 27 items, now 27; no longer there: Detroit 4; new: Detroit 8" in message
    line = line_of("the_boss.game", "card detroit      8")
    assert f"rule change responsible: the_boss.game:{line}: card detroit 8   (recorded: card detroit 4)" in message
    assert len(message.splitlines()) <= 40


# ---------------------------------------------------------------- state at a step
def test_state_at_a_step_of_a_transcript_and_as_a_seat(games_dir, tmp_path):
    runner = CliRunner()
    record = tmp_path / "bid.jsonl"
    assert runner.invoke(main, ["play", "secret_bid.game", "--seed", "3", "--record", str(record)]).exit_code == 0
    records = records_of(record.read_text())
    whole = runner.invoke(main, ["state", "--transcript", str(record), "--step", "1"])
    assert whole.exit_code == 0, whole.output
    data = json.loads(whole.stdout)
    assert data["steps"] == 1 and data["pending"]["seat"] == 1 and "labels" in data["pending"]
    assert data["state"]["players"][0]["last_bid"] > 0
    seat1 = json.loads(runner.invoke(main, ["state", "-t", str(record), "--step", "1", "--as-seat", "1"]).stdout)
    assert seat1["state"]["players"][0]["last_bid"] == "?"
    assert seat1["state"]["zones"]["hand/seat 0"] == {"count": 1}
    assert "labels" in seat1["pending"]
    seat0 = json.loads(runner.invoke(main, ["state", "-t", str(record), "--step", "1", "--as-seat", "0"]).stdout)
    assert seat0["pending"] == {"seat": 1, "decision": "bid"}
    last = sum(1 for r in records if r["type"] == "decision")
    end = json.loads(runner.invoke(main, ["state", "-t", str(record), "--step", str(last)]).stdout)
    assert end["status"] == "over"


def test_state_refuses_a_step_the_transcript_does_not_have(games_dir, tmp_path):
    record = tmp_path / "race.jsonl"
    CliRunner().invoke(main, ["play", "dice_race.game", "--seed", "1", "--record", str(record), "--max-steps", "3"])
    done = run_process("state", "--transcript", record, "--step", "9")
    assert done.returncode == 1
    assert done.stderr.strip() == "error: --step 9: the transcript has steps 0..3"
    assert "Traceback" not in done.stderr


def test_a_format_1_transcript_still_replays_and_says_why_it_explains_less(game_copy):
    name = game_copy("dice_race.game")
    _, text = record_game(name, 2, seed=2)
    records = [r for r in records_of(text) if r["type"] != "rules"]
    records[0] = {**records[0], "format": 1}
    old = "\n".join(json.dumps(r) for r in records)
    assert replay(load_game(name), records_of(old)).result is not None
    edit(name, "p.pos += r + 2", "p.pos += r + 3")
    err = diverge(name, records_of(old))
    assert str(err).splitlines()[1] == "  (the transcript does not carry its rules (format 1), so what differs " \
                                       "can't be shown)"
