"""What the rules tell (compile/telling.py): the text of a say or reveal is built only
for a listener, and a game plays and fails the same whether anybody listens or not."""
from __future__ import annotations

import pytest

from ruledsl.errors import GameRuntimeError
from ruledsl.pipeline import load_game
from ruledsl.runtime.machine import Machine
from support import FixedChance


def play(tmp_path, text, listening, players=2):
    """(machine, heard texts), or the runtime error set-up raised, with or without a listener."""
    path = tmp_path / "t.game"
    path.write_text('game "T" players 2..4\n' + text)
    program = load_game(str(path)).program
    heard: list = []
    listener = (lambda kind, data: heard.append((kind, data.get("text")))) if listening else None
    try:
        return Machine(program, players, FixedChance(), listener=listener), heard
    except GameRuntimeError as err:
        return err, heard


def failure(tmp_path, text):
    """The error (code, line, column) of the rules, which must be the same heard or not."""
    out = []
    for listening in (True, False):
        err, _ = play(tmp_path, text, listening)
        assert isinstance(err, GameRuntimeError), f"no error with listening={listening}"
        d = err.diagnostic
        out.append((d.code, d.span.line, d.span.col))
    assert out[0] == out[1]
    return out[0]


def spied_labels(monkeypatch):
    """Counts the labels made (Program.labeler's functions called)."""
    from ruledsl.runtime.program import Program
    made = []
    original = Program.labeler

    def labeler(self, t):
        lab = original(self, t)

        def counted(v):
            made.append(t.kind)
            return lab(v)
        return counted
    monkeypatch.setattr(Program, "labeler", labeler)
    return made


def test_a_say_heard_by_nobody_builds_no_text_and_one_heard_does(tmp_path, monkeypatch):
    made = spied_labels(monkeypatch)
    text = """enum suit { hearts spades }
player { n: int = 0 }
rule flow() {
  for p in players { p.n += 7 }
  say "{seat(1)} has {seat(1).n} of {hearts}: {seat(1).n > 3}"
  choose x from players by seat(0)
}"""
    m, heard = play(tmp_path, text, listening=False)
    assert m.pending is not None and made == []
    m, heard = play(tmp_path, text, listening=True)
    assert heard == [("say", "seat 1 has 7 of hearts: yes")]
    assert sorted(made) == ["bool", "enum", "int", "player"]


def test_a_say_heard_by_nobody_fails_where_its_parts_fail(tmp_path):
    text = """shared { n: int = 0 }
rule flow() {
  say "a share of {10 / n}"
}"""
    code, line, col = failure(tmp_path, text)
    assert code == "R003" and line == 4 and col == 20


@pytest.mark.parametrize("part", ["{xs}", "{words(12000)}"])
def test_a_text_too_long_is_r013_also_for_nobody(tmp_path, part):
    """A list's label, or a long text (here from a def: one interpolation alone is never
    checked), may pass R013's bound: the text is built to see, heard or not."""
    text = f"""def words(k: int) = "{{1..k}}"
rule flow() {{
  let xs = 1..12000
  say "{part} and {part}"
}}"""
    code, line, _ = failure(tmp_path, text)
    assert code == "R013" and line == 5


def test_a_number_beyond_the_stored_bound_is_labelled_for_nobody_too(tmp_path):
    """Within one expression a number may pass 2**63 (R012 is checked where it is stored).
    Its label is then made heard or not: past 4,300 digits Python refuses to print it,
    and the game fails the same both ways."""
    big = "n"
    for _ in range(8):  # (10**18 - 1) to the 256th: about 4,600 digits, 8 brackets deep
        big = f"({big} * {big})"
    text = f"""shared {{ n: int = 999999999999999999 }}
rule flow() {{
  say "{{n * n}} and {{n}}"
  say "{{{big}}} and {{n}}"
}}"""
    code, line, _ = failure(tmp_path, text)
    assert (code, line) == ("R000", 5)


def test_reveal_and_eliminate_are_reported_to_a_listener_only_and_act_alike(tmp_path):
    text = """cards token(rank: int) label "t{rank}" {
  card 1
  card 2
}
zone pile: token public
rule setup() { for c in token { move c to pile } }
rule flow() {
  reveal top(pile)
  reveal top(pile) to seat(1)
  eliminate seat(1)
  choose x from 1..2 by seat(0)
}"""
    quiet, _ = play(tmp_path, text, listening=False, players=3)
    loud, heard = play(tmp_path, text, listening=True, players=3)
    assert quiet.w.alive == loud.w.alive == [True, False, True]
    assert [h for h in heard if h[0] in ("reveal", "eliminate")] == [("reveal", "t2"), ("reveal", "t2"),
                                                                       ("eliminate", None)]


def test_a_reveal_to_nobody_fails_heard_or_not(tmp_path):
    text = """rule flow() {
  reveal 3 to none
}"""
    code, line, _ = failure(tmp_path, text)
    assert (code, line) == ("R006", 3)


def test_a_reveal_of_a_number_too_long_to_print_fails_heard_or_not(tmp_path):
    """Past 4,300 digits Python refuses to print a number: its label is made for nobody
    too (inplace.t_Reveal tests the value's bound before it skips the label)."""
    big = "n"
    for _ in range(8):  # (10**18 - 1) to the 256th: about 4,600 digits
        big = f"({big} * {big})"
    text = f"""shared {{ n: int = 999999999999999999 }}
rule flow() {{
  reveal n * n
  reveal {big} to seat(1)
}}"""
    assert failure(tmp_path, text)[:2] == ("R000", 5)


@pytest.mark.parametrize("rows", ["each n in 1..0", "each n in 0..-1"])
def test_a_card_set_of_no_cards_bounds_its_labels_by_none(tmp_path, rows):
    """Found by tests/fuzz.py (seed 15): a card set whose product is empty left nothing to
    take the longest label of, and compiling a `reveal` of one of its cards crashed."""
    text = (f"cards c(n: int) label \"{{n}}\" {{ {rows} }}\nzone pile: c public\n"
            "rule flow() { if size(pile) > 0 { reveal top(pile) } say \"{top(pile)}\" }\n")
    machine, heard = play(tmp_path, text, listening=True)
    assert machine.result is not None and ("say", "none") in heard
