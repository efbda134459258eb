"""compare: the same seeds on two games, metric by metric, without crying wolf."""
from __future__ import annotations

import json
import os
import warnings

import pytest

from ruledsl.play.compare import ALPHA, Metric, compare_files, holm, rate_metric, reasons_metric, sample_metric
from ruledsl.pipeline import load_game
from ruledsl.play.simulate import GameRecord
from support import GAMES, ROOT, run_cli, run_process

MAFIALAND = str(ROOT / "games" / "mafialand.game")
DOUBLE_CASINO = str(ROOT / "examples" / "mafialand_double_casino.game")


def by_metric(report: dict) -> dict:
    return {m["name"]: m for m in report["metrics"]}


def record(seed=0, steps=10, reason="done", winners=(0,), scores=(1, 0)):
    return GameRecord(seed, steps, reason, tuple(winners), tuple(scores))


@pytest.fixture
def no_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


# ---------------------------------------------------------------- the statistics
def test_holm_adjusts_step_down_and_keeps_the_order():
    ms = [Metric("x", name, None, {}, {}, 0.0, "t", p, False, direction="B higher") for name, p in
          (("a", 0.01), ("b", 0.04), ("c", 0.03), ("d", None))]
    holm(ms)
    # sorted p: 0.01 * 3, 0.03 * 2, then 0.04 * 1 raised to the running maximum; d has no test
    assert ms[0].p_holm == pytest.approx(0.03) and ms[2].p_holm == pytest.approx(0.06)
    assert ms[1].p_holm == pytest.approx(0.06) and ms[3].p_holm is None
    assert [m.flagged for m in ms] == [True, False, False, False]
    assert ms[0].verdict == "B higher" and ms[0].stars == "*"
    assert ms[1].verdict == "no significant difference" and ms[1].stars == ""
    assert ms[3].verdict == "not tested (no finished games)"


def test_a_raw_p_below_alpha_among_many_metrics_is_not_flagged():
    ms = [Metric("x", str(i), None, {}, {}, 0.0, "t", 0.5, False) for i in range(9)]
    ms.append(Metric("x", "lucky", None, {}, {}, 0.0, "t", 0.02, False))
    holm(ms)
    assert ms[-1].p_holm == pytest.approx(0.2) and not any(m.flagged for m in ms)


def test_degenerate_samples_give_p_1_and_no_warning(no_warnings):
    same = [record(seed=i, steps=7, winners=(), scores=(0, 0)) for i in range(30)]
    for m in (rate_metric("win_rate", "w", 0, same, same, lambda r: 0 in r.winners, "+", "-"),
              rate_metric("no_winner", "n", None, same, same, lambda r: not r.winners, "+", "-"),
              sample_metric("length", "l", None, [r.steps for r in same], [r.steps for r in same], "+", "-"),
              sample_metric("score", "s", 0, [0] * 30, [0] * 30, "+", "-"),
              reasons_metric([r.reason for r in same], [r.reason for r in same])):
        holm([m])
        assert m.p == 1 and m.p_holm == 1 and not m.flagged, m.name
        assert m.identical and m.verdict == "no difference", m.name
        assert m.difference == 0


def test_nothing_to_compare_is_not_tested(no_warnings):
    some = [record(seed=i) for i in range(5)]
    for m in (rate_metric("win_rate", "w", 0, [], some, lambda r: 0 in r.winners, "+", "-"),
              sample_metric("length", "l", None, [], [3, 4], "+", "-"),
              reasons_metric(["x"], [])):
        holm([m])
        assert m.p is None and m.p_holm is None and not m.flagged
        assert m.verdict == "not tested (no finished games)"


def test_clear_differences_are_flagged_with_their_direction(no_warnings):
    short, long_ = [5] * 40, [6] * 40  # constant in each, different between them
    length = sample_metric("length", "l", None, short, long_, "B longer", "B shorter")
    reasons = reasons_metric(["x"] * 40, ["y"] * 40)
    wins = rate_metric("win_rate", "w", 1, [record(winners=(0,))] * 40, [record(winners=(1,))] * 40,
                       lambda r: 1 in r.winners, "B: seat 1 wins more", "B: seat 1 wins less")
    fewer = sample_metric("score", "s", 0, [3, 4, 5] * 20, [0, 1, 2] * 20, "higher", "lower")
    holm([length, reasons, wins, fewer])
    assert length.verdict == "B longer" and length.p < 1e-6 and length.stars == "**"
    assert reasons.verdict == "B ends otherwise ('x' 100.0% -> 0.0%)" and reasons.difference == 1
    assert wins.verdict == "B: seat 1 wins more" and wins.difference == 1
    assert fewer.verdict == "lower" and fewer.effect["p_b_greater"] == 0


def test_wilson_intervals_hold_the_rate():
    m = rate_metric("win_rate", "w", 0, [record(winners=(0,))] * 3 + [record(winners=(1,))] * 7,
                    [record(winners=(0,))] * 10, lambda r: 0 in r.winners, "+", "-")
    lo, hi = m.a["ci95"]
    assert 0 < lo < 0.3 < hi < 1 and m.a["rate"] == 0.3
    assert m.b["rate"] == 1 and m.b["ci95"][1] == 1 and m.b["ci95"][0] < 1


# ---------------------------------------------------------------- not crying wolf
@pytest.mark.slow
@pytest.mark.parametrize("path, players", [("examples/tic_tac_toe.game", 2), ("tests/fixtures/games/dice_race.game", 4)])
def test_a_game_against_itself_on_other_seeds_is_rarely_flagged(path, players):
    """Holm keeps the chance of one or more flags in a report at most ALPHA, so over 16
    independent reports 4 or more flagged ones would happen with probability < 0.01."""
    path = str(ROOT / path)
    programs = {path: load_game(path).program}
    flagged_reports = 0
    for rep in range(16):
        report = compare_files(path, path, players, 200, 1000 * rep, 1000 * rep + 500, 1000, programs=programs)
        assert report.errors == 0 and len(report.metrics) == 2 * players + 4
        flagged_reports += bool(report.flagged)
    assert flagged_reports <= 3


@pytest.mark.slow
def test_the_same_game_on_the_same_seeds_flags_nothing():
    result = run_cli("compare", MAFIALAND, MAFIALAND, "--seed", 9, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["players"] == 2 and report["games"] == 200 and report["flagged"] == []
    assert report["a"]["seeds"] == report["b"]["seeds"] == [9, 208]
    assert all(m["p_holm"] == 1 and m["verdict"] == "no difference" for m in report["metrics"])


# ---------------------------------------------------------------- a real variant
@pytest.mark.slow
def test_doubling_casino_winnings_lengthens_mafialand():
    result = run_cli("compare", MAFIALAND, DOUBLE_CASINO, "--seed", 9, "--json", "--jobs", 2)  # the command
    assert result.exit_code == 0, result.output
    length = by_metric(json.loads(result.stdout))["game length (decisions)"]
    assert length["flagged"] and length["p_holm"] < 0.01
    assert length["b"]["mean"] > length["a"]["mean"] and length["b"]["median"] > length["a"]["median"]
    assert length["verdict"] == "B longer" and length["test"] == "Wilcoxon signed-rank"  # same seeds: paired
    assert length["b_higher"] * 2 > length["games_differing"] > 0


def long_race(tmp_path):
    """A variant of dice_race.game: the goal twice as far."""
    variant = tmp_path / "long_race.game"
    base = os.path.relpath(GAMES / "dice_race.game", tmp_path)  # a base is named relative to the variant
    variant.write_text(f'extends "{base}"\noverride const GOAL = 30\n')
    return variant


def test_a_longer_variant_is_flagged_in_text_with_an_aligned_table(tmp_path):
    variant = long_race(tmp_path)
    result = run_cli("compare", GAMES / "dice_race.game", variant, "-n", 3, "-g", 150, "-s", 4)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    header = next(line for line in lines if line.startswith("metric "))
    row = next(line for line in lines if line.startswith("game length (decisions) "))
    assert row.endswith("B longer **")
    assert row.index("Wilcoxon signed-rank") == header.index("test")
    assert lines[-1].startswith("flagged: ") and "game length (decisions)" in lines[-1]
    again = run_cli("compare", GAMES / "dice_race.game", variant, "-n", 3, "-g", 150, "-s", 4)
    assert again.stdout == result.stdout  # nothing timed, nothing random beyond the seeds


def test_json_names_every_metric_with_its_test(games_dir):
    result = run_cli("compare", "dice_race.game", "dice_race.game", "-n", 3, "-g", 40, "--seed-b", 100, "--json")
    report = json.loads(result.stdout)
    assert report["a"]["seeds"] == [0, 39] and report["b"]["seeds"] == [100, 139]
    assert report["correction"] == "holm" and report["alpha"] == ALPHA and report["tested"] == 10
    names = [m["name"] for m in report["metrics"]]
    assert names == ["win rate seat 0", "win rate seat 1", "win rate seat 2", "shared wins", "no winner (draws included)",
                     "score seat 0", "score seat 1", "score seat 2", "game length (decisions)", "end reasons"]
    tests = {m["metric"]: m["test"] for m in report["metrics"]}
    assert tests == {"win_rate": "Fisher exact", "shared_wins": "Fisher exact", "no_winner": "Fisher exact",
                     "score": "Mann-Whitney U", "length": "Mann-Whitney U", "end_reasons": "chi-square"}
    paired = json.loads(run_cli("compare", "dice_race.game", "dice_race.game", "-n", 3, "-g", 40, "--json").stdout)
    assert {m["metric"]: m["test"] for m in paired["metrics"]} == {
        "win_rate": "McNemar exact", "shared_wins": "McNemar exact", "no_winner": "McNemar exact",
        "score": "Wilcoxon signed-rank", "length": "Wilcoxon signed-rank", "end_reasons": "chi-square"}
    assert all(m["p"] == 1 and not m["flagged"] for m in paired["metrics"])  # the same games, seed by seed
    for m in report["metrics"]:
        assert set(m) >= {"a", "b", "difference", "test", "p", "p_holm", "flagged", "verdict"}
        assert 0 <= m["p"] <= m["p_holm"] <= 1
    wins = by_metric(report)["win rate seat 0"]
    assert wins["a"]["games"] == 40 and wins["a"]["rate"] == wins["a"]["count"] / 40
    assert wins["a"]["ci95"][0] <= wins["a"]["rate"] <= wins["a"]["ci95"][1]
    assert set(by_metric(report)["game length (decisions)"]["a"]["quantiles"]) == {"p10", "p25", "p50", "p75", "p90"}


# ---------------------------------------------------------------- errors and bad input
def test_errors_in_either_game_exit_1_after_the_report(games_dir):
    result = run_cli("compare", "dice_race.game", "fragile_dice.game", "-g", 40, "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["a"]["errors"] == 0 and report["b"]["errors"] > 0
    assert report["b"]["error_list"][0]["code"] == "R002"
    assert report["b"]["error_list"][0]["rule"] == "fragile_dice.game:14"
    text = run_cli("compare", "fragile_dice.game", "dice_race.game", "-g", 40)
    assert text.exit_code == 1 and "flagged:" in text.stdout
    assert text.stderr.startswith("game with seed ") and "[R002]" in text.stderr


@pytest.mark.slow
def test_exit_code_of_a_real_process():
    failing = run_process("compare", "dice_race.game", "fragile_dice.game", "-g", "40")
    assert failing.returncode == 1 and "Traceback" not in failing.stderr
    assert "game length (decisions)" in failing.stdout
    clean = run_process("compare", "dice_race.game", "dice_race.game", "-g", "20")
    assert clean.returncode == 0 and clean.stderr == ""


@pytest.mark.parametrize("args, message", [
    (("nope.game", "dice_race.game"), "error: nope.game: no such file"),
    (("dice_race.game", "nope.game"), "error: nope.game: no such file"),
    (("dice_race.game", "divide.game", "-n", 3), "error: 'Divide' takes 2..2 players, not 3"),
    (("dice_race.game", "dice_race.game", "-n", 9), "error: 'Dice race' takes 2..4 players, not 9"),
    (("dice_race.game", "broken_types.game"), "broken_types.game:4:21: error:"),
])
def test_bad_input_gets_a_message_and_exit_1(games_dir, args, message):
    result = run_cli("compare", *args)
    assert result.exit_code == 1
    assert result.stderr.startswith(message) and "Traceback" not in result.stderr


@pytest.mark.slow
def test_a_report_does_not_depend_on_the_number_of_processes(tmp_path):
    """Both games' blocks go to one pool; each is played on its own program, in seed order."""
    base, variant = str(GAMES / "dice_race.game"), str(long_race(tmp_path))
    one, two = (compare_files(base, variant, 3, 60, 5, jobs=jobs) for jobs in (1, 2))
    assert two.a.records == one.a.records and two.b.records == one.b.records
    assert one.a.records != one.b.records  # the variant's games differ: A's and B's blocks were not mixed up
    assert [m.as_json() for m in two.metrics] == [m.as_json() for m in one.metrics]
