"""The benchmark script keeps working (it reports speed; nothing here asserts a time), and
the hand-written baselines it races ruledsl against (benchmarks/handwritten/) play
deterministically and are held to ruledsl's distributions by a check that can fail."""
import importlib.util
import json
import random
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("bench", ROOT / "benchmarks" / "bench.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)  # also puts benchmarks/ on sys.path, for `handwritten`

from handwritten import mafialand, the_boss, tic_tac_toe  # noqa: E402

REASONS = {tic_tac_toe: {tic_tac_toe.WIN, tic_tac_toe.DRAW}, mafialand: {mafialand.LOCKED, mafialand.LAST},
           the_boss: {the_boss.BADGES, the_boss.OVERTIME}}


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


_ceiling_spec = importlib.util.spec_from_file_location("whole_rule_ceiling", ROOT / "benchmarks" / "whole_rule_ceiling.py")
ceiling = importlib.util.module_from_spec(_ceiling_spec)
_ceiling_spec.loader.exec_module(ceiling)


@pytest.mark.parametrize("game", sorted(ceiling.FLOWS))
def test_the_whole_rule_ceiling_plays_the_same_games_as_the_engine(game):
    """The hand-written generator bounds a whole-rule compiler only if it plays the game
    the .game file does. Both draw from the loop's Random in the same order (a shuffle,
    then an index per decision), so each seed must give the same outcome."""
    program, flow = ceiling.program_of(game), ceiling.FLOWS[game]
    ours = [ceiling.generator_playout(program, flow, random.Random(seed)) for seed in range(400)]
    assert ours == [bench.ruledsl_playout(program, 2, random.Random(seed)) for seed in range(400)]
    assert len(set(ours)) > 1


@pytest.mark.parametrize("parts", sorted(ceiling.PARTS))
def test_tic_tac_toe_on_a_layout_of_its_own_plays_the_engines_games(parts):
    """Each variant of `--parts` (the flat layout, less and less of what ruledsl does)
    bounds a back end only if it plays the same game: with the pauses, each seed gives the
    engine's outcome (the same cells offered in the same order); with the free cells kept
    as the hand-written game keeps them (another order), the same outcomes in distribution."""
    program = ceiling.program_of("tic_tac_toe")
    flow = ceiling.tic_tac_toe_flat(program, **ceiling.PARTS[parts])
    ours = [ceiling.generator_playout(program, flow, random.Random(seed)) for seed in range(400)]
    engine = [bench.ruledsl_playout(program, 2, random.Random(seed)) for seed in range(400)]
    if ceiling.PARTS[parts].get("recount", True):
        assert ours == engine
    else:
        assert bench.chi_square(Counter(ours), Counter(engine))[2] >= bench.ALPHA
        assert ours != engine  # (a test that could not tell them apart would pass either way)


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


@pytest.mark.parametrize("module,players", [(tic_tac_toe, 2), (mafialand, 2), (mafialand, 3), (mafialand, 4),
                                            (the_boss, 2), (the_boss, 3), (the_boss, 4)])
def test_handwritten_games_are_deterministic_per_seed(module, players):
    games = [module.play(players, random.Random(seed)) for seed in range(6)]
    assert games == [module.play(players, random.Random(seed)) for seed in range(6)]
    assert len(set(games)) > 1  # the seed matters
    for length, reason, winners in games:
        assert length > 0 and reason in REASONS[module]
        assert winners and set(winners) <= set(range(players))


class EndsLookedAtEveryTime(mafialand.Mafialand):
    """Looks at the end conditions before every decision, also when the hand-written
    game thinks nothing changed since they were false (its `dirty` flag)."""

    def ask(self, options):
        if not self.dirty:
            self.dirty = True
            try:
                self.check_ends()
            except mafialand.GameOver as over:
                raise AssertionError(f"an end condition held unseen: {over.reason}") from None
        return super().ask(options)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_handwritten_mafialand_never_skips_an_end_condition(players):
    rng = random.Random(f"ends:{players}")
    for _ in range(60):
        EndsLookedAtEveryTime(players, rng).play()


def sample(play, games: int, seed: str) -> Counter:
    rng = random.Random(seed)
    return Counter(play(rng) for _ in range(games))


def handwritten(module, players, **kwargs):
    def play(rng):
        steps, reason, winners = module.play(players, rng, **kwargs)
        return steps, reason, bench.outcome_of([1 if s in winners else 0 for s in range(players)])
    return play


def verdicts(a: Counter, b: Counter) -> dict:
    return {what: ok for what, _, ok in bench.distributions_agree(a, b)}


# a wrong tic-tac-toe: only rows and columns win
NO_DIAGONALS = [[line for line in lines if line not in ((0, 4, 8), (2, 4, 6))] for lines in tic_tac_toe.LINES_THROUGH]


@pytest.fixture(scope="module")
def ruledsl_tic_tac_toe():
    program = bench.load_game(str(ROOT / "examples" / "tic_tac_toe.game")).program
    return sample(lambda rng: bench.ruledsl_game(program, 2, rng), 2000, "ruledsl")


def test_handwritten_tic_tac_toe_agrees_with_ruledsl(ruledsl_tic_tac_toe):
    ours = sample(handwritten(tic_tac_toe, 2), 4000, "hand-written")
    assert verdicts(ruledsl_tic_tac_toe, ours) == {"game length": True, "end reasons": True, "winners": True}


def test_a_tic_tac_toe_without_diagonal_wins_is_caught(ruledsl_tic_tac_toe):
    broken = sample(handwritten(tic_tac_toe, 2, lines_through=NO_DIAGONALS), 4000, "hand-written")
    found = verdicts(ruledsl_tic_tac_toe, broken)
    assert not found["game length"] and not found["end reasons"] and not found["winners"]


class OutWithoutLooseBags(mafialand.Mafialand):
    """ML-11 misread: a player is out once their loose bags are gone, though their bags
    still hold down houses (those houses are emptied)."""

    def knock_out_broke_players(self):
        own = self.owner
        for q in range(self.n):
            if self.alive[q] and self.stash[q] == 0:
                self.alive[q] = False
                for h in range(16):
                    if own[h] == q:
                        own[h] = -1
                self.dirty = True


def test_a_broken_mafialand_rule_is_caught():
    right = sample(handwritten(mafialand, 3), 200, "right")
    again = sample(handwritten(mafialand, 3), 200, "again")
    broken_module = type("broken", (), {"play": staticmethod(lambda n, rng: OutWithoutLooseBags(n, rng).play())})
    broken = sample(handwritten(broken_module, 3), 200, "broken")
    assert all(verdicts(right, again).values())
    assert not verdicts(right, broken)["end reasons"]  # far more games end by elimination


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



def test_clone_cost_plays_fast_then_clones():
    """clone_cost.py runs (it reports CPU time; nothing here asserts one)."""
    spec = importlib.util.spec_from_file_location("clone_cost", ROOT / "benchmarks" / "clone_cost.py")
    clone_cost = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(clone_cost)
    program = clone_cost.load_game(str(ROOT / "games" / "mafialand.game")).program
    played, first, later, steps = clone_cost.measure(program, 3, 12, seed=1)
    assert steps == 12 and min(played, first, later) >= 0


_share_spec = importlib.util.spec_from_file_location("random_share", ROOT / "benchmarks" / "random_share.py")
random_share = importlib.util.module_from_spec(_share_spec)
_share_spec.loader.exec_module(random_share)


@pytest.mark.parametrize("name", sorted(random_share.GAMES))
def test_random_share_makes_again_exactly_the_calls_the_games_made(name):
    """random_share.py times the random calls of both sides alone: the calls it notes must
    be all the games make (the same generator state after them) and noting them must not
    change the games."""
    path, players, module = bench.BASELINES[name]
    program = bench.load_game(str(ROOT / path)).program
    for play in (lambda rng: bench.handwritten_game(module, players, rng),
                 lambda rng: bench.ruledsl_game(program, players, rng)):
        recording, plain = random_share.Recording(1), random.Random(1)
        assert [play(recording) for _ in range(8)] == [play(plain) for _ in range(8)]
        again = random.Random(1)
        random_share.replay(recording.calls, again)
        assert again.getstate() == plain.getstate() and len(recording.calls) > 8


_ceiling_spec = importlib.util.spec_from_file_location("view_ceiling", ROOT / "benchmarks" / "view_ceiling.py")
view_ceiling = importlib.util.module_from_spec(_ceiling_spec)
_ceiling_spec.loader.exec_module(view_ceiling)


def test_view_ceiling_notes_the_aggregate_lines_of_the_generated_rules(tmp_path):
    """The child of view_ceiling.py notes, for each generated text, the lines that evaluate
    an aggregate or call a def: in tic-tac-toe's flow, the cells offered (a filter), the
    three-in-a-row def and the full board (a column read in one call), and no other."""
    out = tmp_path / "lines.json"
    from ruledsl.compile import deferred
    compiled = deferred.compiled
    view_ceiling.play_and_note(str(ROOT / "examples" / "tic_tac_toe.game"), 2, 3, str(out))
    assert deferred.compiled is compiled  # given back
    noted = json.loads(out.read_text())
    flow = next(name for name in noted if name.endswith("tic_tac_toe.game:27:1>"))
    from ruledsl.compile import whole
    texts = []
    made = whole.generator
    whole.generator = lambda gen, text, filename, **ns: texts.append(text) or made(gen, text, filename, **ns)
    try:
        program = bench.load_game(str(ROOT / "examples" / "tic_tac_toe.game")).program
        program.make_whole()  # the rules' generators, made as a fast Machine's first game makes them
    finally:
        whole.generator = made
    lines = texts[0].split("\n")
    flagged = [lines[n - 1].strip() for n in noted[flow]]
    assert len(flagged) == 3, flagged
    assert "for _v_c in" in flagged[0] and "[0](w" in flagged[1] and ".values(" in flagged[2]
    assert not any("yield" in line or line.startswith("_at =") for line in flagged)


def test_view_ceiling_puts_each_sample_in_one_group():
    lines = {"g.game:3:1>": {7}}
    game = "ruledsl_game (bench.py:73)"
    rule = "_whole (g.game:3:1>:{})"
    raw = "\n".join([
        f"<module> (x.py:1);{game};Machine.run (machine.py:216);{rule.format(7)};visited (budget.py:74) 5",
        f"<module> (x.py:1);{game};Machine.run (machine.py:216);{rule.format(8)} 3",
        f"<module> (x.py:1);{game};Machine.run (machine.py:216);{rule.format(9)};Machine.check_ends (m.py:1);"
        f"_expr (g.game:9:1>:4) 2",
        f"<module> (x.py:1);{game};Random.randrange (random.py:312) 1",
        "<module> (x.py:1);compile_game (game.py:44) 40",  # outside the games: left out
    ])
    counts = view_ceiling.shares(raw, lines)
    assert counts == {"aggregates and defs in the rules": 5, "the rest of the game": 4, "end conditions": 2}


@pytest.mark.slow  # a real process under a sampling profiler
@pytest.mark.skipif(shutil.which("py-spy") is None, reason="py-spy is not installed")
def test_view_ceiling_reports_shares_under_py_spy():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "view_ceiling.py"),
                          str(ROOT / "examples" / "tic_tac_toe.game"), "--games", "3000"],
                         capture_output=True, text=True, timeout=300)
    if out.returncode != 0 and "py-spy failed" in out.stderr:
        pytest.skip(f"py-spy can't sample here: {out.stderr[-300:]}")
    assert out.returncode == 0, out.stderr
    shares = [float(m) for m in re.findall(r"^\s+([\d.]+)%", out.stdout, re.M)]
    assert len(shares) == 3 and abs(sum(shares) - 100) < 0.5 and shares[1] > 0
    assert "at most" in out.stdout


def slices(rates, seconds=0.2) -> tuple:
    """(playouts, seconds) of rounds run at these rates."""
    return tuple((round(r * seconds), seconds) for r in rates)


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


_floor_spec = importlib.util.spec_from_file_location("floor", ROOT / "benchmarks" / "floor.py")
floor = importlib.util.module_from_spec(_floor_spec)
_floor_spec.loader.exec_module(floor)


class Counting(random.Random):
    def __init__(self, seed):
        super().__init__(seed)
        self.calls = 0

    def randrange(self, *args):
        self.calls += 1
        return super().randrange(*args)


def test_the_floor_games_make_exactly_their_decisions_and_nothing_else():
    """The per-decision floor divides by DECISIONS: the game of decisions alone makes that
    many (ruledsl's steps, one randrange each, nothing else drawn), and so does Python's."""
    rng = Counting(1)
    steps, reason, _ = bench.ruledsl_game(floor.floor_program(40), 2, rng)
    assert (steps, reason, rng.calls) == (40, "done", 40)
    rng = Counting(1)
    floor.python_decisions(40, rng)
    assert rng.calls == 40
    rng = Counting(1)  # a game's floor runs no rule: no decision, no shuffle
    program = bench.load_game(str(ROOT / "examples" / "kuhn_poker.game")).program
    assert floor.game_floor(program, 2, rng) == 0 and rng.calls == 0


def test_the_floor_bound_divides_the_anchor_by_the_floor_of_a_game_of_that_many_decisions(monkeypatch):
    rates = {"ruledsl": 100.0, "anchor": 400.0, "game": 1e5, "decisions": 1e3, "python": 1e4}  # games/s
    records = Counter({(10, "x", (1, -1)): 3, (30, "x", (-1, 1)): 1})  # 15 decisions a game on average
    monkeypatch.setattr(floor.bench, "measure", lambda playouts, *a, **k: {  # (floor's own import of bench.py)
        name: bench.Measured(rates[name], records if name == "ruledsl" else Counter()) for name in playouts})
    row = floor.bound("the_boss", 0.01, None, None)
    assert row["decisions"] == 15 and row["decision_us"] == pytest.approx(1000 / floor.DECISIONS)
    assert row["floor_us"] == pytest.approx(10 + 15 * row["decision_us"])  # 10 us a game, 1 us a decision
    assert row["best"] == pytest.approx(2500 / row["floor_us"]) and row["now"] == pytest.approx(0.25)
    assert "best ratio with rules, dice and shuffles free: 100.00x" in floor.report(row)
    below = floor.report(dict(row, target=0.8, best=0.5))
    assert "0.50x (BELOW the target)" in below and "above" not in below


@pytest.mark.slow  # a real run, a few hundredths of a second an engine
def test_floor_reports_each_anchor_it_can_run(capsys):
    floor.main(["--seconds", "0.02", "--only", "the_boss", "--only", "kuhn_poker"])
    out = capsys.readouterr().out
    assert "the_boss, 3 players, against hand-written" in out and "best ratio with rules" in out
    assert ("kuhn_poker, 2 players, against OpenSpiel Python; target 2.0x" in out) \
        == (bench.load_openspiel() is not None)


_ab_spec = importlib.util.spec_from_file_location("ab", ROOT / "benchmarks" / "ab.py")
ab = importlib.util.module_from_spec(_ab_spec)
_ab_spec.loader.exec_module(ab)


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


_goals_spec = importlib.util.spec_from_file_location("goals", ROOT / "benchmarks" / "goals.py")
goals = importlib.util.module_from_spec(_goals_spec)
_goals_spec.loader.exec_module(goals)


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


@pytest.mark.slow  # real playouts, cold checks and a pytest run, each as short as it can be
def test_goals_reports_every_goal_with_a_verdict(capsys):
    goals.main(["--seconds", "0.05", "--games", "20", "--hw-games", "20", "--rounds", "2"])
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].split() == ["goal", "measured", "[95%]", "target", "verdict"]
    names = ["mafialand 3p", "tic_tac_toe", "kuhn_poker", "cold check (a)", "cold check (b)", "--jobs 2"]
    assert [next(n for n in names if row.startswith(n)) for row in rows[1:]] == names
    assert all(row.rstrip().endswith(("met", "not met", "undecided", "not measured")) for row in rows[1:])
    assert re.search(r"its test passes\s+parsed once\s+met$", rows[-1])
