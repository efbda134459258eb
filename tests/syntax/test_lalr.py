"""The parser's own loop (ruledsl/syntax/lalr.py) gives the tree Lark gives, token for
token and position for position, and gives up wherever Lark would raise."""
from __future__ import annotations

import re

import pytest
from lark import Lark
from lark.exceptions import UnexpectedInput

from ruledsl.syntax import lalr, parse, tables
from ruledsl.syntax.grammar import grammar_text
from support import ROOT, mutated_texts, repository_game_files, same_tree

FILES = repository_game_files()
INTERPOLATION = re.compile(r"\{([^{}\"\n]*)\}")


def _agrees(text: str, start: str = "start") -> bool:
    """Whether the loop and Lark agree on `text`: the same tree, or the loop gives up
    where Lark raises. Returns whether Lark parsed it."""
    try:
        expected = parse.parser().parse(text, start=start)
    except UnexpectedInput:
        assert parse.driver().parse(text, start) is None, text
        return False
    ours = parse.driver().parse(text, start)
    assert ours is not None, f"gave up on a text Lark parses:\n{text}"
    same_tree(ours, expected)
    return True


def test_the_package_parser_has_its_loop():
    assert parse.driver() is not None  # else every parse silently takes Lark's slower loop


def test_files_and_the_expressions_in_their_strings_are_parsed_by_the_loop(monkeypatch, tmp_path):
    starts = []
    real = lalr.Driver.parse

    def counted(self, text, start, callbacks=None):
        starts.append(start)
        return real(self, text, start, callbacks)

    monkeypatch.setattr(lalr.Driver, "parse", counted)
    module = parse.parse_new(str(tmp_path / "g.game"), 'game "G" players 2..2\nconst X = 1\n'
                                                        'rule r() {\n  say "{X + 40417}"\n}\n')
    assert starts == ["start", "expr"] and len(module.decls) == 3


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_game_file_parses_as_lark_parses_it(path):
    text = path.read_text(encoding="utf-8")
    assert _agrees(text) or "syntax" in path.name  # the files that show syntax errors
    for src in INTERPOLATION.findall(text):  # the `{expr}` inside strings
        _agrees(src, "expr")


def test_mutated_texts_parse_as_lark_parses_them():
    parsed = sum(_agrees(text) for text in mutated_texts(seed=12, count=150))
    assert 10 < parsed < 150  # both kinds were tried: texts Lark parses and texts it refuses


@pytest.mark.parametrize("text", ["x=1", "game", "a.b(c)[d]", "x x", "\"unclosed", "2d6 + d6", "1..3", "-x",
                                  "seat(0)", "not a and b or c", "count(c in hand where c.rank >= 2)", ""])
def test_expressions_parse_as_lark_parses_them(text):
    _agrees(text, "expr")


# Texts where the one regular expression matches a terminal the parser's state does not
# take, so the state's own terminals decide: `2d6` is dice only where dice may come (a
# card row reads the number 2 and then the name d6), and a keyword is a name where no
# keyword may come.
STATE_DECIDES = [
    'game "G" players 2..2\ncards c(a: int, b: str) {\n  card 2d6 x 2\n  card 3 game\n}\n',
    'game "G" players 2..2\nconst rule = 1\nconst x=-1\n',
]


@pytest.mark.parametrize("text", STATE_DECIDES)
def test_the_state_decides_where_the_one_expression_matches_another_terminal(text):
    assert _agrees(text)


# Spaces and comments are passed over by one expression before each token: where Lark
# would lex a terminal instead of an ignored one (a terminal before it in Lark's order
# matching there), the two would differ. None of the grammar's terminals starts so.
IGNORED_TEXTS = ["  x", "\t\tx", "\n\nx", "\r\nx", "\fx", "# note\nx", "#"]


def test_no_terminal_matches_where_spaces_or_comments_start():
    lark = parse.parser()
    ignored = set(lark.lexer_conf.ignore)
    others = [t for t in lark.lexer_conf.terminals if t.name not in ignored]
    for text in IGNORED_TEXTS:
        assert any(re.match(t.pattern.to_regexp(), text) for t in lark.lexer_conf.terminals if t.name in ignored)
        assert not [t.name for t in others if re.match(t.pattern.to_regexp(), text)], repr(text)


@pytest.mark.parametrize("text", ['  # a comment\n\n\tgame "G" players 2..2 # c\n\n  #d\nconst x=1\r\n#e',
                                  'game "G" players 2..2 # a note\n$', 'game "G" players 2..2\n  #x\n  ;',
                                  '#\ngame "G" players 2..2\nconst x = 1\n\n\n', '\n\n  \x0c  ', ""])
def test_spaces_and_comments_around_tokens_are_lexed_as_lark_lexes_them(text):
    assert _agrees(text) != ("$" in text or ";" in text)


def test_no_token_is_looked_for_inside_the_spaces_and_comments_before_one():
    """A comment followed by a character no terminal matches is no match at all, not a
    name inside the comment (the spaces' match is kept whole)."""
    skip_then_token = parse.driver()._skip_then_token
    assert skip_then_token.match("# a note\n$", 0) is None
    found = skip_then_token.match("  # a note\n x", 0)
    assert (found.lastgroup, found.group(found.lastgroup)) == ("NAME", "x")


def test_a_parser_with_other_options_gets_no_loop():
    basic = Lark(grammar_text(), **dict(tables.OPTIONS, lexer="basic"))
    assert lalr.Driver.of(basic, tables.PASS_CHILD) is None


def test_a_file_with_a_syntax_error_is_reported_by_lark(tmp_path):
    from ruledsl.errors import RuleError
    with pytest.raises(RuleError) as err:
        parse.parse_new(str(tmp_path / "bad.game"), 'game "G" players 2..2\nconst = 3\n')
    assert "E001" in err.value.render() and ":2:7:" in err.value.render()
