"""One error type for every stage: a span, a stable code and a message.

Rendered the same way everywhere:

    path:line:col: error: message
        source line
        ^
"""
from __future__ import annotations

import attrs


@attrs.frozen
class Span:
    path: str
    line: int
    col: int
    end_line: int = 0
    end_col: int = 0

    def where(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


NO_SPAN = Span("<builtin>", 0, 0)


@attrs.frozen
class Diagnostic:
    span: Span
    code: str
    message: str

    def render(self, sources: dict[str, str] | None = None) -> str:
        head = f"{self.span.where()}: error: {self.message} [{self.code}]"
        text = (sources or {}).get(self.span.path)
        if text is None or self.span.line < 1:
            return head
        lines = text.splitlines()
        if self.span.line > len(lines):
            return head
        src = lines[self.span.line - 1].expandtabs(1)
        width = 1
        if self.span.end_line == self.span.line and self.span.end_col > self.span.col:
            width = self.span.end_col - self.span.col
        caret = " " * (self.span.col - 1) + "^" * max(1, min(width, len(src) - self.span.col + 1))
        return f"{head}\n    {src}\n    {caret}"


class RuleError(Exception):
    """Errors from one or more stages; carries all diagnostics found."""

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, str] | None = None):
        self.diagnostics = list(diagnostics)
        self.sources = dict(sources or {})
        super().__init__(self.render())

    def render(self) -> str:
        return "\n".join(d.render(self.sources) for d in self.diagnostics)


class GameRuntimeError(Exception):
    """A rule failed while the game ran (e.g. choosing from nothing)."""

    def __init__(self, span: Span, code: str, message: str):
        self.diagnostic = Diagnostic(span, code, message)
        super().__init__(f"{span.where()}: runtime error: {message} [{code}]")

    def __reduce__(self):  # picklable, for simulations spread over processes
        d = self.diagnostic
        return (GameRuntimeError, (d.span, d.code, d.message))


# Python errors a rule step can run into when a value is none or out of place; the
# runtime turns them into an R000 error at the step's span instead of a traceback.
RUNTIME_FAILURES = (KeyError, TypeError, AttributeError, IndexError, ValueError)


def failure_message(err: Exception) -> str:
    return f"this step failed ({type(err).__name__}: {err}); a value was probably none"
