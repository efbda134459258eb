"""The machine on small games: triggers, graphs, limits, refusals, views."""
import pytest

from ruledsl.errors import GameRuntimeError
from ruledsl.runtime.chance import ChancePause, ScriptedChance
from ruledsl.runtime.machine import Machine
from support import FixedChance, run_text, text_program


TRACK = '''
board lane() loop { space a space b space c space d }
player { at: lane = a  passed: int = 0  landed: int = 0 }
on pass lane(s: lane, p: player) { p.passed += 1 }
on land lane(s: lane, p: player) { p.landed += 1 }
'''


def test_walking_runs_pass_triggers_for_each_space_passed_and_land_once(tmp_path):
    m = run_text(tmp_path, TRACK + "rule flow() { move seat(0).at by 6 steps forward }")
    p = m.w.players[0]
    assert (p["at"], p["passed"], p["landed"]) == ("c", 5, 1)


def test_walking_backward_wraps_around_a_loop(tmp_path):
    m = run_text(tmp_path, TRACK + "rule flow() { move seat(0).at by 1 steps backward }")
    assert m.w.players[0]["at"] == "d"


def test_walking_stops_at_the_end_of_a_line(tmp_path):
    text = TRACK.replace("loop", "line") + "rule flow() { move seat(0).at by 9 steps forward }"
    p = run_text(tmp_path, text).w.players[0]
    assert (p["at"], p["passed"], p["landed"]) == ("d", 2, 1)


def test_graph_neighbors_follow_link_rows_both_ways(tmp_path):
    text = '''
board map() graph { space hub space north space south link hub north link south hub }
player { at: map = north }
rule flow() { choose s from neighbors(seat(0).at) by seat(0) as "go"  seat(0).at = s
              choose t from neighbors(hub) by seat(0) as "look" }
'''
    m = run_text(tmp_path, text)
    assert m.pending.labels == ["hub"]
    m.choose("hub")
    assert m.pending.labels == ["north", "south"]


def test_a_runaway_loop_fails_its_step_at_the_loop_not_forever(tmp_path):
    with pytest.raises(GameRuntimeError) as info:
        run_text(tmp_path, "shared { n: int = 0 }\nrule flow() {\n  loop { n += 1 } }")
    assert info.value.diagnostic.code == "R010"
    assert (info.value.diagnostic.span.line, info.value.diagnostic.span.col) == (4, 3)  # after the game line


@pytest.mark.parametrize("fast", [False, True])
def test_a_game_of_endless_decisions_ends_by_the_step_limit(tmp_path, fast):
    """Each turn of the loop, each call and each option labelled costs a unit (budget.py):
    set-up spends 4 (a turn, a call, two options), then every two choices 7 more (a turn,
    two calls, four options), so 8 choices have spent 32 of 30 and the 9th is taken but
    its step never runs; the same on a fast Machine as on op lists."""
    text = ("shared { n: int = 0 }\nrule pick() { choose x from [1, 2] by seat(0) as \"x\"  n += x }\n"
            "rule flow() { loop { pick() pick() } }")
    m = run_text(tmp_path, text, fast=fast, game_work=30)
    while m.result is None and m.steps < 20:  # (a limit not kept fails below, not by running on)
        m.choose("1")
    assert m.result.reason == "step limit: too much work in one game"
    assert not m.result.by_rule and m.result.winners == []
    assert m.steps == 9 and m.w.shared["n"] == 8 and m.spent == 32


def test_runaway_recursion_is_a_clear_runtime_error(tmp_path):
    with pytest.raises(GameRuntimeError) as info:
        run_text(tmp_path, "rule again() { again() }\nrule flow() { again() }")
    assert info.value.diagnostic.code == "R004"
    assert info.value.diagnostic.span.line == 2


def test_choosing_from_nothing_names_the_rule(tmp_path):
    with pytest.raises(GameRuntimeError) as info:
        run_text(tmp_path, "rule flow() { choose p from [q in players where false] by seat(0) }")
    assert info.value.diagnostic.code == "R007"


def test_an_illegal_choice_is_refused_with_the_legal_ones(tmp_path):
    m = run_text(tmp_path, "enum side { heads tails }\nrule flow() { choose s from side by seat(1) }")
    refusal = m.choose("edge")
    assert refusal.code == "R101" and refusal.legal == ["heads", "tails"]
    assert m.pending is not None and m.steps == 0


def test_views_hide_other_hands_and_secret_fields(tmp_path):
    text = '''
cards chip(value: int) { each value in 1..6 }
zone pile: chip hidden
zone hand per player: chip owner
player { secret bid: int = 7 }
rule setup() { for p in players { draw 2 from pile to hand[p] } }
rule flow() { choose c from hand[seat(0)] by seat(0) }
'''
    m = run_text(tmp_path, text)
    view = m.w.snapshot(0)
    assert view["zones"]["hand/seat 0"] == ["2", "1"]
    assert view["zones"]["hand/seat 1"] == {"count": 2}
    assert view["zones"]["pile"] == {"count": 2}
    assert view["players"][0]["bid"] == 7 and view["players"][1]["bid"] == "?"


def test_end_conditions_are_checked_at_turn_boundaries(tmp_path):
    text = '''
player { points: int = 0 }
rule flow() { loop { for p in players { p.points += 1 } } }
end when enough "three points": any(p in players: p.points >= 3) winner first(p in players where p.points >= 3)
'''
    m = run_text(tmp_path, text)
    assert m.result.reason == "three points" and m.result.winners == [0]
    assert [p["points"] for p in m.w.players] == [3, 2]


ENDS = '''
shared { n: int = 0 }
rule flow() { loop { for p in players { choose x from 1..2 by p as "add"  n += x } } }
end when big "n reached 5": n >= 5
'''


def test_end_conditions_are_rechecked_after_every_rule_change(tmp_path):
    m = run_text(tmp_path, ENDS)
    for _ in range(2):
        m.choose("2")
    assert m.result is None
    m.choose("2")  # n = 6: the turn boundary after this choice ends the game
    assert m.result.reason == "n reached 5" and m.steps == 3


def test_a_direct_poke_is_seen_by_end_checks_once_the_world_is_touched(tmp_path):
    m = run_text(tmp_path, ENDS)
    m.w.shared["n"] = 9
    assert not m.check_ends()  # unchanged version: the last (false) answer stands
    m.w.touch()
    assert m.check_ends() and m.result.reason == "n reached 5"


NONE_TARGETS = """board lots(block: int) {
  field owner: player? = none
  each i in 1..6: space "a{i}" 1
  each i in 1..6: space "b{i}" 2
}
cards chip(v: int) {
  field hot: bool = false
  each v in 1..3
}
shared { lot: lots? = none  one: chip? = none }
def mine(b: int) = count(s in lots where s.block == b and s.owner == seat(0))
"""


@pytest.mark.parametrize("fast", [False, True])
@pytest.mark.parametrize("store, column", [("lot.owner = seat(0)", ("spaces", "lots", "owner")),
                                           ("one.hot = true", ("cardf", "hot"))])
def test_a_field_of_none_cannot_be_set(tmp_path, fast, store, column):
    """`x.f = v` with x none fails at the statement (R001) and leaves the field's column as it
    was: no key `None` in it (the owner's column is tallied: `mine` counts it by block)."""
    text = NONE_TARGETS + "rule flow() {\n  choose k from [1, 2] by seat(0)\n  " + store + "\n}\n"
    m = run_text(tmp_path, text, fast=fast)
    table = getattr(m.w, column[0])
    for key in column[1:]:
        table = table[key]
    assert column[0] == "cardf" or table.tallies  # (world.Column)
    before = dict(table)
    with pytest.raises(GameRuntimeError) as info:
        m.choose("1")
    assert info.value.diagnostic.code == "R001" and info.value.diagnostic.span.line == 15
    assert dict(table) == before and None not in table


@pytest.mark.parametrize("fast", [False, True])
@pytest.mark.parametrize("store", ["a1.n = big * big", "c.n = big * big"])
def test_a_number_too_big_for_a_field_of_a_space_or_card_fails_where_it_is_made(tmp_path, fast, store):
    """R012 at the value stored, as for any stored number (stores.stored_text checks what
    the field now holds)."""
    text = """board grid() {
  field n: int = 0
  space a1
}
cards chip(v: int) {
  field n: int = 0
  card 1
}
shared { big: int = 3037000500 }
rule flow() {
  let c = first(k in chip)
  choose x from [1, 2] by seat(0)
  """ + store + """
}
"""
    m = run_text(tmp_path, text, fast=fast)
    with pytest.raises(GameRuntimeError) as info:
        m.choose("1")
    assert info.value.diagnostic.code == "R012" and info.value.diagnostic.span.line == 14


def test_a_machine_refuses_a_player_count_outside_the_games_range(tmp_path):
    with pytest.raises(ValueError, match="takes 2 to 4 players, not 5"):
        run_text(tmp_path, "rule flow() { }", players=5)


def test_break_leaves_the_innermost_loop_of_every_kind(tmp_path):
    text = '''
shared { n: int = 0  m: int = 0  k: int = 0 }
rule flow() {
  for i in 1..10 { if i == 4 { break }  n += i }
  repeat 5 { m += 1  if m == 2 { break } }
  loop { k += 1  for p in players { if k >= 3 { break } }  if k == 5 { break } }
  for i in 1..3 { for j in 1..3 { if j == 2 { break }  m += 10 } }
}
'''
    m = run_text(tmp_path, text)
    assert (m.w.shared["n"], m.w.shared["m"], m.w.shared["k"]) == (6, 32, 5)
    assert m.result.reason == "the flow of play ended"


def test_a_for_loop_left_by_break_can_run_again(tmp_path):
    text = '''
shared { n: int = 0 }
rule flow() { repeat 3 { for i in 1..5 { if i == 3 { break }  n += 1 } } }
'''
    assert run_text(tmp_path, text).w.shared["n"] == 6


GEAR = '''
cards unit(power: int) label "unit {power}" { card 1  card 2  card 2 }
cards item(bonus: int) label "+{bonus}" { each bonus in 1..4 }
zone barracks: unit public
zone armory: item hidden
zone gear per unit: item public
def strength(u: unit) = u.power + sum(i in gear[u]: i.bonus)
rule flow() {
  for u in unit { draw 1 from armory to gear[u] }
  choose u from unit by seat(0) as "equip"
  draw 1 from armory to gear[u]
}
'''


def test_a_zone_per_card_holds_what_lies_on_each_card(tmp_path):
    m = run_text(tmp_path, GEAR)
    assert m.pending.labels == ["unit 1", "unit 2", "unit 2 #2"]  # equal units stay apart
    view = m.w.snapshot(0)["zones"]
    assert (view["gear/unit 1"], view["gear/unit 2"], view["gear/unit 2 #2"]) == (["+1"], ["+2"], ["+3"])
    assert m.choose("unit 2 #2") is None
    third = m.program.cardset_ids["unit"][2]
    assert [m.program.cards[c].label for c in m.w.zones[("gear", third)]] == ["+4", "+3"]
    assert m.program.def_bodies["strength"][0](m.w, third) == 2 + 4 + 3


@pytest.mark.parametrize("fast", [False, True])
@pytest.mark.parametrize("form, rules", [
    ("straight, run in a stretch", "rule r() { n += 1 }\nrule flow() { r() r() choose x from [1, 2] by seat(0) }"),
    ("compiled in place", "rule r() { n += 1  choose x from [1, 2] by seat(0) }\nrule flow() { r() }"),
    ("with a frame", "rule r() { n += 1  choose x from [1, 2] by seat(0) }\nrule flow() { r() r() }"),
])
def test_every_call_costs_one_unit_of_work_whatever_it_compiles_to(tmp_path, form, rules, fast):
    """How a call is compiled depends on the rule and on how the game is compiled, never
    the work it costs (budget.py): the flow's calls up to the first decision, one unit each,
    and the decision's two options, one each."""
    m = run_text(tmp_path, "shared { n: int = 0 }\n" + rules, fast=fast)
    assert m.pending is not None and m.spent == m.w.shared["n"] + 2


def test_a_step_paused_for_chance_goes_on_where_it_stopped_with_the_same_work_budget(tmp_path):
    """Compiled with chance_apart, the roll is an op of its own: the step pauses there and
    `resume()` goes on from it, not from the start of the step, and the pause leaves the
    step's work as it was (a fresh budget would let a paused step run for ever)."""
    text = """shared { before: int = 0  after: int = 0  total: int = 0 }
rule flow() {
  loop {
    repeat 3 { before += 1 }
    let r = roll d6
    repeat 2 { after += 1 }
    total += r
    choose x from [1, 2] by seat(0)
  }
}
"""
    program = text_program(tmp_path, text, chance_apart=True)
    dice = ScriptedChance()
    usual = Machine(text_program(tmp_path, text), 2, FixedChance([4, 5]))
    m = Machine(program, 2, dice, start=False)
    with pytest.raises(ChancePause):
        m.run()  # set-up pauses at the roll
    assert m.w.shared["before"] == 3 and m.w.shared["after"] == 0 and m.pending is None
    dice.outcomes.append([4])
    m.resume()
    assert (m.w.shared["before"], m.w.shared["after"], m.w.shared["total"]) == (3, 2, 4)
    assert m.pending is not None and m.spent == usual.spent
    with pytest.raises(ChancePause):
        m.choose("1")
    dice.outcomes.append([5])
    m.resume()
    usual.choose("1")
    assert m.w.shared == usual.w.shared and m.spent == usual.spent and m.steps == usual.steps == 1


def test_a_paused_step_keeps_its_work_budget_so_it_fails_where_an_unpaused_one_does(tmp_path, monkeypatch):
    """600 loop turns before the roll and 600 after are more than a step may do (1,000
    units here): paused at the roll or not, the step fails at the second loop."""
    monkeypatch.setattr("ruledsl.runtime.machine.STEP_WORK", 1000)
    text = """shared { n: int = 0 }
rule flow() {
  repeat 600 { n += 1 }
  let r = roll d6
  repeat 600 { n += r }
  choose x from [1, 2] by seat(0)
}
"""
    with pytest.raises(GameRuntimeError) as usual:
        Machine(text_program(tmp_path, text), 2, FixedChance([1]))
    dice = ScriptedChance()
    m = Machine(text_program(tmp_path, text, chance_apart=True), 2, dice, start=False)
    with pytest.raises(ChancePause):
        m.run()
    dice.outcomes.append([1])
    with pytest.raises(GameRuntimeError) as paused:
        m.resume()
    assert paused.value.diagnostic.code == usual.value.diagnostic.code == "R010"
    assert paused.value.diagnostic.span == usual.value.diagnostic.span
    assert paused.value.diagnostic.span.line == 6


@pytest.mark.parametrize("fast", [False, True])
def test_a_step_keeps_its_work_budget_across_a_call_made_after_the_choice(tmp_path, monkeypatch, fast):
    """After the choice the flow turns 600 times and calls `r` (three calls: a frame of its
    own), which turns 600 more: more than a step may do (1,000 units here), so the step fails
    in `r`'s loop, however the Machine hands the choice on (Machine.choose_index goes on with
    a rule's generator itself, run() with the call)."""
    monkeypatch.setattr("ruledsl.runtime.machine.STEP_WORK", 1000)
    text = """shared { n: int = 0 }
rule r() {
  repeat 600 { n += 1 }
  choose x from [1, 2] by seat(0)
}
rule flow() {
  choose y from [1, 2] by seat(0)
  repeat 600 { n += 1 }
  r() r() r()
}
"""
    m = run_text(tmp_path, text, fast=fast)
    with pytest.raises(GameRuntimeError) as info:
        m.choose("1")
    assert info.value.diagnostic.code == "R010" and info.value.diagnostic.span.line == 4
    assert len(m.frames) == 2 and m.w.shared["n"] > 600


def test_only_a_game_compiled_with_chance_apart_goes_on_after_a_pause(tmp_path):
    """Compiled the usual way the roll is inside a stretch, after `n += 1`: running that
    again would count twice, so resume() refuses."""
    m = Machine(text_program(tmp_path, "shared { n: int = 0 }\nrule flow() { n += 1  let r = roll d6  n += r\n"
                                       "  choose x from [1, 2] by seat(0) }"), 2, ScriptedChance(), start=False)
    with pytest.raises(ChancePause):
        m.run()
    m.chance.outcomes.append([3])
    with pytest.raises(RuntimeError, match="chance_apart=True"):
        m.resume()


@pytest.mark.parametrize("fuse", [True, False])
def test_a_shuffle_costs_its_cards_once_also_when_it_paused_for_chance(tmp_path, fuse):
    """A `shuffle` statement costs SHUFFLE_COST units a card (budget.py), charged once the
    order is known: a step paused for it spends what an unpaused one does."""
    from ruledsl.budget import SHUFFLE_COST
    text = """cards c(v: int) { card 1 x 30 }
zone deck: c hidden
rule flow() {
  shuffle deck
  choose x from [1, 2] by seat(0)
}
"""
    usual = Machine(text_program(tmp_path, text, fuse=fuse), 2, FixedChance(), fast=fuse)
    assert usual.spent == 30 * SHUFFLE_COST + 2  # and the two options offered
    cards = ScriptedChance()
    m = Machine(text_program(tmp_path, text, chance_apart=True), 2, cards, start=False)
    with pytest.raises(ChancePause):
        m.run()  # set-up pauses at the shuffle, before it charges
    assert m.spent == 0
    cards.outcomes.append(list(reversed(m.w.zones[("deck", None)])))
    m.resume()
    assert m.spent == usual.spent and m.pending is not None


@pytest.mark.parametrize("order, ranking", [
    (([3, 5, 5, 1], range(4), [], None), [1, 2, 0, 3]),  # by score, ties in seat order
    (([3, 5, 5, 1], [0, 1, 2], [3], None), [1, 2, 0, 3]),  # those out after those in play
    (([3, 5, 5, 9], [0, 2], [3, 1], None), [2, 0, 3, 1]),  # the last one out first, whatever its score
    (([3, 5, 5, 1], range(4), [], 0), [0, 1, 2, 3]),  # a winner named by the rules first
    (([3, 5, 5, 9], [0, 2], [3, 1], 1), [1, 2, 0, 3]),  # ... also one out
    (([(3, 1), (3, 2), (4, 0)], range(3), [], None), [2, 1, 0]),  # tiebreaks after the score
])
def test_a_results_ranking_is_sorted_from_its_order_when_read(order, ranking):
    from ruledsl.runtime.machine import Result

    result = Result("over", [], [0] * len(order[0]), order)
    assert result.ranking == ranking


def test_a_finished_games_result_ranks_every_seat(tmp_path):
    m = run_text(tmp_path, """player { points: int = 0 }
rule flow() {
  seat(0).points += 1
  seat(2).points += 5
  choose by seat(0) as "end" { option "now" { end "over" } }
}
score p: p.points
""", players=3)
    m.choose("now")
    assert m.result.winners == [2] and m.result.ranking == [2, 0, 1] and m.result.scores == [1, 0, 5]



REFILLED = """cards chip(v: int) {
  each v in 1..6
}
zone deck: chip hidden refill from used
zone used: chip public
zone hand per player: chip owner
end when spent "all spent": size(used) == 6
rule setup() {
  draw 4 from deck to used
  draw 1 from deck to hand[seat(0)]
}
rule flow() { choose x from [1, 2] by seat(0) }
"""


@pytest.mark.parametrize("watched", ["as compiled", None, frozenset({"hand"}), frozenset()])
def test_a_refill_moves_the_cards_as_one_put_each_would(tmp_path, monkeypatch, watched):
    """World.put_all (a refill's move, CardCompiler.refill) leaves the zones, where each
    card lies and the World's version as a `put(card, key, bottom=True)` of each card in
    turn leaves them: the cards at the bottom of the zone in their order, the version
    bumped a card at a time when an end condition reads either zone (None: any zone)."""
    m = run_text(tmp_path, REFILLED)
    if watched != "as compiled":
        monkeypatch.setattr(m.program, "zones_watched", watched)
    used, deck, hand = ("used", None), ("deck", None), ("hand", 0)
    for src, key in ((used, deck), (deck, used), (used, hand), (deck, deck)):
        one, each = m.w.clone(), m.w.clone()
        assert one.zones[src] and one.zones[key]
        one.put_all(src, key)
        for card in list(each.zones[src]):
            each.put(card, key, bottom=True)
        assert (one.zones, one.loc, one.version) == (each.zones, each.loc, each.version), (src, key)
