"""simulate tells the truth: exit code 1 when a game errored, every failed game listed
(seed, code, message, rule) so `ruledsl play --seed` shows it again, the same from
worker processes, and a progress bar that moves with --jobs."""
from __future__ import annotations

import io
import json
import os
import sys

import pytest

from ruledsl.pipeline import load_game
import ruledsl.pipeline
from ruledsl.play.simulate import (BLOCKS_PER_JOB, MAX_ERRORS_LISTED, simulate, simulate_file, start_method,
                              terminal_progress)
from support import GAMES, ROOT, run_cli, run_process

FRAGILE = "fragile_dice.game"  # a roll of double six indexes past a list: some seeds fail
TIMING = ("seconds", "playouts_per_second")


def test_errors_give_exit_code_1_after_the_json(games_dir):
    result = run_cli("simulate", FRAGILE, "--games", 60, "--seed", 3, "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert 0 < data["errors"] < 60 and data["errors_not_listed"] == 0
    assert data["games"] == 60 and sum(data["ended"].values()) == 60 - data["errors"]
    assert len(data["error_list"]) == data["errors"]
    for error in data["error_list"]:
        assert error["code"] == "R002" and error["message"] == "index 10 is outside 0..9"
        assert error["rule"] == "fragile_dice.game:14" and error["column"] == 23
        assert error["replay"] == f"ruledsl play fragile_dice.game --players 2 --seed {error['seed']}"
    seeds = [error["seed"] for error in data["error_list"]]
    assert seeds == sorted(seeds) and all(3 <= s < 63 for s in seeds)


def test_the_listed_seeds_are_exactly_the_games_that_fail_under_play(games_dir):
    data = json.loads(run_cli("simulate", FRAGILE, "--games", 40, "--seed", 3, "--json").stdout)
    listed = {error["seed"] for error in data["error_list"]}
    assert listed
    for seed in range(3, 43):
        played = run_cli("play", FRAGILE, "--players", 2, "--seed", seed)
        if seed in listed:
            assert played.exit_code == 1, seed
            assert played.stderr.startswith("fragile_dice.game:14:23: runtime error: index 10 is outside 0..9 [R002]")
        else:
            assert played.exit_code == 0 and played.stderr == "", seed


def test_text_mode_lists_every_failed_game_on_stderr(games_dir):
    result = run_cli("simulate", FRAGILE, "--games", 60, "--seed", 3)
    assert result.exit_code == 1
    as_json = json.loads(run_cli("simulate", FRAGILE, "--games", 60, "--seed", 3, "--json").stdout)
    assert f"games: 60 (errors: {as_json['errors']})" in result.stdout
    lines = result.stderr.splitlines()
    assert lines[:-1] == [f"game with seed {e['seed']}: fragile_dice.game:14:23: runtime error: "
                          f"index 10 is outside 0..9 [R002]" for e in as_json["error_list"]]
    assert lines[-1] == "replay one with: " + as_json["error_list"][0]["replay"]


def test_a_run_in_which_every_game_failed_says_so_of_the_steps(tmp_path):
    """With no game ended there are no steps to average: the text says so (it printed
    `mean None`), the JSON keeps null. The game stores a `first` of no items in a number
    field: R000 at that value (stores.py)."""
    game = tmp_path / "none_stored.game"
    game.write_text('game "N" players 2..2\nplayer { points: int = 0 }\n'
                    'rule flow() { for p in players { p.points = first(i in 1..3 where i > 5) }  end "done" }\n')
    result = run_cli("simulate", game, "--games", 4)
    assert result.exit_code == 1 and "steps: (no game ended)" in result.stdout.splitlines()
    assert "None" not in result.stdout and "TypeError" not in result.stderr
    assert result.stderr.splitlines()[0].endswith("field 'points' holds a number (first and best give none when "
                                                  "no item qualifies) [R000]")
    data = json.loads(run_cli("simulate", game, "--games", 4, "--json").stdout)
    assert data["steps_mean"] is None and data["errors"] == 4


def test_a_clean_game_exits_0(games_dir):
    result = run_cli("simulate", "dice_race.game", "--players", 3, "--games", 30)
    assert result.exit_code == 0 and result.stderr == ""
    assert "games: 30 (errors: 0)" in result.stdout


@pytest.mark.slow
def test_exit_codes_of_a_real_process():
    failing = run_process("simulate", FRAGILE, "--games", 60, "--seed", 3)
    assert failing.returncode == 1
    assert "games: 60 (errors: " in failing.stdout and "Traceback" not in failing.stderr
    assert failing.stderr.startswith("game with seed ")
    failing_json = run_process("simulate", FRAGILE, "--games", 60, "--seed", 3, "--json", "--jobs", 2)
    assert failing_json.returncode == 1 and json.loads(failing_json.stdout)["errors"] > 0
    clean = run_process("simulate", "dice_race.game", "--games", 30)
    assert clean.returncode == 0 and clean.stderr == ""


@pytest.mark.slow
def test_errors_come_back_from_worker_processes_intact(games_dir):
    one = json.loads(run_cli("simulate", FRAGILE, "-g", 90, "-s", 1, "--json").stdout)
    two = json.loads(run_cli("simulate", FRAGILE, "-g", 90, "-s", 1, "--json", "--jobs", 2).stdout)
    assert one["errors"] > 0
    assert {k: v for k, v in two.items() if k not in TIMING} == {k: v for k, v in one.items() if k not in TIMING}


@pytest.mark.slow
def test_the_error_list_is_capped_and_the_rest_counted(games_dir):
    """divide.game fails whenever seat 0 picks 0: about a third of 400 games."""
    for jobs in (1, 2):
        result = run_cli("simulate", "divide.game", "--games", 400, "--json", "--jobs", jobs)
        data = json.loads(result.stdout)
        assert result.exit_code == 1 and data["errors"] > MAX_ERRORS_LISTED
        assert len(data["error_list"]) == MAX_ERRORS_LISTED
        assert data["errors_not_listed"] == data["errors"] - MAX_ERRORS_LISTED
        seeds = [e["seed"] for e in data["error_list"]]
        assert seeds == sorted(seeds)  # the first ones by seed, however the games were spread
    text = run_cli("simulate", "divide.game", "--games", 400)
    lines = text.stderr.splitlines()
    assert len(lines) == MAX_ERRORS_LISTED + 2
    assert lines[-2] == f"... and {data['errors_not_listed']} more failed games"


@pytest.mark.slow
def test_records_and_summaries_do_not_depend_on_the_number_of_processes():
    path = str(GAMES / FRAGILE)
    one = simulate_file(path, 3, 70, 11, 500, jobs=1, keep_records=True)
    two = simulate_file(path, 3, 70, 11, 500, jobs=2, keep_records=True)
    assert one.records == two.records and one.error_list == two.error_list
    assert one.records and one.error_list
    assert sorted([r.seed for r in one.records] + [e.seed for e in one.error_list]) == list(range(11, 81))
    assert two.as_json() | dict.fromkeys(TIMING) == one.as_json() | dict.fromkeys(TIMING)


def stages_run_only_here(monkeypatch) -> list:
    """Patches the pipeline's stages (parse, check, compile) to count their calls in this
    process and to fail in any other, e.g. a forked worker; returns the list of calls."""
    here, calls = os.getpid(), []

    def counted(stage, real):
        def run(*args, **kwargs):
            if os.getpid() != here:
                raise AssertionError(f"{stage} ran in worker process {os.getpid()}")
            calls.append(stage)
            return real(*args, **kwargs)
        return run
    for stage in ("load", "check", "compile_game"):
        monkeypatch.setattr(ruledsl.pipeline, stage, counted(stage, getattr(ruledsl.pipeline, stage)))
    return calls


forking = pytest.mark.skipif(start_method() != "fork", reason="workers are spawned here and load the game themselves")


@pytest.mark.slow
@forking
def test_with_several_processes_the_game_is_parsed_checked_and_compiled_once(monkeypatch):
    calls = stages_run_only_here(monkeypatch)
    path = str(GAMES / FRAGILE)
    two = simulate_file(path, 3, 40, 11, 500, jobs=2, keep_records=True)
    assert calls == ["load", "check", "compile_game"]  # here, before the workers started
    assert two.records == simulate_file(path, 3, 40, 11, 500, jobs=1, keep_records=True).records
    calls.clear()
    program = load_game(path).program
    calls.clear()
    simulate_file(path, 3, 40, 11, 500, jobs=2, program=program)
    assert calls == []  # a program given is played as it is


@pytest.mark.slow
@forking
def test_workers_play_the_program_they_are_given_not_the_file(tmp_path):
    """A game loaded from texts only (as recorded rules are) has no file the workers could read."""
    path = str(tmp_path / "nowhere" / "race.game")
    program = load_game(path, files={path: (GAMES / "dice_race.game").read_text()}).program
    one = simulate_file(path, 3, 60, 2, jobs=1, program=program, keep_records=True)
    two = simulate_file(path, 3, 60, 2, jobs=2, program=program, keep_records=True)
    assert two.records == one.records and len(one.records) == 60


@pytest.mark.slow
def test_progress_is_reported_with_one_process_and_with_several():
    path = str(GAMES / "dice_race.game")
    for jobs in (1, 2):
        told = []
        simulate_file(path, 2, 50, 0, jobs=jobs, progress=told.append)
        assert sum(told) == 50
        assert len(told) == (50 if jobs == 1 else 2 * BLOCKS_PER_JOB)  # game by game, or block by block


def test_the_progress_bar_is_drawn_only_on_a_terminal(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True
    program = load_game(str(GAMES / "dice_race.game")).program
    for stream, drawn in ((io.StringIO(), False), (Terminal(), True)):
        monkeypatch.setattr(sys, "stderr", stream)
        with terminal_progress(20) as progress:
            assert (progress is not None) == drawn
            simulate(program, 2, 20, 0, progress=progress)
        assert ("100%" in stream.getvalue()) == drawn


def test_every_playout_runs_whole_rules_also_when_a_searching_agent_clones_it(monkeypatch):
    """Games run on a fast Machine (compile/whole.py); a searching agent's clones go on
    as resumed generators (compile/resume.py), and the game too: no op lists."""
    import ruledsl.play.simulate as simulate_module
    made = []
    real = simulate_module.Machine

    def spy(*args, **kwargs):
        made.append(real(*args, **kwargs))
        return made[-1]
    monkeypatch.setattr(simulate_module, "Machine", spy)
    program = load_game(str(ROOT / "examples" / "tic_tac_toe.game")).program
    for agents in ((), ("0=first",), ("1=mcts:3",)):
        result, _ = simulate_module.playout(program, 2, 5, agents=agents)
        assert result is not None
    assert [m.wholes for m in made] == [True, True, True]
    assert [m.fast for m in made] == [True, True, True]  # the searched game did not go on as op lists
