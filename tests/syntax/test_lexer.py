"""The Pygments lexer for .game files: every shipped game and every ```game block of the docs
lexes with no error token; Pygments finds it by name and by file name (entry point)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Error, Keyword, Name, String

from ruledsl.syntax import shipped
from ruledsl.syntax.lexer import RuledslLexer
from support import ROOT

DOCS = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
BLOCK = re.compile(r"^```game[^\n]*\n(.*?)^```", re.M | re.S)


def errors(text: str) -> list:
    tokens = list(RuledslLexer().get_tokens(text))
    assert "".join(v for _, v in tokens).rstrip("\n") == text.rstrip("\n")
    return [v for t, v in tokens if t in Error]


@pytest.mark.parametrize("name, path", shipped.names(), ids=[n for n, _ in shipped.names()])
def test_a_shipped_game_lexes_without_errors(name, path):
    assert errors(Path(path).read_text(encoding="utf-8")) == []


def test_the_docs_game_examples_lex_without_errors():
    blocks = [(doc.name, m.group(1)) for doc in DOCS for m in BLOCK.finditer(doc.read_text(encoding="utf-8"))]
    assert len(blocks) >= 10
    assert [(doc, errors(text)) for doc, text in blocks if errors(text)] == []


def test_what_is_not_the_language_is_an_error_token():
    assert errors('game "G" players 2..2 @ $') == ["@", "$"]
    assert errors('say "unclosed\n') != []


def test_keywords_names_and_interpolations():
    tokens = [(t, v) for t, v in RuledslLexer().get_tokens('rule turn(p: player) { say "{p.points} points" }')
              if v.strip()]
    assert (Keyword.Declaration, "rule") in tokens and (Name.Function, "turn") in tokens
    assert (String.Interpol, "{") in tokens and (Name, "points") in tokens


def test_pygments_finds_it_by_name_and_file_name():
    assert isinstance(get_lexer_by_name("ruledsl"), RuledslLexer)
    assert isinstance(get_lexer_for_filename("house.game"), RuledslLexer)


def test_pygmentize_highlights_bada_bing_with_no_error_tokens():
    proc = subprocess.run([sys.executable, "-m", "pygments", "-l", "ruledsl", "-f", "raw",
                           str(ROOT / "games" / "bada_bing.game")], capture_output=True, text=True, check=True)
    assert "Token.Keyword" in proc.stdout and "Token.Error" not in proc.stdout


def test_every_keyword_of_the_grammar_is_highlighted():
    import re
    from importlib.resources import files
    from ruledsl.syntax import lexer
    grammar = files("ruledsl.syntax").joinpath("ruledsl.lark").read_text(encoding="utf-8")
    keywords = set(re.findall(r'"([a-z_]+)"', grammar))
    known = set(lexer.DECLARATIONS + lexer.STATEMENTS + lexer.OPERATORS + lexer.CONSTANTS)
    assert keywords - known == set()
