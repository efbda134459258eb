"""Building while parsing (ruledsl/syntax/direct.py) gives the AST the Builder's transform
of Lark's tree gives, spans and errors included, and bounds how deep a file nests."""
from __future__ import annotations

import functools

import pytest
from lark import Token
from lark.exceptions import UnexpectedInput

from ruledsl.errors import RuleError
from ruledsl.syntax import ast, direct, parse, tables
from ruledsl.syntax.grammar import grammar_text
from ruledsl.syntax.parse_decls import Builder
from support import ROOT, mutated_texts, repository_game_files, same_tree

FILES = repository_game_files()


def _transformed(path: str, text: str):
    """(declarations, errors) as Lark's tree and the Builder's transform give them, or None
    for a text Lark refuses."""
    builder = Builder(path, functools.partial(parse._read_expr, path))
    try:
        tree = parse.parser().parse(text, start="start")
    except UnexpectedInput:
        return None
    return builder.transform(tree).children, builder.errors


def _built(path: str, text: str):
    """(declarations, errors) built while parsing, or None where the loop gives up."""
    builder = Builder(path, functools.partial(parse._read_expr, path))
    module = parse._built_while_parsing(builder, text)
    return None if module is None else (module.children, builder.errors)


def _agrees(path: str, text: str) -> bool:
    expected = _transformed(path, text)
    assert _built(path, text) == expected  # msgspec nodes compare their spans too
    return expected is not None


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_game_file_is_built_as_the_transform_builds_it(path):
    assert _agrees(str(path), path.read_text(encoding="utf-8")) or "syntax" in path.name


def test_mutated_texts_are_built_as_the_transform_builds_them():
    built = sum(_agrees("m.game", text) for text in mutated_texts(seed=5, count=120))
    assert 10 < built < 120


def test_builder_errors_are_the_transforms_in_order():
    text = ('game "T" players 2..2\nconst A = 99999999999999999999\nrule r() {\n  x.y\n'
            '  say "{99999999999999999999}"\n}\n')
    decls, errors = _built("e.game", text)
    assert [d.code for d in errors] == ["E005", "E003", "E005"]
    assert (decls, errors) == _transformed("e.game", text)


def _sum_of(terms: int) -> str:
    return 'game "T" players 2..4\nshared { n: int = 0 }\nrule flow() { n = ' + " + ".join(["1"] * terms) + " }\n"


def test_a_file_nested_deeper_than_the_limit_is_e004_whatever_the_stack():
    deepest = direct.MAX_DEPTH - 3  # a sum of n terms is n - 1 levels, in a rule, its block and statement
    assert isinstance(parse._parse_text("t.game", _sum_of(deepest)), ast.Module)
    with pytest.raises(RuleError) as err:
        parse._parse_text("t.game", _sum_of(deepest + 1))
    assert [d.code for d in err.value.diagnostics] == ["E004"]


def test_an_expression_in_a_string_has_a_limit_of_its_own():
    def say(terms):
        return 'game "T" players 2..4\nrule flow() { say "{' + " + ".join(["1"] * terms) + '}" }\n'
    assert isinstance(parse._parse_text("t.game", say(direct.MAX_TEXT_DEPTH)), ast.Module)
    with pytest.raises(RuleError) as err:
        parse._parse_text("t.game", say(direct.MAX_TEXT_DEPTH + 2))
    assert [d.code for d in err.value.diagnostics] == ["E004"]


def test_a_builder_of_a_rule_that_passes_a_lone_child_on_builds_from_the_tree():
    """`?atom: ... | "(" expr ")"` passes the expression on, and Lark widens its container
    to the brackets after it is made: a Builder with a callback for `atom` gets none of
    this module's callbacks, and its file is built from Lark's tree."""
    class AtomBuilder(Builder):
        def atom(self, meta, *children):
            return children[0]

    text = 'game "T" players 2..2\nshared { n: int = 0 }\nrule flow() { n = (1 + 2) }\n'
    assert direct.callbacks(parse.driver(), AtomBuilder("t.game", None)) is None
    assert direct.callbacks(parse.driver(), Builder("t.game", None)) is not None
    assert _built("t.game", text)[0][2].body[0].span.end_col == 26  # `n = (1 + 2)` to its `)`


def test_a_rule_passing_one_of_several_children_on_gets_no_maker():
    """A `?a` rule the Builder does not make passes its one kept node on, its container
    widened (`(1 + 2)` above); one that keeps more (none in ruledsl's grammar) or splices
    gets no maker of direct.py's, so its file is built from Lark's tree."""
    def larks(children):
        return children[1]
    assert direct._passer(larks, ((1, False, 0),), 0) is not None
    assert direct._passer(larks, ((0, False, 0), (1, False, 0)), 0) is None
    assert direct._passer(larks, ((1, True, 0),), 0) is None
    assert direct._passer(larks, ((1, False, 0),), 1) is None
    made = direct.Made()
    made.value, made.start, made.end, made.depth = "node", (1, 5, 4), (1, 10, 9), 2
    opening, closing = Token("LPAR", "(", 3, 1, 4, 1, 5, 4), Token("RPAR", ")", 10, 1, 11, 1, 12, 11)
    widened = direct._passer(larks, ((1, False, 0),), 0)([opening, made, closing])
    assert (widened.value, widened.start, widened.end, widened.depth) == ("node", (1, 4, 3), (1, 12, 11), 2)


def test_a_child_filter_of_another_kind_leaves_the_file_to_larks_tree(monkeypatch):
    """The makers follow Lark's child filters by what `maybe_create_child_filter` gives
    (which children, placeholders, splices); a filter of a kind they do not know (another
    Lark version) gets no callbacks, and the file is built from Lark's tree."""
    assert direct._kept((functools.partial(sorted, [(0, False, 0)], 0),), 1) is None
    assert direct._kept((), 2) == (((0, False, 0), (1, False, 0)), 0)
    text = 'game "T" players 2..2\nshared { n: int = 0 }\nrule flow() { n = [1, 2][0] }\n'
    made = parse._parse_text("t.game", text).decls
    monkeypatch.setattr(direct, "ChildFilterLALR", type("Other", (), {}))
    monkeypatch.setattr(direct, "ChildFilterLALR_NoPlaceholders", type("Other", (), {}))
    fresh = tables.shipped_loop(grammar_text())  # a driver of its own: its plan is worked out anew
    monkeypatch.setattr(parse, "driver", lambda: fresh)
    assert direct.callbacks(fresh, Builder("t.game", None)) is None
    assert parse._parse_text("t.game", text).decls == made


@pytest.mark.parametrize("path", FILES[:8], ids=lambda p: p.name)
def test_trees_of_rules_the_builder_does_not_make_are_larks(path):
    """Callbacks for a builder with no methods make every node as Lark's chain would:
    the same tree as Lark's, every position (containers too) included."""
    text = path.read_text(encoding="utf-8")
    try:
        expected = parse.parser().parse(text, start="start")
    except UnexpectedInput:
        return
    makers = direct.callbacks(parse.driver(), object())
    assert sum(getattr(f, "__name__", "") == "make" for f in makers) > 20  # not Lark's chain
    same_tree(parse.driver().parse(text, "start", makers), expected)
