from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import ROOT, record_game, run_cli, run_process

from ruledsl import __version__
from ruledsl.cli.commands import check_one
from ruledsl.play.transcript import read_transcript


def test_version():
    result = run_cli("--version")
    assert result.exit_code == 0
    assert result.stdout == f"ruledsl, version {__version__}\n"


# ---------------------------------------------------------------- check
def test_check_ok(games_dir):
    result = run_cli("check", "dice_race.game", "secret_bid.game", "refill.game")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["ok: dice_race.game", "ok: secret_bid.game", "ok: refill.game"]
    assert result.stderr == ""


def test_check_reports_every_error_with_source_and_caret(games_dir):
    result = run_cli("check", "dice_race.game", "broken_types.game")
    assert result.exit_code == 1
    assert result.stdout == "ok: dice_race.game\n"
    assert result.stderr.splitlines() == [
        "broken_types.game:4:21: error: the right side of '+=' must be int, not bool [E201]",
        "      seat(0).points += true",
        "                        ^^^^",
        "broken_types.game:5:9: error: unknown name 'nobody' [E202]",
        '      say "{nobody}"',
        "            ^^^^^^",
    ]


@pytest.mark.parametrize("name, content, expected", [
    ("missing.game", None, "missing.game: no such file"),
    (".", None, "cannot read file: only .game files are read"),
    ("binary.game", b"\xff\xfe\x00game", "cannot read file"),
    ("empty.game", b"", "missing 'game \"Title\" players N..M'"),
])
def test_check_bad_inputs_get_messages_not_tracebacks(tmp_path, name, content, expected):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    result = run_cli("check", path)
    assert result.exit_code == 1
    assert expected in result.stderr
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)


def test_python_m_ruledsl_check_on_a_broken_file_exits_1_without_traceback():
    proc = run_process("check", "broken_syntax.game")
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr + proc.stdout
    assert proc.stderr.splitlines()[0] == (
        "broken_syntax.game:3:11: error: unexpected '='; expected '(', '-', '[', a name, a number, a string [E001]")



def test_importing_the_command_line_runs_no_collection_and_leaves_the_collector_as_it_was():
    """Its modules' objects live as long as the process: the collector is paused while
    they are imported (ruledsl/cli/__init__.py), they join the oldest generation without
    a pass, and the collector is left on or off as it was, nothing frozen (a pytest
    session with ruledsl's plugin imports the command line too)."""
    probe = ("import gc, sys, ruledsl, ruledsl.collector\n"  # (the package, its pause, an editable finder: first)
             "gc.collect(); runs = []; gc.callbacks.append(lambda phase, info: runs.append(phase))\n"
             "if sys.argv[1] == 'off': gc.disable()\n"
             "import ruledsl.cli\n"
             "print(runs.count('start'), gc.isenabled(), gc.get_freeze_count())")
    for given, enabled in (("on", True), ("off", False)):
        proc = subprocess.run([sys.executable, "-c", probe, given], capture_output=True, text=True, timeout=120)
        assert proc.stdout.split() == ["0", str(enabled), "0"], proc.stderr  # no pass, also when it ends


@pytest.mark.parametrize("files, passes", [(5, 0), (17, 1)])
def test_check_leaves_the_games_it_drops_to_a_pass_every_16_files_and_none_at_its_end(files, passes):
    """A pass of the cyclic collector after each file freed what its game left; before the
    process ends that is no use (clang's -disable-free): a pass every FILES_A_COLLECTION
    files bounds the memory, and what the last ones left is not looked at."""
    probe = ("import gc, sys, ruledsl.cli\nruns = []\ngc.callbacks.append(lambda phase, info: runs.append(phase))\n"
             "try:\n    ruledsl.cli.main(['check', *sys.argv[1:]])\nexcept SystemExit as e:\n"
             "    print(runs.count('start'), e.code)")
    proc = subprocess.run([sys.executable, "-c", probe, *["kuhn_poker.game"] * files], cwd=ROOT / "examples",
                          capture_output=True, text=True, timeout=300)
    assert proc.stdout.splitlines()[-1] == f"{passes} 0", proc.stderr
    assert proc.stdout.count("ok: kuhn_poker.game") == files


def test_check_in_process_leaves_the_collector_as_it_was():
    import gc
    assert gc.isenabled()
    result = run_cli("check", ROOT / "games" / "mafialand.game")
    assert result.exit_code == 0, result.output
    assert gc.isenabled() and gc.get_freeze_count() == 0

@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(
    st.text(max_size=80),
    st.lists(st.sampled_from(['game "G" players 1..2', "rule flow() {", "}", "let", "x", "=", "roll", "d6",
                              "choose", "from", "by", "seat(0)", "players", "{", "1..3", '"s"', "may", "end"]),
             max_size=25).map(" ".join)))
def test_check_never_crashes_on_any_text(tmp_path, text):
    path = tmp_path / "fuzz.game"
    path.write_text(text, encoding="utf-8")
    message = check_one(str(path))
    assert message is None or "internal error" not in message, message


# ---------------------------------------------------------------- play
def test_play_narrates_and_records_the_same_transcript_as_the_library(games_dir, tmp_path, snapshot):
    record = tmp_path / "race.jsonl"
    result = run_cli("play", "dice_race.game", "--players", 3, "--seed", 2, "--record", record)
    assert result.exit_code == 0, result.output
    _, expected = record_game("dice_race.game", 3, seed=2)
    assert record.read_text(encoding="utf-8") == expected
    lines = result.stdout.splitlines()
    assert lines[0] == "dice_race.game: 3 players, seed 2 (seat 0: random, seat 1: random, seat 2: random)"
    first = next(r for r in read_transcript(str(record)) if r["type"] == "decision")
    assert lines[1:].index(f'[1] seat 0 chose "{first["choice"]}" for pace') >= 0
    machine, _ = record_game("dice_race.game", 3, seed=2)
    r = machine.result
    ranking = ", ".join(f"{i}. seat {s} (score {r.scores[s]})" for i, s in enumerate(r.ranking, start=1))
    assert lines[-3:] == [f"game over after {machine.steps} steps: {r.reason}",
                          "winners: " + ", ".join(f"seat {s}" for s in r.winners), f"ranking: {ranking}"]
    assert result.stdout == snapshot


def test_play_shows_rolls_says_and_eliminations(games_dir):
    result = run_cli("play", "dice_race.game", "-n", 3, "--seed", 76)  # a seed where two runners stumble
    assert result.exit_code == 0
    assert re.search(r"^      rolls 1d6: [1-6]$", result.stdout, re.M)
    assert '      "seat 0 stumbles"\n      seat 0 is eliminated\n' in result.stdout
    assert "game over after 19 steps: one runner left\nwinners: seat 2\n" in result.stdout


def test_play_rejects_a_player_count_outside_the_range(games_dir):
    result = run_cli("play", "dice_race.game", "--players", 5)
    assert result.exit_code == 1
    assert result.stderr == "error: 'Dice race' takes 2..4 players, not 5\n"


def test_play_max_steps_stops_the_game(games_dir):
    result = run_cli("play", "dice_race.game", "--seed", 2, "--max-steps", 3)
    assert result.exit_code == 0
    assert "game over after 3 steps: step limit: 3 decisions (stopped, not by the rules)" in result.stdout
    assert "winners: none" in result.stdout


def test_play_with_a_human_seat_hides_the_other_seats_secrets(games_dir):
    result = run_cli("play", "secret_bid.game", "--seed", 3, "--agent", "1=human",
                 input="7\n" + "1\n2\n3\n4\n5\n6\n" * 4)  # cards named by numbers: the number is the card
    assert result.exit_code == 0, result.output
    assert "[1] seat 0 chose (sealed) for bid" in result.stdout
    assert "--- seat 1 to choose: bid ---" in result.stdout
    assert "'7' is not an option: enter a number shown (3-4)" in result.stdout
    assert "[2] seat 1 chose" in result.stdout and "(secret)" in result.stdout


def test_play_scripted_agent_that_runs_out_leaves_a_replayable_prefix(games_dir, tmp_path):
    record = tmp_path / "cut.jsonl"
    result = run_cli("play", "dice_race.game", "--seed", 4, "--agent", "0=scripted:dash,pass,walk",
                 "--agent", "1=first", "--record", record)
    assert result.exit_code == 1
    assert result.stderr == ("error: seat 0: the script ran out after 3 choice(s); "
                             "'pace' still needs one of \"steady\", \"dash\"\n")
    records = read_transcript(str(record))
    assert [r["choice"] for r in records if r["type"] == "decision"] == ["dash", "pass", "walk", "steady", "walk"]
    again = run_cli("replay", record)
    assert again.exit_code == 0
    assert "note: the transcript stops after step 5 without a result" in again.stdout


def test_play_reports_a_runtime_rule_failure_without_traceback(games_dir):
    result = run_cli("play", "divide.game", "--agent", "0=first")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "divide.game:7:19: runtime error: division by zero [R003]",
        "      seat(1).share = 12 / k",
        "                      ^^^^^^"]
    assert "Traceback" not in result.output


def test_play_bad_agent_options(games_dir):
    unknown = run_cli("play", "dice_race.game", "--agent", "1=robot")
    assert unknown.exit_code == 1
    assert unknown.stderr == ("error: unknown agent kind 'robot'; kinds: random, first, human, scripted, mcts, "
                              "or module:Class for a plug-in\n")
    seat = run_cli("play", "dice_race.game", "--agent", "5=first")
    assert seat.exit_code == 1 and "there are seats 0..1" in seat.stderr


# ---------------------------------------------------------------- replay
def recorded(tmp_path, game="dice_race.game", *args):
    record = tmp_path / "game.jsonl"
    result = run_cli("play", game, "--record", record, *args)
    assert result.exit_code == 0, result.output
    return record


def test_replay_round_trip(games_dir, tmp_path):
    record = recorded(tmp_path, "dice_race.game", "-n", 3, "--seed", 2)
    result = run_cli("replay", record)
    assert result.exit_code == 0, result.output
    machine, _ = record_game("dice_race.game", 3, seed=2)
    assert result.stdout.splitlines()[-1] == f"replay ok: all {machine.steps} steps match"
    assert f"winners: seat {machine.result.winners[0]}" in result.stdout


def test_replay_divergence_after_editing_a_copy_of_the_game(game_copy, tmp_path):
    name = game_copy("dice_race.game")
    record = recorded(tmp_path, name, "--seed", 2)
    text = (tmp_path / name).read_text()
    (tmp_path / name).write_text(text.replace("p.pos += r + 2", "p.pos += r + 3"))
    result = run_cli("replay", record)
    assert result.exit_code == 1
    assert "note: the rules in dice_race.game differ from the ones recorded" in result.stdout
    message = result.stderr.strip()
    assert message.startswith("diverged at step ")
    assert "the state differs from the recording" in message
    assert re.search(r"^  seat \d pos: recorded \d+, now \d+$", message, re.M)
    assert "rule change responsible: dice_race.game:18: p.pos += r + 3   (recorded: p.pos += r + 2)" in message


def test_replay_corrupt_transcripts_name_the_line(games_dir, tmp_path):
    record = recorded(tmp_path, "dice_race.game", "--seed", 2)
    lines = record.read_text().splitlines()
    bad_json = tmp_path / "bad.jsonl"
    bad_json.write_text("\n".join(lines[:2] + ["{not json"] + lines[3:]) + "\n")
    result = run_cli("replay", bad_json)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{bad_json}: corrupt transcript: line 3: not valid JSON")
    missing = tmp_path / "missing.jsonl"
    at = next(i for i, line in enumerate(lines) if '"type":"decision"' in line and i > 3)
    decision = json.loads(lines[at])
    del decision["choice"]
    missing.write_text("\n".join(lines[:at] + [json.dumps(decision)] + lines[at + 1:]) + "\n")
    result = run_cli("replay", missing)
    assert result.exit_code == 1
    assert result.stderr == f"{missing}: corrupt transcript: line {at + 1}: decision record lacks the key 'choice'\n"


def test_replay_as_seat_hides_another_seats_secret_choice(games_dir, tmp_path):
    record = recorded(tmp_path, "secret_bid.game", "--seed", 3)
    first = read_transcript(str(record))[3]
    assert first["seat"] == 0 and first["secret"] is True
    as_one = run_cli("replay", record, "--as-seat", 1)
    assert as_one.exit_code == 0
    assert "[1] seat 0 chose (sealed) for bid" in as_one.stdout
    assert f'[1] seat 0 chose "{first["choice"]}"' not in as_one.stdout
    as_zero = run_cli("replay", record, "--as-seat", 0)
    assert f'[1] seat 0 chose "{first["choice"]}" for bid (secret)' in as_zero.stdout
    assert "[2] seat 1 chose (sealed) for bid" in as_zero.stdout


def test_replay_against_another_game_fails_clearly(games_dir, tmp_path):
    record = recorded(tmp_path, "dice_race.game", "--seed", 2, "-n", 3)
    result = run_cli("replay", record, "--game", "divide.game")
    assert result.exit_code == 1
    assert result.stderr.startswith("the transcript is for 3 players, but 'Divide' (divide.game) takes 2..2")


def test_replay_missing_transcript(tmp_path):
    result = run_cli("replay", tmp_path / "nope.jsonl")
    assert result.exit_code == 1
    assert "corrupt transcript: line 0: cannot read" in result.stderr


# ---------------------------------------------------------------- simulate
def test_simulate_json(games_dir):
    result = run_cli("simulate", "dice_race.game", "--players", 3, "--games", 40, "--seed", 2, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data) == ["games", "errors", "error_list", "errors_not_listed", "ended", "steps_mean",
                          "steps_median", "wins", "shared_wins", "no_winner", "draws", "seconds",
                          "playouts_per_second"]
    assert data["games"] == 40 and data["errors"] == 0
    assert sum(data["ended"].values()) == 40 and set(data["ended"]) <= {"crossed the line", "one runner left"}
    assert sum(data["wins"]) == 40 and len(data["wins"]) == 3
    again = json.loads(run_cli("simulate", "dice_race.game", "-n", 3, "-g", 40, "-s", 2, "--json").stdout)
    for key in ("ended", "steps_mean", "steps_median", "wins"):
        assert again[key] == data[key]


def test_simulate_game_i_is_play_with_seed_s_plus_i(games_dir, tmp_path):
    for seed in (2, 3, 4):
        one = json.loads(run_cli("simulate", "dice_race.game", "-n", 3, "--games", 1, "--seed", seed, "--json").stdout)
        assert run_cli("play", "dice_race.game", "-n", 3, "--seed", seed, "--record", tmp_path / "t.jsonl").exit_code == 0
        played = read_transcript(str(tmp_path / "t.jsonl"))[-1]
        assert one["steps_mean"] == played["steps"] and one["ended"] == {played["reason"]: 1}
        assert one["wins"] == [int(seat in played["winners"]) for seat in range(3)]


def test_simulate_counts_runtime_errors(games_dir):
    failing = [seed for seed in range(30) if run_cli("play", "divide.game", "--seed", seed).exit_code == 1]
    ok = 30 - len(failing)
    assert failing and ok
    result = run_cli("simulate", "divide.game", "--games", 30)
    assert result.exit_code == 1
    assert f"games: 30 (errors: {len(failing)})" in result.stdout
    assert f"  divided: {ok}" in result.stdout
    assert f"wins by seat: seat 0: 0, seat 1: {ok} (shared by several: 0, won by nobody: 0)" in result.stdout
    assert "playouts/s" in result.stdout
    assert result.stderr.splitlines() == [
        *(f"game with seed {seed}: divide.game:7:19: runtime error: division by zero [R003]" for seed in failing),
        f"replay one with: ruledsl play divide.game --players 2 --seed {failing[0]}"]
    as_json = json.loads(run_cli("simulate", "divide.game", "--games", 30, "--json").stdout)
    assert as_json["errors"] == len(failing) and as_json["ended"] == {"divided": ok}
    assert [e["seed"] for e in as_json["error_list"]] == failing and as_json["errors_not_listed"] == 0


@pytest.mark.slow
def test_simulate_over_two_processes_gives_the_same_summary(games_dir):
    """Seeds are split into blocks and merged in order: only the timing may differ."""
    timing = ("seconds", "playouts_per_second")
    for game, games in (("dice_race.game", 41), ("divide.game", 30)):
        one = json.loads(run_cli("simulate", game, "-n", 2, "-g", games, "-s", 5, "--json").stdout)
        two = json.loads(run_cli("simulate", game, "-n", 2, "-g", games, "-s", 5, "--json", "--jobs", 2).stdout)
        auto = json.loads(run_process("simulate", game, "-n", 2, "-g", games, "-s", 5, "--json", "-j", "auto").stdout)
        assert {k: v for k, v in auto.items() if k not in timing} == {k: v for k, v in one.items() if k not in timing}
        assert {k: v for k, v in two.items() if k not in timing} == {k: v for k, v in one.items() if k not in timing}
    one = run_cli("simulate", "divide.game", "--games", 30)
    two = run_cli("simulate", "divide.game", "--games", 30, "--jobs", 2)
    assert two.stderr == one.stderr and two.stderr.startswith("game with seed ")
    assert two.stdout.splitlines()[:-1] == one.stdout.splitlines()[:-1]  # all but the time


def test_jobs_auto_is_one_process_per_usable_cpu(monkeypatch):
    """`--jobs auto` is the number of CPUs this process may run on (its affinity where the
    platform tells it, else the CPU count); anything but an integer of at least 1 or auto
    is refused in a line (exit 2)."""
    from ruledsl.cli import types
    monkeypatch.setattr(types.os, "sched_getaffinity", lambda pid: {0, 2, 5}, raising=False)
    assert types.JOBS.convert("auto", None, None) == 3 and types.JOBS.convert(" 4", None, None) == 4
    monkeypatch.delattr(types.os, "sched_getaffinity")
    monkeypatch.setattr(types.os, "cpu_count", lambda: None)
    assert types.usable_cpus() == 1
    monkeypatch.setattr(types.os, "cpu_count", lambda: 6)
    assert types.usable_cpus() == 6
    monkeypatch.setattr(types, "usable_cpus", lambda: 1)  # one process here: no pool to start
    args = ("simulate", ROOT / "examples" / "tic_tac_toe.game", "-g", 20, "--json")
    auto, one = run_cli(*args, "--jobs", "auto"), run_cli(*args)
    timing = ("seconds", "playouts_per_second")
    assert auto.exit_code == 0 and {k: v for k, v in json.loads(auto.stdout).items() if k not in timing} == \
        {k: v for k, v in json.loads(one.stdout).items() if k not in timing}
    for bad in ("0", "-2", "many", "1.5", "9" * 40):
        refused = run_cli(*args, "--jobs", bad)
        assert refused.exit_code == 2 and "is not a number of processes" in refused.output, bad
        assert "9" * 30 not in refused.output


# ---------------------------------------------------------------- state
def test_state_after_setup_and_after_steps(games_dir):
    setup = json.loads(run_cli("state", "secret_bid.game", "--players", 3, "--seed", 3).stdout)
    assert setup["status"] == "waiting" and setup["steps"] == 0
    assert setup["pending"]["decision"] == "bid" and setup["pending"]["secret"] is True
    assert setup["pending"]["rule"] == "secret_bid.game:20:3"
    hands = [setup["state"]["zones"][f"hand/seat {s}"] for s in range(3)]
    assert [len(h) for h in hands] == [2, 2, 2]
    later = json.loads(run_cli("state", "secret_bid.game", "-n", 3, "--seed", 3, "--steps", 2).stdout)
    assert later["steps"] == 2 and later["pending"]["seat"] == 2
    over = json.loads(run_cli("state", "secret_bid.game", "-n", 2, "--seed", 3, "--steps", 100).stdout)
    assert over["status"] == "over" and over["pending"] is None and over["steps"] == 8
    assert over["result"]["reason"] == "the flow of play ended"


def test_state_rejects_a_bad_player_count(games_dir):
    result = run_cli("state", "divide.game", "--players", 3)
    assert result.exit_code == 1
    assert result.stderr == "error: 'Divide' takes 2..2 players, not 3\n"


def test_every_error_bad_input_causes_shares_one_root_with_a_user_message():
    import ruledsl.api
    import ruledsl.play.agents
    import ruledsl.play.divergence
    import ruledsl.play.graph
    import ruledsl.play.ray_backend
    import ruledsl.play.view
    from ruledsl.cli.common import Failure, user_message
    from ruledsl.errors import GameRuntimeError, RuleError, Span, UserError
    kinds = [RuleError, GameRuntimeError, Failure, ruledsl.play.agents.AgentError, ruledsl.api.GameNotFound,
             ruledsl.play.divergence.Divergence, ruledsl.play.divergence.ReplayError, ruledsl.play.graph.GraphError,
             ruledsl.play.view.ViewError, ruledsl.play.ray_backend.RayMissing]
    assert all(issubclass(k, UserError) for k in kinds)
    assert user_message(ruledsl.play.graph.GraphError("--rule x: no such rule")) == "error: --rule x: no such rule"
    assert user_message(Failure("as is\x1b[2J")) == "as is\\x1b[2J"
    runtime = GameRuntimeError(Span("nowhere.game", 3, 4), "R007", "nothing to choose from")
    assert user_message(runtime) == "nowhere.game:3:4: runtime error: nothing to choose from [R007]"
    assert user_message(KeyError("x")) is None  # a bug of ruledsl, not the user's
