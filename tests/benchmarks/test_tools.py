"""The scripts that time a change or judge the goals (ab.py, clone_cost.py, goals.py) run and
report what they measured; nothing here asserts a time."""
import re
import subprocess
import sys
from collections import Counter

import pytest

import ab
import bench
import clone_cost
import goals
from samples import ROOT, slices


@pytest.mark.slow
@pytest.mark.parametrize("way,said", [([], ""), (["--simulate"], " as ruledsl simulate plays")])
def test_ab_times_the_base_and_the_working_tree_in_turn(way, said):
    """ab.py runs (it reports speed; nothing here asserts one): both sides time playouts,
    in bench.py's loop or as `ruledsl simulate` plays."""
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "ab.py"), "--base", "HEAD",
                          "examples/tic_tac_toe.game", "--rounds", "2", "--seconds", "0.1", *way],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    line = out.stdout.strip().splitlines()[-1]
    assert line.startswith(f"examples/tic_tac_toe.game{said}, 2 players, 2 rounds of 0.1 s: HEAD ")
    found = re.search(r"HEAD ([\d,.]+) playouts/s, working tree ([\d,.]+); working tree / base ([\d.]+)x", line)
    assert found, line
    assert all(float(value.replace(",", "")) > 0 for value in found.groups())


def test_ab_quotes_an_interval_of_the_median_from_four_rounds_on():
    args = type("Args", (), {"game": "g.game", "way": "machine", "players": 2, "rounds": 6, "seconds": 1.0,
                             "base": "HEAD"})()
    args.rounds = 9
    steady = ab.report(args, [(100.0, 105.0)] * 8 + [(100.0, 300.0)])  # one round on a quiet moment: the median holds
    assert steady.endswith("working tree / base 1.050x (rounds 1.050..3.000, 95% of the median 1.050..1.050)")
    spread = ab.median_interval([0.9, 1.0, 1.1, 1.2, 1.3, 1.4])
    assert 0.9 <= spread[0] < 1.15 < spread[1] <= 1.4
    args.rounds = 3
    assert ab.report(args, [(100.0, 105.0)] * 3).endswith("(rounds 1.050..1.050)")


def test_clone_cost_plays_fast_then_clones():
    """clone_cost.py runs (it reports CPU time; nothing here asserts one)."""
    program = clone_cost.load_game(str(ROOT / "games" / "mafialand.game")).program
    played, first, later, steps = clone_cost.measure(program, 3, 12, seed=1)
    assert steps == 12 and min(played, first, later) >= 0


@pytest.mark.parametrize("low,high,at_least,said", [
    (0.82, 0.90, True, "met"), (0.60, 0.79, True, "not met"), (0.78, 0.85, True, "undecided"),
    (0.80, 0.85, True, "met"),  # at least the goal: its low end on it is enough
    (0.24, 0.29, False, "met"), (0.31, 0.40, False, "not met"), (0.27, 0.33, False, "undecided"),
    (0.25, 0.30, False, "undecided"),  # below the goal: its high end on it is not
])
def test_a_goal_is_met_only_where_its_whole_interval_is_on_its_side(low, high, at_least, said):
    assert goals.verdict(low, high, 0.8 if at_least else 0.3, at_least) == said


def test_a_ratio_goal_is_judged_by_the_interval_not_the_ratio():
    theirs = bench.Measured(1000.0, Counter(), slices([1000] * 8))
    steady = bench.Measured(2100.0, Counter(), slices([2100] * 8))
    assert goals.ratio_row("k", steady, theirs, 2.0)[1:] == ("2.100x [2.100-2.100]", ">= 2.0x", "met")
    rates = [1500, 2700, 1600, 2600, 1700, 2500, 1800, 2400]  # 2.1x on the whole, but from round to round 1.5-2.7x
    shaky = bench.Measured(sum(rates) / 8, Counter(), slices(rates))
    assert goals.ratio_row("k", shaky, theirs, 2.0)[3] == "undecided"
    assert goals.ratio_row("k", steady, bench.Measured(1000.0, Counter(), slices([1000] * 3)), 2.0)[3] \
        == "undecided"  # too few rounds to tell


@pytest.mark.parametrize("best,goal,said", [(0.98, 1.0, "0.98x: out of reach"), (1.54, 0.8, "1.54x: within reach"),
                                            (2.0, 2.0, "2.00x: within reach")])
def test_a_goal_above_the_best_with_rules_free_is_out_of_reach(best, goal, said):
    assert goals.reach(best, goal) == said


def test_the_floor_column_goes_to_the_ratio_goals_by_their_games(monkeypatch):
    """With --floor each ratio goal gets floor.bound's best ratio (here a fixed one, and an
    anchor not installed), and the other goals an empty cell."""
    import floor
    bests = {"mafialand": 1.5, "tic_tac_toe": 0.9}
    monkeypatch.setattr(floor, "floor_program", lambda: "decisions")
    monkeypatch.setattr(floor, "bound", lambda name, seconds, pyspiel, decisions:
                        {"best": bests[name]} if name in bests and decisions == "decisions" else None)
    cells = goals.floor_cells(type("Args", (), {"seconds": 0.1})(), None)
    assert cells == {"mafialand": "1.50x: within reach", "tic_tac_toe": "0.90x: out of reach",
                     "kuhn_poker": "OpenSpiel Python not installed"}
    rows = goals.with_floor([("goal", "measured [95%]", "target", "verdict"),
                             ("tic_tac_toe 2p / OpenSpiel C++", "0.3x", ">= 1.0x", "not met"),
                             ("cold check (a) no cache", "0.2 s", "< 0.3 s", "met"),
                             ("mafialand 3p / hand-written", "0.2x", ">= 0.8x", "not met")], cells)
    assert [row[4] for row in rows] == ["best with rules free", "0.90x: out of reach", "", "1.50x: within reach"]
    assert goals.table(rows).splitlines()[1].endswith("not met  0.90x: out of reach")


@pytest.mark.slow  # real playouts, cold checks and a pytest run, each as short as it can be
def test_goals_reports_every_goal_with_a_verdict(capsys):
    goals.main(["--seconds", "0.05", "--games", "20", "--hw-games", "20", "--rounds", "2", "--floor"])
    rows = [re.split(r"\s{2,}", row.strip()) for row in capsys.readouterr().out.splitlines()]
    assert rows[0] == ["goal", "measured [95%]", "target", "verdict", "best with rules free"]
    names = ["mafialand 3p", "tic_tac_toe", "kuhn_poker", "cold check (a)", "cold check (b)", "--jobs 2"]
    assert [next(n for n in names if row[0].startswith(n)) for row in rows[1:]] == names
    assert all(row[3] in ("met", "not met", "undecided", "not measured") for row in rows[1:])
    assert all(re.fullmatch(r"[\d.]+x: (within|out of) reach|.* not installed", row[4]) for row in rows[1:4])
    assert all(len(row) == 4 for row in rows[4:])  # (no floor cell but the ratio goals')
    assert rows[-1][1:] == ["its test passes", "parsed once", "met"]


def test_rl_env_races_ruledsl_against_openspiel_through_the_rl_environment(capsys):
    pytest.importorskip("pyspiel")
    import rl_env
    rl_env.main(["--seconds", "0.4", "--games", "50", "--only", "kuhn_poker"])
    out = capsys.readouterr().out
    assert "kuhn_poker through rl_environment" in out and "episodes/s" in out
    assert "ruledsl/OpenSpiel C++ = " in out and "outcomes agree" in out
