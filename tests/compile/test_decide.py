"""Decision points: what a choice offers, and how its labels are made."""
import pytest

from support import run_text

BOARD = """enum color { red blue }
board grid(row: int) {
  field owner: player? = none
  space a1 0
  space a2 0
  space b1 1
}
shared { picked: grid? = none }
"""


@pytest.mark.parametrize("source,labels", [
    ("grid", ["a1", "a2", "b1"]),
    ("[c in grid where c.row == 0]", ["a1", "a2"]),
    ("[c in [c in grid where c.owner == none] where c.row == 1]", ["b1"]),
])
def test_spaces_of_a_board_are_offered_as_their_own_labels(tmp_path, source, labels):
    """No two spaces of a board are alike: no search for repeats and no label list
    (decide._distinct); the labels are the values themselves."""
    m = run_text(tmp_path, BOARD + f"rule flow() {{ choose s from {source} by seat(0) as \"cell\"  picked = s }}\n")
    d = m.pending
    assert d.labels == labels and d.labels is d.values
    m.choose(labels[-1])
    assert m.w.shared["picked"] == labels[-1]


def test_a_list_that_repeats_a_space_offers_it_once(tmp_path):
    m = run_text(tmp_path, BOARD + "rule flow() { choose s from [a1, b1, a1] by seat(0) }\n")
    assert m.pending.labels == ["a1", "b1"]


@pytest.mark.parametrize("source,labels", [
    ("players", ["seat 0", "seat 1", "seat 2"]),
    ("[p in seats where p != seat(1)]", ["seat 0", "seat 2"]),
])
def test_players_are_offered_by_seat(tmp_path, source, labels):
    m = run_text(tmp_path, BOARD + f"rule flow() {{ choose p from {source} by seat(0) }}\n", players=3)
    assert m.pending.labels == labels and m.pending.values == [int(s[-1]) for s in labels]


def test_enum_values_are_offered_as_their_own_labels(tmp_path):
    m = run_text(tmp_path, BOARD + "rule flow() { choose c from color by seat(0) }\n")
    assert m.pending.labels == ["red", "blue"] and m.pending.labels is m.pending.values


def test_labels_that_do_not_repeat_need_no_card_state():
    """Cards alike in label are told apart by their fields' values (`state_of`), which is
    looked at only when some label repeats: distinct labels are offered as they are."""
    from ruledsl.compile.decide import _dedupe
    asked = []

    def state(card):
        asked.append(card)
        return card % 2
    assert _dedupe(["a", "b"], [1, 2], state) == (["a", "b"], [1, 2]) and asked == []
    assert _dedupe(["a", "a", "a"], [1, 2, 3], state) == (["a", "a #2"], [1, 2]) and asked == [1, 2, 3]
