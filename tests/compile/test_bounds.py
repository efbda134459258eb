"""bounds.py: which numbers can't be big, so that their R012 checks are left out."""
import math

import pytest

from ruledsl.check.decls import check
from ruledsl.compile.bounds import ITEMS, KEPT, Bounds
from ruledsl.errors import GameRuntimeError
from ruledsl.pipeline import load_game
from ruledsl.runtime.machine import Machine
from ruledsl.syntax.load import load
from support import FixedChance

HEAD = """game "T" players 2..4
cards c(v: int) {
  card 1
  card 2
}
zone deck: c public
player { n: int = 0 }
const TEN = 10
"""


def model_of(tmp_path, defs: str):
    (tmp_path / "t.game").write_text(HEAD + defs + "rule flow() { choose k from 1..2 by seat(0) }\n")
    return check(load(str(tmp_path / "t.game")))


@pytest.mark.parametrize("body,expected", [
    ("count(x in deck)", ITEMS),
    ("size(deck)", ITEMS),
    ("7", 7),
    ("-7", 7),
    ("count(x in deck) + size(deck) - 3", 2 * ITEMS + 3),
    ("2 * count(x in deck)", 2 * ITEMS),
    ("max(p in players: count(x in deck where x.v == p.seat))", ITEMS),
    ("if p.n > 0 then 1 else count(x in deck)", ITEMS),
    ("match p.n { case 1: 3 else: 40 }", 40),
    ("min(5, abs(-9))", 9),
    ("count(x in deck) / 2", ITEMS),
    ("p.n % 7", 7),
    ("counted(p)", ITEMS),  # a def's body
    ("p.n", KEPT),  # a field holds a number kept: within the bound
    ("p.n + 1", KEPT + 1),
    ("p.n * p.n", KEPT * KEPT),
    ("TEN * 2", 20),  # a constant written as a number
    ("sum(x in deck: x.v)", math.inf),
    ("max(x in [1, 2]: x)", KEPT),  # a list's items are numbers kept
    ("3037000500 * 3037000500", 3037000500 ** 2),
    ("p.n * 0", 0),
    ("looping(p)", math.inf),  # a def that reaches itself
])
def test_the_bound_of_an_expression_is_what_its_shape_allows(tmp_path, body, expected):
    m = model_of(tmp_path, "def counted(p: player) = count(x in deck)\n"
                           "def looping(p: player) = if p.n > 0 then looping(p) else 1\n"
                           f"def it(p: player) = {body}\n")
    assert Bounds(m).bound(m.defs["it"].body) == expected


def test_a_long_chain_of_defs_is_bounded_once_each(tmp_path):
    """Each def's bound is worked out once: a chain of defs each calling the next twice
    would otherwise take 2**40 steps to compile."""
    chain = "".join(f"def d{i}() = d{i + 1}() + d{i + 1}()\n" for i in range(40)) + "def d40() = size(deck)\n"
    m = model_of(tmp_path, chain)
    bounds = Bounds(m)
    assert bounds.bound(m.defs["d0"].body) == 2 ** 40 * ITEMS
    assert len(bounds.of_def) == 40  # d1 .. d40, each once


SCALED = "count(x in deck) * 3037000500 * 3037000500"  # beyond 2**63 - 1


@pytest.mark.parametrize("statement,line", [
    ("let big = many()", 9),  # the def's value
    (f"let big = {SCALED}", 11),
    (f"seat(0).n = {SCALED}", 11),
    (f"seat(0).n = size(deck) + ({SCALED})", 11),
])
def test_numbers_that_can_be_big_are_still_checked_where_kept(tmp_path, statement, line):
    """A count can't be big, but a count scaled past the bound can: R012 where it is kept,
    in op lists and generated rules alike."""
    text = HEAD + f"""def many() = {SCALED}
rule flow() {{
  {statement}
  choose j from 1..2 by seat(0)
}}
"""
    (tmp_path / "t.game").write_text(text)
    for fuse in (True, False):
        with pytest.raises(GameRuntimeError) as info:
            Machine(load_game(str(tmp_path / "t.game"), fuse=fuse).program, 2, FixedChance([]), fast=fuse)
        assert (info.value.diagnostic.code, info.value.diagnostic.span.line) == ("R012", line), fuse


def test_a_count_kept_is_not_checked_and_keeps_its_value(tmp_path):
    text = HEAD + """def held() = count(x in deck where x.v > 0)
rule flow() {
  let k = held()
  seat(0).n = k + size(deck)
  choose j from 1..2 by seat(0)
}
"""
    (tmp_path / "t.game").write_text(text)
    for fuse in (True, False):
        m = Machine(load_game(str(tmp_path / "t.game"), fuse=fuse).program, 2, FixedChance([]), fast=fuse)
        assert m.w.players[0]["n"] == 4, fuse
    bounds = Bounds(check(load(str(tmp_path / "t.game"))))
    assert not bounds.may_be_big(bounds.defs["held"].body)


# Numbers kept where no check stood before: squared at each of 8 calls (3**256), they
# would pass the bound unchecked, and with 40 calls grow past any machine's memory.
GROWING = [
    ("def sq(n: int, k: int) = if k == 0 then n else sq(n * n, k - 1)\n"
     "rule flow() {\n  let x = sq(3, 8)\n  choose j from 1..2 by seat(0)\n}\n", 9),  # a def's argument
    ("rule f(n: int, k: int) -> int {\n  if k == 0 { return n }\n  let r = f(n * n, k - 1)\n  return r\n}\n"
     "rule flow() {\n  let x = f(3, 8)\n  choose j from 1..2 by seat(0)\n}\n", 11),  # a rule's argument
    ("rule g(k: int) -> int {\n  if k == 0 { return 3 }\n  let r = g(k - 1)\n  return r * r\n}\n"
     "rule flow() {\n  let x = g(8)\n  choose j from 1..2 by seat(0)\n}\n", 12),  # a rule's result
    ("rule flow() {\n  let l = [3]\n  repeat 8 { l = [l[0] * l[0]] }\n  choose j from 1..2 by seat(0)\n}\n",
     11),  # a list's item
    ("rule keep(n: int) {\n  seat(0).n = n\n}\nrule flow() {\n  let x = 3037000500\n  keep(x * x)\n"
     "  choose j from 1..2 by seat(0)\n}\n", 14),  # a straight rule's argument (written in place, or not)
    ("rule flow() {\n  let x = 3037000500\n  choose j from (x * x)..(x * x + 1) by seat(0)\n}\n", 11),  # a range's ends
    ("shared { big: int = 3037000500 * 3037000500 }\nrule flow() { choose j from 1..2 by seat(0) }\n", 9),
    ("shared { m: int = 999999999999999999 * 9 }\nrule flow() {\n  m += 999999999999999999\n"
     "  choose j from 1..2 by seat(0)\n}\n", 11),  # a field kept, plus a number
]


@pytest.mark.parametrize("text,line", GROWING)
def test_every_number_kept_is_checked_so_none_grows_without_end(tmp_path, text, line):
    (tmp_path / "t.game").write_text(HEAD + text)
    for fuse in (True, False):
        with pytest.raises(GameRuntimeError) as info:
            Machine(load_game(str(tmp_path / "t.game"), fuse=fuse).program, 2, FixedChance([]), fast=fuse)
        assert (info.value.diagnostic.code, info.value.diagnostic.span.line) == ("R012", line), fuse


def test_a_rules_result_is_a_number_kept(tmp_path):
    """`let x = r()`: what rule r returns was checked where it returned (a rule's result is
    kept), whatever a builtin of the same name would give."""
    (tmp_path / "t.game").write_text(HEAD + "rule size() -> int { return 3 }\n"
                                            "rule flow() {\n  let x = size()\n  choose j from 1..2 by seat(0)\n}\n")
    m = check(load(str(tmp_path / "t.game")))
    assert Bounds(m).bound(m.rules["flow"].body[0].value) == KEPT
