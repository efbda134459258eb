"""The parse stage: optional parts arrive as None, syntax errors are reported several at a
time without cascades, and a changed grammar is never read from a stale cached parser."""
from __future__ import annotations

import pytest

from ruledsl.syntax import ast, grammar, parse, tables
from ruledsl.errors import RuleError
from ruledsl.syntax.parse import MAX_SYNTAX_ERRORS, parse_text


def errors_of(text: str) -> list:
    with pytest.raises(RuleError) as err:
        parse_text("t.game", text)
    return [(d.code, d.span.line, d.span.col, d.message) for d in err.value.diagnostics]


def places(text: str) -> list:
    return [(line, col) for code, line, col, _ in errors_of(text) if code == "E001"]


GOOD = """game "T" players 2..2
shared { n: int = 0 }
rule a() {
  let x = 1
  say "x is {x}"
}
rule b(p: player) {
  n += 1
}
end when over "done": n > 3
"""


def test_a_good_file_parses():
    assert [type(d).__name__ for d in parse_text("t.game", GOOD).decls] == ["GameDecl", "Fields", "Rule", "Rule",
                                                                          "EndWhen"]


def test_two_typos_in_two_rules_are_two_errors_at_their_places():
    text = GOOD.replace("let x = 1", "let x = = 1").replace("n += 1", "n += += 1")
    errs = errors_of(text)
    assert [(c, line, col) for c, line, col, _ in errs] == [("E001", 4, 11), ("E001", 8, 8)]
    assert errs[0][3].startswith("unexpected '='; expected ")
    assert errs[1][3].startswith("unexpected '+='; expected ")


@pytest.mark.parametrize("broken, where", [
    (GOOD.replace("let x = 1", "let x = = 1"), (4, 11)),             # a bad token
    (GOOD.replace("n += 1", "n += 1 $"), (8, 10)),                   # a bad character
    (GOOD.replace("  say \"x is {x}\"\n}\n", "  say \"x is {x}\"\n"), (6, 9)),  # a missing "}"
    (GOOD.replace("  let x = 1\n", "  let x = 1\nconst C = 3\n"), (5, 1)),     # a declaration in a block
    (GOOD.replace("  let x = 1\n", "  let x = 1\ngame \"U\" players 2..2\n"), (5, 1)),
    (GOOD.replace("end when over", "end over"), (10, 5)),
    (GOOD[:-2], (10, 25)),                                            # cut short: end of file
    (GOOD.replace("game \"T\"", "game T"), (1, 6)),
])
def test_one_typo_is_one_error(broken, where):
    assert places(broken) == [where]


def test_the_declarations_after_an_error_are_still_read():
    text = "rule a() { let x = = 1 }\n" + "".join(f"rule r{i}() {{ x = }}\n" for i in range(3))
    assert places(text) == [(1, 20), (2, 17), (3, 17), (4, 17)]


def test_errors_stop_at_the_limit():
    text = "".join(f"const c{i} = = 1\n" for i in range(MAX_SYNTAX_ERRORS + 15))
    assert len(places(text)) == MAX_SYNTAX_ERRORS


@pytest.mark.parametrize("zone,name,after", [
    ("zone deck: card", "deck", "zone pile: card hidden\n"),
    ("zone hand per player: card   # each seat's", "hand", "\nrule flow() { }\n"),
    ("override zone deck: card", "deck", ""),
])
def test_a_zone_without_a_visibility_is_the_error_not_the_line_after_it(zone, name, after):
    """The next line's first word is read as the missing visibility, so the parser fails
    after it; the error is put at the zone, naming the visibilities, instead."""
    text = f'game "T" players 2..2\ncards card(n: int) {{ card 1 }}\n{zone}\n{after}'
    errs = errors_of(text)
    assert errs[0][:3] == ("E001", 3, zone.index(": card") + 3)
    assert errs[0][3] == f"zone '{name}' needs a visibility after its card set 'card': hidden, owner, public, top"
    fine = text.replace(zone, zone.replace(": card", ": card hidden"))
    assert fine == text or all(code != "E001" or line != 3 for code, line, _, _ in _errors_or_none(fine))


def test_an_equals_sign_where_a_comparison_goes_suggests_two():
    errs = errors_of('game "T" players 2..2\nshared { n: int = 0 }\nrule flow() { if n = 1 { } }\n')
    assert [e[:3] for e in errs] == [("E001", 3, 20)] and errs[0][3].endswith("; to compare, write '=='")
    assert not errors_of(GOOD.replace("n += 1", "n += = 1"))[0][3].endswith("'=='")  # `=` where no comparison goes


def test_a_file_that_ends_inside_a_block_names_the_brace_not_closed():
    """The innermost `{` left open, braces in texts and comments passed over."""
    text = 'game "T" players 2..2\nrule flow() {\n  if true {\n    say "{{"  # }\n  \n'
    errs = errors_of(text)
    assert len(errs) == 1 and errs[0][3].endswith("; the '{' at line 3, column 11 is not closed")
    assert errors_of(text + "  }\n")[0][3].endswith("; the '{' at line 2, column 13 is not closed")


def _errors_or_none(text: str) -> list:
    try:
        parse_text("t.game", text)
    except RuleError as err:
        return [(d.code, d.span.line, d.span.col, d.message) for d in err.diagnostics]
    return []


def test_a_file_with_syntax_errors_reports_no_later_stage_errors():
    # `x` alone is E003 (a statement must be a call); it is not reported next to a syntax error
    codes = [c for c, *_ in errors_of("rule a() { x }\nrule b() { let = }\n")]
    assert codes == ["E001"]


def test_a_syntax_error_inside_a_strings_braces_is_reported_with_the_files_other_syntax_errors():
    """A file with a syntax error is not built, and the Builder is what reads a string's
    `{...}`; its errors are found all the same (not in a comment), at their places."""
    text = ('const = 3\n'
            '# "{1 +}" in a comment\n'
            'rule a() {\n  say "ok {x} then {1 +} and {2 *}"\n  say "{{ braces }}"\n}\n'
            'rule b() { x = }\n')
    assert places(text) == [(1, 7), (4, 23), (4, 33), (7, 16)]
    # the same places as where the file has no other error, and the Builder finds them
    assert places('rule a() {\n  say "ok {x} then {1 +} and {2 *}"\n}\n') == [(2, 23), (2, 33)]
    messages = [m for *_, m in errors_of(text)]
    assert messages[1].startswith("unexpected end of the {...}; expected ")  # not "of file"


@pytest.mark.parametrize("said,col", [('"{match n { case 1: 2 else: 3 }}"', 8),  # a {...} holding braces
                                      ('"a { b"', 10), ('"a } b"', 10), ('"ok {n} then }"', 20)])
def test_a_lone_brace_in_a_text_is_a_syntax_error_at_the_brace(said, col):
    """As in Python's f-strings: taken as a letter, it said what the rules did not."""
    text = f"rule a() {{\n  say {said}\n}}\n"
    assert [(c, line, column) for c, line, column, _ in errors_of(text)] == [("E001", 2, col)]
    assert "write {{ or }} for a brace" in errors_of(text)[0][3]
    with_other_error = text + "rule b() { x = }\n"  # found by the terminals, at the same place
    assert [(line, column) for _, line, column, _ in errors_of(with_other_error)][0] == (2, col)
    assert parse_text("t.game", 'rule a() {\n  say "{{ a }} {n} {{"\n}\n')  # braces doubled: letters


def test_a_too_long_number_inside_a_string_is_reported_where_it_is():
    assert [c for c, *_ in errors_of('rule a() { say "n is {1234567890123456789012}" }')] == ["E005"]
    with pytest.raises(RuleError) as err:  # (the number's place in the file, not in the `{...}` text)
        parse_text("t.game", 'rule a() {\n  say "n {1234567890123456789012}"\n  say "{1234567890123456789012}"\n}\n')
    assert [(d.code, d.span.line, d.span.col) for d in err.value.diagnostics] == [("E005", 2, 11), ("E005", 3, 9)]


def test_the_same_expression_in_two_strings_has_the_spans_of_each():
    m = parse_text("t.game", 'rule a() {\n  say "x {n + 1}"\n    say "{n + 1} y {n + 1}"\n}\n')
    spans = [(p.span.line, p.span.col, p.left.span.col, p.right.span.col)
             for say in m.decls[0].body for p in say.text.parts if not isinstance(p, str)]
    assert spans == [(2, 11, 11, 15), (3, 11, 11, 15), (3, 21, 21, 25)]  # one tree, placed three times
    with pytest.raises(RuleError) as err:
        parse_text("t.game", 'rule a() {\n  say "{n +}"\n  say "{n +}"\n}\n')
    assert [(d.span.line, d.span.col) for d in err.value.diagnostics] == [(2, 11), (3, 11)]


def test_the_same_expression_in_a_file_is_built_once(monkeypatch):
    built = []
    real = parse.Builder.transform
    monkeypatch.setattr(parse.Builder, "transform", lambda self, tree: built.append(tree) or real(self, tree))
    parse.parse_new("t.game", 'rule a() {\n  say "x {n + 1}"\n    say "{n + 1} y {n + 1} {n}"\n}\n')
    assert len(built) == 2  # `n + 1` and `n` (the file itself is built as it is parsed)


def test_optional_parts_arrive_as_none_or_their_value():
    m = parse_text("t.game", """
override rule r(p: player, k: int = 2) -> int? {
  for x in players by x.n desc from p { return x.n }
  for y in players { choose secret c from [1, 2] where c > 0 by p as "pick" }
  choose d from [1] by p
  reveal 3
  reveal 4 to p
  draw all from a to b
  draw 2 from a to b
  return
}
zone hand per player: card hidden refill from deck
zone pile: card public show seat
end when e "x": true winner seat(0)
end when f "y": true draw
end when g "z": true
""")
    rule, hand, pile, e, f, g = m.decls
    assert rule.override and [p.default for p in rule.params][0] is None and rule.params[1].default.value == 2
    assert rule.returns.name == "int" and rule.returns.optional
    for1, for2, choose2, reveal1, reveal2, draw1, draw2, ret = rule.body
    assert for1.descending and for1.order is not None and for1.start is not None
    assert (for2.order, for2.descending, for2.start) == (None, False, None)
    c = for2.body[0]
    assert c.secret and c.where is not None and c.label == "pick"
    assert (choose2.secret, choose2.where, choose2.label) == (False, None, None)
    assert reveal1.to is None and isinstance(reveal2.to, ast.Name)
    assert draw1.count is None and isinstance(draw2.count, ast.Int)
    assert ret.value is None
    assert (hand.per, hand.refill, hand.visibility, hand.show) == ("player", "deck", "hidden", ())
    assert (pile.per, pile.refill, pile.visibility, pile.show) == (None, None, "public", ("seat",))
    assert (e.winner is not None, e.draw) == (True, False)
    assert (f.winner, f.draw) == (None, True) and (g.winner, g.draw) == (None, False)


def test_a_changed_grammar_is_not_read_from_the_cached_parser(tmp_path, monkeypatch):
    monkeypatch.setenv(grammar.CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(tables, "TABLES_NAME", "no-such-file")  # the shipped tables would not fit either
    parse.parser.cache_clear()
    try:
        parse.parser()  # builds the real grammar's parser and keeps it in tmp_path
        assert len(list(tmp_path.iterdir())) == 1
        text = grammar.grammar_text() + '\n%extend stmt: bump_stmt\nbump_stmt: "bump" NAME\n'
        monkeypatch.setattr(parse, "grammar_text", lambda: text)
        parse.parser.cache_clear()
        tree = parse.parser().parse("rule a() { bump n }", start="start")
        assert any(t.data == "bump_stmt" for t in tree.iter_subtrees())
    finally:
        parse.parser.cache_clear()


NESTINGS = {  # a sum of `terms` terms: in a rule, inside a string's {...}, or over a string's {...}
    "in a rule": lambda terms: "n = " + " + ".join(["1"] * terms),
    "in a string's {...}": lambda terms: 'say "{' + " + ".join(["1"] * terms) + '}"',
    "over a string's {...}": lambda terms: 'n = size("{n + 1}")' + " + 1" * terms,
}


def _outcome(terms: int, where: str) -> str:
    text = 'game "T" players 2..4\nshared { n: int = 0 }\nrule flow() { ' + NESTINGS[where](terms) + " }\n"
    try:
        parse_text("t.game", text)
        return "parsed"
    except RuleError as err:
        assert [d.code for d in err.diagnostics] == ["E004"], terms
        return "E004"


@pytest.mark.parametrize("loop", [True, False], ids=["built while parsing", "Lark and its Transformer"])
@pytest.mark.parametrize("where", NESTINGS)
def test_every_depth_of_nesting_parses_or_is_e004(monkeypatch, python_recursion_limit, where, loop):
    """Around the depth where reading a file stops (direct.py's limits; where Lark's
    Transformer builds, where Python's stack runs out: in the parser's frames or in a
    Builder callback's, one or two transforms deep), the file is E004, never an internal
    error. The depth is found by halving, then every depth around it is read."""
    monkeypatch.setenv(grammar.CACHE_ENV, "")  # 400 deep files are no use to the parse cache
    if not loop:
        monkeypatch.setattr(parse, "driver", lambda: None)
    parse._expr_tree.cache_clear()
    parsed, refused = 20, 1000
    assert (_outcome(parsed, where), _outcome(refused, where)) == ("parsed", "E004")
    while refused - parsed > 1:
        middle = (parsed + refused) // 2
        if _outcome(middle, where) == "parsed":
            parsed = middle
        else:
            refused = middle
    for terms in range(parsed - 8, parsed + 8):
        _outcome(terms, where)


def test_a_recursion_error_inside_a_builder_callback_is_e004(monkeypatch):
    def too_deep(*args):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(parse.Builder, "int_lit", too_deep)
    assert [code for code, *_ in errors_of('game "T" players 2..2\nconst N = 3\n')] == ["E004"]
