"""What generated code reads in place of the World: constants written as literals, card
attributes from columns by card id (Program.card_column)."""
import pytest

from ruledsl.pipeline import load_game
from ruledsl.runtime.machine import Machine
from support import FixedChance, text_program

CARDS = """enum colour { red black }
cards c(v: int, suit: colour = black) {
  card 1 red
  card 2
}
cards t(w: int) {
  card 5
}
zone deck: c public
zone pile: t public
zone used: c public
"""


@pytest.mark.parametrize("fuse", [True, False])
def test_card_attributes_read_from_columns_by_card_id(tmp_path, fuse):
    text = CARDS + """shared { a: int = 0  b: int = 0  s: int = 0  none_read: int = 0 }
def worth(x: c) = x.v * 10
rule flow() {
  a = sum(x in deck: worth(x))
  b = sum(x in pile: x.w)
  s = count(x in deck where x.suit == black)
  let gone = top(deck)
  move gone to used
  draw all from deck to used
  let missing = top(deck)
  none_read = missing.v
}
"""
    program = text_program(tmp_path, text, fuse=fuse)
    with pytest.raises(Exception) as err:  # `missing` is none: R001 at its attribute, as before
        Machine(program, 2, FixedChance(), fast=fuse)
    assert getattr(err.value, "diagnostic", None) is not None and err.value.diagnostic.code == "R001"
    m = Machine(text_program(tmp_path, text.replace("  none_read = missing.v\n", ""), fuse=fuse), 2,
                FixedChance(), fast=fuse)
    assert (m.w.shared["a"], m.w.shared["b"], m.w.shared["s"]) == (30, 5, 1)
    assert program.card_columns["v"] == [1, 2, None]  # filled once the cards are made, by card id
    assert program.card_columns["w"] == [None, None, 5]


def test_a_column_asked_for_before_the_cards_are_made_is_filled_in_place(tmp_path):
    program = text_program(tmp_path, CARDS + "rule flow() { choose k from 1..2 by seat(0) }\n")
    column = program.card_column("suit")
    assert column == ["red", "black", None]
    program.card_columns["later"] = early = []
    program.fill_card_columns()
    assert early == [None, None, None] and program.card_columns["suit"] is column


@pytest.mark.parametrize("fuse", [True, False])
def test_a_literal_constant_is_the_value_its_last_override_gives(tmp_path, fuse):
    """Constants written into generated code as literals: a variant's override of one is
    what the code reads; a constant made by an expression is read from the World."""
    (tmp_path / "base.game").write_text('game "T" players 2..4\nconst N = 3\nconst M = N + player_count\n'
                                        "const ON = true\nshared { n: int = 0  m: int = 0  lit: bool = false }\n"
                                        "rule flow() { n = N  m = M  lit = ON  choose k from 1..N by seat(0) }\n")
    (tmp_path / "v.game").write_text('extends "base.game"\noverride const N = 7\noverride const ON = false\n')
    for path, expected in (("base.game", (3, 5, True, 3)), ("v.game", (7, 9, False, 7))):
        m = Machine(load_game(str(tmp_path / path), fuse=fuse).program, 2, FixedChance(), fast=fuse)
        assert (m.w.shared["n"], m.w.shared["m"], m.w.shared["lit"], len(m.pending.labels)) == expected, path
