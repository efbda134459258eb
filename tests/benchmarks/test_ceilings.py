"""The scripts that bound what a direction could gain (whole_rule_ceiling.py, random_share.py,
view_ceiling.py, floor.py, env_traffic.py, checks_ceiling.py, lines_per_decision.py, the ceilings of a game on a
layout of its own) measure what they say: each plays the games it stands for, or divides by
what it counted."""
import json
import random
import re
import shutil
import subprocess
import sys
from collections import Counter

import pytest

import bench
import checks_ceiling
import env_traffic
import lines_per_decision
import floor
import mafialand_ceiling
import random_share
import the_boss_ceiling
import view_ceiling
import whole_rule_ceiling as ceiling
from samples import ROOT


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


LAID_OUT = {"mafialand": mafialand_ceiling.mafialand_flat, "the_boss": the_boss_ceiling.the_boss_flat}


@pytest.mark.parametrize("parts", sorted(mafialand_ceiling.PARTS))
@pytest.mark.parametrize("game", sorted(LAID_OUT))
def test_a_game_on_a_layout_of_its_own_plays_the_engines_very_games(game, parts):
    """mafialand_ceiling.py and the_boss_ceiling.py bound a back end that evaluates the
    rules as written only if they play the game the .game file does: every variant draws
    from the loop's Random in the engine's order (the same dice, shuffles and choices), so
    each seed gives the same record: decisions, end reason and outcome (and without the
    pauses, the same picks)."""
    program = bench.load_game(str(ROOT / "games" / f"{game}.game")).program
    flow = LAID_OUT[game](program, **mafialand_ceiling.PARTS[parts])
    seeds = range(12)
    ours = [mafialand_ceiling.flat_game(flow, random.Random(seed)) for seed in seeds]
    assert ours == [bench.ruledsl_game(program, 3, random.Random(seed)) for seed in seeds]
    assert len({outcome for _, _, outcome in ours}) > 1 and len({steps for steps, _, _ in ours}) > 3


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


def test_env_traffic_counts_reads_writes_and_readers_by_name_on_the_lines_run():
    """Each line run counts its `env[...]` reads and writes as often as it ran; a line
    handing `env` or the frame on whole is a reader by name, counted apart when it only
    runs on a failure's path (after `except _XFAIL:`)."""
    text = ["def _whole(vm, fr):", "    _val = env['p'] + env['q']", "    env['a'] = _val", "    env['n'] += 1",
            "except _XFAIL:", "    _k3(w, env)", "    _k4(vm, fr)", "    env['b'] = env['a'] == 1"]
    hits = Counter({("f", 2): 3, ("f", 3): 2, ("f", 4): 5, ("f", 6): 1, ("f", 7): 4, ("f", 8): 1})
    counted = env_traffic.traffic({"f": text}, hits)
    assert (counted["reads"], counted["writes"]) == (3 * 2 + 5 + 1, 2 + 5 + 1)
    assert counted["readers"] == Counter({"_kN(vm, fr)": 4})
    assert counted["failing"] == Counter({"_kN(w, env)": 1})


def test_env_traffic_traces_the_rule_generators_of_real_games():
    """Over real games of tic-tac-toe, every decision binds the cell chosen in `env` (and
    in the generator's own local, which its text reads instead: texts.KeptLocals), and
    every turn its player: at least two writes a decision, and no read."""
    row = env_traffic.measure("tic_tac_toe", 3)
    assert row["decisions"] >= 3 * 5
    assert row["writes"] >= 2 * row["decisions"]
    assert row["reads"] == 0
    assert deferred_is_restored()


def deferred_is_restored() -> bool:
    from ruledsl.compile import deferred
    return deferred.compiled.__module__ == "ruledsl.compile.deferred"


def test_checks_ceiling_takes_out_the_work_charges_and_number_checks_alone():
    """A charge goes with the test under it and its call; a check on a line of its own
    goes, and one with its call on the next line keeps that line under `if False:`."""
    text = "\n".join(["def _f(w):", "    w.work -= len(_items)", "    if w.work < 0:", "        _k1(w, 0, _k2)",
                      "    _n = w.shared['n'] + 1",
                      "    if _n.__class__ is int and not -9223372036854775808 < _n < 9223372036854775808: _k3(_n)",
                      "    if _r.__class__ is int and not -MAX < _r < MAX:", "        _number(_r, _span)",
                      "    w.work -= 1", "    return _n"])
    lines = text.split("\n")
    assert checks_ceiling.without(text, ()) == text
    assert checks_ceiling.without(text, ("work",)).split("\n") == [lines[0], *lines[4:8], lines[9]]
    assert checks_ceiling.without(text, ("number",)).split("\n") == [*lines[:5], "    if False:", *lines[7:]]
    assert checks_ceiling.without(text, ("work", "number")).split("\n") == [lines[0], lines[4], "    if False:",
                                                                            lines[7], lines[9]]


def test_checks_ceiling_plays_the_same_games_without_its_checks(tmp_path, monkeypatch):
    """Each variant is compiled apart (its own file, no code cache) and plays the engine's
    games: the checks taken out change no outcome where no limit is hit."""
    monkeypatch.setenv("RULEDSL_CACHE_DIR", "")
    taken_out = Counter()  # texts changed, by what was taken out of them
    without = checks_ceiling.without

    def noting(source, parts):
        made = without(source, parts)
        taken_out[parts] += made != source
        return made
    monkeypatch.setattr(checks_ceiling, "without", noting)
    compiled = checks_ceiling.deferred.compiled
    with checks_ceiling.variants(str(ROOT / "games" / "the_boss.game"), str(tmp_path)) as programs:
        assert list(programs) == list(checks_ceiling.VARIANTS)
        played = {name: [bench.ruledsl_game(program, 3, random.Random(seed)) for seed in range(12)]
                  for name, program in programs.items()}
    assert checks_ceiling.deferred.compiled is compiled  # put back on the way out
    assert len(set(played["as it is"])) > 1
    assert all(games == played["as it is"] for games in played.values())
    assert taken_out[()] == 0 and all(taken_out[parts] > 0 for parts in checks_ceiling.VARIANTS.values() if parts)


def test_lines_per_decision_puts_each_file_in_its_part():
    assert lines_per_decision.part_of("<ruledsl rule at games/x.game:3:1>") == "generated"
    assert lines_per_decision.part_of("/site/ruledsl/runtime/machine.py") == "ruledsl"
    assert lines_per_decision.part_of("/usr/lib/python3.11/random.py") == "random numbers"
    assert lines_per_decision.part_of(str(ROOT / "benchmarks" / "bench.py")) == "the loop"
    assert lines_per_decision.part_of(str(ROOT / "benchmarks" / "handwritten" / "mafialand.py")) == "hand-written"
    assert lines_per_decision.part_of(__file__) == "other"


def three_lines():
    a = 1
    b = a + 1
    return (b + 1, None)  # three decisions, as a game's (decisions, ...)


def test_lines_per_decision_counts_every_line_run_and_the_decisions_made():
    assert lines_per_decision.counted(three_lines, 4) == (12, Counter({"other": 12}))


def test_lines_per_decision_traces_the_games_the_loops_play_untraced():
    """Tracing changes no game: the decisions counted are those of the same seeds
    untraced, and each engine's lines are its own (no generated line in the hand-written
    game, no hand-written one in ruledsl's)."""
    measured = lines_per_decision.measure("tic_tac_toe", 6, seed=3)
    path, players, module = bench.BASELINES["tic_tac_toe"]
    program = bench.load_game(str(ROOT / path)).program
    untraced = {"ruledsl": lambda rng: bench.ruledsl_game(program, players, rng),
                "hand-written": lambda rng: bench.handwritten_game(module, players, rng)}
    for engine, play in untraced.items():
        rng = random.Random(3)
        games = [play(rng) for _ in range(lines_per_decision.WARM + 6)][lines_per_decision.WARM:]
        decisions, lines = measured[engine]
        assert decisions == sum(g[0] for g in games)
        assert lines["random numbers"] > 0 and lines["the loop"] > 0
    assert measured["ruledsl"][1]["generated"] > 0 and measured["ruledsl"][1]["hand-written"] == 0
    assert measured["hand-written"][1]["hand-written"] > 0 and measured["hand-written"][1]["generated"] == 0
    assert "ruledsl: " in lines_per_decision.report("tic_tac_toe", 6, measured)
