"""Calls of defs (ruledsl/compile/defs.py): a light call of a small def (its arguments
names, literals or seat(N)) costs no unit of work on every way a game runs, and fast
code in a generator or a stretch writes it in place; what it gives and how it fails stay
as with a call."""
from __future__ import annotations

import pytest

from ruledsl.compile.defs import SMALL_DEF, SmallDefs
from ruledsl.errors import GameRuntimeError
from ruledsl.pipeline import load_game
from ruledsl.runtime.machine import Machine
from support import FixedChance, compiled_texts

DEFS = """
player { chips: int = 5 }
shared { n: int = 0  who: player? = none  big: int = 3037000500 }
def twice(k: int) = k + k
def others(q: player) = count(p in players where p != q)
def chips_of(p: player?) = p.chips
def square(k: int) = k * k
def down(k: int) = if k <= 0 then 0 else down(k - 1)
"""


def program(tmp_path, text):
    path = tmp_path / "t.game"
    path.write_text('game "T" players 2..4\n' + DEFS + text)
    return load_game(str(path)).program


def machines(tmp_path, text, players=3):
    """The game made by `text` on op lists and on a fast Machine (generators), each started."""
    return [Machine(program(tmp_path, text), players, FixedChance(), fast=fast) for fast in (False, True)]


def in_a_generator(statement: str) -> str:
    """A flow whose loop holds a decision, so that a fast Machine runs it as a generator,
    and `statement` before the decision."""
    return "rule flow() {\n  loop {\n    " + statement + "\n    choose x from 1..2 by seat(0)\n  }\n}\n"


def generator_sources(monkeypatch, tmp_path, text) -> str:
    made = compiled_texts(monkeypatch)
    Machine(program(tmp_path, text), 3, FixedChance(), fast=True)
    return "\n".join(source for source in made if source.startswith("def _whole"))


def test_a_light_call_of_a_small_def_is_written_into_the_generator(tmp_path, monkeypatch):
    statement = "let q = seat(2)\n    n = others(seat(n)) + others(q) + others(seat(1))"
    source = generator_sources(monkeypatch, tmp_path, in_a_generator(statement))
    assert "def _whole" in source
    assert source.count("[0](w, ") == 1  # others(seat(n)) is a call; others(q) and others(seat(1)) written in
    for m in machines(tmp_path, in_a_generator(statement)):
        assert m.w.shared["n"] == 6


def test_a_stretch_writes_a_light_call_in_from_its_first_call(tmp_path, monkeypatch):
    """On op lists, the stretch before the decision: made when loaded with the call, run
    with the def written in."""
    made = compiled_texts(monkeypatch)
    m = Machine(program(tmp_path, "rule flow() {\n  let q = seat(2)\n  n = others(q)\n  choose x from 1..2 by q\n}\n"),
                3, FixedChance())
    stretches = [source for source in made if source.startswith("def _op")]
    assert stretches and not any("[0](w, " in source for source in stretches)
    assert m.w.shared["n"] == 2


def test_a_light_call_costs_no_work_and_the_same_on_every_way(tmp_path):
    """`twice(n)` costs what `n + n` costs, on op lists and in a generator alike; a call
    whose argument is not a name or literal (`n + 0`) costs its unit."""
    spent = {}
    for name, statement in [("plain", "n = n + n + 1"), ("light", "n = twice(n) + 1"),
                            ("heavy", "n = twice(n + 0) + 1")]:
        ways = machines(tmp_path, in_a_generator(statement))
        for m in ways:
            for _ in range(3):
                m.choose("1")
        assert [m.w.shared["n"] for m in ways] == [15, 15]
        assert ways[0].spent == ways[1].spent, name
        spent[name] = ways[0].spent
    assert spent["light"] == spent["plain"]
    assert spent["heavy"] == spent["plain"] + 4  # a unit for each of the four calls (set-up's step and three)


def test_an_item_of_the_caller_is_not_taken_by_an_item_of_the_def(tmp_path):
    """`others(p)` inside an aggregate over `p`: the def's own `p` is renamed in its text."""
    for m in machines(tmp_path, in_a_generator("n = sum(p in players: others(p))")):
        assert m.w.shared["n"] == 6  # three players, each with two others


def test_a_big_number_from_a_written_def_fails_at_the_def(tmp_path):
    """R012 at the def, as the def's own function checks its value; the value is only
    compared here, so nothing else would check it."""
    for fast in (False, True):
        with pytest.raises(GameRuntimeError) as info:
            Machine(program(tmp_path, in_a_generator("if square(big) > 0 { n = 1 }")), 3, FixedChance(), fast=fast)
        assert info.value.diagnostic.code == "R012"
        assert info.value.diagnostic.span.line == 8  # `def square`


def test_a_failure_in_a_written_def_names_the_defs_expression(tmp_path):
    for fast in (False, True):
        with pytest.raises(GameRuntimeError) as info:
            Machine(program(tmp_path, in_a_generator("n = chips_of(who)")), 3, FixedChance(), fast=fast)
        d = info.value.diagnostic
        assert (d.code, d.span.line) == ("R001", 7)  # `p.chips` in def chips_of, who being none


def test_only_small_defs_that_cannot_reach_themselves_are_written(tmp_path):
    body = " + ".join(["k"] * SMALL_DEF)  # SMALL_DEF names and the operators between them
    prog_text = f"def long(k: int) = {body}\ndef calls_long(k: int) = long(k)\n" + in_a_generator("n = 1")
    path = tmp_path / "t.game"
    path.write_text('game "T" players 2..4\n' + DEFS + prog_text)
    small = SmallDefs(load_game(str(path)).model.defs)
    assert {"twice", "others", "chips_of", "square"} <= {name for name in small.defs if name in small}
    assert "down" not in small  # it calls itself: each call costs its unit, as the budget needs
    assert "long" not in small and "calls_long" in small  # which calls long, not written out
    assert small.size("twice") == 3  # k + k


def test_what_runs_as_a_game_is_loaded_is_not_written_out_again(tmp_path, monkeypatch):
    """A card's label (built while the game loads, as `check` loads it) calls its small def
    from the text made at load: no second text is made and compiled for it."""
    made = compiled_texts(monkeypatch)
    path = tmp_path / "t.game"
    path.write_text('game "T" players 2..4\ndef named(k: int) = if k == 1 then "ace" else "{k}"\n'
                    'cards card(v: int) label "{named(v)}" { card 1\n  card 2 }\nzone deck: card hidden\n'
                    'rule flow() { choose c from deck by seat(0) }\n')
    program = load_game(str(path)).program
    assert [card.label for card in program.cards] == ["ace", "2"]
    labels = [source for source in made if "def _expr(w, env)" in source]
    assert len(labels) == 1 and "[0](w, " in labels[0]  # the label's text, calling named
