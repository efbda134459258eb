"""Rule calls compiled in place (compile/inline.py). Each game is played with the same
choices compiled as shipped and with one op per statement and a frame per call
(explain's mode, fuse=False): the two must hear and hold the same."""
from __future__ import annotations

import pytest

from ruledsl.errors import GameRuntimeError
from ruledsl.runtime.machine import MAX_DEPTH, Machine
from support import FixedChance, choose_labels, text_program


def machine(tmp_path, text, fuse=True, players=2, heard=None):
    listener = None if heard is None else (lambda kind, data: heard.append((kind, data.get("text"))))
    return Machine(text_program(tmp_path, text, fuse=fuse), players, FixedChance(), listener=listener)


def both(tmp_path, text, choices=(), players=2):
    """(inlined, framed): each machine after `choices` (labels), with what it said, and the
    names of the decisions it was asked."""
    out = []
    for fuse in (True, False):
        heard: list = []
        m = machine(tmp_path, text, fuse, players, heard)
        out.append((m, heard, choose_labels(m, choices)))
    (a, heard_a, asked_a), (b, heard_b, asked_b) = out
    assert heard_a == heard_b and asked_a == asked_b
    assert a.w.shared == b.w.shared and a.w.players == b.w.players
    return out


RULES = """shared { total: int = 0  x: int = 100 }
rule flow() {
  let x = 7
  let got = pick(x, 3)
  say "got {got}, x is still {x}"
  choose again from 1..2 by seat(1)
  total = got + again
}
rule pick(x: int, stop: int) -> int {
  for i in 1..5 {
    choose pick from 1..3 by seat(0)
    if i == stop { return x + pick }
  }
  return 0
}
"""


def test_a_rule_with_a_decision_is_compiled_into_its_callers_ops(tmp_path):
    m = machine(tmp_path, RULES)
    assert "call" not in m.program.rules["flow"].kinds and "pick" not in m.program.rules
    assert "choose" in m.program.rules["flow"].kinds
    assert "call" in machine(tmp_path, RULES, fuse=False).program.rules["flow"].kinds


def test_locals_values_returns_and_decision_names_are_as_with_a_frame(tmp_path):
    """The callee's `x` is not the caller's; a return from inside a loop gives its value;
    the choice keeps its variable's name."""
    (m, heard, asked), _ = both(tmp_path, RULES, ["1", "2", "3", "2"])
    assert asked == ["pick"] * 3 + ["again"]
    assert [t for k, t in heard if k == "say"] == ["got 10, x is still 7"]
    assert m.w.shared["total"] == 12 and m.w.shared["x"] == 100 and m.result is not None


def test_loop_state_left_by_a_return_is_dropped(tmp_path):
    m = machine(tmp_path, RULES)
    for label in ["1", "2"]:
        m.choose(label)
    assert sum(k.startswith("#for") for k in m.frames[-1].env) == 1  # the loop running
    m.choose("3")
    assert m.pending.name == "again"
    assert not any(k.startswith("#for") for k in m.frames[-1].env)  # left by the return


def test_a_rule_reaching_itself_keeps_its_frames_and_the_depth_limit(tmp_path):
    text = """shared { n: int = 0 }
rule flow() { down() }
rule down() {
  n += 1
  if n > 3 { choose x from 1..2 by seat(0) }
  down()
}"""
    m = machine(tmp_path, text)
    assert "call" in m.program.rules["flow"].kinds  # not compiled in place: it reaches itself
    assert m.choose("1") is None and m.choose("1") is None
    with pytest.raises(GameRuntimeError) as info:
        for _ in range(MAX_DEPTH):
            m.choose("1")
    assert info.value.diagnostic.code == "R004"


def test_calls_compiled_in_place_count_toward_the_depth_limit(tmp_path):
    """A chain of distinct rules, each with a decision, deeper than the limit: R004 where a
    frame per call would stop, whatever was compiled in place."""
    n = MAX_DEPTH + 5
    chain = "\n".join(f"rule r{i}() {{ choose x from 1..2 by seat(0)  r{i + 1}() }}" for i in range(n))
    text = f"{chain}\nrule r{n}() {{ choose x from 1..2 by seat(0) }}\nrule flow() {{ r0() }}\n"
    depths = []
    for fuse in (True, False):
        m = machine(tmp_path, text, fuse)
        steps = 0
        with pytest.raises(GameRuntimeError) as info:
            while m.pending is not None:
                m.choose("1")
                steps += 1
        assert info.value.diagnostic.code == "R004"
        depths.append(steps)
    assert depths[0] == depths[1] == MAX_DEPTH - 2  # flow is 1 deep, r0 2, ...: r{MAX_DEPTH - 1} is refused


def test_a_rule_called_from_several_places_keeps_its_frame(tmp_path):
    text = """shared { n: int = 0 }
rule thrice() {
  choose x from 1..2 by seat(0)
  n += x
}
rule once() { choose x from 1..2 by seat(1) }
rule flow() { thrice()  thrice()  thrice()  once() }
"""
    (m, _, asked), _ = both(tmp_path, text, ["1", "2", "2", "1"])
    assert m.program.rules["flow"].kinds.count("call") == 3  # thrice, thrice, thrice; once is compiled in place
    assert "once" not in m.program.rules and "thrice" in m.program.rules
    assert m.w.shared["n"] == 5 and m.result is not None


SMALL_TWICE = """shared { n: int = 0 }
rule bid(p: player) {
  choose x from 1..3 by p as "bid"
  if x == 3 { return }
  n += x * 10 + p.seat
}
rule flow() {
  let x = 5
  bid(seat(0))
  bid(seat(1))
  n += x
}
"""


@pytest.mark.parametrize("fast", [False, True])
def test_a_small_rule_called_from_two_places_is_compiled_in_place_at_both(tmp_path, fast):
    """Each copy has its own locals (the caller's `x` is left alone) and its own return;
    a longer rule (SMALL_RULE) or a third call keeps the frame (the test above)."""
    from ruledsl.compile.inline import SMALL_RULE
    (m, _, asked), (framed, _, _) = both(tmp_path, SMALL_TWICE, ["2", "3"])
    assert "bid" not in m.program.rules and framed.program.rules["flow"].kinds.count("call") == 2
    assert asked == ["bid", "bid"] and m.w.shared["n"] == 20 + 5 and m.result is not None
    program = text_program(tmp_path, SMALL_TWICE)
    played = Machine(program, 2, FixedChance(), fast=fast)
    assert choose_labels(played, ["3", "1"]) == ["bid", "bid"] and played.w.shared["n"] == 11 + 5
    longer = SMALL_TWICE.replace("  n += x * 10 + p.seat\n", "  n += x * 10 + p.seat\n" * SMALL_RULE)
    assert "bid" in machine(tmp_path, longer).program.rules


def test_a_secret_choice_compiled_in_place_is_noted_for_search(tmp_path):
    text = """rule flow() { hide() }
rule hide() {
  choose secret s from 1..3 by seat(0)
  choose t from 1..2 by seat(1)
}"""
    m = machine(tmp_path, text)
    m.choose("2")
    (var, (who, options)), = m.frames[-1].sealed.items()
    assert var.startswith("s") and who == 0 and options == [1, 2, 3]
    assert m.frames[-1].env[var] == 2


WALKED_PARAMETER = """board track(n: int) loop {
  space a 0
  space b 1
  space c 2
}
shared { spot: track = a }
rule hop(k: track) {
  move k by 1 steps forward
  spot = k
}
rule flow() {
  let s = a
  hop(s)
  say "caller's s {s}, spot {spot}"
  hop(a)
  say "spot {spot}"
  end "done" draw
}
"""


@pytest.mark.parametrize("fast", [False, True])
def test_a_parameter_a_walk_moves_is_the_callees_own(tmp_path, fast):
    """`move k by ...` changes the parameter k, as `k = ...` does: a call compiled in place
    gives k a local of its own, so the caller's `s` stays where it was (as with a frame)."""
    both(tmp_path, WALKED_PARAMETER)
    heard: list = []
    played = Machine(text_program(tmp_path, WALKED_PARAMETER), 2, FixedChance(), fast=fast,
                     listener=lambda kind, data: heard.append(data.get("text")))
    assert [t for t in heard if t] == ["caller's s a, spot b", "spot b"] and played.result is not None


# Every statement form that binds or changes a name, in a rule called twice with a
# caller's local: compiled in place (fused, slow and fast Machine) it must say what the
# rule says with a frame of its own (fuse=False), the caller's local untouched.
CHANGES_OF_A_PARAMETER = {
    "assigned": ("int", "k = k + 5"),
    "added to": ("int", "k += 5"),
    "walked": ("track", "move k by 1 steps forward"),
    "rolled into": ("int", "let r = roll d6\n  k = r"),
    "a comprehension's item": ("int", "total += count(k in 1..3 where k > 1)"),
    "passed on and changed there": ("int", "inner(k)"),
    "a let in an inner block, another name": ("int", "if true { let j = k + 9  total += j }"),
}


@pytest.mark.parametrize("change", CHANGES_OF_A_PARAMETER)
def test_what_a_call_compiled_in_place_does_to_a_parameter_stays_in_the_call(tmp_path, change):
    kind, statement = CHANGES_OF_A_PARAMETER[change]
    start = "a" if kind == "track" else "3"
    text = WALKED_PARAMETER.split("shared")[0] + f"""shared {{ spot: track = a  total: int = 0 }}
rule hop(k: {kind}) {{
  {statement}
  say "in hop k {{k}}"
}}
rule inner(j: int) {{
  j = j + 1
  say "inner j {{j}}"
}}
rule flow() {{
  let s = {start}
  hop(s)
  say "caller's s {{s}}, total {{total}}"
  hop(s)
  say "caller's s {{s}}, total {{total}}"
  end "done" draw
}}
"""
    said = []
    for fuse, fast in ((False, False), (True, False), (True, True)):
        heard: list = []
        m = Machine(text_program(tmp_path, text, fuse=fuse), 2, FixedChance([4, 4]), fast=fast,
                    listener=lambda kind, data: heard.append(data.get("text")))
        assert m.result is not None
        said.append([t for t in heard if t])
    assert said[0] == said[1] == said[2]
    assert [t for t in said[0] if t.startswith("caller's")][0].startswith(f"caller's s {start},")
