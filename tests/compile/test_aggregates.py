"""A statement's aggregate written as a loop of its own (looped.StatementLoops): first,
any, all, count and filters at the top of a statement's expression, under `not`, compared
with a number, inside a sum, or the body of a small def written in. It plays as the
comprehensions play (the reference: `comprehensions`, no expression written as a loop),
on a rule's generator and on op lists: the same values, the same work spent, the same
failures at the same items."""
from __future__ import annotations

import contextlib
import re

import pytest

from ruledsl.compile import stores
from ruledsl.compile.looped import StatementLoops
from ruledsl.errors import GameRuntimeError
from ruledsl.runtime.machine import Machine
from support import FixedChance, compiled_texts, text_program

FORMS = """board lots(block: int) {
  field owner: player? = none
  each i in 1..4: space "a{i}" 1
  each i in 1..3: space "b{i}" 2
}
shared { n: int = 0 }
def taller(k: int) = first(i in 0..9 where i * i > k + n)
def held(p: player, k: int) = any(s in lots where s.block == k and s.owner == p)
def odd(k: int) = [i in 0..k where i % 2 == 1]
rule flow() {
  loop {
    choose k from 0..6 by seat(0) as "k"
    let f = first(i in 0..9 where i * i > k)
    let g = taller(k)
    let a = any(i in 0..k where i % 3 == 2)
    let b = all(i in 0..k: i < 5)
    let c = all(s in lots where s.owner == none)
    let d = not any(i in 1..k where i == 4)
    let e = count(i in 0..k where i % 2 == 0) >= 2
    let h = any(i in 0..k where i > 1: i % 2 == 1)
    let m = all(i in 0..k where i > 2: i < 5)
    let l = [s in lots where s.owner == none and s.block == 1]
    let o = odd(k)
    let r = k > 4 or any(i in 0..k where i == 3) or count(s in lots where s.owner == seat(0)) == 1
    let t = (k > 1 and all(i in 0..k: i < 5)) or not any(s in lots where s.owner == seat(1))
    if held(seat(0), k) { n += 1 }
    if count(i in 0..k where i > 2) == 0 { n += 10 }
    say "{f} {g} {a} {b} {c} {d} {e} {h} {m} {n} {l} {o} {r} {t}"
    if k == 1 { a1.owner = seat(0) }
    if k == 2 { b2.owner = seat(1) }
  }
}
"""
STATEMENT_LOOP = re.compile(r"^ +for _v_\S+ in .*:$", re.M)  # a loop of its own line, not a comprehension
CHAINED = re.compile(r"^ +if (?:not )?_val:$", re.M)  # the next part of an `or` (`and`) written as a statement
KEPT = re.compile(r"^ +_val\.append\(_v_([a-z]+)\S*\)$", re.M)  # a filter's loop keeping an item (its name)


def played(program, fast: bool, labels) -> tuple:
    """What a game of `program` says after each of `labels` chosen, with the work left."""
    said: list = []
    m = Machine(program, 2, FixedChance(), fast=fast,
                listener=lambda kind, data: said.append(data["text"]) if kind == "say" else None)
    seen = []
    for label in labels:
        m.choose(label)
        seen.append((said[-1], m.w.work, m.w.digest()))
    return seen


@contextlib.contextmanager
def comprehensions(monkeypatch):
    """Within it, no expression is written as a loop of a statement's or an expression's
    own function: every aggregate a comprehension or a call, as before looped.py (the
    reference, built and played within it: a rule's generator is written on first use)."""
    with monkeypatch.context() as patched:
        patched.setattr(StatementLoops, "statement", lambda gen, e, target, room=0: f"{target} = {gen.expr(e)}")
        patched.setattr(StatementLoops, "returned", lambda gen, e, room: "return " + gen.expr(e))
        patched.setattr(stores, "_made_first", lambda gen, value, op, room: None)
        yield


def against_comprehensions(tmp_path, monkeypatch, text: str, labels) -> tuple:
    """What a game of `text` says (played) after each of `labels`, the same on a rule's
    generator and on op lists as with every aggregate a comprehension (the reference,
    returned), and the texts compiled for the generator."""
    with comprehensions(monkeypatch):
        reference = played(text_program(tmp_path, text), True, labels)
    assert played(text_program(tmp_path, text, fuse=False), False, labels) == reference
    texts = compiled_texts(monkeypatch)
    assert played(text_program(tmp_path, text), True, labels) == reference
    return reference, texts


def test_every_form_plays_as_the_comprehensions_do(tmp_path, monkeypatch):
    reference, texts = against_comprehensions(tmp_path, monkeypatch, FORMS, ["0", "1", "3", "2", "4", "6", "5", "1"])
    assert reference[0][0] == "1 1 no yes yes yes no no yes 10 [a1, a2, a3, a4] [] no yes"
    assert reference[3][0] == "2 5 yes yes no yes yes no yes 30 [a2, a3, a4] [1] yes yes"  # r by its count: a1 is seat 0's
    assert reference[4][0] == "3 6 yes yes no no yes yes yes 30 [a2, a3, a4] [1, 3] yes yes"  # n = 30 after 0, 1 and 2; a1 is seat 0's
    loops = [line.strip() for text in texts for line in STATEMENT_LOOP.findall(text)]
    assert len(loops) >= 11, loops  # written as loops, not comprehensions
    kept = {item for text in texts for item in KEPT.findall(text)}
    assert kept == {"s", "i"}  # the filters: l's, and o's written in
    chained = {line.strip() for text in texts for line in CHAINED.findall(text)}
    assert chained == {"if not _val:", "if _val:"}  # r's and t's parts, each a statement of its own


NESTED = """shared { n: int = 0 }
const LIMIT = 2
rule flow() {
  loop {
    choose k from 0..5 by seat(0) as "k"
    let a = any(i in 0..k: count(j in 0..i where j % 2 == 0) >= LIMIT)
    let b = all(i in 0..k where i > 1: count(j in 0..i where j < 3) == 3)
    let c = any(i in 0..k where i % 2 == 1: not any(j in 0..i: j * j == i))
    if all(i in 0..k: any(j in 0..i: j + i == 4) or i < 2) { n += 1 }
    say "{a} {b} {c} {n}"
  }
}
"""
NESTED_LOOP = re.compile(r"^ +_valv = (?:0|False)$", re.M)  # a value's loop starting, in its any's (all's) loop


def test_an_any_or_all_whose_value_is_a_loop_too_plays_as_the_comprehensions_do(tmp_path, monkeypatch):
    """An `any` or `all` whose value is lowerable itself (a count compared with a number or
    a constant, a `not any`, an `or` of one) writes the value as a loop inside its own
    loop (looped.nested): the same values and work as the comprehensions."""
    reference, texts = against_comprehensions(tmp_path, monkeypatch, NESTED, ["0", "1", "2", "3", "4", "5", "3"])
    # a: k >= 2; b: always; c: k >= 3 (3 is the first odd number no square); n: k <= 4
    assert [said for said, _, _ in reference] == ["no yes no 1", "no yes no 2", "yes yes no 3", "yes yes yes 4",
                                                  "yes yes yes 5", "yes yes yes 5", "yes yes yes 6"]
    whole = next(text for text in texts if text.startswith("def _whole(vm, fr):"))  # the rule's generator
    assert whole.count("for _v_j in _items:") == 4  # each value's own loop, inside its aggregate's
    assert len(NESTED_LOOP.findall(whole)) == 4


# each is decided at i == 2, where 10 / (4 - i) is 5 (2 and 3 before it): i == 4, after it, would divide by 0
STOPPING = """rule flow() {
  loop {
    choose k from 0..2 by seat(0) as "k"
    let a = any(i in k..5: 10 / (4 - i) >= 5)
    let b = all(i in k..5: 10 / (4 - i) < 5)
    let c = first(i in k..5 where 10 / (4 - i) >= 5)
    let d = all(i in k..5 where 10 / (4 - i) < 5)
    let e = any(i in k..5 where 10 / (4 - i) >= 5)
    let f = any(i in k..5: count(j in k..i where 10 / (4 - j) >= 5) > 0)
    say "{a} {b} {c} {d} {e} {f}"
  }
}
"""


def test_an_aggregates_loop_stops_at_the_item_it_is_decided_at(tmp_path, monkeypatch):
    """any, all and first, also with a `where` alone or a value written as a loop, test no
    item after the one that decides them (its `break`): the next items would fail."""
    reference, texts = against_comprehensions(tmp_path, monkeypatch, STOPPING, ["0", "1", "2"])
    # 10 / (4 - i) is 2, 3, 5 for i = 0, 1, 2: each decided at i == 2, whatever k
    assert [said for said, _, _ in reference] == ["yes no 2 no yes yes"] * 3
    whole = next(text for text in texts if text.startswith("def _whole(vm, fr):"))
    assert len(STATEMENT_LOOP.findall(whole)) >= 7  # a to f, and f's count, written as loops


SUMMED = """board lots(block: int) {
  field owner: player? = none
  each i in 1..4: space "a{i}" 1
  each i in 1..3: space "b{i}" 2
}
player {
  stash: int = 2
}
shared { n: int = 0 }
def mine(p: player) = count(s in lots where s.owner == p)
def bags(p: player) = p.stash + count(s in lots where s.owner == p)
def holds(p: player, k: int) = all(s in lots where s.block == k: s.owner == p)
rule flow() {
  loop {
    choose k from 0..6 by seat(0) as "k"
    let a = n + count(i in 0..k where i % 2 == 0)
    let b = count(i in 0..k where i > 1) * 2 - k
    let c = k - mine(seat(0))
    let d = bags(seat(1)) == 3
    let e = first(p in seats where holds(p, 2))
    let f = count(j in 1..2 where holds(seat(0), j))
    let g = [i in 0..k where i > 0 and count(j in 0..i where j % 2 == 1) >= 2]
    let h = any(i in 0..k where i > 2 and count(j in 0..i where j < 2) == 2)
    let m = max(p in players: mine(p)) - min(i in 1..k: i * 3) + sum(i in 0..k where i % 2 == 0: i)
    let t = sum(i in 0..k where i % 2 == 1: i) + max(i in 0..k where i > 4: i) > max(p in players: bags(p))
    let z = count(s in lots where s.block == 1 and count(o in lots where o.owner == s.owner) >= 4)
    let u = best(p in seats where mine(p) > 0: 10 - mine(p))
    let v = best(i in 0..k: (i * 7) % 5)
    if bags(seat(0)) > 3 { n += 1 }
    say "{a} {b} {c} {d} {e} {f} {g} {h} {m} {t} {z} {n} {u} {v}"
    if k == 1 { a1.owner = seat(0) }
    if k == 2 { b2.owner = seat(1) }
    if k == 3 { a2.owner = seat(0) a3.owner = seat(0) a4.owner = seat(0) }
    if k == 4 { b1.owner = seat(1) b3.owner = seat(1) }
  }
}
"""
KEPT_PART = re.compile(r"^ +_a\d+ = ", re.M)  # a sum's part kept before its count's loop
WHERE_TESTED = re.compile(r"^ +if _valw:$", re.M)  # the item's last `where` conjunct, written as lines, tested
MOST_TAKEN = re.compile(r"^ +if _val is None or _valm [<>] _val:$", re.M)  # a max's (min's) value compared as made
BEST_TAKEN = re.compile(r"^ +if _valt is None or _valm > _valt:$", re.M)  # a best's value compared as made


def test_numbers_made_with_a_count_and_wheres_written_as_loops_play_as_the_comprehensions_do(tmp_path, monkeypatch):
    """A count, sum, max or min inside `+`, `-`, `*` or a comparison (also in a small def's
    body whose value is checked for R012, `bags`), the best item by a number, and a
    filter's, first's, count's or any's `where` whose last conjunct is lowerable itself
    (looped.nested_where), are written as loops of the statement's own: the same values
    and work as the comprehensions."""
    reference, texts = against_comprehensions(tmp_path, monkeypatch, SUMMED, ["0", "1", "2", "3", "4", "5", "6", "1"])
    # worked out by hand: seat 0 holds a1 after k=1, a1-a4 after k=3; seat 1 b2 after k=2, b1-b3 after k=4
    # (z: the spaces of block 1 whose owner, or none, holds 4 lots or more; u: of the seats
    # holding lots, the first holding fewest; v: the first i of 0..k whose (i * 7) % 5 is greatest)
    assert [said for said, _, _ in reference] == [
        "1 0 0 no none 0 [] no 0 no 4 0 none 0", "1 -1 1 no none 0 [] no -3 no 4 0 none 1",
        "2 0 1 no none 0 [] no 0 no 3 0 seat 0 2", "2 1 2 yes none 0 [3] yes 0 yes 3 0 seat 0 2",
        "3 2 0 yes none 1 [3, 4] yes 7 no 4 1 seat 1 2", "4 3 1 no seat 1 1 [3, 4, 5] yes 7 yes 4 2 seat 1 2",
        "6 4 2 no seat 1 1 [3, 4, 5, 6] yes 13 yes 4 3 seat 1 2", "4 -1 -3 no seat 1 1 [] no 1 no 4 4 seat 1 1"]
    whole = next(text for text in texts if text.startswith("def _whole(vm, fr):"))  # the rule's generator
    # a's `n`, c's `k`, m's max and max less min, t's sum and sum plus max, three bags' `p.stash`, u's `10`: kept,
    # then a loop
    assert len(KEPT_PART.findall(whole)) == 10
    assert len(WHERE_TESTED.findall(whole)) == 5  # e's, f's, g's, h's and z's (after its index) last conjuncts
    assert len(MOST_TAKEN.findall(whole)) == 4 and whole.count("_val += _valm\n") == 2  # m's and t's max, min and sums
    assert len(BEST_TAKEN.findall(whole)) == 2  # u's and v's


ASSIGNED = """board lots(block: int) {
  field owner: player? = none
  each i in 1..4: space "a{i}" 1
}
player {
  seen: int = 0
  flag: bool = false
}
shared { n: int = 0 }
rule flow() {
  loop {
    choose k from 0..6 by seat(0) as "k"
    let v = 0
    v = count(i in 0..k where i % 2 == 0) + 1
    seat(1).seen = max(i in 0..k: i * i) - k
    seat(0).flag = any(i in 0..k where i > 3)
    a2.owner = first(p in seats where p.seen > 10)
    n += count(i in 0..k where i > 4)
    say "{v} {seat(1).seen} {seat(0).flag} {a2.owner} {n}"
  }
}
"""
MADE_FIRST = re.compile(r"^( +)_v = (?:0|None|False)\n\1for ", re.M)  # a stored value's loop starting


def test_a_value_stored_with_equals_is_made_by_its_own_loop_first(tmp_path, monkeypatch):
    """The value of `x = v` (a local, a player's field, a board's field) is made first by
    a statement's own loop where it is one (stores._made_first), as Python makes it before
    it looks at x; `n += v` reads n first, so its value stays an expression. The same
    values and work as the comprehensions, on a rule's generator and on op lists."""
    reference, texts = against_comprehensions(tmp_path, monkeypatch, ASSIGNED, ["0", "1", "3", "4", "5", "6", "2"])
    assert [said for said, _, _ in reference] == ["2 0 no none 0", "2 0 no none 0", "3 6 no none 0", "4 12 yes seat 1 0",
                                                  "4 20 yes seat 1 1", "5 30 yes seat 1 3", "3 2 no none 3"]
    whole = next(text for text in texts if text.startswith("def _whole(vm, fr):"))
    assert len(MADE_FIRST.findall(whole)) == 4  # v's count, seen's max, flag's any, owner's first; not n's count


FAILING_VALUE = "any(i in 0..5 where i > k and 10 / (i - 4) > 0)"  # fails at i == 4
FAILING = """shared { n: int = 0 }
rule flow() {
  loop {
    choose k from 1..3 by seat(0)
    let q = %s
    n += 1
  }
}
""" % FAILING_VALUE


def failing(value: str) -> str:
    """FAILING with the let's value `value` instead."""
    return FAILING.replace(FAILING_VALUE, value)
RUNNING_ON = """shared { n: int = 0 }
rule flow() {
  loop {
    choose k from 1..3 by seat(0)
    if all(i in 0..2000: count(j in 0..999 where j < k) >= 0) { n += 1 }
  }
}
"""


FAILING_FILTER = failing("[i in 0..5 where i > k and 10 / (i - 4) > 0]")
# the range costs 600,001 units, then its items charged by the filter's own lines 600,001 more: too many
CHARGED_OUT = failing("[i in 0..600000 where i < k]")


# an any whose value is a loop too (looped.nested), failing in the value's loop at i == 2, j == 2
FAILING_NESTED = failing("any(i in 0..5 where i > k: count(j in 0..i where 10 / (j - 2) > 0) >= 9)")
# a sum's left part failing (k == 1) before its count's loop would fail (at i == 3)
FAILING_PART = failing("10 / (k - 1) + count(i in 0..5 where 10 / (i - 3) > 0)")
# a first whose `where` ends in a loop (looped.nested_where), failing in it at i == 2, j == 2
FAILING_WHERE = failing("first(i in 0..5 where i > k and count(j in 0..i where 10 / (j - 2) > 0) >= 9)")
# a max's value failing at i == 4, after the values of 2 and 3 were compared
FAILING_MOST = failing("max(i in 0..5 where i > k: 10 / (i - 4)) + 1")
# a best's value failing at i == 4, after the values of 2 and 3 were compared
FAILING_BEST = failing("best(i in 0..5 where i > k: 10 / (i - 4))")
# a sum beyond R012's bound, checked where the let keeps it
SUM_BEYOND = "const HUGE = 999999999999999999\n" + failing("sum(i in 0..5: HUGE * 9) - 1")
# a value stored in a field of none: made by its loop first, then the store fails (R001)
STORED_IN_NONE = """player { seen: int = 0 }
rule flow() {
  loop {
    choose k from 1..3 by seat(0)
    let q = first(p in seats where p.seen > 99)
    q.seen = count(i in 0..5 where i > k)
  }
}
"""
# a small def's value made with a count's loop, beyond R012's bound: checked at the def, as written in
BEYOND = "const HUGE = 999999999999999999\ndef over(k: int) = HUGE * 9 + count(i in 0..5 where i > k) * 100000000000000000\n" \
    + failing("over(k) == 0")


@pytest.mark.parametrize("text, code, line, col", [(FAILING, "R003", 6, 43), (FAILING_FILTER, "R003", 6, 40),
                                                    (RUNNING_ON, "R010", 6, 26), (CHARGED_OUT, "R010", 6, 13),
                                                    (FAILING_NESTED, "R003", 6, 62), (FAILING_PART, "R003", 6, 13),
                                                    (FAILING_WHERE, "R003", 6, 67), (BEYOND, "R012", 3, 1),
                                                    (FAILING_MOST, "R003", 6, 40), (SUM_BEYOND, "R012", 7, 5),
                                                    (STORED_IN_NONE, "R001", 7, 5), (FAILING_BEST, "R003", 6, 41)])
def test_a_loop_fails_at_the_same_item_as_the_comprehension(tmp_path, monkeypatch, text, code, line, col):
    """A failure in an item's test (division by zero at i == 4), or the step's work
    running out at an item (a thousand units each) or at the items charged by the
    statement's own lines, ends the step at the same place with the same work spent,
    whichever way the aggregate runs."""
    def failed(fast: bool):
        m = Machine(text_program(tmp_path, text, fuse=not fast), 2, FixedChance(), fast=fast)
        with pytest.raises(GameRuntimeError) as err:
            m.choose("1")
        d = err.value.diagnostic
        return d.code, d.span.line, d.span.col, m.w.work
    with comprehensions(monkeypatch):
        reference = failed(True)
    assert failed(False) == failed(True) == reference
    assert reference[:3] == (code, line, col)


DEFS = """board lots(block: int) {
  field owner: player? = none
  each i in 1..4: space "a{i}" 1
  each i in 1..3: space "b{i}" 2
}
shared { n: int = 1 }
def chain(k: int) = k > 4 or any(i in 0..k where i * i == k + n) or count(s in lots where s.owner == seat(0)) == k
def mixed(k: int) = (k > 1 and all(i in 0..k: i < 5)) or not any(s in lots where s.block == 2 and s.owner != none)
def nested(k: int) = k > 0 and (k < 3 or (any(i in 0..k where i == 4) and count(s in lots where s.block == 1) != k))
def picked(k: int) = [s in lots where s.block == k % 3 and s.owner == none]
def lowest(k: int) = first(i in 0..k where i * 3 > k)
def failing(k: int) = k < 2 or any(i in 0..k where 10 / (i - 3) > 1)
rule flow() { choose k from 0..1 by seat(0) }
"""
OWNERS = [{}, {"a1": 0}, {"a1": 0, "b2": 1}, {"a1": 0, "a2": 0, "a3": 0, "b1": 1}]


def test_a_defs_body_written_as_statements_gives_and_spends_what_its_expression_did(tmp_path, monkeypatch):
    """A def's own function writes its body as a statement's lines (defs.def_body: an
    `and`/`or` part by part, aggregates as loops charged by lines). For every argument
    and board it gives what the body written as one expression gives (the reference,
    as before), or fails as it fails, and spends the same work."""
    texts = compiled_texts(monkeypatch)
    program = text_program(tmp_path, DEFS)
    with monkeypatch.context() as patched:
        patched.setattr("ruledsl.compile.expr.def_body", lambda gen, d: "_r = " + gen.expr(d.body))
        reference = text_program(tmp_path, DEFS)
    games = [Machine(p, 2, FixedChance()) for p in (program, reference)]
    compared = 0
    for owners in OWNERS:
        for name in ("chain", "mixed", "nested", "picked", "lowest", "failing"):
            for k in range(7):
                ends = []
                for m in games:
                    m.w.spaces["lots"]["owner"].update(owners)
                    m.w.work = 10_000
                    try:
                        ends.append((m.program.def_bodies[name][0](m.w, k), 10_000 - m.w.work))
                    except GameRuntimeError as err:
                        ends.append((err.diagnostic.code, str(err), 10_000 - m.w.work))
                assert ends[0] == ends[1], (name, k, owners)
                compared += 1
    assert compared == 4 * 6 * 7
    bodies = "\n".join(text for text in texts if text.startswith("def _expr(w, _v_k):"))
    assert "        if not _r:\n" in bodies and "        if _r:\n" in bodies and "_r.append(_v_s)" in bodies


ENDS = DEFS.replace("rule flow()", """end when taken "taken": count(s in lots where s.owner != none) >= 5 or all(s in lots where s.block == 2: s.owner == seat(1))
end when first_row "first": first(s in lots where s.owner == seat(0)) == a3 and not any(i in 0..n where i * i == 9)
end when chained "chained": n > 7 or (n < 3 and all(s in lots: s.owner == none))
rule flow()""")


def test_an_expressions_own_function_writes_its_aggregates_as_loops(tmp_path, monkeypatch):
    """An expression's own function (an end condition's here) writes an aggregate at its
    top as a loop of its own (looped.returned): on every board it gives what the
    expression written whole gives (the reference, as before), and spends the same work."""
    texts = compiled_texts(monkeypatch)
    program = text_program(tmp_path, ENDS)
    with monkeypatch.context() as patched:
        patched.setattr("ruledsl.compile.looped.StatementLoops.returned", lambda gen, e, room: "return " + gen.expr(e))
        reference = text_program(tmp_path, ENDS)
    games = [Machine(p, 2, FixedChance()) for p in (program, reference)]
    boards = [*OWNERS, {"a3": 0, "b1": 1, "b2": 1, "b3": 1}, {"a1": None, "a2": None, "a3": 0}]
    seen = set()
    for owners in boards:
        for n in (1, 3, 8):
            ends = []
            for m in games:
                m.w.spaces["lots"]["owner"].update(owners)
                m.w.shared["n"] = n
                m.w.work = 10_000
                ends.append(([end.cond(m.w, {}) for end in m.program.ends], 10_000 - m.w.work))
            assert ends[0] == ends[1], (owners, n)
            seen.update(enumerate(ends[0][0]))
    assert seen == {(i, held) for i in range(3) for held in (True, False)}  # each condition met and not
    lowered = [text for text in texts if "        return _r\n" in text and "def _expr(w, env):" in text]
    assert len(lowered) == 3
