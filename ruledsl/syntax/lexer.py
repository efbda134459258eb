"""A Pygments lexer for .game files (entry point `pygments.lexers`: `pygmentize -l ruledsl FILE`).

Its keywords are the grammar's (ruledsl.lark), so a test lexes every shipped
game with no error tokens. Needs Pygments: `pip install 'ruledsl-games[highlight]'`.
"""
from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, include, words
from pygments.token import Comment, Error, Keyword, Name, Number, Operator, Punctuation, String, Whitespace

DECLARATIONS = ("game", "players", "const", "enum", "player", "shared", "board", "space", "link", "line",
                "cards", "card", "zone", "field", "def", "rule", "on", "end", "winner", "score", "tiebreak",
                "extends", "extend", "override", "secret", "show", "label", "graph", "per", "under")
STATEMENTS = ("let", "if", "else", "for", "each", "in", "while", "loop", "repeat", "break", "return", "pass",
              "choose", "option", "may", "by", "as", "say", "reveal", "to", "move", "draw", "from", "shuffle",
              "refill", "roll", "eliminate", "when", "where", "then", "via", "steps", "land", "all", "asc",
              "desc", "x", "match", "case", "window")
OPERATORS = ("and", "or", "not")
CONSTANTS = ("true", "false", "none")


class RuledslLexer(RegexLexer):
    """The rules language of ruledsl (.game files)."""

    name = "ruledsl"
    aliases = ["ruledsl", "game"]
    filenames = ["*.game"]
    url = "https://pypi.org/project/ruledsl-games/"

    tokens = {
        "root": [
            (r"[ \t\r\n]+", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r'"', String.Double, "string"),
            (r"[0-9]*d[0-9]+\b", Number.Integer),  # dice: d6, 2d6
            (r"[0-9]+", Number.Integer),
            (r"(rule|def)(\s+)([A-Za-z_][A-Za-z0-9_]*)", bygroups(Keyword.Declaration, Whitespace, Name.Function)),
            (words(CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (words(OPERATORS, suffix=r"\b"), Operator.Word),
            (words(DECLARATIONS, suffix=r"\b"), Keyword.Declaration),
            (words(STATEMENTS, suffix=r"\b"), Keyword),
            (r"[A-Z][A-Z0-9_]*\b", Name.Constant),
            (r"[A-Za-z_][A-Za-z0-9_]*", Name),
            (r"\.\.|==|!=|<=|>=|\+=|-=|[-+*/%<>=?]", Operator),
            (r"[{}()\[\],.:]", Punctuation),
        ],
        "string": [
            (r'\\.', String.Escape),
            (r"\{", String.Interpol, "interpolation"),
            (r'[^"\\{\n]+', String.Double),
            (r'"', String.Double, "#pop"),
            (r"\n", Error, "#pop"),  # a string ends on its line
        ],
        "interpolation": [
            (r"\}", String.Interpol, "#pop"),
            include("root"),
        ],
    }
