"""bench.py keeps working (it reports speed; nothing here asserts a time): its runs, its
agreement tests, and the intervals it quotes each ratio with."""
import importlib.util
import re
import subprocess
import sys
from collections import Counter

import pytest

import bench
from samples import NO_DIAGONALS, ROOT, handwritten, sample, slices, verdicts
from handwritten import tic_tac_toe


@pytest.mark.slow  # a real process
def test_bench_runs_a_short_measurement_and_reports_outcomes():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench.py"), "--seconds", "0.05",
                          "--games", "60", "--hw-games", "300", "--only", "tic_tac_toe", "--no-games"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    ours = next(line for line in lines if line.strip().startswith("ruledsl "))
    assert "playouts/s" in ours and "seat 0 wins" in ours
    if importlib.util.find_spec("pyspiel") is not None:
        assert any("ruledsl/OpenSpiel Python" in line and "outcomes agree" in line for line in lines)
    else:
        assert "open_spiel is not installed" in out.stdout
    section = lines[lines.index("tic_tac_toe, 2 players: ruledsl against hand-written Python"):]
    assert any(line.strip().startswith("hand-written") and "playouts/s" in line for line in section)
    assert [what for what in ("game length", "end reasons", "winners") if any(what in line for line in section)] \
        == ["game length", "end reasons", "winners"]
    assert any("ruledsl/hand-written = " in line or "no speed ratio quoted" in line for line in section)


@pytest.mark.slow  # every game at three player counts, through OpenSpiel too
def test_the_games_section_reports_both_loops_for_every_game_and_player_count(capsys):
    pyspiel = bench.load_openspiel()
    bench.bench_games(type("Args", (), {"seconds": 0.01})(), pyspiel)
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[2:]]
    games = {row[0] for row in rows}
    assert games == {p.stem for p in (ROOT / "games").glob("*.game")}
    for row in rows:  # name, players, "players", rate, "playouts/s", (n games), |, rate, (n)[, |, rate, (n)]
        assert row[4] == "playouts/s" and row[7] == "|" and float(row[3]) > 0 and float(row[8]) > 0
        if pyspiel is not None:  # and through the OpenSpiel adapter
            assert row[10] == "|" and float(row[11]) > 0


def test_distribution_check_pools_rare_categories_and_sees_a_shift():
    a = Counter({(5, "x", (1, -1)): 500, (6, "y", (-1, 1)): 500, (9, "rare", (0, 0)): 2})
    assert bench.chi_square(Counter(bench.samples(a, 1)), Counter(bench.samples(a, 1)))[1] == 1  # "rare" pooled
    assert all(verdicts(a, a).values())
    shifted = Counter({(length + 1, reason, outcome): n for (length, reason, outcome), n in a.items()})
    assert verdicts(a, shifted) == {"game length": False, "end reasons": True, "winners": True}


def test_no_speed_ratio_is_quoted_when_the_distributions_disagree(capsys, ruledsl_tic_tac_toe):
    broken = sample(handwritten(tic_tac_toe, 2, lines_through=NO_DIAGONALS), 4000, "hand-written")
    assert not bench.print_baseline("tic_tac_toe", {"ruledsl": bench.Measured(1000.0, ruledsl_tic_tac_toe),
                                                    "hand-written": bench.Measured(20000.0, broken)})
    out = capsys.readouterr().out
    assert "DISAGREE" in out and "no speed ratio quoted" in out and "ruledsl/hand-written =" not in out
    right = sample(handwritten(tic_tac_toe, 2), 4000, "hand-written")
    assert bench.print_baseline("tic_tac_toe", {"ruledsl": bench.Measured(1000.0, ruledsl_tic_tac_toe),
                                                "hand-written": bench.Measured(20000.0, right)})
    assert "ruledsl/hand-written = 0.050x" in capsys.readouterr().out



def test_the_ratio_interval_pairs_rounds_so_load_both_engines_met_cancels():
    """Half the rounds ran on a busy machine (both engines at half their speed): the
    ratio is 2 in every round, so a paired interval is tight around 2; resampling each
    engine's rounds apart would mix busy and quiet rounds and span far wider."""
    load = [1.0, 0.5] * 10
    ours = bench.Measured(0, Counter(), slices([2000 * f for f in load]))
    theirs = bench.Measured(0, Counter(), slices([1000 * f for f in load]))
    low, high = bench.ratio_interval(ours, theirs)
    assert 1.99 < low <= 2.0 <= high < 2.01
    noisy = bench.Measured(0, Counter(), slices([2000 * f * (1.1 if i % 3 else 0.9) for i, f in enumerate(load)]))
    low, high = bench.ratio_interval(noisy, theirs)
    assert low < 2.0 < high and 0.02 < high - low < 0.3


def test_a_ratio_is_quoted_with_its_interval_and_alone_when_few_rounds_ran():
    ours = bench.Measured(3010.0, Counter(), slices([3000, 2900, 3100, 3000, 3050]))
    theirs = bench.Measured(1000.0, Counter(), slices([1000] * 5))
    text = bench.ratio_text(ours, theirs)
    low, high = (float(x) for x in re.fullmatch(r"3\.01x \(95% ([\d.]+)-([\d.]+), 5 rounds\)", text).groups())
    assert 2.9 <= low < 3.01 < high <= 3.1
    assert bench.ratio_text(bench.Measured(3000.0, Counter(), slices([3000] * 3)),
                            bench.Measured(1000.0, Counter(), slices([1000] * 3))) == "3.00x"


def test_measure_gives_every_engine_a_slice_in_every_round():
    count = iter(range(10**9))
    measured = bench.measure({"a": lambda: next(count) % 2, "b": lambda: 0}, seconds=0.03, min_games=5, slice_s=0.01)
    assert len(measured["a"].slices) == len(measured["b"].slices) >= 3
    for m in measured.values():
        assert sum(g for g, _ in m.slices) == sum(m.outcomes.values())
        assert m.rate == pytest.approx(sum(g for g, _ in m.slices) / sum(t for _, t in m.slices))
