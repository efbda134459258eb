"""The language's constructs for rules that give results, wrap their base, look values
up in tables and end in draws: `rule r(...) -> T` with `return VALUE` and `let x = r(...)`,
`base(...)` in an override, `match`, and `end ... draw`."""
from __future__ import annotations

import pytest

import ruledsl
from ruledsl.syntax import ast
from ruledsl.errors import GameRuntimeError, RuleError, Span
from ruledsl.syntax.load import canonical, load
from ruledsl.pipeline import load_game
from ruledsl.runtime.machine import Machine, RandomChance
from ruledsl.play.simulate import simulate
from support import run_text

GIVES = """
player { pts: int = 0 }
rule pick(p: player) -> int {
  choose n from 1..3 by p as "points"
  if n == 3 { return 30 }
  return n
}
rule ahead() -> player? {
  return first_ahead()
}
rule first_ahead() -> player? {
  for p in players { if p.pts >= 30 { return p } }
}
rule flow() {
  for p in players {
    let got = pick(p)
    p.pts += got
  }
  let w = ahead()
  if w == none { end "nobody reached 30" draw }
  end "reached 30" winner w
}
score p: p.pts
"""


def test_a_rule_gives_its_result_to_the_caller_after_a_decision_inside_it(tmp_path):
    m = run_text(tmp_path, GIVES)
    assert m.pending.name == "points"
    m.choose("3")
    m.choose("2")
    assert [m.w.players[s]["pts"] for s in range(2)] == [30, 2]
    assert m.result.winners == [0] and m.result.reason == "reached 30"


def test_a_rule_that_falls_off_its_end_gives_none_and_end_draw_has_no_winner(tmp_path):
    m = run_text(tmp_path, GIVES)
    m.choose("1")
    m.choose("2")
    assert m.result.reason == "nobody reached 30"
    assert m.result.winners == [] and m.result.draw and m.result.by_rule


def test_a_clone_taken_inside_a_called_rule_gives_the_result_to_its_own_caller(tmp_path):
    m = run_text(tmp_path, GIVES)
    m.choose("3")
    copy = m.clone()
    copy.choose("3")
    m.choose("1")
    assert copy.w.players[1]["pts"] == 30 and m.w.players[1]["pts"] == 1


def test_a_draw_counts_as_a_draw_in_the_api_and_in_simulate(tmp_path):
    path = tmp_path / "draw.game"
    path.write_text('game "D" players 2..2\nrule flow() { end "all square" draw }\n')
    match = ruledsl.load(str(path)).start(players=2, seed=1)
    assert match.result.winners == () and match.result.draw
    summary = simulate(load_game(str(path)).program, 2, 5, 1)
    assert summary.as_json()["draws"] == 5 and summary.shared == 0 and summary.wins == [0, 0]


BASE = """game "B" players 2..2
player { pts: int = 0 }
def gain(p: player) = 1
rule turn(p: player) {
  p.pts += gain(p)
  say "{p} has {p.pts}"
}
rule flow() {
  repeat 2 { for p in players { turn(p) } }
  end "done"
}
score p: p.pts
"""


def _files(tmp_path, **texts):
    for name, text in texts.items():
        (tmp_path / f"{name}.game").write_text(text)
    return tmp_path


def _said(path) -> tuple:
    """What a game on `path` says, and its finished Machine (it asks nothing)."""
    said = []
    m = Machine(load_game(str(path)).program, 2, RandomChance(1),
                listener=lambda kind, data: said.append(data["text"]) if kind == "say" else None)
    return said, m


def test_base_calls_the_replaced_rule_and_def_through_two_variants(tmp_path):
    _files(tmp_path, base=BASE,
           v1='extends "base.game"\noverride def gain(p: player) = base(p) * 10\n'
              'override rule turn(p: player) {\n  say "before {p}"\n  base(p)\n}\n',
           v2='extends "v1.game"\noverride def gain(p: player) = base(p) + 1\n'
              'override rule turn(p: player) {\n  base(p)\n  say "after {p}"\n}\n')
    said, m = _said(tmp_path / "v2.game")
    assert said[:3] == ["before seat 0", "seat 0 has 11", "after seat 0"]
    assert m.result.scores == [22, 22]


def test_an_override_without_base_keeps_no_copy_of_the_base(tmp_path):
    _files(tmp_path, base=BASE, v='extends "base.game"\noverride def gain(p: player) = 2\n')
    names = [getattr(d, "name", None) for d in load(str(tmp_path / "v.game")).decls]
    assert not any(n and "(base" in n for n in names)


@pytest.mark.parametrize("over", ["game", "MAX"])
def test_base_in_an_override_of_something_that_is_no_rule_or_def_is_an_error_not_a_crash(tmp_path, over):
    """`override rule game() { base() }` over the game declaration (found by the fuzzer:
    an internal error), or over a constant: base(...) has nothing to call (E237)."""
    _files(tmp_path, base=BASE + "const MAX = 3\n", v=f'extends "base.game"\noverride rule {over}() {{\n  base()\n}}\n')
    with pytest.raises(RuleError) as err:
        load_game(str(tmp_path / "v.game"))
    assert "E237" in [d.code for d in err.value.diagnostics]


def test_fields_added_to_the_language_leave_the_rules_hash_of_older_rules_alone():
    span = Span("x.game", 1, 1)
    old = ast.Rule(span=span, name="r", params=(), body=(ast.Return(span=span),))
    new = ast.Rule(span=span, name="r", params=(), body=(ast.Return(span=span, value=ast.Int(span=span, value=1)),),
                   returns=ast.TypeRef(span=span, name="int", optional=False))
    assert "returns" not in repr(canonical(old)) and "value" not in repr(canonical(old))
    assert "returns" in repr(canonical(new)) and canonical(old) != canonical(new)


MATCH = """
enum trouble { jail at_home beat_up girlfriend }
enum symbol { key newspaper aid_kit hat }
def cure(t: trouble) = match t { case jail: key case at_home: newspaper case beat_up: aid_kit case girlfriend: hat }
def penalty(stars: int) = match stars { case 1: 25 case 2, 3: 50 else: 100 }
def kind(t: trouble) = match t { case jail, at_home: "stuck" else: match t { case beat_up: "hurt" else: "busy" } }
shared { none_yet: trouble? = none }
rule flow() {
  for t in trouble { say "{t}: {cure(t)}, {kind(t)}" }
  say "{sum(s in 1..4: penalty(s))}"
  say "{cure(none_yet)}"
}
"""


def test_match_picks_the_first_case_naming_the_value_and_refuses_a_none_it_does_not_name(tmp_path):
    said = []
    with pytest.raises(GameRuntimeError) as err:
        run_text(tmp_path, MATCH, listener=lambda kind, data: said.append(data.get("text")))
    assert err.value.diagnostic.code == "R001" and "no case names none" in err.value.diagnostic.message
    assert said == ["jail: key, stuck", "at_home: newspaper, stuck", "beat_up: aid_kit, hurt",
                    "girlfriend: hat, busy", "225"]


WINDOW = """
player { coins: int = 3 }
shared { trades: int = 0 }
rule flow() {
  window q in [o in players where o != seat(0)] as "give a coin" if q.coins > MIN {
    q.coins -= 1
    seat(0).coins += 1
    trades += 1
    if trades >= LIMIT { break }
  }
  end "closed"
}
"""


def _window(tmp_path, limit=9, players=3, before="", least=0):
    return run_text(tmp_path, f"const LIMIT = {limit}\nconst MIN = {least}\n" + WINDOW.replace("rule flow() {", "rule flow() {" + before),
                    players=players)


def _asked(m, *answers) -> list:
    """Answers the window's questions in turn; returns the seats asked."""
    seats = []
    for answer in answers:
        assert m.pending.name == "give a coin"
        seats.append(m.pending.seat)
        m.choose(answer)
    return seats


def test_a_window_stays_open_until_every_seat_in_a_row_has_passed(tmp_path):
    m = _window(tmp_path)
    assert _asked(m, "give a coin", "pass", "pass") == [1, 2, 1]
    assert m.result is not None and m.w.shared["trades"] == 1


def test_a_seat_the_guard_leaves_out_is_not_asked_and_break_closes_the_window(tmp_path):
    m = _window(tmp_path, least=2)
    assert _asked(m, "pass", "give a coin", "pass") == [1, 2, 1]  # then seat 2 has 2 coins: not asked
    assert m.result is not None and m.w.shared["trades"] == 1
    m = _window(tmp_path, limit=1)
    assert _asked(m, "give a coin") == [1]
    assert m.result is not None and m.w.players[0]["coins"] == 4


def test_an_eliminated_seat_is_not_asked_in_a_window(tmp_path):
    m = _window(tmp_path, players=4, before=" eliminate seat(2)")
    assert _asked(m, "pass", "pass") == [1, 3]
    assert m.result is not None


ROWS = """
enum kind { safe blank casino }
enum sector { northeast southeast }
const SECTOR_LEN = 4
board city(kind: kind, sector: sector? = none) loop {
  space N safe
  each i in 1..SECTOR_LEN: space "ne{i}" (match i { case 3: casino else: blank }) northeast
  space E safe
  each s in [southeast], i in 1..2: space "se{i}" (if i == 2 then casino else blank) s
}
rule flow() { }
"""


def test_generated_space_rows_come_in_order_with_their_values(tmp_path):
    m = run_text(tmp_path, ROWS)
    board = m.program.boards["city"]
    assert board.spaces == ["N", "ne1", "ne2", "ne3", "ne4", "E", "se1", "se2"]
    kinds = board.attrs_of_space["kind"]
    assert [kinds[s] for s in board.spaces] == ["safe", "blank", "blank", "casino", "blank", "safe", "blank", "casino"]
    assert board.attrs_of_space["sector"]["se2"] == "southeast" and board.attrs_of_space["sector"]["N"] is None
