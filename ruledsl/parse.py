"""Parse stage: text -> AST (ast.Module). Syntax errors become Diagnostics."""
from __future__ import annotations

import functools

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from . import ast
from .errors import Diagnostic, RuleError, Span
from .grammar import grammar_text, parser_cache
from .parse_body import INTERP, BodyBuilder, unquote
from .parse_decls import DeclBuilder

READABLE = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "DICE": "dice like 2d6",
    "ASSIGN_OP": "'=', '+=' or '-='", "CMP_OP": "a comparison", "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '/' or '%'", "$END": "end of file",
}


@functools.lru_cache(maxsize=1)
def parser() -> Lark:
    return Lark(grammar_text(), parser="lalr", propagate_positions=True,
                start=["start", "expr"], maybe_placeholders=False, cache=parser_cache())


def _terminal_words(names) -> str:
    p = parser()
    words = set()
    for name in names:
        if name in READABLE:
            words.add(READABLE[name])
            continue
        try:
            pat = p.get_terminal(name).pattern
            words.add(f"'{pat.value}'" if pat.type == "str" else name.lower())
        except KeyError:
            words.add(name.lower())
    words = sorted(words)
    if len(words) > 8:
        words = words[:8] + ["..."]
    return ", ".join(words)


def syntax_diagnostic(path: str, err: UnexpectedInput, line_offset=0, col_offset=0) -> Diagnostic:
    line = (err.line or 1) + line_offset
    col = (err.column or 1) + (col_offset if (err.line or 1) == 1 else 0)
    if isinstance(err, UnexpectedToken):
        tok = err.token
        got = "end of file" if tok.type == "$END" else f"'{tok}'"
        msg = f"unexpected {got}; expected {_terminal_words(err.expected)}"
        end = col + max(1, len(str(tok)))
    elif isinstance(err, UnexpectedCharacters):
        msg = f"unexpected character {err.char!r}"
        end = col + 1
    elif isinstance(err, UnexpectedEOF):
        msg = f"unexpected end of file; expected {_terminal_words(err.expected)}"
        end = col + 1
    else:  # pragma: no cover - lark has no other kinds
        msg, end = str(err), col + 1
    return Diagnostic(Span(path, line, col, line, end), "E001", msg)


def parse_text(path: str, text: str) -> ast.Module:
    try:
        tree = parser().parse(text, start="start")
    except UnexpectedInput as err:
        raise RuleError([syntax_diagnostic(path, err)], {path: text}) from None
    builder = Builder(path)
    try:
        decls = builder.transform(tree)
    except RecursionError:
        raise RuleError([Diagnostic(Span(path, 1, 1), "E004", "the file nests too deeply to read (an expression "
                                    "or block hundreds of levels deep); split it with 'let' or defs")],
                        {path: text}) from None
    if builder.errors:
        raise RuleError(builder.errors, {path: text})
    return ast.Module(path=path, source=text, decls=tuple(decls.children))


def parse_file(path: str) -> ast.Module:
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as err:
        reason = getattr(err, "strerror", None) or str(err)
        raise RuleError([Diagnostic(Span(path, 1, 1), "E002", f"cannot read file: {reason}")]) from None
    return parse_text(path, text)


# ------------------------------------------------------------------ strings
class Builder(DeclBuilder, BodyBuilder, Transformer):
    """Builds AST nodes from the parse tree and nothing more."""

    def __init__(self, path: str):
        super().__init__(visit_tokens=False)
        self.path = path
        self.errors: list[Diagnostic] = []

    # -- helpers
    def span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.path, 1, 1)
        return Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def tspan(self, tok: Token) -> Span:
        return Span(self.path, tok.line, tok.column, tok.end_line, tok.end_column)

    def text(self, tok: Token) -> ast.Str:
        raw = unquote(str(tok))
        parts, pos = [], 0
        for m in INTERP.finditer(raw):
            if m.start() > pos:
                parts.append(raw[pos:m.start()])
            if m.group(0) in ("{{", "}}"):
                parts.append(m.group(0)[0])
            else:
                parts.append(self.inner_expr(m.group(1), tok, m.start(1)))
            pos = m.end()
        if pos < len(raw):
            parts.append(raw[pos:])
        return ast.Str(span=self.tspan(tok), parts=tuple(parts))

    def inner_expr(self, src: str, tok: Token, offset: int):
        base_col = tok.column + 1 + offset
        try:
            tree = parser().parse(src, start="expr")
        except UnexpectedInput as err:
            self.errors.append(syntax_diagnostic(self.path, err, tok.line - 1, base_col - 1))
            return ast.NoneLit(span=self.tspan(tok))
        sub = Builder(self.path)
        expr = sub.transform(tree)
        return _shift(expr, tok.line - 1, base_col - 1)

    @staticmethod
    def pick(children, cls):
        return [c for c in children if isinstance(c, cls)]


def _shift(node, dline: int, dcol: int):
    """Moves the spans of an expression parsed from inside a string literal."""
    import attrs
    if isinstance(node, tuple):
        return tuple(_shift(n, dline, dcol) for n in node)
    if not attrs.has(type(node)):
        return node
    changes = {}
    for f in attrs.fields(type(node)):
        v = getattr(node, f.name)
        if isinstance(v, Span):
            changes[f.name] = Span(v.path, v.line + dline, v.col + (dcol if v.line == 1 else 0),
                                   v.end_line + dline, v.end_col + (dcol if v.end_line == 1 else 0))
        elif attrs.has(type(v)) or isinstance(v, tuple):
            changes[f.name] = _shift(v, dline, dcol)
    return attrs.evolve(node, **changes)
