"""Walking a graph board: `move X.f by N steps D [via t where ROUTE] [by P [as "name"]]`."""
import pytest
from click.testing import CliRunner

from ruledsl.cli import main
from ruledsl.errors import GameRuntimeError
from ruledsl.runtime.machine import Machine
from support import FixedChance, run_text, text_program

# a ring a-b-c-d-e-a with a shortcut b -> x -> d (a fork at b going forward, a join at d)
RING = '''
board map(kind: int = 0) graph {
  space a space b space c space d space e space x 1
  link a b  link b c  link c d  link d e  link e a
  link b x  link x d
}
player { at: map = a  passed: int = 0  landed: int = 0  short: bool = false }
shared { trail: int = 0 }
on pass map(s: map, p: player) { p.passed += 1  if s == c { trail += 1 } }
on land map(s: map, p: player) { p.landed += 1 }
'''


def at(m, seat=0):
    return m.w.players[seat]["at"]


def test_a_route_condition_picks_the_way_at_a_fork_and_triggers_run(tmp_path):
    m = run_text(tmp_path, RING + '''rule flow() {
      move seat(0).at by 3 steps forward via t where t.kind == 0
      move seat(1).at by 3 steps forward via t where t.kind == 1 }''')
    p0, p1 = m.w.players
    assert (p0["at"], p0["passed"], p0["landed"]) == ("d", 2, 1)  # a -> b -> c -> d
    assert (p1["at"], p1["passed"], p1["landed"]) == ("d", 2, 1)  # a -> b -> x -> d
    assert m.w.shared["trail"] == 1  # only seat 0 went through c


def test_the_route_may_read_the_mover(tmp_path):
    m = run_text(tmp_path, RING + '''rule flow() {
      seat(1).short = true
      for p in players { move p.at by 4 steps forward via t where (t.kind == 1) == p.short } }''')
    assert (at(m, 0), at(m, 1)) == ("e", "e")  # a b c d e, and a b x d e
    assert m.w.shared["trail"] == 1


def test_a_fork_is_a_decision_of_the_chooser_with_ways_in_link_order(tmp_path):
    m = run_text(tmp_path, RING + 'rule flow() { move seat(0).at by 2 steps forward by seat(1) as "way" }')
    assert m.pending.seat == 1 and m.pending.name == "way"
    assert m.pending.labels == ["c", "x"]
    assert at(m) == "b" and m.w.players[0]["passed"] == 1  # the walk waits at the fork
    assert m.choose("x") is None
    assert at(m) == "x" and m.w.players[0]["landed"] == 1 and m.result is not None


def test_no_fork_no_decision_even_with_a_chooser(tmp_path):
    m = run_text(tmp_path, RING + 'rule flow() { seat(0).at = c  move seat(0).at by 3 steps forward by seat(0) }')
    assert m.pending is None and at(m) == "a"


def test_a_route_leaving_two_ways_then_asks_the_chooser(tmp_path):
    m = run_text(tmp_path, RING + 'rule flow() { move seat(0).at by 2 steps forward via t where t != a by seat(0) }')
    assert m.pending.name == "route" and m.pending.labels == ["c", "x"]


def test_backward_follows_links_in_reverse(tmp_path):
    m = run_text(tmp_path, RING + 'rule flow() { seat(0).at = d  move seat(0).at by 3 steps backward by seat(0) }')
    assert m.pending.labels == ["c", "x"]  # d is reached from c and from x
    m.choose("x")
    assert at(m) == "a"  # d <- x <- b <- a


def test_a_walk_never_steps_straight_back(tmp_path):
    text = '''
board path() graph { space a space b space c  link a b  link b a  link b c  link c b }
player { at: path = a  passed: int = 0 }
on pass path(s: path, p: player) { p.passed += 1 }
rule flow() { move seat(0).at by 2 steps forward by seat(1) }'''
    m = run_text(tmp_path, text)
    assert m.pending is None and at(m) == "c" and m.w.players[0]["passed"] == 1  # at b the way back to a is not offered


def test_a_dead_end_is_landed_on_not_passed(tmp_path):
    text = '''
board path() graph { space a space b space c  link a b  link b c }
player { at: path = a  passed: int = 0  landed: int = 0 }
on pass path(s: path, p: player) { p.passed += 1 }
on land path(s: path, p: player) { p.landed += 1 }
rule flow() { move seat(0).at by 9 steps forward  move seat(1).at by 2 steps backward }'''
    m = run_text(tmp_path, text)
    p0, p1 = m.w.players
    assert (p0["at"], p0["passed"], p0["landed"]) == ("c", 1, 1)
    assert (p1["at"], p1["passed"], p1["landed"]) == ("a", 0, 1)  # no way back from a: lands where it is


def test_a_route_that_keeps_no_way_is_R008(tmp_path):
    with pytest.raises(GameRuntimeError) as info:
        run_text(tmp_path, RING + 'rule flow() { move seat(0).at by 2 steps forward via t where t == e }')
    assert info.value.diagnostic.code == "R008" and "fits the route" in info.value.diagnostic.message


def test_a_fork_the_route_leaves_open_with_no_chooser_is_R008(tmp_path):
    with pytest.raises(GameRuntimeError) as info:
        run_text(tmp_path, RING + 'rule flow() { move seat(0).at by 2 steps forward via t where true }')
    assert info.value.diagnostic.code == "R008" and "nobody to choose" in info.value.diagnostic.message


def test_walking_changes_the_world_version_so_end_conditions_see_it(tmp_path):
    m = run_text(tmp_path, RING + '''end when there "reached d": seat(0).at == d winner seat(0)
rule flow() { move seat(0).at by 3 steps forward via t where t.kind == 0
              loop { choose s from [1, 2] by seat(1) } }''')
    assert m.result is not None and m.result.reason == "reached d" and m.result.winners == [0]


def test_a_fork_decision_is_recorded_and_replays(tmp_path, monkeypatch):
    path = tmp_path / "walk.game"
    path.write_text('game "Walk" players 2..2\n' + RING + '''rule flow() {
      repeat 6 { for p in players { let r = roll d4  move p.at by r steps forward by p as "way" } } }''')
    record = tmp_path / "walk.jsonl"
    runner = CliRunner()
    first = runner.invoke(main, ["play", str(path), "-n", "2", "-s", "3", "--record", str(record)])
    assert first.exit_code == 0, first.output
    assert 'for way' in first.output
    again = runner.invoke(main, ["play", str(path), "-n", "2", "-s", "3"])
    assert again.output.split("\n", 1)[1] == first.output.split("\n", 1)[1]
    replayed = runner.invoke(main, ["replay", str(record)])
    assert replayed.exit_code == 0, replayed.output


def test_walks_leave_the_boards_ways_as_they_were(tmp_path):
    """A step reads the board's own list of ways on where the space just left isn't among
    them (Program.graph_ways): forks, routes and choices never change it."""
    import copy
    program = text_program(tmp_path, RING + '''rule flow() {
      move seat(0).at by 3 steps forward via t where t.kind == 1
      move seat(1).at by 2 steps forward by seat(1) as "way"
      move seat(1).at by 4 steps backward by seat(1) as "back" }''')
    ways = program.boards["map"].ways
    before = copy.deepcopy(ways)
    assert program.graph_ways("map", "b", "forward", None) is ways["forward"]["b"]
    assert program.graph_ways("map", "d", "backward", "x") == ["c"]
    m = Machine(program, 2, FixedChance(), fast=True)
    while m.pending is not None:
        m.choose_index(len(m.pending.values) - 1)
    assert m.result is not None and ways == before
