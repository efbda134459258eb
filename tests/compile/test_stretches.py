"""Stretches (compile/inplace.py): ifs and loops made only of simple statements run as
plain Python inside one op. Each test runs the same text fused and with one op per
statement (explain's mode) where the two must agree."""
from __future__ import annotations

import pytest

from ruledsl.compile.inplace import MAX_NESTING
from ruledsl.compile.ops import MAX_STRETCH
from ruledsl.errors import GameRuntimeError
from ruledsl.pipeline import load_game
from ruledsl.runtime.machine import Machine
from support import FixedChance


def machine(tmp_path, text, fuse=True, players=3, listener=None):
    path = tmp_path / "t.game"
    path.write_text('game "T" players 2..4\n' + text)
    return Machine(load_game(str(path), fuse=fuse).program, players, FixedChance(), listener=listener)


def both(tmp_path, text, players=3):
    """(fused, one op per statement): each Machine with the events it emitted."""
    out = []
    for fuse in (True, False):
        heard = []
        m = machine(tmp_path, text, fuse, players, listener=lambda kind, data: heard.append((kind, data)))
        out.append((m, [(k, d.get("text", d.get("seat", d.get("reason")))) for k, d in heard]))
    return out


def test_ifs_and_loops_of_simple_statements_become_no_ops_of_their_own(tmp_path):
    text = """player { n: int = 0 }
rule flow() {
  for p in players { if p.n == 0 { p.n += 1 } else { p.n = 0 } }
  repeat 3 { seat(0).n += 1 }
  while seat(1).n < 5 { seat(1).n += 2 }
  choose x from 1..2 by seat(0)
}"""
    fused, unfused = both(tmp_path, text)
    assert fused[0].program.rules["flow"].kinds == ["effects", "choose"]
    assert {"if", "for", "repeat", "while"} <= set(unfused[0].program.rules["flow"].kinds)
    assert [p["n"] for p in fused[0].w.players] == [4, 5, 1] == [p["n"] for p in unfused[0].w.players]


def test_an_end_inside_a_stretch_stops_it_there(tmp_path):
    text = """shared { n: int = 0 }
rule flow() {
  n = 1
  if n == 1 { say "before"  end "done" winner seat(1)  say "never" }
  n = 2
}"""
    for m, heard in both(tmp_path, text):
        assert m.result.reason == "done" and m.result.winners == [1]
        assert m.w.shared["n"] == 1
        assert ("say", "never") not in heard and ("say", "before") in heard


def test_a_loop_over_players_is_a_turn_boundary_also_in_a_stretch(tmp_path):
    """Seat 1 goes out in seat 0's turn and misses its own; then a straight rule's loop
    puts seat 0 out, and the last-standing condition holds at its next turn boundary: the
    game ends there, before anything after the call."""
    text = """end when last "last one in": count(p in players) == 1 winner first(p in players)
rule out_all_but(keep: player) { for q in players { if q != keep { eliminate q } } }
rule flow() {
  for p in players {
    say "turn {p}"
    if p == seat(0) { eliminate seat(1) }
  }
  say "after the loop"
  out_all_but(seat(2))
  say "never"
}"""
    (fused, heard), (_, unheard) = both(tmp_path, text)
    assert heard == unheard
    assert [d for k, d in heard if k == "say"] == ["turn seat 0", "turn seat 2", "after the loop"]
    assert [d for k, d in heard if k == "eliminate"] == [1, 0]
    assert fused.result.reason == "last one in" and fused.result.winners == [2]


def test_a_change_just_before_a_loop_over_players_is_seen_at_its_first_turn_boundary(tmp_path):
    text = """end when last "last one in": count(p in players) == 1 winner first(p in players)
rule flow() {
  eliminate seat(0)
  eliminate seat(1)
  for p in players { say "turn {p}" }
}"""
    for m, heard in both(tmp_path, text):
        assert m.result.reason == "last one in"
        assert not any(k == "say" for k, _ in heard)  # the game ended before the first turn


def test_a_loop_over_players_skips_those_out_before_it_and_during_it(tmp_path):
    """Without end conditions: a seat out before the loop has no turn, nor one put out
    during it before its turn; one put out after its turn had it (inplace.every_seat_in_turn)."""
    text = """rule flow() {
  eliminate seat(1)
  for p in players {
    say "turn {p}"
    if p == seat(0) { eliminate seat(3) }
    if p == seat(2) { eliminate seat(0) }
    for q in players { say "{p} sees {q}" }
  }
  choose x from 1..2 by seat(2)
}"""
    for m, heard in both(tmp_path, text, players=4):
        assert [d for k, d in heard if k == "say"] == [
            "turn seat 0", "seat 0 sees seat 0", "seat 0 sees seat 2",
            "turn seat 2", "seat 2 sees seat 2"]


def test_a_branch_not_taken_leaves_the_world_unmarked(tmp_path):
    text = """player { points: int = 0  bag: int = 0 }
end when big "ten points": any(p in players: p.points >= 10)
rule flow() {
  loop {
    choose n from 1..2 by seat(0)
    for p in players { p.bag += n  if n == 2 { p.points += 5 } }
  }
}"""
    m = machine(tmp_path, text)
    before = m.w.version
    m.choose("1")
    assert m.w.version == before  # only bags changed: the end condition is not looked at again
    m.choose("2")
    assert m.w.version > before


@pytest.mark.parametrize("loop", ["repeat 1000000000000 { n += 0 }", "while true { n += 0 }",
                                  "for i in 1..900000 { for j in 1..900000 { n += 0 } }"])
def test_a_loop_in_a_stretch_spends_work_and_stops_at_the_step_budget(tmp_path, loop):
    text = f"shared {{ n: int = 0 }}\nrule flow() {{\n  {loop}\n}}"
    with pytest.raises(GameRuntimeError) as info:
        machine(tmp_path, text)
    assert info.value.diagnostic.code in ("R010", "R011")
    assert info.value.diagnostic.span.line == 4  # the loop


def test_a_failure_in_a_stretch_is_named_at_its_statement(tmp_path):
    text = """player { n: int = 0 }
shared { who: player? = none }
rule flow() {
  for p in players {
    if p.n == 0 {
      p.n = 1
      who.n = 2
    }
  }
}"""
    for fuse in (True, False):
        with pytest.raises(GameRuntimeError) as info:
            machine(tmp_path, text, fuse)
        assert (info.value.diagnostic.code, info.value.diagnostic.span.line) == ("R001", 8)


def test_the_arguments_of_a_straight_rule_called_in_a_stretch_are_evaluated_in_order(tmp_path):
    """As text (inplace.g_CallStmt), with the checked record behind: a failing argument is
    named where it fails, after the arguments before it, and the call's work is charged."""
    text = """player { n: int = 0 }
rule give(p: player, k: int, q: player) { p.n += k  q.n += 10 * k }
rule flow() {
  for p in players {
    give(p, p.seat + 1, next_player(p))
    give(p, [1][p.seat], p)
  }
}"""
    for fuse in (True, False):
        with pytest.raises(GameRuntimeError) as info:
            machine(tmp_path, text, fuse)
        d = info.value.diagnostic
        assert (d.code, d.span.line, d.span.col) == ("R002", 7, 13), fuse  # seat 1's second call: [1][1]
    m = machine(tmp_path, text.replace("[1][p.seat]", "2"), players=2)
    assert [p["n"] for p in m.w.players] == [1 + 2 + 20 + 20, 10 + 2 + 2 + 20]


def test_ifs_nested_deeper_than_a_stretch_allows_still_compile_and_run(tmp_path):
    depth = MAX_NESTING * 3
    body = "".join("  " * i + "if n >= 0 {\n" for i in range(depth)) + "n += 1\n" + "}\n" * depth
    m = machine(tmp_path, f"shared {{ n: int = 0 }}\nrule flow() {{\n{body}}}")
    assert m.w.shared["n"] == 1
    assert "if" in m.program.rules["flow"].kinds  # the outer ifs are ops; the inner ones a stretch


LANE = """board lane() loop { space a space b space c space d }
player { at: lane = a  moved: int = 0 }
end when far "on d": any(p in players: p.at == d)
"""


@pytest.mark.parametrize("trigger", ["", "on land lane(s: lane, p: player) { p.moved += 1 }\n"])
def test_a_walk_is_part_of_a_stretch_unless_a_trigger_runs_in_it(tmp_path, trigger):
    text = LANE + trigger + """rule flow() {
  for p in players { move p.at by 2 + p.seat steps forward  p.moved += 1 }
  choose x from 1..2 by seat(0)
}"""
    fused, unfused = both(tmp_path, text, players=2)
    assert ("walk" in fused[0].program.rules["flow"].kinds) == bool(trigger)
    for m, _ in (fused, unfused):
        assert m.result.reason == "on d"  # seat 1 walked to d: the next turn boundary ends the game
        assert [p["at"] for p in m.w.players] == ["c", "d"]
        assert [p["moved"] for p in m.w.players] == ([2, 2] if trigger else [1, 1])


@pytest.mark.parametrize("walk,at", [("move p.at by 0 - 3 steps forward", ["a", "a"]),
                                     ("move p.at by 5 steps backward", ["d", "d"]),
                                     ("move p.at by 4 * p.seat + 1 steps forward", ["b", "b"])])
def test_a_walk_in_a_stretch_moves_as_its_effect_does(tmp_path, walk, at):
    """Written as text (inplace.t_Walk): no move for a count of 0 or less, round the loop."""
    text = LANE.replace('end when far "on d": any(p in players: p.at == d)\n', "") + \
        f"rule flow() {{\n  for p in players {{ {walk} }}\n  choose x from 1..2 by seat(0)\n}}"
    (fused, _), (unfused, _) = both(tmp_path, text, players=2)
    for m in (fused, unfused):
        assert [p["at"] for p in m.w.players] == at
    # a walk with no `on pass` trigger costs no work: its steps are taken in one go either way
    assert fused.spent == unfused.spent


def test_a_walk_of_none_is_r001_at_the_walk(tmp_path):
    text = LANE + """shared { who: player? = none }
rule flow() {
  for p in players { move p.at by 1 steps forward }
  move who.at by 2 steps forward
}"""
    for fuse in (True, False):
        with pytest.raises(GameRuntimeError) as info:
            machine(tmp_path, text, fuse, players=2)
        assert (info.value.diagnostic.code, info.value.diagnostic.span.line) == ("R001", 8), fuse


MOVES = """cards c(rank: int) { each rank in 1..3 }
zone deck: c public
zone pile: c public
zone hand per player: c owner
shared { picked: c? = none  gone: c? = none  whose: player? = none }
rule flow() {
  move top(deck) to pile
  move top(deck) under pile
  picked = top(deck)
  move picked to hand[seat(1)]
  %s
}"""


def test_a_move_in_a_stretch_moves_on_top_or_under(tmp_path):
    for fuse in (True, False):
        m = machine(tmp_path, MOVES % "", fuse)
        zones = {k: [m.program.cards[c].label for c in v] for k, v in m.w.zones.items() if v}
        assert zones == {("pile", None): ["1", "2"], ("hand", 1): ["3"]}, fuse


@pytest.mark.parametrize("stmt", ["move gone to pile", "move gone to hand[whose]"])
def test_a_move_of_none_is_r005_before_its_zone_is_evaluated(tmp_path, stmt):
    """The card first: none is R005 at the move, even where the zone would fail too."""
    for fuse in (True, False):
        with pytest.raises(GameRuntimeError) as info:
            machine(tmp_path, MOVES % stmt, fuse)
        assert (info.value.diagnostic.code, info.value.diagnostic.span.line) == ("R005", 12), fuse


DRAWS = """cards chip(v: int) { each v in 1..5 }
zone deck: chip hidden refill from used
zone used: chip public
zone hand per player: chip owner
shared { n: int = 3 }
rule flow() {
  %s
  choose x from 1..2 by seat(0)
}"""


def played(tmp_path, text, **load_kw):
    """(the filled zones by card value, the work spent, what a listener heard) of a game."""
    path = tmp_path / "t.game"
    path.write_text('game "T" players 2..4\n' + text)
    heard = []
    m = Machine(load_game(str(path), **load_kw).program, 2, FixedChance(),
                listener=lambda kind, data: heard.append((kind, data.get("what"), data.get("outcome"))))
    zones = {k: [m.program.cards[c].attrs["v"] for c in v] for k, v in m.w.zones.items() if v}
    return zones, m.spent, heard


@pytest.mark.parametrize("stmts,zones", [
    ("draw 1 from deck to hand[seat(0)]  draw 1 from deck to used",
     {("deck", None): [3, 4, 5], ("used", None): [2], ("hand", 0): [1]}),
    ("draw 4 from deck to used  draw 3 from deck to hand[seat(1)]",  # the deck refills half-way
     {("deck", None): [2, 1], ("hand", 1): [3, 4, 5]}),
    ("draw all from deck to used  draw 1 from deck to hand[seat(0)]",
     {("deck", None): [4, 3, 2, 1], ("hand", 0): [5]}),
    ("draw n from deck to hand[seat(0)]  draw n + 9 from used to hand[seat(1)]",  # used is empty, no refill
     {("deck", None): [4, 5], ("hand", 0): [3, 2, 1]}),
    ("draw 0 - 1 from deck to used", {("deck", None): [1, 2, 3, 4, 5]}),
])
def test_a_draw_in_a_stretch_does_what_its_effect_does(tmp_path, stmts, zones):
    """Written as text in a stretch (inplace.t_Draw), a draw moves the cards, refills the
    deck, charges the work and tells the shuffle as its effect does (compiled with chance
    apart, a draw is its own op running that effect)."""
    text = played(tmp_path, DRAWS % stmts)
    assert text[0] == zones
    assert text == played(tmp_path, DRAWS % stmts, chance_apart=True)


def test_a_failing_count_of_a_draw_is_named_there(tmp_path):
    for fuse in (True, False):
        with pytest.raises(GameRuntimeError) as info:
            machine(tmp_path, DRAWS % "draw [1][5] from deck to used", fuse)
        assert (info.value.diagnostic.code, info.value.diagnostic.span.line) == ("R002", 8), fuse


# ---------------------------------------------------------------- long stretches
def test_a_long_run_of_statements_is_split_into_stretches_of_at_most_max_stretch(tmp_path):
    """Python's compiler takes about 130 bytes a character of text: 40,000 statements in one
    function took 1.6 GB. A run is split; the statements still run in order."""
    text = "shared { n: int = 0  m: int = 0 }\nrule flow() {\n" + "  n += 1  m = n * 2\n" * 250 + "}\n"
    for m, _ in both(tmp_path, text):
        assert (m.w.shared["n"], m.w.shared["m"]) == (250, 500)
    kinds = machine(tmp_path, text).program.rules["flow"].kinds
    assert kinds == ["effects"] * 3  # 500 statements: 200, 200, 100


def test_an_if_or_a_straight_rule_too_long_for_one_stretch_runs_as_ops(tmp_path):
    body = "n += 1 " * (MAX_STRETCH + 1)
    text = ("shared { n: int = 0 }\nrule long() { " + body + "}\n"
            "rule flow() {\n  if n == 0 { " + body + "}\n  long()\n  long()\n}\n")
    for m, _ in both(tmp_path, text):
        assert m.w.shared["n"] == 3 * (MAX_STRETCH + 1)
    prog = machine(tmp_path, text).program
    assert prog.rules["flow"].kinds[0] == "if" and "call" in prog.rules["flow"].kinds


PUT_CARDS = """cards chip(v: int) {
  each v in 1..4
}
zone deck: chip hidden
zone used: chip public
zone hand per player: chip owner
shared { n: int = 0 }
rule setup() { for c in chip { move c to deck } }
%s
rule flow() {
  let top = first(c in deck)
  move top to used
  let two = first(c in deck)
  move two to hand[seat(1)]
  move top under deck
  move two to used
  let z = hand[seat(1)]
  move top to z
  choose x from [1, 2] by seat(0)
}
"""


@pytest.mark.parametrize("ends", ["", 'end when spent "spent": size(used) > 3',
                                  'end when held "held": size(hand[seat(2)]) > 3', 'end when far "far": n > 3'])
def test_a_move_written_out_leaves_the_world_as_world_put_does(tmp_path, monkeypatch, ends):
    """`move C to Z` written out (texts.card_put, where the text names Z) leaves the zones,
    where each card lies and the World's version as World.put does: the version bumped
    when an end condition reads the zone the card goes to or the one it leaves
    (Program.zones_watched)."""
    from ruledsl.compile.texts import StatementTexts
    written = machine(tmp_path, PUT_CARDS % ends)
    monkeypatch.setattr(StatementTexts, "card_put", lambda self, s: [f"w.put(_c, _val, {bool(s.bottom)})"])
    put = machine(tmp_path, PUT_CARDS % ends)
    assert (written.w.zones, written.w.loc, written.w.version) == (put.w.zones, put.w.loc, put.w.version)
    label = written.program.cards
    held = {k: [label[c].label for c in cards] for k, cards in written.w.zones.items() if cards}
    assert held == {("deck", None): ["2", "1"], ("used", None): ["3"], ("hand", 1): ["4"]}
