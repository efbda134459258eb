"""Whole rules as generators (compile/whole.py): a fast Machine plays every game as its
op lists do. Each game is played both ways with the same seed and agents, and the two
transcripts (every decision, chance outcome, say and reveal, the World's digest after
each step, the result) must be the same text; small games pin down the statements a
generator runs differently from ops (break, return, menus, may, failures, depth)."""
from __future__ import annotations

import pytest

from ruledsl.errors import GameRuntimeError
from ruledsl.pipeline import load_game
from ruledsl.runtime.machine import Machine, RandomChance
from support import FAST_STEPS, ROOT, FixedChance, choose_labels, compiled_texts, plays_the_same, text_program

GAME_FILES = sorted(str(p.relative_to(ROOT)) for d in ("games", "examples") for p in (ROOT / d).rglob("*.game"))
FAST_SEEDS = range(1)  # the fast subset: the first decisions of one game (support.FAST_STEPS)
END_SEEDS = range(2)  # the slow tests play these to the end, and more seeds and player counts
SLOW_SEEDS = range(2, 12)


def same_games(path, seeds, players=None, max_steps=3000):
    """The fast Machine plays what the op lists play, and spends the same work."""
    plays_the_same(path, seeds, max_steps, players, fast=True)


@pytest.mark.parametrize("path", GAME_FILES)
def test_every_game_plays_the_same_as_whole_rules(path):
    same_games(path, FAST_SEEDS, max_steps=FAST_STEPS)  # the slow tests play on


@pytest.mark.slow
@pytest.mark.parametrize("path", GAME_FILES)
def test_every_game_plays_the_same_to_its_end(path):
    same_games(path, END_SEEDS)


@pytest.mark.slow
@pytest.mark.parametrize("path", [p for p in GAME_FILES if "/" not in p.removeprefix("games/")])
@pytest.mark.parametrize("players", [3, 4])
def test_more_games_and_player_counts_play_the_same(path, players):
    program = load_game(str(ROOT / path)).program
    if not program.min_players <= players <= program.max_players:
        pytest.skip(f"{path} takes {program.min_players}..{program.max_players} players")
    same_games(path, SLOW_SEEDS, players)


def test_the_shipped_games_have_generators_for_the_rules_that_pause():
    program = load_game(str(ROOT / "games/mafialand.game")).program
    assert program.rules["flow"].whole is None and program.make_whole is not None  # made on first use only
    Machine(program, 3, RandomChance(1), fast=True)
    assert program.make_whole is None
    assert program.rules["flow"].whole is not None  # `loop { for p in players { play_turn(p) } }`
    kuhn = load_game(str(ROOT / "examples/kuhn_poker.game")).program
    Machine(kuhn, 2, RandomChance(1), fast=True)
    with_generators = {name for name, code in kuhn.rules.items() if code.whole is not None}
    assert with_generators == {"flow"}  # nested menus, facing_a_bet in place; the straight rules run their stretches


@pytest.mark.parametrize("path", [p for p in GAME_FILES if "/" not in p.removeprefix("games/")])
def test_making_the_generators_asks_for_no_new_tally(path):
    """The generators compile the expressions the op lists compiled, so no board field is
    asked to be tallied anew after the start Worlds were built (Program.tally)."""
    program = load_game(str(ROOT / path)).program
    before = {k: list(v) for k, v in program.tallied.items()}
    program.make_whole()
    assert program.tallied == before


# ---------------------------------------------------------------- small games, both ways
def both(tmp_path, text, choices=(), rolls=(), players=2):
    """The game `text` played with `choices` (labels) by an op-list Machine and a fast one:
    (fast machine, what it said, the decisions it asked), after checking that the op-list
    one said, asked and holds the same."""
    program = text_program(tmp_path, text)
    out = []
    for fast in (False, True):
        heard: list = []
        listener = lambda kind, data: heard.append((kind, data.get("text"), data.get("reason")))  # noqa: E731
        m = Machine(program, players, FixedChance(rolls), listener=listener, fast=fast)
        out.append((m, heard, choose_labels(m, choices)))
    (ops, heard_ops, asked_ops), (fast, heard, asked) = out
    assert (heard, asked) == (heard_ops, asked_ops)
    assert fast.w.digest() == ops.w.digest() and fast.steps == ops.steps
    assert (fast.result is None) == (ops.result is None)
    if fast.result is not None:
        assert fast.result == ops.result
    else:
        assert (fast.pending.name, fast.pending.labels) == (ops.pending.name, ops.pending.labels)
    return fast, [t for k, t, _ in heard if k == "say"], asked


def test_a_break_leaves_a_loop_over_players_with_no_turn_boundary(tmp_path):
    """After a `break`, the end conditions are not looked at as after a loop's last turn:
    `flag` is put back before the next decision, so the game goes on."""
    text = """shared { flag: int = 0 }
end when flagged "flagged": flag == 1
rule flow() {
  loop {
    for p in players {
      choose x from 1..2 by p
      if x == 2 { flag = 1  break }
    }
    flag = 0
    choose y from 1..2 by seat(0)
    if y == 2 { end "done" }
  }
}
"""
    m, _, asked = both(tmp_path, text, ["2", "1", "1", "1", "2"])
    assert asked == ["x", "y", "x", "x", "y"] and m.result.reason == "done"


def test_a_return_from_loops_in_a_rule_compiled_in_place_gives_its_value(tmp_path):
    text = """shared { total: int = 0 }
rule flow() {
  let x = 7
  let got = pick(x, 3)
  say "got {got}, x is still {x}"
  choose again from 1..2 by seat(1)
  total = got + again
}
rule pick(x: int, stop: int) -> int {
  for i in 1..5 {
    repeat 2 {
      choose pick from 1..3 by seat(0)
      if i == stop { return x + pick }
    }
  }
  return 0
}
"""
    m, said, asked = both(tmp_path, text, ["1", "1", "2", "2", "3", "2"])
    assert asked == ["pick"] * 5 + ["again"]
    assert said == ["got 10, x is still 7"] and m.w.shared["total"] == 12 and m.result is not None


def test_a_return_outside_the_rules_loops_leaves_by_a_break(tmp_path, monkeypatch):
    """A rule compiled in place whose returns are in no loop of its own: its body runs in a
    loop that runs once, and a return is a `break` out of it (no exception raised), also
    from inside a menu and from inside the caller's loop; a return inside the rule's own
    loop (the test above) still raises one."""
    text = """shared { total: int = 0 }
rule flow() {
  repeat 2 {
    let got = grade(seat(0))
    total += got
    say "got {got}"
  }
}
rule grade(p: player) -> int {
  choose x from 1..3 by p
  if x == 1 { return 10 }
  choose by p as "menu" {
    option "more" { return 20 + x }
    option "less" { }
  }
  return x
}
"""
    made = compiled_texts(monkeypatch)
    m, said, asked = both(tmp_path, text, ["1", "3", "more"])
    assert said == ["got 10", "got 23"] and m.w.shared["total"] == 33 and m.result is not None
    generators = [src for src in made if src.startswith("def _whole")]
    assert generators and all("_Returned" not in src for src in generators)
    m, said, _ = both(tmp_path, text, ["2", "less", "3", "less"])
    assert said == ["got 2", "got 3"]


def test_returns_from_rules_with_frames_of_their_own(tmp_path):
    """A rule called from two places has a frame; it gives its value to the caller."""
    text = """shared { total: int = 0 }
rule flow() {
  loop {
    let a = twice()
    let b = twice()
    total += a + b
    if total > 6 { end "enough" }
  }
}
rule twice() -> int {
  choose n from 1..3 by seat(0)
  if n == 3 { return twice() }
  return n * 2
}
"""
    m, _, asked = both(tmp_path, text, ["1", "3", "2", "1", "1"])  # 2 + (3: again, 2 -> 4), then 2 + 2
    assert asked == ["n"] * 5 and m.w.shared["total"] == 10 and m.result.reason == "enough"


def test_menus_and_mays_take_the_option_chosen_and_skip_a_may_whose_guard_fails(tmp_path):
    """A may with a failing guard offers nothing and skips its body, also right after a
    may that was taken (what a generator read of the last choice must not leak)."""
    text = """shared { log: int = 0  open: int = 0 }
rule flow() {
  repeat 3 {
    may seat(0) "open" { open = 1 }
    may seat(1) "shout" if open == 0 { log += 100 }
    choose by seat(0) as "what" {
      option "add" { log += 1 }
      option "double" if log > 0 { log = log * 2 }
      option "stop" { end "stopped" }
    }
  }
}
"""
    m, _, asked = both(tmp_path, text, ["pass", "shout", "add", "open", "double", "pass", "stop"])
    assert asked == ["open", "shout", "what", "open", "what", "open", "what"]
    assert m.w.shared["log"] == 202 and m.result.reason == "stopped"


ENDS = """shared { z: int = 0 }
rule flow() {
  loop {
    choose k from 1..4 by seat(0)
    settle(k)
  }
}
rule settle(k: int) {
  if k == 1 { end "one" winner seat(1) }
  if k == 2 { end "two" draw }
  if k == 3 { end "three" winner seat(k / z) }
}
"""


@pytest.mark.parametrize("label, reason, winners", [("1", "one", [1]), ("2", "two", [])])
def test_an_end_in_a_generator_finishes_there(tmp_path, monkeypatch, label, reason, winners):
    """An `end` written in a generator (also from a straight rule written in place) finishes
    the game and returns, as the op's GameOver did: the same result both ways."""
    made = compiled_texts(monkeypatch)
    m, _, _ = both(tmp_path, ENDS, [label])
    assert (m.result.reason, m.result.winners, m.result.draw) == (reason, winners, label == "2")
    assert any("vm.finish(" in src for src in made if src.startswith("def _whole"))


def test_an_end_whose_winner_fails_names_its_expression(tmp_path):
    errors = []
    for fast in (False, True):
        m = Machine(text_program(tmp_path, ENDS), 2, FixedChance(), fast=fast)
        with pytest.raises(GameRuntimeError) as err:
            m.choose("3")
        d = err.value.diagnostic
        errors.append((d.code, d.span.line, d.span.col))
    assert errors[0] == errors[1] == ("R003", 12, 39)  # `k / z`


def test_a_failure_names_the_same_statement_and_code(tmp_path):
    text = """shared { z: int = 0 }
rule flow() {
  loop {
    choose k from 1..2 by seat(0)
    let q = k / z
  }
}
"""
    errors = []
    program = text_program(tmp_path, text)
    for fast in (False, True):
        m = Machine(program, 2, FixedChance(), fast=fast)
        with pytest.raises(GameRuntimeError) as err:
            m.choose("1")
        d = err.value.diagnostic
        errors.append((d.code, d.span.line, d.span.col))
    assert errors[0] == errors[1] == ("R003", 6, 13)


def failing(tmp_path, text, label) -> list:
    """The game `text` played by choosing `label` until a rule fails, on op lists and on
    a fast Machine: [(diagnostic, machine)] for each."""
    program = text_program(tmp_path, text)
    out = []
    for fast in (False, True):
        m = Machine(program, 2, FixedChance(), fast=fast)
        with pytest.raises(GameRuntimeError) as err:
            while True:
                m.choose(label)
        out.append((err.value.diagnostic, m))
    return out


def test_a_step_runs_out_of_work_at_the_same_turn_of_the_same_loop(tmp_path):
    """The work budget counts a loop's turns and the calls (budget.py), not ops or
    resumptions: a loop that stops pausing fails with R010 at itself after as many turns
    whichever way it runs (op lists once counted each op, so they failed after half as many turns, at another statement)."""
    text = """shared { n: int = 0 }
rule pick() { choose k from 1..2 by seat(0) }
rule flow() {
  pick()
  loop {
    if n < 3 { pick() }
    n += 1
  }
}
"""
    ends = [(d.code, d.span.line, d.span.col, m.steps, m.w.shared["n"]) for d, m in failing(tmp_path, text, "1")]
    assert ends[0] == ends[1]
    assert ends[0][:4] == ("R010", 6, 3, 4) and ends[0][4] > 900_000


def test_rules_calling_each_other_too_deep_fail_after_as_many_decisions(tmp_path):
    text = """rule flow() { loop { deeper() } }
rule deeper() {
  choose k from 1..2 by seat(0)
  if k == 2 { deeper() }
  deeper()
}
"""
    (d_ops, ops), (d_fast, fast) = failing(tmp_path, text, "2")
    assert d_ops.code == d_fast.code == "R004"
    assert ops.steps == fast.steps > 150


def test_a_walk_that_runs_triggers_goes_on_after_each_one(tmp_path):
    """The op list's step, run until the walk lands: each `on pass` and the `on land`
    trigger is a frame the generator waits for."""
    text = """board track(n: int) loop {
  space a 1
  space b 2
  space c 3
}
player { at: track = a  passed: int = 0  landed: int = 0 }
on pass track(s: track, q: player) { q.passed += 1 }
on land track(s: track, q: player) { q.landed += 1 }
rule flow() {
  loop {
    for p in players {
      choose k from 1..2 by p
      move p.at by k steps forward
      if p.passed >= 2 { end "round" winner p }
    }
  }
}
"""
    m, _, _ = both(tmp_path, text, ["2", "1", "2"])
    assert m.program.rules["flow"].whole is not None
    assert m.result.reason == "round" and m.result.winners == [0]
    assert [p["landed"] for p in m.w.players] == [2, 1] and m.w.players[0]["at"] == "b"


RING = """board map(kind: int = 0) graph {
  space a space b space c space d space e space x 1
  link a b  link b c  link c d  link d e  link e a
  link b x  link x d
}
player { at: map = a  passed: int = 0 }
on pass map(s: map, p: player) { p.passed += 1 }
"""


def test_a_walk_that_stops_at_a_fork_for_a_choice_goes_on_the_way_chosen(tmp_path):
    text = RING + """rule flow() {
  repeat 3 {
    choose k from 1..3 by seat(0)
    move seat(0).at by k steps forward by seat(1) as "way"
  }
}
"""
    m, _, asked = both(tmp_path, text, ["1", "2", "x", "3"])  # a -> b; b, fork: x, d; d -> e -> a -> b
    assert asked == ["k", "k", "way", "k"] and m.result is not None
    assert m.w.players[0]["at"] == "b" and m.w.players[0]["passed"] == 3


def test_a_fast_machine_under_way_is_cloned_as_a_resumed_generator_and_an_ended_one_is_copied(tmp_path):
    text = "rule flow() { loop { choose k from 1..2 by seat(0)  if k == 2 { end \"done\" } } }\n"
    program = text_program(tmp_path, text)
    m = Machine(program, 2, FixedChance(), fast=True)
    m.choose("1")
    assert m.frames[-1].it is not None
    clone = m.clone()  # compile/resume.py: the rule's generator resumed after `choose k`
    assert m.frames[-1].it is not None and m.fast and clone.fast and clone.pending.name == m.pending.name == "k"
    assert clone.frames[-1].it is not m.frames[-1].it
    clone.choose("2")
    assert clone.result is not None and m.result is None
    m.choose("1")
    assert m.clone().frames[-1].it is not None and m.pending.name == "k"
    m = Machine(program, 2, FixedChance(), fast=True)
    m.choose("2")
    assert m.clone().result == m.result  # its generators are gone with the game
    slow = Machine(program, 2, FixedChance())
    assert slow.clone().pending.name == "k"



def test_a_rules_locals_kept_in_python_are_read_again_where_something_else_binds_them(tmp_path):
    """A rule's generator reads its locals from Python locals, written through to `env`
    (texts.KeptLocals). What binds one behind its text's back is read again after: a walk
    moving a local (written out, and on a graph, stopping at a fork), the result of a
    call with a frame of its own (a rule that calls itself), a secret choice. Each `say` tells the local's value, as the op lists do."""
    text = """board map(kind: int = 0) graph {
  space a space b space c space d space x 1
  link a b  link b c  link c d  link d a
  link b x  link x d
}
board track(n: int) loop {
  space a1 1
  space b1 2
  space c1 3
}
rule flow() {
  let s = a1
  let t = a
  repeat 2 {
    move s by 1 steps forward
    move t by 2 steps forward by seat(1) as "way"
    let r = pick()
    let r2 = pick()
    choose secret h from 1..3 by seat(1) as "hidden"
    say "s {s} t {t} r {r} r2 {r2} h {h}"
  }
}
rule pick() -> int {
  choose n from 1..3 by seat(0)
  if n == 3 { return pick() }
  return n * 10
}
"""
    m, said, asked = both(tmp_path, text, ["x", "2", "1", "1", "1", "2", "3"])
    assert m.program.rules["flow"].whole is not None and m.result is not None
    assert asked == ["way", "n", "n", "hidden", "n", "n", "hidden"]
    assert said == ["s b1 t x r 20 r2 10 h 1", "s c1 t a r 10 r2 20 h 3"]


def test_a_clone_goes_on_with_the_locals_its_frame_holds(tmp_path):
    """A copy's resumed generator reads every local from its frame's `env` when it starts,
    so one changed there in between (as a search agent redraws another seat's secret
    choice) is the one it goes on with."""
    text = """rule flow() {
  choose secret h from 1..3 by seat(1) as "hidden"
  choose k from 1..2 by seat(0)
  say "h {h} k {k}"
}
"""
    program = text_program(tmp_path, text)
    heard: list = []
    m = Machine(program, 2, FixedChance(), fast=True)
    m.choose("1")
    clone = m.clone(listener=lambda kind, data: heard.append(data.get("text")))
    clone.frames[-1].env["h"] = 3
    clone.choose("2")
    assert [t for t in heard if t] == ["h 3 k 2"]



def test_a_rules_generator_started_afresh_reads_only_its_arguments_from_env(tmp_path, monkeypatch):
    """A rule's own generator starts with its frame, whose `env` holds only the call's
    arguments: it reads those and sets its other locals to None, as `env.get` gave them
    (whole.whole_text); a resumed one, for a copy, reads every local from `env`. Both play
    as the op lists do, through a rule that calls itself (a frame and a fresh generator
    each call)."""
    made = compiled_texts(monkeypatch)
    text = """shared { total: int = 0 }
rule flow() {
  loop {
    let got = turn(seat(1), total + 1)
    total += got
    say "got {got} total {total}"
  }
}
rule turn(p: player, base: int) -> int {
  choose n from 1..3 by p as "n"
  if n == 3 { return turn(p, base * 10) }
  let twice = n * 2
  return base + twice
}
"""
    m, said, asked = both(tmp_path, text, ["2", "3", "1"])
    assert said == ["got 5 total 5", "got 62 total 67"] and asked == ["n", "n", "n"]
    fresh = [t for t in made if "def _whole" in t and "env.get('p')" in t and "_rs = True" not in t]
    assert len(fresh) == 1 and "env.get('n')" not in fresh[0] and "env.get('twice')" not in fresh[0]
    m.choose("3")  # a second frame of `turn`
    clone = m.clone()  # each frame's generator resumed (at `choose n`, at the call), reading n and twice
    resumed = [t for t in made if "def _whole" in t and "_rs = True" in t and "env.get('p')" in t]
    assert resumed and all("env.get('n')" in t and "env.get('twice')" in t for t in resumed)
    for game in (m, clone):
        game.choose("1")
    assert clone.w.digest() == m.w.digest() and m.w.shared["total"] == 67 + 680 + 2


# ---------------------------------------------------------------- decisions written out
def offered_both_ways(tmp_path, text, labels, players=3) -> list:
    """Plays `text` choosing `labels` on op lists and on a fast Machine (whose decisions
    in loops are written out, whole.py): every decision offered must be the same (seat,
    name, labels, values but a menu's, kind, secret) and a sealed one noted alike; returns
    them, each followed by the sealed choices noted once it was made."""
    program = text_program(tmp_path, text)
    seen = []
    for fast in (False, True):
        m = Machine(program, players, FixedChance(), fast=fast)
        offered = []
        for label in labels:
            d = m.pending
            values = list(d.values) if d.kind != "menu" else None  # a menu's: where its ops start, or 0, 1, ...
            offered.append((d.seat, d.name, list(d.labels), values, d.kind, d.secret))
            assert m.choose(label) is None, label
            offered.append(dict(m.frames[-1].sealed or {}) if m.frames else {})
        seen.append((offered, m.w.digest(), m.result))
    assert seen[0] == seen[1]
    assert program.rules["flow"].whole is not None  # the fast Machine ran it as a generator
    return seen[1][0]


CHOICES = """cards coin(face: int) label "coin {face}" {
  field worn: int = 0
  card 1  card 1  card 2
}
enum way { up down }
board grid(row: int) {
  field owner: player? = none
  space a1 0
  space a2 0
  space b1 1
}
zone purse: coin public
shared { rounds: int = 0 }
rule setup() { for c in coin { move c to purse } }
rule flow() {
  repeat 2 {
    rounds += 1
    choose c from purse by seat(rounds) as "coin"
    c.worn += 1
    choose s from grid where s.owner == none and s.row == 0 by seat(0) as "cell"
    s.owner = seat(0)
    choose p from players by seat(1) as "rival"
    choose w from way by p
    choose secret k from purse by seat(rounds) as "hide"
    choose by seat(2) as "menu" {
      option "more" { rounds += 0 }
      option "less" if rounds > 1 { rounds -= 0 }
    }
    may seat(0) "grab" if rounds == 1 { rounds += 0 }
    may seat(1) "wave" { rounds += 0 }
  }
}
"""


def test_rolls_written_out_draw_the_same_dice_and_are_heard_by_a_listener_alone(tmp_path, monkeypatch):
    """A roll in a generator is written out (texts.t_Roll): the same dice in the same order
    as the op lists' roll, told as a chance report only to a listener; nobody listening,
    the chance source is asked directly and nothing is told."""
    texts = compiled_texts(monkeypatch)
    text = """shared { total: int = 0 }
rule flow() {
  loop {
    for p in players {
      let a = roll 2d6
      choose x from 1..2 by p
      let b = roll d4
      total += a * 10 + b + x
      if total > 320 { end "enough" }
    }
  }
}
"""
    rolls = [3, 4, 2, 6, 5, 1, 6, 6, 4, 2, 2, 3]
    fast, _, asked = both(tmp_path, text, ["1", "2", "1", "2"], rolls)
    assert asked == ["x"] * 4 and fast.result.reason == "enough"
    assert fast.w.shared["total"] == (70 + 2 + 1) + (110 + 1 + 2) + (120 + 4 + 1) + (40 + 3 + 2)
    assert any("vm.chance.roll(2, 6, '2d6')" in t for t in texts)
    program = text_program(tmp_path, text)
    heard: list = []
    loud = Machine(program, 2, FixedChance(rolls), listener=lambda kind, data: heard.append((kind, data)), fast=True)
    deaf = Machine(program, 2, FixedChance(rolls), fast=True)
    choose_labels(loud, ["1", "2", "1", "2"])
    choose_labels(deaf, ["1", "2", "1", "2"])
    assert deaf.w.digest() == loud.w.digest() and deaf.result == loud.result
    told = [(data["what"], data["outcome"]) for kind, data in heard if kind == "chance"]
    assert told[:4] == [("roll 2d6", [3, 4]), ("roll 1d4", [2]), ("roll 2d6", [6, 5]), ("roll 1d4", [1])]
    assert len(told) == 8


def test_decisions_written_out_offer_what_their_ops_offer(tmp_path):
    """Cards offered once each but for equal ones told apart by their fields ('#2'), spaces
    and enum values as their own labels, players by seat, a sealed choice noted as such,
    a menu with a guard and a may with and without one: alike on op lists and written out."""
    labels = ["coin 1", "a1", "seat 2", "down", "coin 2", "more", "grab", "pass",
              "coin 1 #2", "a2", "seat 0", "up", "coin 2", "less", "wave"]
    offered = offered_both_ways(tmp_path, CHOICES, labels)
    assert offered[0][2] == ["coin 2", "coin 1"]  # the two coin 1s are alike: one offered
    assert offered[8][2] == offered[16][2] == ["coin 2", "coin 1", "coin 1 #2"]  # one is worn now
    assert offered[8][4:] == ("choose", True) and offered[9] == {"k": (1, offered[8][3])}
    assert offered[10][2] == ["more"] and offered[26][2] == ["more", "less"]
    assert [o[1] for o in offered[::2]][6:8] == ["grab", "wave"] and offered[28][1] == "wave"  # no grab in round 2


FIXED_OFFERS = """enum way { up down }
board grid(row: int) {
  space a1 0
  space b1 1
}
shared { n: int = 0 }
rule flow() {
  loop {
    for p in players {
      choose w from way by p as "way"
      choose s from grid by p as "spot"
      n += 1
    }
  }
}
"""


def test_a_fixed_offer_is_one_decision_for_each_seat_made_once(tmp_path):
    """A choose of all of an enum's values or a board's spaces (open, no `where`) offers
    the same at every decision: written out, its Decision is made once for each seat
    (whole_decisions.fixed_offer), and it offers what the op list offers."""
    labels = ["down", "b1", "up", "a1", "up", "b1"]
    offered = offered_both_ways(tmp_path, FIXED_OFFERS, labels, players=2)
    assert [(o[0], o[2]) for o in offered[::2]] == [(0, ["up", "down"]), (0, ["a1", "b1"]),
                                                    (1, ["up", "down"]), (1, ["a1", "b1"])] + \
        [(0, ["up", "down"]), (0, ["a1", "b1"])]
    m = Machine(text_program(tmp_path, FIXED_OFFERS), 2, FixedChance(), fast=True)
    first = m.pending
    choose_labels(m, ["down", "b1", "up", "a1"])
    assert m.pending is first and m.w.shared["n"] == 2  # seat 0's "way" again: the same Decision


@pytest.mark.parametrize("source, code, message", [
    ("[x in [1, 2] where x > n * 5]", "R007", "nothing to choose from"),
    ("[1, 2]", "R006", "nobody to make this choice"),
])
def test_a_decision_written_out_fails_as_its_op_does(tmp_path, source, code, message):
    text = f"""shared {{ n: int = 0 }}
rule flow() {{
  loop {{
    choose k from {source} by (if n < 2 then seat(0) else none) as "k"
    n += k
  }}
}}
"""
    program = text_program(tmp_path, text)
    failed = failed_both_ways(program, lambda m: m.choose("1"))
    assert program.rules["flow"].whole is not None
    assert [f[:3] for f in failed] == [(code, 5, 5)] * 2 and all(message in f[3] for f in failed)


def failed_both_ways(program, step) -> list:
    """(code, line, column, message) of the failure that `step(machine)`, repeated up to
    three times, meets on op lists and on a fast Machine (whole rules written out)."""
    failed = []
    for fast in (False, True):
        m = Machine(program, 2, FixedChance(), fast=fast)
        with pytest.raises(GameRuntimeError) as err:
            for _ in range(3):
                assert step(m) is None
        d = err.value.diagnostic
        failed.append((d.code, d.span.line, d.span.col, d.message))
    return failed


@pytest.mark.parametrize("first, second, code, col", [
    ("n < 2", "n > 5", "R007", 5),  # no option allowed, found before the chooser is none
    ("n < 5", "10 / (2 - n) > 0", "R003", 21),  # a guard fails, also before the chooser
    ("n < 5", "n > 5", "R006", 5),  # nobody to choose
])
def test_a_menu_with_guards_written_out_fails_as_its_op_does(tmp_path, first, second, code, col):
    """A menu's guards are written out in a rule's generator (WrittenDecisions.guarded_options):
    each in order, then the chooser, as the menu's op does them."""
    text = f"""shared {{ n: int = 0 }}
rule flow() {{
  loop {{
    choose by (if n < 2 then seat(0) else none) as "pick" {{
      option "a" if {first} {{ n += 1 }}
      option "b" if {second} {{ n += 1 }}
    }}
  }}
}}
"""
    program = text_program(tmp_path, text)
    offered = ["a", "b"] if second.startswith("10") else ["a"]

    def step(m):
        assert m.pending.labels == offered
        return m.choose("a")
    failed = failed_both_ways(program, step)
    assert program.rules["flow"].whole is not None
    assert failed[0] == failed[1] and failed[0][:3] == (code, 7 if code == "R003" else 5, col)


def test_a_game_that_ends_at_a_decision_written_out_offers_nothing(tmp_path):
    text = """shared { n: int = 0 }
end when enough "enough": n >= 3
rule flow() {
  loop {
    choose k from [1, 2] by seat(0) as "k"
    n += k
    may seat(1) "again" { n += 0 }
  }
}
"""
    m, _, asked = both(tmp_path, text, ["2", "pass", "1"])
    assert asked == ["k", "again", "k"] and m.pending is None and m.result.reason == "enough"


def test_a_rule_too_long_for_one_generator_runs_its_op_list(tmp_path, monkeypatch):
    """A whole rule's generator is one function: where its text is longer than Python is
    given to compile (deferred.MAX_SOURCE), the rule runs as ops, and plays the same."""
    from ruledsl.compile import deferred
    text = ('shared { n: int = 0 }\nrule flow() {\n  if n == 0 { ' + "n += 1 " * 300 + '}\n'
            '  choose by seat(0) as "pick" { option "a" { n += 1 } option "b" { n += 2 } }\n}\n')
    monkeypatch.setattr(deferred, "MAX_SOURCE", 20_000)
    long = text_program(tmp_path, text)
    m = Machine(long, 2, FixedChance(), fast=True)
    assert long.rules["flow"].whole is None and m.pending is not None
    choose_labels(m, ["b"])
    assert m.w.shared["n"] == 302
    monkeypatch.setattr(deferred, "MAX_SOURCE", 200_000)
    assert Machine(text_program(tmp_path, text), 2, FixedChance(), fast=True).program.rules["flow"].whole is not None

