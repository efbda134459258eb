"""Scenarios for the classic games in examples/: each game's key rule, played out.

Chance is fixed (tests/support.py): shuffles keep the listed order and dice come
from a queue, so every hand and prize below is known in advance.
"""
import pytest

from support import ROOT, drive, labels, start

TTT = "examples/tic_tac_toe.game"
KUHN = "examples/kuhn_poker.game"
GOOF = "examples/goofspiel.game"
PIG = "examples/pig.game"


def marks(*cells):
    return [("mark a cell", c) for c in cells]


# ---------------------------------------------------------------- tic-tac-toe
def test_three_in_a_row_wins_for_the_player_who_made_it():
    m = start(TTT, 2)
    drive(m, *marks("a1", "b1", "a2", "b2", "a3"))
    assert m.result.reason == "three in a row"
    assert m.result.winners == [0]


def test_a_column_and_a_diagonal_also_win():
    m = start(TTT, 2)
    drive(m, *marks("a1", "a2", "b1", "b2", "c3", "c2"))  # o fills column 2
    assert m.result.reason == "three in a row" and m.result.winners == [1]
    m = start(TTT, 2)
    drive(m, *marks("a3", "a1", "b2", "a2", "c1"))  # x fills the anti-diagonal
    assert m.result.winners == [0]


def test_a_full_board_without_a_line_is_a_draw():
    m = start(TTT, 2)
    drive(m, *marks("a1", "b2", "c3", "a2", "c2", "c1", "a3", "b3", "b1"))
    assert m.result.reason == "the board is full: a draw"
    assert m.result.winners == [] and m.result.draw  # `end ... draw`: nobody wins


def test_a_taken_cell_is_refused_with_the_free_ones_listed():
    m = start(TTT, 2)
    drive(m, *marks("b2"))
    refusal = m.choose("b2")
    assert refusal.code == "R101"
    assert refusal.legal == ["a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3"]


# ---------------------------------------------------------------- Kuhn poker
# Identity shuffle: seat 0 is dealt the jack, seat 1 the queen.
@pytest.mark.parametrize("moves,reason,scores", [
    ((("open", "pass"), ("after a pass", "pass")), "showdown", [-1, 1]),
    ((("open", "bet"), ("facing a bet", "pass")), "fold", [1, -1]),
    ((("open", "bet"), ("facing a bet", "bet")), "showdown", [-2, 2]),
    ((("open", "pass"), ("after a pass", "bet"), ("facing a bet", "pass")), "fold", [-1, 1]),
    ((("open", "pass"), ("after a pass", "bet"), ("facing a bet", "bet")), "showdown", [-2, 2]),
])
def test_kuhn_betting_lines_pay_the_pot(moves, reason, scores):
    m = start(KUHN, 2)
    assert labels(m, "hand", 0) == ["jack"] and labels(m, "hand", 1) == ["queen"]
    drive(m, *moves)
    assert m.result.reason == reason
    assert m.result.scores == scores
    assert sum(m.result.scores) == 0 and m.w.shared["pot"] == 0


def test_kuhn_hands_are_hidden_from_the_other_seat():
    m = start(KUHN, 2)
    view = m.w.snapshot(0)["zones"]
    assert view["hand/seat 0"] == ["jack"]
    assert view["hand/seat 1"] == {"count": 1}


# ---------------------------------------------------------------- Goofspiel
# Identity shuffle: prizes come up 1, 2, 3, ...
def test_goofspiel_higher_bid_takes_the_prize_and_a_tie_discards_it():
    m = start(GOOF, 2)
    drive(m, ("bid", "13"), ("bid", "1"))      # prize 1: seat 0 wins 13 to 1
    drive(m, ("bid", "5"), ("bid", "5"))       # prize 2: a tie, discarded
    drive(m, ("bid", "1"), ("bid", "2"))       # prize 3: seat 1 wins 2 to 1
    assert [p["points"] for p in m.w.players] == [1, 3]
    assert labels(m, "discard") == ["prize 2"]
    assert labels(m, "won", 0) == ["prize 1"] and labels(m, "won", 1) == ["prize 3"]
    assert "13" not in m.pending.labels and len(m.pending.labels) == 10


def test_goofspiel_a_sealed_bid_is_not_in_the_other_seats_view():
    m = start(GOOF, 2)
    drive(m, ("bid", "7"))
    assert m.pending.seat == 1
    assert m.w.snapshot(1)["zones"]["sealed/seat 0"] == {"count": 1}
    assert m.w.snapshot(0)["zones"]["sealed/seat 0"] == ["7"]


def test_goofspiel_most_points_after_thirteen_prizes_wins():
    m = start(GOOF, 2)
    for v in range(1, 14):  # seat 1 always bids one more than seat 0 until the last prize
        drive(m, ("bid", str(v)), ("bid", str(v % 13 + 1)))
    assert m.result.reason == "every prize has been played"
    # seat 1 wins prizes 1..12 (78 points); prize 13: seat 0 bids 13, seat 1 bids 1
    assert [p["points"] for p in m.w.players] == [13, 78] and m.result.winners == [1]


# ---------------------------------------------------------------- Pig
def test_pig_a_one_loses_the_turn_total_and_passes_the_turn():
    m = start(PIG, 2, rolls=[6, 5, 1])
    drive(m, ("roll or hold", "roll"), ("roll or hold", "roll"), ("roll or hold", "roll"))
    assert m.pending.seat == 1 and m.w.players[0]["points"] == 0


def test_pig_holding_banks_the_turn_total():
    m = start(PIG, 2, rolls=[6, 5])
    drive(m, ("roll or hold", "roll"), ("roll or hold", "roll"), ("roll or hold", "hold"))
    assert m.w.players[0]["points"] == 11 and m.pending.seat == 1


def test_pig_reaching_the_goal_on_a_hold_wins():
    m = start(PIG, 2, rolls=[6] * 17)
    drive(m, *[("roll or hold", "roll")] * 17)   # 102 on the turn: not yet banked
    assert m.result is None
    drive(m, ("roll or hold", "hold"))
    assert m.result.reason == "reached the goal" and m.result.winners == [0]


def test_simulate_counts_tic_tac_toe_draws_as_draws_not_as_shared_wins():
    from ruledsl.pipeline import load_game
    from ruledsl.play.simulate import simulate
    summary = simulate(load_game(str(ROOT / TTT)).program, 2, 300, 1)
    assert summary.ended["the board is full: a draw"] == summary.draws == summary.no_winner > 0
    assert sum(summary.wins) == summary.games - summary.draws and summary.shared == 0
