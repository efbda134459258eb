"""Calls of straight rules (only simple statements, no result) run their effects in place,
with no frame (compile/ops.py `straight_rule`); everything observable stays as it was."""
import pytest

from ruledsl.errors import GameRuntimeError
from ruledsl.pipeline import load_game
from ruledsl.runtime.machine import Machine
from support import FixedChance, compiled_texts, run_text

PAY = '''
player { chips: int = 5 }
shared { pot: int = 0  who: player? = none }
rule pay(p: player, n: int) { p.chips -= n  pot += n }
rule pay_twice(p: player) { pay(p, 1)  pay(p, 2) }
'''


def compiled(tmp_path, text, fuse=True):
    path = tmp_path / "t.game"
    path.write_text('game "T" players 2..4\n' + text)
    return load_game(str(path), fuse=fuse).program


def test_a_straight_rule_call_runs_in_place_and_a_loop_keeps_its_frames(tmp_path):
    text = PAY + "rule again() { again() }\nrule flow() { pay_twice(seat(0))  choose x from 1..2 by seat(1) }"
    program = compiled(tmp_path, text)
    assert "call" not in program.rules["flow"].kinds  # the call is an effect, not a "call" op
    m = Machine(program, 2, FixedChance())
    assert (m.w.players[0]["chips"], m.w.shared["pot"]) == (2, 3)
    assert len(m.frames) == 1  # only flow's frame: the calls pushed none
    unfused = compiled(tmp_path, text, fuse=False)  # explain's mode: every call is an op of its own
    assert "call" in unfused.rules["flow"].kinds


def test_a_rule_calling_itself_still_hits_the_depth_limit(tmp_path):
    with pytest.raises(GameRuntimeError) as info:
        run_text(tmp_path, "player { n: int = 0 }\nrule again(p: player) { p.n += 1  again(p) }\n"
                           "rule flow() { again(seat(0)) }")
    assert info.value.diagnostic.code == "R004"


def test_a_failure_in_an_inlined_rule_names_its_statement(tmp_path):
    with pytest.raises(GameRuntimeError) as info:
        run_text(tmp_path, PAY + "rule bad() { pot += 1\n  who.chips = 1 }\nrule flow() { pay(seat(0), 1)  bad() }")
    d = info.value.diagnostic
    assert d.code == "R001"
    assert d.span.line == PAY.count("\n") + 3  # `who.chips = 1`, inside bad, not the call in flow


def test_an_end_condition_sees_what_an_inlined_rule_changed(tmp_path):
    text = PAY + ('end when broke "broke": any(p in players: p.chips <= 0)\n'
                  "rule flow() { loop { choose x from 1..2 by seat(0)  pay_twice(seat(0)) } }")
    m = run_text(tmp_path, text)
    assert m.choose("1") is None  # chips 5 -> 2
    assert m.result is None
    assert m.choose("1") is None  # chips 2 -> -1: the game ends at the next decision
    assert m.result is not None and m.result.reason == "broke"


def test_a_long_chain_of_straight_rules_compiles_and_stops_at_the_depth_limit(tmp_path):
    """600 rules each calling the next: found without recursion at compile time; only the
    last INLINE_DEPTH run in place, so the frames still stop at the limit (R004)."""
    chain = "\n".join(f"rule r{i}() {{ n += 1  r{i + 1}() }}" for i in range(599)) + "\nrule r599() { n += 1 }\n"
    with pytest.raises(GameRuntimeError) as info:
        run_text(tmp_path, "shared { n: int = 0 }\n" + chain + "rule flow() { r0() }\n")
    assert info.value.diagnostic.code == "R004"


def fan_out(depth: int, calls: int) -> str:
    """Straight rules r0..r{depth}, each calling the next `calls` times: calls**depth
    effects from one call of r0, none of them changing what the end condition reads."""
    rules = [f"rule r{depth}() {{ m += 1 }}"]
    rules += [f"rule r{i}() {{ " + "  ".join([f"r{i + 1}()"] * calls) + " }" for i in range(depth - 1, -1, -1)]
    return ('shared { n: int = 0  m: int = 0 }\nend when done "done": n > 5\n' + "\n".join(rules)
            + '\nrule flow() { loop { r0()  choose x from 1..2 by seat(0) } }\n')


def test_a_rule_called_many_times_over_is_looked_at_once_when_compiling(tmp_path, monkeypatch):
    from ruledsl.compile.ops import OpEmitter
    looked = []
    original = OpEmitter.changes_world
    monkeypatch.setattr(OpEmitter, "changes_world", lambda self, s: looked.append(s) or original(self, s))
    compiled(tmp_path, fan_out(depth=8, calls=4))  # 4**8 = 65,536 looks if each call looked again
    assert len(looked) < 200


def test_calls_of_straight_rules_cost_work_so_a_fan_of_them_stops_at_the_step_budget(tmp_path):
    """4**11 (about 4 million) calls run in place in one op: each costs a work unit, as the
    op it replaces did, so the step stops with R010 instead of running that long."""
    with pytest.raises(GameRuntimeError) as info:
        run_text(tmp_path, fan_out(depth=11, calls=4))
    assert info.value.diagnostic.code == "R010"


SMALL_LEAF = '''
player { chips: int = 5 }
shared { pot: int = 0  k: int = 0 }
const ANTE = 2
rule pay(p: player, n: int) { p.chips -= n  pot += n }
rule bump(k: int) { k = k + 10  pot += k }
rule flow() {
  let who = seat(1)
  pay(seat(0), ANTE)
  pay(who, 1)
  pay(who, ANTE)
  bump(3)
  choose x from 1..2 by seat(0)
}
'''


def generator_text(monkeypatch, tmp_path, text) -> str:
    """The text of the generators made when a fast Machine starts `text` (flow's)."""
    made = compiled_texts(monkeypatch)
    Machine(compiled(tmp_path, text), 2, FixedChance(), fast=True)
    return "\n".join(source for source in made if source.startswith("def _whole"))


def test_a_small_straight_rule_is_written_at_each_call_in_a_generator(tmp_path, monkeypatch):
    """pay, called three times, and bump are written into flow's generator (no argument
    dict, no call of their stretches); what the game holds is as with a frame per call
    (explain's mode). bump assigns its parameter, which is then a local of its own (not
    the argument 3)."""
    source = generator_text(monkeypatch, tmp_path, SMALL_LEAF)
    assert "def _whole" in source and "_args" not in source
    fast = Machine(compiled(tmp_path, SMALL_LEAF), 2, FixedChance(), fast=True)
    framed = Machine(compiled(tmp_path, SMALL_LEAF, fuse=False), 2, FixedChance())
    assert (fast.w.players, fast.w.shared) == (framed.w.players, framed.w.shared) \
        == ([{"chips": 3}, {"chips": 2}], {"pot": 5 + 13, "k": 0})


def test_a_stretch_writes_small_straight_rules_in_from_its_first_call(tmp_path, monkeypatch):
    """On op lists too: loading the game (as `check` does) compiles no stretch; the text
    a stretch runs, made on its first call, has pay and bump written in (no argument dict),
    with what the game holds as with a frame per call."""
    made = compiled_texts(monkeypatch)
    program = compiled(tmp_path, SMALL_LEAF)
    assert not [source for source in made if source.startswith("def _op")]
    m = Machine(program, 2, FixedChance())
    stretches = [source for source in made if source.startswith("def _op")]
    assert stretches and not any("_args" in source for source in stretches)
    assert (m.w.players, m.w.shared) == ([{"chips": 3}, {"chips": 2}], {"pot": 5 + 13, "k": 0})


def test_a_straight_rule_too_long_written_out_keeps_its_stretch(tmp_path, monkeypatch):
    from ruledsl.compile.inline import SMALL_RULE
    longer = SMALL_LEAF.replace("pot += n }", "pot += n\n" + "  pot += 0\n" * SMALL_RULE + "}")
    assert generator_text(monkeypatch, tmp_path, longer).count("(vm, _args)") == 3  # pay's three calls
    text = PAY + ("rule four(p: player) { pay_twice(p)  pay_twice(p) }\n"
                  "rule flow() { four(seat(0))  four(seat(1))  pay_twice(seat(0))  choose x from 1..2 by seat(1) }")
    # pay_twice, 2 statements and 2 calls of pay's 2, is written out (6); four, 2 + 2 * 6, is called
    assert generator_text(monkeypatch, tmp_path, text).count("(vm, _args)") == 2


def test_a_failing_argument_or_statement_written_in_place_names_the_same_span(tmp_path):
    """An argument that may fail is bound as a call binds it; a failure in the body names
    the rule's statement: both in a generator as with a frame per call."""
    bad_arg = SMALL_LEAF.replace("pay(who, 1)", "pay(who, 1 / (pot - pot))")
    big = "999999999999999999 * 9"
    overflow = SMALL_LEAF.replace("pay(who, 1)", f"pay(who, {big})  pay(who, {big})")  # the second: chips
    too_big = SMALL_LEAF.replace("pay(who, 1)", f"pay(who, {big} * 2)")  # the argument itself
    for text, code in [(bad_arg, "R003"), (overflow, "R012"), (too_big, "R012")]:
        spans = []
        for fuse in (True, False):
            with pytest.raises(GameRuntimeError) as info:
                Machine(compiled(tmp_path, text, fuse), 2, FixedChance(), fast=fuse)  # in place, framed
            spans.append((info.value.diagnostic.code, info.value.diagnostic.span))
        assert spans[0] == spans[1] and spans[0][0] == code
