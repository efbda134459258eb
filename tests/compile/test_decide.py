"""Decision points: what a choice offers, and how its labels are made."""
import pytest

from support import run_text, text_program

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


COINS = """cards coin(face: int) label "coin {face}" { each face in 1..3 }
cards bead(face: int) label "bead" { each face in 1..2 }
zone purse: coin public
zone jar: bead public
"""


@pytest.mark.parametrize("fast", [False, True], ids=["op lists", "written out"])
@pytest.mark.parametrize("source,labels,lazy", [
    ("purse", ["coin 1", "coin 2", "coin 3"], True),  # cards whose labels all differ
    ("[c in purse where c.face > 1]", ["coin 2", "coin 3"], True),
    ("jar", ["bead"], False),  # two cards alike: offered once
    ("1..3", ["1", "2", "3"], True),
    ("[2, 3, 2]", ["2", "3"], False),  # a value repeated: offered once
    ("players", ["seat 0", "seat 1"], True),
])
def test_labels_no_two_of_which_can_be_alike_are_made_when_first_read(tmp_path, monkeypatch, fast, source,
                                                                      labels, lazy):
    """Where the values offered all differ and so must their labels (Program.labels_differ),
    the Decision's labels are made only when read: an agent counting the options never
    makes them. The decision offers the same options with the same labels and charges the
    same work as when every label is made at once (labels_differ False: _dedupe)."""
    from ruledsl.runtime.program import Program
    text = COINS + f'rule flow() {{ choose x from {source} by seat(0) as "pick" }}\n'

    def offered():
        m = run_text(tmp_path, text, fast=fast)
        d = m.pending
        shown = d.shown
        return shown, (d.labels, d.values, m.spent, m.w.work)
    shown, lazily = offered()
    monkeypatch.setattr(Program, "labels_differ", lambda self, t: False)
    eager_shown, eagerly = offered()
    assert (shown is None) == lazy and eager_shown is not None or source == "players"
    assert lazily == eagerly and lazily[0] == labels and len(lazily[1]) == len(labels)


@pytest.mark.parametrize("cards,label,differ", [
    ("each metal in metal", "{metal}", True),
    ('card gold  card gold', "{metal}", False),  # two alike
    ("each metal in metal", "no{metal}", False),  # one labelled as a none card is: "none"
])
def test_a_card_sets_labels_differ_only_if_no_two_are_alike_and_none_reads_none(tmp_path, cards, label, differ):
    from ruledsl.check.types import T
    program = text_program(tmp_path, "enum metal { gold ne }\n"
                                     f'cards coin(metal: metal) label "{label}" {{ {cards} }}\n'
                                     "zone purse: coin public\nrule flow() { }\n")
    assert program.labels_differ(T("card", "coin")) is differ
    assert program.labels_differ(T("player")) and program.labels_differ(T("int"))
    assert not program.labels_differ(T("str")) and not program.labels_differ(T("bool"))
