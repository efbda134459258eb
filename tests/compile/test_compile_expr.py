"""Generated expression code: the fast and the checked mode agree, precise errors, no injection."""
import itertools
import pickle
import random

import pytest

from ruledsl.compile.expr import ExprCompiler
from ruledsl.errors import RUNTIME_FAILURES, GameRuntimeError, RuleError
from ruledsl.pipeline import load_game
from ruledsl.runtime.machine import Machine
from support import ROOT, FixedChance, compiled_texts, run_text, text_program
ALL_GAMES = sorted(str(p.relative_to(ROOT)) for p in [*ROOT.glob("games/*.game"), *ROOT.glob("examples/*.game")])


def test_an_attribute_of_none_names_the_expression_that_was_none(tmp_path):
    line = "rule flow() { let x = 1 + sum(p in players: p.score) + who.score }"
    with pytest.raises(GameRuntimeError) as err:
        run_text(tmp_path, f"player {{ score: int = 0 }}\nshared {{ who: player? = none }}\n{line}\n")
    span = err.value.diagnostic.span
    assert err.value.diagnostic.code == "R001"
    assert (span.line, span.col) == (4, line.index("who.score") + 1)  # not the whole `let`
    assert span.end_col == span.col + len("who")  # the value that is none, not its attribute
    assert err.value.diagnostic.message.startswith("this value is none here, so it has no 'score' (")


NONE_NUMBERS = [  # (the statements, the operator, what is underlined): `first` and `best` of no items give none
    ("let k = best(i in 1..n: i) + 1", "+", "best(i in 1..n: i)"),
    ("total = 2 * best(i in 1..n: i)", "*", "best(i in 1..n: i)"),
    ("if best(i in 1..n: i) > 1 { total = 1 }", ">", "best(i in 1..n: i)"),
    ("total = top_one(n) - 2", "-", "top_one(n)"),
    ("total = -first(i in 1..n where i > 5)", "-", "first(i in 1..n where i > 5)"),
    ("total = first(i in 1..n where i > 5) / 2", "/", "first(i in 1..n where i > 5)"),
    ("total = 7 % first(i in 1..n where i > 5)", "%", "first(i in 1..n where i > 5)"),
    ("let k = first(i in 1..n where i > 5)  total += k", "+=", "k"),
    ("let k = first(i in 1..n where i > 5)  k -= 1", "-=", "k "),
    ("let k = first(i in 1..n where i > 5)  for i in 1..k { total += i }", "..", "k {"),
    ("total = [1, 2][best(i in 1..n: i)]", "[...]", "best(i in 1..n: i)"),
    ("total = min(2, top_one(n))", "min", "top_one(n)"),
    ("let p = seat(best(i in 1..n: i))", "seat", "best(i in 1..n: i)"),
]


@pytest.mark.parametrize("stmts,op,at", NONE_NUMBERS)
def test_a_number_that_is_none_is_named_with_the_operator_that_needs_it(tmp_path, stmts, op, at):
    """A number is none only where `first` or `best` found no item (or a def or local holds
    what they gave): the operator that needs it fails with R000 at that number, saying so,
    not with Python's TypeError (checked_calls.py)."""
    line = f"rule flow() {{ {stmts} }}"
    with pytest.raises(GameRuntimeError) as err:
        run_text(tmp_path, f"shared {{ n: int = 0  total: int = 0 }}\ndef top_one(m: int) = best(i in 1..m: i)\n{line}\n")
    d = err.value.diagnostic
    assert d.code == "R000" and f"'{op}' needs a number" in d.message and "TypeError" not in d.message
    assert (d.span.line, d.span.col) == (4, line.rindex(at) + 1)


COUNTED = ("cards c(n: int) { card 1 card 2 }\nzone deck: c hidden\nzone heap: c hidden\n"
           "board t(i: int) loop { space s0 0 space s1 1 }\nplayer { at: t = s0 }\nshared { n: int = 0 }\n")


@pytest.mark.parametrize("fast", [False, True])
@pytest.mark.parametrize("stmt,what", [("repeat k { n += 1 }", "repeat"), ("draw k from deck to heap", "draw"),
                                       ("move seat(0).at by k steps forward", "move"),
                                       ("move seat(1).at by k steps forward", "move")])
def test_a_statement_given_none_for_its_count_names_it(tmp_path, stmt, what, fast):
    """A repeat's count, a draw's and a walk's that is none is R000 at the count, naming the
    statement, on op lists and in a rule's generator (ExprCompiler.counted, texts.counted);
    the second walk runs an `on pass` trigger, so it steps as ops (flow.walk_ops)."""
    trigger = "on pass t(s: t, p: player) { n += 1 }\n" if "seat(1)" in stmt else ""
    line = f"rule flow() {{ let k = first(i in 1..n where i > 5)  {stmt} }}"
    m = Machine(text_program(tmp_path, f"{COUNTED}{trigger}{line}\n"), 2, FixedChance(), fast=fast, start=False)
    with pytest.raises(GameRuntimeError) as err:
        m.run()
    d = err.value.diagnostic
    assert d.code == "R000" and f"'{what}' needs a number" in d.message
    assert (d.span.line, d.span.col) == (8 + bool(trigger), line.index(" k ", line.index(stmt)) + 2)


STORED_NONES = [  # (the store, the field, what is underlined)
    ("total = k", "total", "k"),
    ("total = first(i in 1..n where i > 5)", "total", "first("),
    ("s1.v = best(i in 1..n: i)", "v", "best("),
    ("seat(0).points = if n == 0 then k else 1", "points", "if n"),
    ("total = top_one(n)", "total", "top_one("),
]


@pytest.mark.parametrize("fast", [False, True])
@pytest.mark.parametrize("stmt,field,at", STORED_NONES)
def test_a_field_never_takes_a_number_that_is_none(tmp_path, stmt, field, at, fast):
    """A field's number is never none: storing a `first` or `best` of no items (or a local
    or def holding one) in it is R000 at the value, and the field keeps its number; on op
    lists and in a rule's generator alike (stores.py, game.py's assignment reference)."""
    line = f"rule flow() {{ let n = 0  let k = first(i in 1..n where i > 5)  {stmt} }}"
    text = ("player { points: int = 3 }\nshared { total: int = 3 }\n"
            "board b(kind: int = 0) { field v: int = 3  space s1 1  space s2 2 }\n"
            f"def top_one(m: int) = best(i in 1..m: i)\n{line}\n")
    m = Machine(text_program(tmp_path, text), 2, FixedChance(), fast=fast, start=False)
    with pytest.raises(GameRuntimeError) as err:
        m.run()
    d = err.value.diagnostic
    assert d.code == "R000" and f"field '{field}' holds a number" in d.message
    assert (d.span.line, d.span.col) == (6, line.index(at, line.index(stmt)) + 1)
    assert (m.w.shared["total"], m.w.players[0]["points"], m.w.spaces["b"]["v"]["s1"]) == (3, 3, 3)


@pytest.mark.parametrize("declared,what", [
    ("shared { top: int = best(i in 1..0: i) }", "the starting value of shared field 'top'"),
    ("player { top: int = first(i in 1..0 where i > 1) }", "the starting value of player field 'top'"),
    ("const TOP = best(i in 1..0: i)", "constant 'TOP'"),
])
def test_a_starting_number_that_is_none_is_refused_at_set_up(tmp_path, declared, what):
    """A field's or constant's number is never none, from its start: R000 at its
    declaration (compile/game.py `_start`)."""
    with pytest.raises(GameRuntimeError) as err:
        run_text(tmp_path, f'{declared}\nrule flow() {{ end "done" }}\n')
    d = err.value.diagnostic
    assert (d.code, d.span.line) == ("R000", 2) and d.message.startswith(f"{what} is a number, and it is none here")


def test_a_store_that_cant_be_none_is_not_checked_for_it(tmp_path, monkeypatch):
    """Only a value that may be none (bounds.Nones) is checked before a field takes it: a
    count, a field's number or arithmetic stores as before."""
    made = compiled_texts(monkeypatch)
    text = ("shared { total: int = 3  other: int = 1 }\n"
            "rule flow() { let k = 2  total = other + count(i in 1..k where i > 1)  other = total  total = k }\n")
    m = Machine(text_program(tmp_path, text), 2, FixedChance(), fast=True)
    assert m.w.shared == {"total": 2, "other": 2}
    stores = [t for t in made if "'total'" in t]
    assert stores and sum(t.count("is None:") for t in stores) == 1  # `total = k` alone


@pytest.mark.parametrize("ranked,at", [("score p: best(i in 1..p.points: i)", "best("),
                                       ("score p: p.points\ntiebreak p: first(i in 1..p.points where i > 0)", "first(")])
def test_a_score_or_tiebreak_that_is_none_is_named(tmp_path, ranked, at):
    """A seat is ranked by numbers: a score or tiebreak that is none (a `first` or `best` of
    no items) is R000 at its expression when the game ends, not a failed comparison at the
    `end`; one that can't be none is not wrapped (compile/game.py `_scored`)."""
    text = f'player {{ points: int = 0 }}\nrule flow() {{ end "done" }}\n{ranked}\n'
    with pytest.raises(GameRuntimeError) as err:
        run_text(tmp_path, text)
    d = err.value.diagnostic
    last = ranked.splitlines()[-1]
    assert d.code == "R000" and "is none here" in d.message and (d.span.line, d.span.col) == (
        3 + len(ranked.splitlines()), last.index(at) + 1)
    plain = text_program(tmp_path, 'player { points: int = 0 }\nrule flow() { end "done" }\nscore p: p.points\n')
    assert plain.scores_fn.__name__ != "checked" and plain.score_fn.__name__ != "checked"


def test_division_by_zero_inside_an_aggregate_is_reported_there(tmp_path):
    with pytest.raises(GameRuntimeError) as err:
        run_text(tmp_path, "rule flow() { let x = sum(i in 0..3: 12 / i) }\n")
    assert err.value.diagnostic.code == "R003"
    assert (err.value.diagnostic.span.line, err.value.diagnostic.span.col) == (2, 38)


def test_a_failing_statement_among_straight_line_effects_is_the_one_named(tmp_path):
    text = ("shared { who: player? = none  n: int = 0 }\n"
            "rule flow() {\n  n = 1\n  n += 2\n  who.alive = true\n  n += 3\n}\n")
    text = text.replace("who.alive = true", "reveal top(hand[who])")
    text = "cards card(v: int) { card 1 }\nzone hand per player: card owner\n" + text
    with pytest.raises(GameRuntimeError) as err:
        run_text(tmp_path, text)
    assert err.value.diagnostic.span.line == 8  # the reveal; the two lines before it ran
    assert "R00" in err.value.diagnostic.code


def test_strings_and_names_cannot_reach_the_generated_code(tmp_path):
    m = run_text(tmp_path, 'shared { s: int = 0 }\nrule flow() { say "\\"); import os; (\\"{s}"  s = 1 }\n')
    assert m.w.shared["s"] == 1 and m.result is not None


def sample_states(path, games=3, players=None):
    game = load_game(str(ROOT / path))
    players = players or game.program.min_players
    rng = random.Random(path)
    for _ in range(games):
        m = Machine(game.program, players, FixedChance([rng.randint(1, 6) for _ in range(500)]))
        steps = 0
        while m.pending is not None and steps < 150:
            yield game, m
            m.choose_index(rng.randrange(len(m.pending.labels)))
            steps += 1


def param_values(model, prog, ptype, n_players):
    """A few values of a parameter type, for calling defs on sampled states."""
    name = ptype.name
    if name == "player":
        return list(range(n_players))
    if name in model.boards:
        return list(model.boards[name].spaces)
    if name in model.enums:
        return list(model.enums[name])
    if name in model.cardsets:
        return list(prog.cardset_ids[name])[:8]
    return {"int": [0, 1, 3], "bool": [True, False]}.get(name, [])


def outcome(fn, w, env):
    """("value", v), or the error a call raised: its code, or its Python type."""
    try:
        return ("value", fn(w, env))
    except GameRuntimeError as err:
        return ("error", err.diagnostic.code)
    except RUNTIME_FAILURES as err:
        return ("error", type(err).__name__)


@pytest.mark.slow
@pytest.mark.parametrize("path", ALL_GAMES)
def test_fast_code_agrees_with_the_checked_code(path):
    """End conditions, scores and defs (up to 64 argument tuples each), on states from random play."""
    checked = 0
    for game, m in sample_states(path):
        model, prog, w = game.model, game.program, m.w
        ex = ExprCompiler(model, prog)
        ref = lambda e: ex(e, checked=True)  # noqa: E731
        for end, compiled in zip(model.ends, prog.ends):
            assert compiled.cond(w, {}) == ref(end.cond)(w, {})
            checked += 1
        if model.score is not None:
            for seat in range(w.n):
                env = {model.score.var: seat}
                assert prog.score_fn(w, env) == ref(model.score.value)(w, env)
                checked += 1
        for name, d in model.defs.items():
            domains = [param_values(model, prog, p.type, w.n) for p in d.params]
            for values in itertools.islice(itertools.product(*domains), 64):
                env = {p.name: v for p, v in zip(d.params, values)}
                # sample arguments may be out of a def's domain: then both must fail alike
                fast = lambda w, env: prog.def_bodies[name][0](w, *values)  # noqa: E731  (positional)
                assert outcome(fast, w, env) == outcome(ref(d.body), w, env), (name, values)
                checked += 1
    assert checked > 0


def test_filters_on_a_fixed_attribute_keep_meaning_and_order(tmp_path):
    text = ("cards c(suit: int, rank: int) { each suit in 0..2, rank in 1..4 }\n"
            "shared { n: int = 0  f: c? = none  m: int = 0 }\n"
            "rule flow() {\n"
            "  n = count(x in c where x.suit == 1 and x.rank > 2)\n"
            "  f = first(x in c where 2 == x.suit)\n"
            "  m = sum(x in c where x.suit == 5: x.rank)\n"
            "}\n")
    m = run_text(tmp_path, text)
    assert m.w.shared["n"] == 2 and m.w.shared["m"] == 0
    assert m.program.cards[m.w.shared["f"]].attrs == {"suit": 2, "rank": 1}


COLUMNS = """cards c(suit: int, rank: int) {
  field owner: player? = none
  each suit in 0..1, rank in 1..3
}
zone deck: c hidden
zone hand per player: c owner
"""


@pytest.mark.parametrize("expr,value", [
    ("count(x in c where x.owner == seat(1))", 3),
    ("count(x in c where x.suit == 1 and seat(1) == x.owner)", 1),
    ("count(x in c where x.owner == none)", 2),
    ("if any(x in c where x.suit == 0 and x.owner == seat(0)) then 1 else 0", 1),
    ("if all(x in c where x.suit == 1: x.owner == seat(1)) then 1 else 0", 0),
    ("if all(x in c where x.suit == 1 and x.rank < 3: x.owner == seat(1)) then 1 else 0", 0),
    ("if all(x in c where x.suit == 1 and x.rank == 1: x.owner == seat(1)) then 1 else 0", 1),
    ("count(x in c where x.owner != none)", 4),
    ("count(x in c where x.suit == 1 and x.owner != seat(1))", 2),
    ("if any(x in c where x.suit == 0 and x.owner != seat(1)) then 1 else 0", 1),
    ("if any(x in c where x.suit == 1 and seat(1) != x.owner) then 1 else 0", 1),
    ("if all(x in c where x.suit == 0: x.owner != none) then 1 else 0", 1),
    ("if all(x in c: x.owner != none) then 1 else 0", 0),
    ("if all(x in c where x.rank == 1: seat(0) != x.owner) then 1 else 0", 1),
    # the key is evaluated before the items in the fast code; with no items, the rules never evaluate it
    ("count(x in hand[seat(0)] where x.owner == [seat(0)][5])", 0),
])
def test_count_any_and_all_over_a_stored_field_keep_their_meaning(tmp_path, expr, value):
    """Such tests (== and !=) run in C over the field's column (CollectionGen.by_column)."""
    text = COLUMNS + f"""shared {{ n: int = 9 }}
rule flow() {{
  for x in c {{
    if x.rank == 1 or (x.suit == 0 and x.rank == 3) {{ x.owner = seat(1) }}
    else if x.suit == 0 and x.rank == 2 {{ x.owner = seat(0) }}
  }}
  n = {expr}
}}
"""
    assert run_text(tmp_path, text).w.shared["n"] == value


@pytest.mark.parametrize("expr,value", [
    ("count(x in hand[seat(0)] where x.suit == 1)", 2),
    ("count(x in hand[seat(0)] where 1 != x.suit)", 1),
    ("if any(x in hand[seat(0)] where x.rank == 3) then 1 else 0", 0),
    ("if any(x in hand[seat(0)] where x.rank != 2) then 1 else 0", 1),
    ("if all(x in hand[seat(0)]: x.suit == 1) then 1 else 0", 0),
    ("if all(x in hand[seat(0)]: x.rank != 3) then 1 else 0", 1),
    ("count(x in hand[seat(1)] where x.suit == 1)", 0),  # an empty zone
])
def test_a_zones_cards_are_counted_by_a_fixed_attribute_in_c(tmp_path, monkeypatch, expr, value):
    """count, any and all over a zone whose one test is a fixed attribute of its cards
    (`x.suit == K`) read the attribute's column by card id in one pass in C, as over a
    stored field's column (by_column): the values are the rules', the items charged alike."""
    from ruledsl.compile import aggregate_calls, aggregates
    used = []
    for table in (aggregate_calls.BY_COLUMN_EQ, aggregate_calls.BY_COLUMN_NE):
        for func, run in list(table.items()):
            monkeypatch.setitem(table, func, lambda values, key, run=run: used.append(key) or run(values, key))
    monkeypatch.setattr(aggregates, "unfailing", lambda e: False)  # no `K in values`: the functions above
    text = COLUMNS + f"""shared {{ n: int = 9 }}
rule flow() {{
  for x in c {{
    if x.rank == 2 or (x.suit == 1 and x.rank == 1) {{ move x to hand[seat(0)] }}
  }}
  n = {expr}
}}
"""
    m = run_text(tmp_path, text)
    assert m.w.shared["n"] == value
    assert used, "the zone's cards were tested one by one"


@pytest.mark.parametrize("test,value", [("p.n >= 0", True), ("p.n > 0", False)])
def test_all_with_its_condition_as_the_where_compiles_and_runs(tmp_path, test, value):
    """`all(x in S where c)`: every x meets c. It once crashed the compiler (the visit
    charge named a span that form did not carry)."""
    m = run_text(tmp_path, f"player {{ n: int = 0 }}\nshared {{ ok: bool = false }}\n"
                           f"rule flow() {{ ok = all(p in players where {test}) }}\n")
    assert m.w.shared["ok"] is value


def test_a_failing_key_of_a_column_test_is_named_where_the_rules_evaluate_it(tmp_path):
    text = COLUMNS + "shared { n: int = 9 }\nrule flow() { n = count(x in c where x.owner == [seat(0)][5]) }\n"
    with pytest.raises(GameRuntimeError) as info:
        run_text(tmp_path, text)
    assert (info.value.diagnostic.code, info.value.diagnostic.span.line, info.value.diagnostic.span.col) == ("R002", 9, 49)


@pytest.mark.parametrize("stmt,at", [("who.score = 1", "who.score"), ("n += who.score", "who.score")])
def test_a_failing_assignment_changes_nothing_and_names_the_none(tmp_path, stmt, at):
    line = f"rule flow() {{ n = 5  {stmt} }}"
    with pytest.raises(GameRuntimeError) as err:
        run_text(tmp_path, f"player {{ score: int = 0 }}\nshared {{ who: player? = none  n: int = 0 }}\n{line}\n")
    span = err.value.diagnostic.span
    assert err.value.diagnostic.code == "R001"
    assert (span.line, span.col, span.end_col) == (4, line.index(at) + 1, line.index(at) + 1 + len("who"))
    assert "so it has no 'score'" in err.value.diagnostic.message


def test_a_deeply_nested_expression_runs_up_to_the_checker_limit(tmp_path):
    terms = " + ".join(["1"] * 110)  # 109 nested additions: generated as nested parentheses
    m = run_text(tmp_path, f"shared {{ n: int = 0 }}\nrule flow() {{ n = {terms}  n += {terms} }}\n")
    assert m.w.shared["n"] == 220


@pytest.mark.parametrize("terms,code", [(400, "E232"), (5000, "E004")])
def test_deeper_expressions_are_reported_not_crashed_on(tmp_path, terms, code):
    path = tmp_path / "t.game"
    path.write_text('game "T" players 2..4\nshared { n: int = 0 }\nrule flow() { n = ' + " + ".join(["1"] * terms) + " }\n")
    with pytest.raises(RuleError) as err:
        load_game(str(path))
    assert [d.code for d in err.value.diagnostics] == [code]


def test_an_indexed_filter_keeps_the_short_circuit_of_its_where(tmp_path):
    """`x.rank == [1, 2][K]` is an index key, but with an empty hand the first conjunct is
    false for every card, so the rules never evaluate the out-of-range index."""
    text = ("cards c(rank: int) { each rank in 1..3 }\n"
            "zone deck: c public\nzone hand per player: c owner\n"
            "shared { n: int = 7 }\n"
            "rule flow() { n = count(x in c where size(hand[seat(0)]) > 0 and x.rank == [1, 2][size(hand[seat(0)]) + 5]) }\n")
    assert run_text(tmp_path, text).w.shared["n"] == 0


def test_an_expression_too_deep_for_the_generator_is_an_error_not_a_crash(tmp_path):
    """55 counts over list literals: 110 levels (under E232's 120), but about 220 brackets
    in the generated Python, more than its parser takes."""
    e = "1"
    for i in range(55):
        e = f"count(x{i} in [{e}])"
    path = tmp_path / "t.game"
    path.write_text(f'game "T" players 2..4\nshared {{ n: int = 0 }}\nrule flow() {{ n = {e} }}\n')
    with pytest.raises(RuleError) as err:
        load_game(str(path))
    assert [d.code for d in err.value.diagnostics] == ["E403"]
    assert err.value.diagnostics[0].span.line == 3
    assert "this expression is nested too deeply" in err.value.diagnostics[0].message  # not the stretch written as text


TALLIED_BOARD = """board lots(block: int) {
  field owner: player? = none
  field level: int = 0
  each i in 1..6: space "a{i}" 1
  each i in 1..5: space "b{i}" 2
  space c1 3
}
"""
TALLIED = [
    "count(x in lots where x.owner == {p})", "count(x in lots where x.block == {b} and x.owner == {p})",
    "any(x in lots where {b} == x.block and x.owner == {p})", "all(x in lots where x.block == {b}: x.owner == {p})",
    "count(x in lots where x.level == {k})", "all(x in lots: x.level == {k})",
    "any(x in lots where x.block == 4 and x.owner == {p})", "all(x in lots where x.block == 4: x.level == {k})",
]


def test_counts_over_a_board_are_tallied_and_agree_with_the_checked_code_after_any_writes(tmp_path):
    """Over a whole board or a group of it by a fixed attribute, count/any/all testing a
    stored field are lookups in the tally its Column keeps as it is written (by the
    rules, and here by hand); a clone keeps its own."""
    from ruledsl.runtime.world import Column
    path = tmp_path / "t.game"
    rules = "\n".join(f"def q{i}() = {t}" for i, t in enumerate(
        template.format(p=p, b=b, k=k) for template in TALLIED
        for p, b, k in itertools.product(["seat(0)", "seat(1)", "none"], [1, 2, 3], [0, 1])))
    path.write_text('game "T" players 2..4\n' + TALLIED_BOARD + rules + "\nrule flow() { choose x from 1..2 by seat(0) }\n")
    game = load_game(str(path))
    prog, model = game.program, game.model
    assert set(prog.tallied) == {("lots", "owner"), ("lots", "level")}
    m = Machine(prog, 2, FixedChance())
    rng = random.Random(7)
    ex = ExprCompiler(model, prog)
    checked = {name: ex(d.body, checked=True) for name, d in model.defs.items()}
    worlds = [m.w]
    for step in range(90):
        w = worlds[-1]
        space = rng.choice(prog.boards["lots"].spaces)
        if rng.random() < 0.5:
            w.spaces["lots"]["owner"][space] = rng.choice([0, 1, None])
        else:
            w.spaces["lots"]["level"][space] += rng.choice([-1, 1])
        if step % 30 == 29:
            worlds.append(w.clone())  # writes go on in the clone; the original keeps its tallies
        worlds[-1].spaces["lots"]["owner"] = pickle.loads(pickle.dumps(worlds[-1].spaces["lots"]["owner"]))
        for w in worlds:
            assert isinstance(w.spaces["lots"]["owner"], Column)
            for name in model.defs:
                assert prog.def_bodies[name][0](w) == checked[name](w, {}), (name, step)


def test_tally_lookups_written_out_agree_with_the_checked_code_and_charge_alike(tmp_path):
    """With the group and the value named by parameters (aggregates.looked_up: the tally's
    entry read in the text, the items still charged), every count/any/all over the
    board or a group of it, a group with no spaces (block 4) too, gives what the checked
    code gives, charging the call and the items of the group, as the board is written."""
    templates = [t.format(p="p", b="b", k="k") for t in TALLIED] + ["count(x in lots where x.block == b and x.owner == p) + k"]
    rules = "\n".join(f"def q{i}(p: player?, b: int, k: int) = {t}" for i, t in enumerate(templates))
    path = tmp_path / "t.game"
    path.write_text('game "T" players 2..4\n' + TALLIED_BOARD + rules + "\nrule flow() { choose x from 1..2 by seat(0) }\n")
    game = load_game(str(path))
    prog, model = game.program, game.model
    m = Machine(prog, 2, FixedChance())
    ex = ExprCompiler(model, prog)
    checked = {name: ex(d.body, checked=True) for name, d in model.defs.items()}
    board = prog.boards["lots"]
    block = board.attrs_of_space["block"]
    rng = random.Random(11)
    w = m.w
    for step in range(60):
        space = rng.choice(board.spaces)
        w.spaces["lots"]["owner"][space] = rng.choice([0, 1, None])
        w.spaces["lots"]["level"][space] = rng.choice([0, 1])
        for (name, d), text in zip(model.defs.items(), templates):
            for p, b, k in itertools.product([0, 1, None], [1, 2, 3, 4], [0, 1]):
                group = b if "block == b" in text or "b == x.block" in text else 4 if "block == 4" in text else None
                visits = len(board.spaces) if group is None else sum(block[s] == group for s in board.spaces)
                w.work = 1000
                fast = prog.def_bodies[name][0](w, p, b, k)
                assert w.work == 1000 - 1 - visits, (name, p, b, k)  # the call, then the items (checked scans them all)
                assert fast == checked[name](w, {"p": p, "b": b, "k": k}), (name, p, b, k)


def test_a_small_board_is_not_tallied(tmp_path):
    """Below TALLY_MIN_SPACES the scan in C is kept: a tally would cost more at its writes."""
    from ruledsl.compile.aggregates import TALLY_MIN_SPACES
    small = TALLIED_BOARD.replace("1..6", "1..1").replace("1..5", "1..1")
    text = small + "shared { n: int = 0 }\nrule flow() { n = count(x in lots where x.owner == none) }\n"
    m = run_text(tmp_path, text)
    assert len(m.program.boards["lots"].spaces) < TALLY_MIN_SPACES
    assert m.program.tallied == {} and m.w.shared["n"] == 3


GRID = """board grid(row: int, col: int) {
  field owner: player? = none
  space a1 0 0
  space a2 0 1
  space a3 0 2
  space b1 1 0
  space b2 1 1
  space b3 1 2
  space c1 2 0
  space c2 2 1
  space c3 2 2
}
"""


@pytest.mark.parametrize("expr,value", [
    ("count(t in grid where t.row == t.col and t.owner == seat(0))", 2),
    ("count(t in grid where t.owner == seat(0) and t.row + t.col == 2)", 1),
    ("count(t in grid where not (t.row < t.col) and t.owner == none)", 3),
    ("size([t in grid where t.row - t.col == 1 or t == a3])", 3),
    ("sum(t in grid where t.row + t.col == 2 and t != b2: t.col)", 2),
    ("if first(t in grid where t.col > t.row and t.owner == seat(1)) == a3 then 1 else 0", 1),
    ("if all(t in grid where t.row == t.col: t.owner == seat(0)) then 1 else 0", 0),
])
def test_conjuncts_on_fixed_attributes_alone_keep_meaning_and_order(tmp_path, expr, value):
    """`where` conjuncts that read only fixed attributes of the item (and literals) are
    met by items found once (CollectionGen.meeting); the rest are tested on those."""
    text = GRID + f"""shared {{ n: int = 9 }}
rule flow() {{
  a1.owner = seat(0)
  c3.owner = seat(0)
  c1.owner = seat(0)
  b3.owner = seat(1)
  a3.owner = seat(1)
  n = {expr}
}}
"""
    assert run_text(tmp_path, text).w.shared["n"] == value


def test_the_items_meeting_fixed_conjuncts_are_listed_once_and_charged_as_visited(tmp_path):
    """The diagonal of a 3x3 board: 3 items visited, not 9, and the list is kept."""
    from ruledsl.compile.aggregate_calls import Kept
    game = GRID + "def mine(p: player) = count(t in grid where t.row == t.col and t.owner == p)\n" \
                  "rule flow() { choose x from 1..2 by seat(0) }\n"
    m = run_text(tmp_path, game)
    mine = m.program.def_bodies["mine"][0]
    m.w.work = 100
    assert mine(m.w, 0) == 0
    kept = [k for k in mine.__globals__.values() if isinstance(k, Kept)]
    assert [k.items for k in kept] == [["a1", "b2", "c3"]]
    assert m.w.work == 100 - 1 - 3  # the def's call, and the three spaces of the diagonal


@pytest.mark.parametrize("expr,value", [
    ("count(t in grid where t.row + t.col == 4 and t.owner == seat(0))", 1),  # a group of one (c3)
    ("count(t in grid where t.row + t.col == 5 and t.owner == seat(0))", 0),  # of none
    ("count(t in grid where t.row == 2 and t.owner == seat(0))", 2),  # an index's group of three
    ("count(t in grid where t.row == 7 and t.owner == none)", 0),  # an index's key with no group
    ("if all(t in grid where t.row + t.col == 4: t.owner == seat(0)) then 1 else 0", 1),
    ("if any(t in grid where t.row + t.col == 4 and t.owner != seat(0)) then 1 else 0", 0),
])
def test_a_fixed_groups_values_are_read_in_one_call_and_keep_meaning(tmp_path, monkeypatch, expr, value):
    """count, any and all over a fixed group (an index's, the items meeting fixed
    conjuncts) read the column through the group's `values`, never item by item: also for
    a group of one (where itemgetter would give a value, not a tuple) and of none. The
    values are those the rules give (c3 and c1 are seat 0's, a3 and b1 seat 1's)."""
    from ruledsl.compile import aggregate_calls, aggregates
    read = []

    class Counted(aggregate_calls.Group):
        __slots__ = ()

        def __init__(self, items=()):
            super().__init__(items)
            values = self.values
            self.values = lambda column: read.append(len(self)) or values(column)
    monkeypatch.setattr(aggregates, "Group", Counted)  # the whole board's group
    monkeypatch.setattr(aggregate_calls, "Group", Counted)  # an index's groups, the items kept
    monkeypatch.setattr(aggregate_calls, "NO_ITEMS", Counted())
    text = GRID + "shared { n: int = 9 }\nrule flow() {\n  c3.owner = seat(0)\n  c1.owner = seat(0)\n" \
                  f"  a3.owner = seat(1)\n  b1.owner = seat(1)\n  n = if true then {expr} else 0\n}}\n"
    assert run_text(tmp_path, text).w.shared["n"] == value
    assert read, "the column was read item by item"


@pytest.mark.parametrize("expr,value", [
    ("count(t in grid where t.owner == seat(1))", 2),
    ("any(t in grid where t.owner == seat(0))", True),
    ("all(t in grid: t.owner != none)", False),
    ("count(t in grid where t.owner != seat(1))", 7),
])
def test_a_whole_boards_values_are_its_columns_values(tmp_path, monkeypatch, expr, value):
    """count, any and all over a whole board read its column's values in C (`.values()`:
    the column holds every space and nothing else, as a field of none can't be set), with
    the values the rules give (c3 and c1 are seat 0's, a3 and b1 seat 1's), in a statement
    (its spaces charged by its lines) and in an expression (charged by budget.visited)."""
    texts = compiled_texts(monkeypatch)
    kind = "int = 9" if expr.startswith("count") else "bool = false"
    text = GRID + f"shared {{ n: {kind}  m: {kind} }}\nrule flow() {{\n  c3.owner = seat(0)\n  c1.owner = seat(0)\n" \
                  f"  a3.owner = seat(1)\n  b1.owner = seat(1)\n  let v = {expr}\n  n = v\n" \
                  f"  m = if true then {expr} else {expr}\n}}\n"
    m = run_text(tmp_path, text)
    assert m.w.shared["n"] == m.w.shared["m"] == value
    views = {" and " in line for t in texts for line in t.splitlines() if ".values()" in line}
    assert views == {False, True}  # the let's (charged by lines), and the expression's (`visited(...) and`)


@pytest.mark.parametrize("kind,value,equal", [("player", "seat(0)", False), ("player", "none", True),
                                              ("color", "red", False), ("color", "none", True)])
def test_a_comparison_with_none_is_true_of_none_alone(tmp_path, kind, value, equal):
    """`x == none` is generated as `x is None`: no value of the language equals none but none
    (seat 0 is the number 0)."""
    m = run_text(tmp_path, f"enum color {{ red }}\nshared {{ x: {kind}? = none  a: bool = false  b: bool = false }}\n"
                           f"rule flow() {{ x = {value}  a = x == none  b = none != x }}\n")
    assert (m.w.shared["a"], m.w.shared["b"]) == (equal, not equal)


class _CountedReads(dict):
    """A World's `spaces` that counts how often a board's columns are looked up."""
    reads = 0

    def __getitem__(self, key):
        _CountedReads.reads += 1
        return super().__getitem__(key)


@pytest.mark.parametrize("expr,value", [
    ("[t in grid where t.owner == none and t.col > 0]", ["a2", "b2", "c2"]),
    ("[t in grid where t.owner == seat(0) or t.owner == seat(1)]", ["a1", "a3", "b3", "c1", "c3"]),
    ("[t in grid where count(u in grid where u.row == t.row and u.owner == t.owner) == 2]", ["b1", "b2", "c1", "c3"]),
])
def test_a_column_read_in_a_comprehension_is_looked_up_once(tmp_path, expr, value):
    """The fast code reads a stored field's column once, before the expression, where the
    expression reads it in a loop (_Gen.column); the checked code agrees."""
    game = GRID + f"def picked(n: int) = if n < 0 then [a1] else {expr}\n" + """rule flow() {
  a1.owner = seat(0)
  c3.owner = seat(0)
  c1.owner = seat(0)
  b3.owner = seat(1)
  a3.owner = seat(1)
  choose x from 1..2 by seat(0)
}
"""
    (tmp_path / "t.game").write_text('game "T" players 2..4\n' + game)
    loaded = load_game(str(tmp_path / "t.game"))
    m = Machine(loaded.program, 2, FixedChance([]))
    picked = loaded.program.def_bodies["picked"][0]
    m.w.spaces = _CountedReads(m.w.spaces)
    _CountedReads.reads = 0
    assert picked(m.w, 1) == value
    assert _CountedReads.reads == 1
    checked = ExprCompiler(loaded.model, loaded.program)(loaded.model.defs["picked"].body, checked=True)
    assert checked(m.w, {"n": 1}) == value


BIG = "3037000500 * 3037000500"  # just above 2**63 - 1


@pytest.mark.parametrize("text,line", [
    (f"rule flow() {{\n  let x = {BIG}\n}}\n", 3),
    (f"def big(n: int) = n * n\nrule flow() {{\n  let x = big(3037000500) - 1\n}}\n", 2),
    (f"player {{ n: int = 0 }}\nrule flow() {{\n  seat(1).n = {BIG}\n}}\n", 4),
    (f"rule flow() {{\n  for p in players {{\n    let x = {BIG}\n  }}\n  choose k from 1..2 by seat(0)\n}}\n", 4),
])
def test_a_number_beyond_the_bound_is_r012_where_it_is_stored(tmp_path, text, line):
    """A let, a def's value and an assignment of a number check it (R012); values of other
    types (a player, a card: small numbers) are not checked (bounds.py)."""
    for fuse in (True, False):
        (tmp_path / "t.game").write_text('game "T" players 2..4\n' + text)
        with pytest.raises(GameRuntimeError) as info:
            Machine(load_game(str(tmp_path / "t.game"), fuse=fuse).program, 2, FixedChance([]), fast=fuse)
        assert (info.value.diagnostic.code, info.value.diagnostic.span.line) == ("R012", line), fuse


def test_lets_defs_and_fields_of_players_and_cards_keep_their_values(tmp_path):
    text = COLUMNS + """player { rival: player? = none  held: c? = none }
def other(p: player) = next_player(p)
def first_card() = top(deck)
rule flow() {
  let p = other(seat(0))
  let q = first_card()
  seat(0).rival = p
  seat(1).held = q
  choose k from 1..2 by seat(0)
}
"""
    for fuse in (True, False):
        (tmp_path / "t.game").write_text('game "T" players 2..4\n' + text)
        m = Machine(load_game(str(tmp_path / "t.game"), fuse=fuse).program, 2, FixedChance([]), fast=fuse)
        assert (m.w.players[0]["rival"], m.w.players[1]["held"]) == (1, m.w.zones[("deck", None)][0]), fuse


def test_a_card_in_a_zone_is_where_it_lies_after_moves_draws_and_refills(tmp_path, monkeypatch):
    """Fast code answers `c in Z` from where each card lies (World.loc), for a zone named
    alone or by a local or an aggregate's item (_Gen.located); the checked code looks at
    the zone's cards."""
    text = COLUMNS + """zone used: c public
shared { n: int = 0 }
def held(p: player, x: c) = x in hand[p]
def anyones(x: c) = any(p in players: x in hand[p])
def where(x: c) = if x in deck then 1 else if x in used then 2 else if held(seat(0), x) then 3 else 4
rule flow() {
  shuffle deck
  draw 2 from deck to hand[seat(0)]
  draw 1 from deck to hand[seat(1)]
  move top(hand[seat(0)]) to used
  draw all from deck to used
  move top(used) under hand[seat(1)]
  choose x from 1..2 by seat(0)
}
"""
    (tmp_path / "t.game").write_text('game "T" players 2..4\n' + text)
    texts = compiled_texts(monkeypatch)
    loaded = load_game(str(tmp_path / "t.game"))
    m = Machine(loaded.program, 2, FixedChance([]))
    where, held = loaded.program.def_bodies["where"][0], loaded.program.def_bodies["held"][0]
    anyones = loaded.program.def_bodies["anyones"][0]
    anyones_checked = ExprCompiler(loaded.model, loaded.program)(loaded.model.defs["anyones"].body, checked=True)
    checked = ExprCompiler(loaded.model, loaded.program)(loaded.model.defs["where"].body, checked=True)
    zones = {key: cards for key, cards in m.w.zones.items() if cards}
    assert set(zones) == {("hand", 0), ("hand", 1), ("used", None)}
    for card in loaded.program.cardset_ids["c"]:
        expected = 2 if card in zones[("used", None)] else 3 if card in zones[("hand", 0)] else 4
        assert where(m.w, card) == checked(m.w, {"x": card}) == expected
        assert anyones(m.w, card) == anyones_checked(m.w, {"x": card}) == (expected == 3 or card in zones[("hand", 1)])
    assert any("def _expr(w, _v_x):" in t and ".get(_v_x) == ('hand', _v_p)" in t for t in texts)  # the item's zone
    assert [held(m.w, p, c) for p in (0, 1) for c in m.w.zones[("hand", 1)]] == [False, False, True, True]
    ex, body = ExprCompiler(loaded.model, loaded.program), loaded.model.defs["held"].body
    for checked_mode in (False, True):  # a key of none names no zone: fast code fails as checked code does
        with pytest.raises(KeyError):
            ex(body, checked=checked_mode)(m.w, {"p": None, "x": 0})


@pytest.mark.parametrize("expr, name, args", [
    ("size(hand[seat(1)])", "size", [("hand", 1)]), ("size([4, 5, 6])", "size", [[4, 5, 6]]),
    ("seat(5)", "seat", [5]), ("min(3, 0 - 2)", "min", [3, -2]), ("max(3, 0 - 2)", "max", [3, -2]),
    ("abs(0 - 7)", "abs", [-7]), ("top(hand[seat(1)])", "top", [("hand", 1)]),
    ("bottom(hand[seat(1)])", "bottom", [("hand", 1)]), ("top(hand[seat(2)])", "top", [("hand", 2)]),
    ("bottom(hand[seat(2)])", "bottom", [("hand", 2)])])
def test_builtins_written_as_text_give_what_their_functions_give(tmp_path, monkeypatch, expr, name, args):
    """size, seat, min, max, abs, top and bottom are written into the expression's text
    (Builtin.text): their functions are not called, and the value is theirs (a zone with
    no cards has no top: none)."""
    import msgspec

    from ruledsl.check import builtins
    real = builtins.BUILTINS[name]

    def not_called(*_):
        raise AssertionError(f"{name} was called")
    monkeypatch.setitem(builtins.BUILTINS, name, msgspec.structs.replace(real, run=not_called))
    target = {"seat": "who", "top": "c", "bottom": "c"}.get(name, "n")
    text = ("cards card(v: int) { card 1\n  card 2\n  card 3 }\nzone deck: card hidden\n"
            "zone hand per player: card owner\nshared { n: int = 0  who: player? = none  c: card? = none }\n"
            f"rule flow() {{ draw 2 from deck to hand[seat(1)]\n  {target} = {expr} }}\n")
    m = run_text(tmp_path, text, players=3)
    assert m.w.shared[target] == real.run(m.w, *args)


def test_every_seats_score_comes_from_one_comprehension(tmp_path, monkeypatch):
    """Program.scores_fn (the end of every game) evaluates the score of every seat in one
    generated function (ExprCompiler.each_seat), not a call per seat; where one seat's
    score fails, seat by seat, and the failure names the score's expression as before."""
    text = ("player { chips: int = 5 }\nscore p: 10 / p.chips\n"
            "rule flow() { for p in players { p.chips = p.seat + 1 }\n  choose x from 1..2 by seat(0) }\n")
    m = run_text(tmp_path, text, players=3)
    program, per_seat = m.program, m.program.score_fn

    def not_called(*_):
        raise AssertionError("a score evaluated seat by seat")
    monkeypatch.setattr(program, "score_fn", not_called)
    assert program.scores_fn(m.w, None) == [10, 5, 3]
    monkeypatch.setattr(program, "score_fn", per_seat)
    m.w.players[1]["chips"] = 0
    with pytest.raises(GameRuntimeError) as info:
        program.scores_fn(m.w, None)
    assert (info.value.diagnostic.code, info.value.diagnostic.span.line) == ("R003", 3)


@pytest.mark.parametrize("expr, value", [
    ("all(t in grid: t.owner != none)", 0), ("any(t in grid where t.owner == none)", 1),
    ("all(t in grid where t.row == 0: t.owner != none)", 1), ("any(t in grid where t.row == 2 and t.owner == who)", 0)])
def test_any_equal_and_all_unequal_over_a_column_are_written_as_in(tmp_path, monkeypatch, expr, value):
    """`any(x in S where x.f == K)` is `K in` the column's values, `all(x in S: x.f != K)`
    is `K not in` them, where K neither fails nor charges: the functions they called are
    not called, and the value is theirs."""
    from ruledsl.compile import aggregate_calls

    def not_called(*_):
        raise AssertionError("called")
    monkeypatch.setitem(aggregate_calls.BY_COLUMN_EQ, "any", not_called)
    monkeypatch.setitem(aggregate_calls.BY_COLUMN_NE, "all", not_called)
    text = GRID + "shared { n: int = 9  who: player? = none }\nrule flow() {\n  a1.owner = seat(0)\n  who = seat(0)\n" \
                  f"  a2.owner = seat(1)\n  a3.owner = seat(1)\n  n = if {expr} then 1 else 0\n}}\n"
    assert run_text(tmp_path, text).w.shared["n"] == value
