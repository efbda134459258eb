"""Parse stage: text -> AST (ast.Module). Syntax errors become Diagnostics."""
from __future__ import annotations

import functools
import re

from . import lark_import  # noqa: F401, I001  (first: Lark without `regex`, see there)
from lark import Lark, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from ..errors import Diagnostic, RuleError, Span, nests_too_deeply
from . import ast, direct, lalr, parse_cache, tables
from .grammar import grammar_text
from .parse_body import LoneBrace, pieces
from .parse_decls import Builder

READABLE = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "DICE": "dice like 2d6",
    "ASSIGN_OP": "'=', '+=' or '-='", "CMP_OP": "a comparison", "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '/' or '%'", "$END": "end of file",
}


@functools.lru_cache(maxsize=1)
def parser() -> Lark:
    return tables.parser(grammar_text())


def driver() -> lalr.Driver | None:
    """The faster loop over the parser's tables (lalr.py), or None to use Lark's own: from
    its shipped data where that was made from this grammar (no Lark parser is made then),
    else from the parser."""
    text = grammar_text()
    fast = _shipped_loop(text)
    return fast if fast is not None else _driver_of(parser())


@functools.lru_cache(maxsize=1)
def _shipped_loop(text: str) -> lalr.Driver | None:
    return tables.shipped_loop(text)


@functools.lru_cache(maxsize=1)
def _driver_of(p: Lark) -> lalr.Driver | None:
    return lalr.Driver.of(p, tables.PASS_CHILD)


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


def syntax_diagnostic(path: str, err: UnexpectedInput, line_offset=0, col_offset=0,
                      ending: str = "end of file") -> Diagnostic:
    """E001 for Lark's error `err`, moved by the offsets (a `{...}` text inside a string:
    its end is `ending`)."""
    line = (err.line or 1) + line_offset
    col = (err.column or 1) + (col_offset if (err.line or 1) == 1 else 0)
    if isinstance(err, UnexpectedToken):
        tok = err.token
        got = ending if tok.type == "$END" else f"'{tok}'"
        msg = f"unexpected {got}; expected {_terminal_words(err.expected)}"
        end = col + max(1, len(str(tok)))
    elif isinstance(err, UnexpectedCharacters):
        msg = f"unexpected character {err.char!r}"
        end = col + 1
    elif isinstance(err, UnexpectedEOF):
        msg = f"unexpected {ending}; expected {_terminal_words(err.expected)}"
        end = col + 1
    else:  # pragma: no cover - lark has no other kinds
        msg, end = str(err), col + 1
    return Diagnostic(Span(path, line, col, line, end), "E001", msg)


def parse_text(path: str, text: str) -> ast.Module:
    """The parsed module of `text` (the file at `path`): from the parse cache
    (parse_cache.py) when it has this text, else parsed and then kept there."""
    module = parse_cache.lookup(path, text)
    return module if module is not None else parse_new(path, text)


def parse_new(path: str, text: str) -> ast.Module:
    """Parses a text the parse cache does not have (load.py has looked), and keeps it there."""
    module = _parse_text(path, text)
    parse_cache.store(module)
    return module


def _parse_text(path: str, text: str) -> ast.Module:
    builder = Builder(path, functools.partial(_read_expr, path))
    try:
        module = _built_while_parsing(builder, text)
        if module is None:  # a syntax error (raised here), or a parser the loop can't run
            builder = Builder(path, functools.partial(_read_expr, path))  # nothing half-built
            module = builder.transform(_parse_file_tree(path, text))
    except (direct.TooDeep, RecursionError, VisitError) as err:
        if not _too_deep(err):
            raise  # a Builder callback failed: a bug, not the file's nesting
        raise RuleError([nests_too_deeply(path)], {path: text}) from None
    if builder.errors:
        raise RuleError(builder.errors, {path: text})
    return ast.Module(path=path, source=text, decls=tuple(module.children))


def _built_while_parsing(builder: Builder, text: str):
    """What `builder.transform` of the file's tree gives, built as the parser reads it
    (direct.py), or None where Lark must parse the file."""
    fast = driver()
    makers = None if fast is None else direct.callbacks(fast, builder)
    if makers is None:
        return None
    tree = fast.parse(text, "start", makers)
    return None if tree is None else direct.value_of(tree)


def _too_deep(err: Exception) -> bool:
    """Whether building the AST stopped at the file's nesting: deeper than direct.py
    builds, or out of stack in Lark's Transformer (a `{...}` in a string, or a parser the
    loop can't run). The Transformer hands on a RecursionError raised in its own frames
    as it is, and wraps one raised inside a Builder callback in a VisitError, once more
    for each transform it is inside (a `{...}` is transformed inside its string's)."""
    while isinstance(err, VisitError):
        err = err.orig_exc
    return isinstance(err, (RecursionError, direct.TooDeep))


def parse_file(path: str) -> ast.Module:
    return parse_text(path, parse_cache.read_source(path))


def _read_expr(path: str, src: str, line_offset: int, col_offset: int):
    """The parse tree of an expression written inside a string, or its syntax error;
    direct.TooDeep if it nests more than direct.MAX_TEXT_DEPTH levels."""
    try:
        tree, depth = _expr_tree(driver(), src)
    except UnexpectedInput as err:
        return syntax_diagnostic(path, err, line_offset, col_offset, ending="end of the {...}")
    if depth > direct.MAX_TEXT_DEPTH:
        raise direct.TooDeep
    return tree


@functools.lru_cache(maxsize=1024)
def _expr_tree(fast: lalr.Driver | None, src: str) -> tuple:
    """A `{...}` expression's tree and its depth, parsed once per text (the same few recur:
    `{p}`...) by the loop `fast` (or Lark); the Builder reads trees and never changes them,
    and places them where they are."""
    tree = None if fast is None else fast.parse(src, "expr")
    if tree is None:  # a syntax error, or a parser the loop can't run
        tree = parser().parse(src, start="expr")
    return tree, _depth(tree)


def _depth(tree) -> int:
    """The levels of nodes in a parse tree, counted without recursion."""
    deepest, todo = 0, [(tree, 1)]
    while todo:
        node, depth = todo.pop()
        deepest = max(deepest, depth)
        todo.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))
    return deepest


# ------------------------------------------------------------------ syntax errors
MAX_SYNTAX_ERRORS = 20

# A line that starts a declaration: where reading resumes after a syntax error.
DECL_START = re.compile(r"^(?:override[ \t]+)?(?:game|extends|const|enum|cards|extend[ \t]+cards|board|zone|def|rule"
                        r"|on[ \t]+(?:pass|land)|end[ \t]+when|score|tiebreak|player[ \t]*\{|shared[ \t]*\{)\b",
                        re.MULTILINE)


def _parse_file_tree(path: str, text: str):
    """The parse tree of a file. On a syntax error, reading resumes at the next line that
    starts a declaration, so that one run reports the errors of several declarations
    (at most MAX_SYNTAX_ERRORS); the errors are raised together.

    When that line is where the error is (a declaration written inside a block), the rest
    of the block follows that declaration: errors before the next declaration line come
    from that rest, not from mistakes of their own, and are passed over."""
    errors: list[UnexpectedInput] = []
    seen: list[UnexpectedInput] = []
    rest_of_block_until = restarted_at = -1

    def resume(err: UnexpectedInput) -> bool:
        nonlocal rest_of_block_until, restarted_at
        seen.append(err)
        at = err.token.start_pos if isinstance(err, UnexpectedToken) else err.pos_in_stream
        if at is None or at >= rest_of_block_until:
            errors.append(err)
        if len(errors) >= MAX_SYNTAX_ERRORS or at is None or (isinstance(err, UnexpectedToken)
                                                               and err.token.type == "$END"):
            return False
        found = DECL_START.search(text, at)
        if found is None or found.start() <= restarted_at:  # nowhere to go on, or no way forward
            return False
        restarted_at = found.start()
        if found.start() == at:
            following = DECL_START.search(text, at + 1)
            rest_of_block_until = following.start() if following else len(text)
        _restart_at(err.interactive_parser, text, found.start())
        return True

    try:
        tree = parser().parse(text, start="start", on_error=resume)
    except UnexpectedInput as err:
        if not any(err is e for e in seen):  # raised without resume (Lark's guard at the end of file)
            errors.append(err)
    if errors:
        found = [_explained(path, text, err) for err in errors]
        found += _string_errors(path, text)[:max(0, MAX_SYNTAX_ERRORS - len(found))]
        found.sort(key=lambda d: (d.span.line, d.span.col))
        raise RuleError(found, {path: text})
    return tree


def _explained(path: str, text: str, err: UnexpectedInput) -> Diagnostic:
    """E001 for `err`, saying what usually causes it where the parser's own words don't: a
    zone with no visibility (the error is put there), `=` where a comparison goes, and a
    file that ends inside a block (which `{` is not closed)."""
    zone = _at_a_zone_without_visibility(path, text, err)
    if zone is not None:
        return zone
    d = syntax_diagnostic(path, err)
    if not isinstance(err, UnexpectedToken):
        return d
    if err.token.type == "EQUAL" and "CMP_OP" in err.expected:
        return Diagnostic(d.span, d.code, f"{d.message}; to compare, write '=='")
    if err.token.type == "$END" and "RBRACE" in err.expected:
        opened = _unclosed_brace(text)
        if opened is not None:
            return Diagnostic(d.span, d.code, f"{d.message}; the '{{' at line {opened[0]}, column {opened[1]} is not closed")
    return d


def _unclosed_brace(text: str) -> tuple | None:
    """(line, column) of the last `{` of `text` that no `}` closes, braces in strings and
    comments passed over (the parser's loop's terminals), or None."""
    fast = driver()
    if fast is None:
        return None
    opened: list = []
    for m in fast.terminals(text):
        if m.lastgroup == "LBRACE":
            opened.append(m.start())
        elif m.lastgroup == "RBRACE" and opened:
            opened.pop()
    if not opened:
        return None
    at = opened[-1]
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


# `zone deck: card` with no visibility after its card set: the parser reads the next
# line's first word as the visibility, and fails after it
ZONE_WITHOUT_VISIBILITY = re.compile(r"[ \t]*(?:override[ \t]+)?zone[ \t]+(\w+)(?:[ \t]+per[ \t]+\w+)?[ \t]*:[ \t]*(\w+)"
                                     r"[ \t]*(?:#.*)?")


def _at_a_zone_without_visibility(path: str, text: str, err: UnexpectedInput) -> Diagnostic | None:
    """E001 at a zone declared without a visibility, where the syntax error `err` comes
    just after one (its first word read as the visibility); else None."""
    if not isinstance(err, UnexpectedToken):
        return None
    at = len(text) if err.token.type == "$END" or err.token.start_pos is None else err.token.start_pos
    end = text.rfind("\n", 0, at)  # the end of the line before the error's, then of each line before it
    while end >= 0:
        start = text.rfind("\n", 0, end) + 1
        line = text[start:end]
        if line.strip() and not line.lstrip().startswith("#"):
            break
        end = start - 1
    zone = ZONE_WITHOUT_VISIBILITY.fullmatch(line) if end >= 0 else None
    if zone is None:
        return None
    row, col = text.count("\n", 0, start) + 1, zone.start(2) + 1
    return Diagnostic(Span(path, row, col, row, col + len(zone.group(2))), "E001",
                      f"zone '{zone.group(1)}' needs a visibility after its card set '{zone.group(2)}': "
                      f"{', '.join(ast.VISIBILITIES)}")


def _string_errors(path: str, text: str) -> list:
    """The syntax errors of the `{...}` expressions in a file's strings. The Builder reads
    them as it builds a file, which a file with syntax errors elsewhere never gets to; so
    there its strings are found by the grammar's terminals (the parser's loop's one
    regular expression, outside any parser state: a string or a comment is one either
    way), to report these errors with the others."""
    fast = driver()
    if fast is None:
        return []
    found, pos, line = [], 0, 1
    for m in fast.terminals(text):
        if m.lastgroup != "STRING":
            continue
        line += text.count("\n", pos, m.start())
        line_start = text.rfind("\n", 0, m.start()) + 1
        pos = m.start()
        try:
            read = pieces(m.group())
        except LoneBrace as lone:  # (at the column the Builder gives it: the quote's, then the text's)
            found.append(Diagnostic(Span(path, line, m.start() - line_start + 2 + lone.at), "E001", lone.message))
            continue
        for piece in read:
            if isinstance(piece, str):
                continue
            try:
                err = _read_expr(path, piece[0], line - 1, m.start() - line_start + 1 + piece[1])
            except direct.TooDeep:
                continue  # E004, reported once the syntax errors are mended
            if isinstance(err, Diagnostic):
                found.append(err)
    return found


def _restart_at(interactive, text: str, pos: int) -> None:
    """Puts the parser back at its first state (the start of a file) and its lexer at `pos`,
    the first character of a line. What was read before is dropped: a file with syntax
    errors is not built."""
    state = interactive.parser_state
    del state.state_stack[1:]
    del state.value_stack[:]
    counter = interactive.lexer_thread.state.line_ctr
    counter.char_pos = counter.line_start_pos = pos
    counter.line = text.count("\n", 0, pos) + 1
    counter.column = 1


