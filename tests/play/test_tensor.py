"""A seat's view as numbers (ruledsl/play/tensor.py): fixed places, only what the seat
sees, copies of a card interchangeable, and the API's Match.observation."""
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings

import ruledsl
from ruledsl.errors import GameRuntimeError
from ruledsl.pipeline import load_game
from ruledsl.play.actions import statements
from ruledsl.play.tensor import Layout, decision_names
from ruledsl.runtime.machine import Machine, RandomChance
from random_programs import programs
from support import ROOT, FixedChance, repository_game, repository_game_files, text_program

SHIPPED = sorted(p.relative_to(ROOT).as_posix() for p in repository_game_files()
                 if p.relative_to(ROOT).parts[0] in ("games", "examples"))  # every shipped game and variant


def playout_views(compiled, players: int, seed: int, decisions: int):
    """(machine, seat) at each decision of a seeded random game, every seat."""
    m = Machine(compiled.program, players, RandomChance(seed), fast=True)
    rng = random.Random(seed)
    while m.pending is not None and m.steps < decisions:
        for seat in range(players):
            yield m, seat
        m.choose_index(rng.randrange(len(m.pending.values)))


def piece(layout: Layout, vector: list, name: str) -> list:
    """The part of `vector` that piece `name` holds, as a flat list."""
    for n, shape, start in layout.pieces:
        if n == name:
            size = 1
            for k in shape:
                size *= k
            return vector[start:start + size]
    raise KeyError(name)


@pytest.mark.parametrize("path", SHIPPED)
def test_every_view_has_the_layouts_length_and_its_pieces_tile_it(path):
    compiled = repository_game(path)
    players = max(2, compiled.program.min_players)
    layout = Layout(compiled, players)
    at = 0
    for name, shape, start in layout.pieces:
        assert start == at, name
        at += len(piece(layout, [0.0] * layout.size, name))
    assert at == layout.size
    names = layout.legend()
    assert len(set(names)) == len(names) == layout.size and "" not in names  # a name of its own for each
    for m, seat in playout_views(compiled, players, seed=3, decisions=40):
        vector = layout.observe(m, seat)
        assert len(vector) == layout.size
        assert piece(layout, vector, "observer") == [1.0 if s == seat else 0.0 for s in range(players)]
        assert sum(piece(layout, vector, "to_move")) == 1.0


@pytest.mark.parametrize("path", SHIPPED)
def test_a_view_depends_on_what_the_seat_sees_alone(path):
    """Equal snapshots for the seat (and the same decision waiting) give equal vectors:
    nothing hidden from the seat, nor which copy of a card is which, goes in."""
    compiled = repository_game(path)
    players = max(2, compiled.program.min_players)
    layout = Layout(compiled, players)
    seen: dict = {}
    for seed in range(12):
        for m, seat in playout_views(compiled, players, seed, decisions=25):
            d = m.pending
            key = (seat, d.seat, d.name if d.seat == seat else None, json.dumps(m.w.snapshot(seat), sort_keys=True))
            vector = layout.observe(m, seat)
            assert seen.setdefault(key, vector) == vector


def test_kuhn_pokers_hidden_card_is_not_in_the_other_seats_view():
    """The same view of seat 0 for every card seat 1 may hold: the property above over
    every deal, and seat 0's own card in its row."""
    compiled = repository_game("examples/kuhn_poker.game")
    layout = Layout(compiled, 2)
    views, dealt = {}, set()
    for seed in range(40):
        m = Machine(compiled.program, 2, RandomChance(seed), fast=True)
        hand0, hand1 = m.w.zones[("hand", 0)][0], m.w.zones[("hand", 1)][0]
        views.setdefault(hand0, set()).add(tuple(layout.observe(m, 0)))
        dealt.add((hand0, hand1))
    assert len(dealt) == 6 and len(views) == 3 and all(len(v) == 1 for v in views.values())
    assert len({v for vs in views.values() for v in vs}) == 3  # and seat 0's own card tells them apart


def test_tic_tac_toe_marks_are_one_hot_by_seat_and_the_decision_is_named():
    compiled = repository_game("examples/tic_tac_toe.game")
    layout = Layout(compiled, 2)
    m = Machine(compiled.program, 2, RandomChance(1), fast=True)
    before = layout.observe(m, 0)
    assert piece(layout, before, "decision")[layout.decisions["mark a cell"]] == 1.0
    assert sum(piece(layout, layout.observe(m, 1), "decision")) == 0.0  # not seat 1's decision
    m.choose("b2")
    grid = piece(layout, layout.observe(m, 0), "board grid")
    b2 = compiled.program.boards["grid"].spaces.index("b2")
    assert grid[2 * b2:2 * b2 + 2] == [1.0, 0.0]
    assert sum(grid) == 1.0
    assert piece(layout, layout.observe(m, 0), "to_move") == [0.0, 1.0, 0.0]


SECRET = """
enum colour { red blue }
cards chip(colour: colour) label "{colour}" {
  card red
  card blue
  card red
}
zone bag: chip hidden
zone hand per player: chip owner
zone table: chip public
player {
  secret bid: int = 0
  coins: int = 5
}
rule setup() {
  draw 2 from bag to hand[seat(0)]
  draw 1 from bag to table
}
rule flow() {
  for p in players {
    choose secret n from 1..3 by p as "bid"
    p.bid = n
  }
  end "done" draw
}
"""


def test_a_secret_field_and_an_owners_zone_are_the_owners_alone(tmp_path):
    text_program(tmp_path, SECRET)
    compiled = ruledsl.load(str(tmp_path / "t.game")).compiled
    layout = Layout(compiled, 2)
    m = Machine(compiled.program, 2, RandomChance(0), fast=True)
    m.choose("3")
    width = layout.player_width
    players0 = piece(layout, layout.observe(m, 0), "players")
    players1 = piece(layout, layout.observe(m, 1), "players")
    bid = layout.player_row["bid"].offset  # after the in-play column
    assert players0[bid] == 3.0 and players1[bid] == 0.0  # seat 0's bid, seen by seat 0 alone
    assert players0[width + layout.player_row["coins"].offset] == 5.0  # seat 1's coins, public
    cards0 = piece(layout, layout.observe(m, 0), "cards")
    cards1 = piece(layout, layout.observe(m, 1), "cards")
    hand = layout.zone_places["hand"][0]
    w = layout.card_width
    assert sum(cards0[row * w + hand] for row in range(3)) == 2.0  # its two cards in hand
    assert sum(cards1[row * w + hand] for row in range(3)) == 0.0  # seat 1 sees none of them
    table = layout.zone_places["table"][0]
    assert sum(cards1[row * w + table] for row in range(3)) == 1.0  # the table's card, public
    assert piece(layout, layout.observe(m, 1), "zone sizes") == piece(layout, layout.observe(m, 0), "zone sizes")


def test_copies_of_a_card_fill_their_rows_in_the_order_they_are_seen(tmp_path):
    """The two red chips are one group: whichever copy lies on the table, the view is the same."""
    text_program(tmp_path, SECRET)
    compiled = ruledsl.load(str(tmp_path / "t.game")).compiled
    layout = Layout(compiled, 2)
    program = compiled.program
    reds = [c.id for c in program.cards if c.label == program.cards[0].label]
    assert len(reds) == 2
    m = Machine(program, 2, RandomChance(0), fast=True, start=False)
    m.w.zones[("table", None)] = [reds[0]]
    m.w.zones[("bag", None)] = [c for c in range(3) if c != reds[0]]
    first = layout.encode(m.w, 1)
    m.w.zones[("table", None)] = [reds[1]]
    m.w.zones[("bag", None)] = [c for c in range(3) if c != reds[1]]
    assert layout.encode(m.w, 1) == first
    rows = piece(layout, first, "cards")
    table = layout.zone_places["table"][0]
    assert rows[reds[0] * layout.card_width + table] == 1.0  # the group's first row takes it
    assert rows[reds[1] * layout.card_width + table] == 0.0


def test_shown_attributes_of_hidden_cards_are_counted():
    """The Boss's hands show each card's boss: every seat sees how many of each boss."""
    compiled = repository_game("games/the_boss.game")
    layout = Layout(compiled, 3)
    m = Machine(compiled.program, 3, RandomChance(2), fast=True)
    while not m.w.zones[("hand", 0)]:  # the cards are dealt after the first choices
        m.choose_index(0)
    shown = piece(layout, layout.observe(m, 1), "shown")
    places = layout.shown[("hand", 0)]
    hand = m.w.zones[("hand", 0)]
    assert sum(shown[i] for i in places.values()) == len(hand) > 0
    boss = compiled.program.cards[hand[0]].attrs["boss"]
    assert shown[places[("boss", boss)]] >= 1.0


def test_each_card_has_a_row_of_its_own_and_copies_rows_side_by_side(tmp_path):
    """Red, blue, red: the reds' rows are 0 and 1, blue's 2 (the second red once took
    blue's row); seat 0 sees the reds on the table and blue in its hand, one zone a row."""
    text_program(tmp_path, SECRET)
    compiled = ruledsl.load(str(tmp_path / "t.game")).compiled
    layout = Layout(compiled, 2)
    assert layout.row_labels == ["red", "red #2", "blue"]
    m = Machine(compiled.program, 2, RandomChance(0), fast=True, start=False)
    m.w.zones[("table", None)] = [0, 2]
    m.w.zones[("hand", 0)] = [1]
    m.w.zones[("bag", None)] = []
    rows = piece(layout, layout.encode(m.w, 0), "cards")
    w, table, hand = layout.card_width, layout.zone_places["table"][0], layout.zone_places["hand"][0]
    assert [(rows[r * w + table], rows[r * w + hand]) for r in range(3)] == [(1.0, 0.0), (1.0, 0.0), (0.0, 1.0)]


def test_the_legend_names_every_number_once(tmp_path):
    compiled = repository_game("examples/tic_tac_toe.game")
    layout = Layout(compiled, 2)
    names = layout.legend()
    assert len(names) == layout.size == len(set(names)) and "" not in names
    m = Machine(compiled.program, 2, RandomChance(1), fast=True)
    m.choose("b2")
    on = [names[i] for i, x in enumerate(layout.observe(m, 1)) if x]
    assert on == ["observer=seat 1", "to_move=seat 1", "decision=mark a cell", "players[seat 0] in play",
                  "players[seat 1] in play", "board grid[b2].owner=seat 0"]
    text_program(tmp_path, SECRET)
    cards = Layout(ruledsl.load(str(tmp_path / "t.game")).compiled, 2).legend()
    assert "cards[red #2] in table" in cards and "cards[blue] per player=seat 1" in cards
    assert "players[seat 1].bid" in cards and "zone sizes[hand/seat 0]" in cards


def test_decision_names_come_from_the_rules_text(tmp_path):
    text_program(tmp_path, 'rule flow() {\n  choose x from 1..2 by seat(0)\n  choose y from 1..2 by seat(0) as "pick"\n'
                           '  may seat(1) "dance" { }\n  window q in players as "respond" { }\n  end "e" draw\n}\n')
    names = decision_names(statements(ruledsl.load(str(tmp_path / "t.game")).compiled))
    assert {"x", "pick", "dance", "respond", "choice", "route"} <= set(names) and names == sorted(names)


def test_the_apis_observation_is_the_layouts():
    game = ruledsl.load("examples/kuhn_poker.game")
    match = game.start(players=2, seed=5)
    pieces = game.observation_pieces(2)
    assert [name for name, _, _ in pieces][:3] == ["observer", "to_move", "decision"]
    vector = match.observation(0)
    assert vector == Layout(game.compiled, 2).observe(match.machine, 0)
    assert len(vector) == pieces[-1][2] + (pieces[-1][1][0] if pieces[-1][1] else 0)
    assert game.observation_legend(2) == Layout(game.compiled, 2).legend() and len(game.observation_legend(2)) == len(vector)
    with pytest.raises(ValueError, match="seats 0..1"):
        match.observation(2)


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(programs())
def test_random_programs_views_have_the_layouts_length_and_a_name_for_each_number(text):
    """Whatever a game declares (zones per card, per space or per enum, card fields,
    optional fields of every kind), every seat's view at every decision fits its layout."""
    compiled = load_game("r.game", files={"r.game": text})
    layout = Layout(compiled, 3)
    assert len(layout.legend()) == layout.size
    try:
        m = Machine(compiled.program, 3, FixedChance([3, 5, 1, 6, 2, 4] * 8), fast=True)
        while m.pending is not None and m.steps < 30:
            for seat in range(3):
                assert len(layout.observe(m, seat)) == layout.size
            m.choose_index(m.steps * 7 % len(m.pending.labels))
    except GameRuntimeError:
        pass  # a random program's rule may fail: the views before it were checked
