"""One error type for every stage: a span, a stable code and a message.

Rendered the same way everywhere:

    path:line:col: error: message
        source line
        ^
"""
from __future__ import annotations

import msgspec


class Span(msgspec.Struct, frozen=True):
    path: str
    line: int
    col: int
    end_line: int = 0
    end_col: int = 0

    def where(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


MAX_SHOWN = 100  # diagnostics rendered at most; the rest are counted
MAX_LINE = 120  # a longer source line is shown as a window around the error
LINE_CONTEXT = 40  # characters shown before the error in such a window

_CONTROLS = {c: f"\\x{c:02x}" for c in [*range(0x00, 0x20), *range(0x7f, 0xa0)] if chr(c) not in "\n\t"}
_CONTROLS.update({c: f"\\u{c:04x}" for c in (0x2028, 0x2029, *range(0x202a, 0x202f), *range(0x2066, 0x206a))})


def printable(text: str) -> str:
    """Text from a game file made safe for a terminal: control characters (ESC, BEL, ...),
    line separators and bidirectional overrides are shown escaped (\\x1b), never sent."""
    return text.translate(_CONTROLS)


class Diagnostic(msgspec.Struct, frozen=True):
    span: Span
    code: str
    message: str

    def render(self, sources: dict[str, str] | None = None, lines_of=None) -> str:
        """The diagnostic with its source line and caret. `lines_of(path)` (optional) gives a
        file's lines already split, so rendering many diagnostics stays linear."""
        head = printable(f"{self.span.where()}: error: {self.message} [{self.code}]")
        if lines_of is not None:
            lines = lines_of(self.span.path)
        else:
            text = (sources or {}).get(self.span.path)
            lines = None if text is None else text.splitlines()
        if lines is None or self.span.line < 1 or self.span.line > len(lines):
            return head
        return f"{head}\n" + self._excerpt(lines[self.span.line - 1].expandtabs(1))

    def _excerpt(self, raw: str) -> str:
        """The source line (a window of it when long) and a caret under the span."""
        col = max(self.span.col - 1, 0)
        start = max(0, col - LINE_CONTEXT) if len(raw) > MAX_LINE else 0
        end = min(len(raw), start + MAX_LINE)
        pre, post = ("..." if start else ""), ("..." if end < len(raw) else "")
        width = 1
        if self.span.end_line == self.span.line and self.span.end_col > self.span.col:
            width = self.span.end_col - self.span.col
        marked = printable(raw[col:min(col + width, end)]) or " "
        caret = " " * (len(pre) + len(printable(raw[start:col]))) + "^" * len(marked)
        return f"    {pre}{printable(raw[start:end])}{post}\n    {caret}"


def nests_too_deeply(path: str, span: Span | None = None) -> Diagnostic:
    """E004, where reading a file (or a later stage walking it) would run out of stack: at
    `span` where known, else at the file's start."""
    return Diagnostic(span or Span(path, 1, 1), "E004", "the file nests too deeply to read (an expression or block "
                                                "hundreds of levels deep); split it with 'let' or defs")


class UserError(Exception):
    """The root of every error that bad input causes (a game file, a transcript, a choice,
    an option): `user_message()` is what a person is shown, with no traceback. Anything
    else that reaches the command line is a bug of ruledsl ("internal error")."""

    prefix = "error: "

    def user_message(self) -> str:
        return printable(f"{self.prefix}{self}")


class RuleError(UserError):
    """Errors from one or more stages; carries all diagnostics found."""

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, str] | None = None):
        self.diagnostics = list(diagnostics)
        self.sources = dict(sources or {})
        super().__init__(f"{len(self.diagnostics)} error(s)")

    def __str__(self) -> str:
        return self.render()

    def user_message(self) -> str:
        return self.render()

    def render(self) -> str:
        """Every diagnostic, up to MAX_SHOWN of them, then how many more there are."""
        split: dict = {}

        def lines_of(path):
            if path not in split:
                text = self.sources.get(path)
                split[path] = None if text is None else text.splitlines()
            return split[path]
        shown = [d.render(lines_of=lines_of) for d in self.diagnostics[:MAX_SHOWN]]
        more = len(self.diagnostics) - MAX_SHOWN
        if more > 0:
            shown.append(f"... and {more} more errors (the first {MAX_SHOWN} are shown)")
        return "\n".join(shown)


class GameRuntimeError(UserError):
    """A rule failed while the game ran (e.g. choosing from nothing)."""

    def __init__(self, span: Span, code: str, message: str):
        self.diagnostic = Diagnostic(span, code, message)
        super().__init__(printable(f"{span.where()}: runtime error: {message} [{code}]"))

    def __reduce__(self):  # picklable, for simulations spread over processes
        d = self.diagnostic
        return (GameRuntimeError, (d.span, d.code, d.message))

    def user_message(self) -> str:
        """`path:line:col: runtime error: ...`, with the source line and a caret when readable."""
        d = self.diagnostic
        head = str(self)
        try:
            with open(d.span.path, encoding="utf-8-sig") as fh:  # as parse_cache.read_source reads it
                source = fh.read()
        except (OSError, UnicodeDecodeError):
            return head
        _, _, context = d.render({d.span.path: source}).partition("\n")
        return head + ("\n" + context if context else "")


# Python errors a rule step can run into when a value is none or out of place; the
# runtime turns them into an R000 error at the step's span instead of a traceback.
RUNTIME_FAILURES = (KeyError, TypeError, AttributeError, IndexError, ValueError)


def failure_message(err: Exception) -> str:
    """R000's message. A value that is none where the step needed one (Python names it
    NoneType) is said in the game's words; anything else keeps Python's."""
    if isinstance(err, TypeError) and "NoneType" in str(err):
        return ("a value this statement needs is none here (first, best and top give none when nothing "
                "qualifies, and so may an optional field or a rule's result)")
    return f"this step failed ({type(err).__name__}: {err}); a value was probably none"


class Suggestions:
    """Hints for unknown names: "; did you mean 'three_in_a_row'?" for the nearest known one.

    Only the first MAX_SHOWN unknown names get a hint: a hostile file may have thousands,
    and each hint compares the name with every candidate."""

    def __init__(self):
        self.asked = 0

    def __call__(self, name: str, candidates) -> str:
        self.asked += 1
        if self.asked > MAX_SHOWN:
            return ""
        import difflib  # (only where a name is not known: a check of good files imports none)
        close = difflib.get_close_matches(name, [c for c in dict.fromkeys(candidates) if c != name], n=1, cutoff=0.7)
        return f"; did you mean '{close[0]}'?" if close else ""

