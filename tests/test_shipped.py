"""Shipped games by name: `ruledsl list`, commands taking a name, `extends "ruledsl:NAME"`
(from disk and from a transcript's recorded rules), and names that must not escape."""
from __future__ import annotations

import io
import json

import pytest

from ruledsl.syntax import shipped
from ruledsl.errors import RuleError
from ruledsl.syntax.load import load
from ruledsl.pipeline import load_game
from ruledsl.play.replay import recorded_game, replay
from ruledsl.runtime.machine import Machine, RandomChance
from ruledsl.play.transcript import TranscriptWriter, parse_lines
from support import ROOT, run_cli

VARIANT = '# a house rule of a shipped game, kept outside any checkout\nextends "ruledsl:{name}"\n\noverride const {const}\n'


def test_every_game_file_of_the_repo_ships_under_its_name():
    on_disk = sorted(p.relative_to(ROOT).with_suffix("").as_posix().split("/", 1)[1]
                     for folder in ("games", "examples") for p in (ROOT / folder).rglob("*.game"))
    names = [name for name, _ in shipped.names()]
    assert sorted(names) == on_disk
    assert {"mafialand", "mafia_dollar/hideout_gifts", "tic_tac_toe", "bada_bing"} <= set(names)
    for name, path in shipped.names():
        assert shipped.path_of(name) == path
        assert shipped.path_of(f"ruledsl:{name}.game") == path


@pytest.mark.slow
def test_list_shows_name_title_and_players():
    result = run_cli("list")
    assert result.exit_code == 0, result.output
    rows = {line.split()[0]: line for line in result.stdout.splitlines()}
    assert "2..4" in rows["mafialand"] and "Mafialand" in rows["mafialand"]
    assert rows["tic_tac_toe"].split()[1] == "2" and "Tic-tac-toe" in rows["tic_tac_toe"]
    listed = json.loads(run_cli("list", "--json").stdout)
    assert [r["name"] for r in listed] == [name for name, _ in shipped.names()]


@pytest.mark.slow
def test_commands_take_a_shipped_name_from_any_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "tic_tac_toe", "mafia_dollar/hideout_gifts", "ruledsl:mafialand")
    assert result.exit_code == 0, result.output
    play = run_cli("play", "mafialand", "--players", "3", "--record", "t.jsonl")
    assert play.exit_code == 0, play.output
    header = json.loads((tmp_path / "t.jsonl").read_text().splitlines()[0])
    assert header["game"] == shipped.path_of("mafialand")
    assert run_cli("replay", "t.jsonl").exit_code == 0


def test_a_name_wins_over_a_folder_of_that_name(monkeypatch):
    monkeypatch.chdir(ROOT / "games")  # holds the folder mafialand/ beside mafialand.game
    assert run_cli("check", "mafialand").exit_code == 0
    assert shipped.resolve("mafialand") == shipped.path_of("mafialand")


@pytest.mark.parametrize("name", ["nothere", "../games/mafialand", "/etc/passwd", "games/../x"])
def test_an_unknown_name_is_one_clear_error(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", name)
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert result.stderr.startswith(f"error: {name}: ") or result.stderr.startswith(f"{name}:")


def test_a_variant_outside_the_repo_extends_a_shipped_game_by_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    variant = tmp_path / "house.game"
    variant.write_text(VARIANT.format(name="mafialand", const="BAGS_EACH = 12"))
    result = run_cli("check", str(variant))
    assert result.exit_code == 0, result.output
    loaded = load(str(variant))
    assert loaded.chain == [shipped.path_of("mafialand"), str(variant)]


@pytest.mark.parametrize("name", ["../../../etc/passwd", "/etc/passwd", "..", "mafialand/../../x", "a b",
                                  "mafialand/", ".hidden", "nothere"])
def test_a_game_file_cannot_extend_outside_the_shipped_folders(tmp_path, name):
    variant = tmp_path / "evil.game"
    variant.write_text(f'extends "ruledsl:{name}"\n')
    with pytest.raises(RuleError) as err:
        load(str(variant))
    (d,) = err.value.diagnostics
    assert d.code == "E103" and d.span.line == 1
    assert "ruledsl check" not in err.value.render() and "Traceback" not in err.value.render()


def test_a_symlink_out_of_a_shipped_folder_is_not_followed(tmp_path, monkeypatch):
    outside = tmp_path / "secret.game"
    outside.write_text('game "S" players 2..2\n')
    games = tmp_path / "pkg" / "games"
    games.mkdir(parents=True)
    (games / "link.game").symlink_to(outside)
    monkeypatch.setattr(shipped, "root", lambda: tmp_path / "pkg")
    assert shipped.path_of("link") is None


def record(path: str) -> list:
    game = load_game(path)
    out = io.StringIO()
    writer = TranscriptWriter(out)
    writer.header(game, 2, 4, ["random", "random"])
    machine = Machine(game.program, 2, RandomChance(4), listener=writer)
    while machine.pending is not None and machine.steps < 30:
        machine.choose(machine.pending.labels[0])
    return parse_lines(out.getvalue().split("\n"))


def test_a_recorded_shipped_base_comes_from_the_recording_never_from_disk(tmp_path, monkeypatch):
    variant = tmp_path / "house.game"
    variant.write_text(VARIANT.format(name="pig", const="GOAL = 30"))
    records = record(str(variant))
    files = {f["path"]: f["text"] for f in records[1]["files"]}
    assert set(files) == {str(variant), shipped.path_of("pig")}
    # another installation: the base recorded under another folder is still found, by its place
    moved = {("/elsewhere/site-packages/ruledsl/examples/pig.game" if p.endswith("pig.game") else p): t
             for p, t in files.items()}
    monkeypatch.setattr(shipped, "root", lambda: tmp_path / "no-install")  # nothing on disk to read
    assert load(str(variant), files=moved).chain[0] == "/elsewhere/site-packages/ruledsl/examples/pig.game"
    records[1]["files"] = [{"path": p, "text": t} for p, t in moved.items()]
    assert recorded_game(records).program.title == "Pig"
    without_base = {str(variant): files[str(variant)]}
    with pytest.raises(RuleError) as err:
        load(str(variant), files=without_base)
    assert "not found among the recorded rules" in err.value.render()


def test_a_transcript_of_a_variant_of_a_shipped_game_replays(tmp_path):
    variant = tmp_path / "house.game"
    variant.write_text(VARIANT.format(name="pig", const="GOAL = 30"))
    records = record(str(variant))
    report = replay(load_game(str(variant)), records)
    assert report.steps == sum(1 for r in records if r["type"] == "decision")
