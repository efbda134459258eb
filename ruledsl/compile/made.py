"""Compile stage, expressions part 5: an expression's generated text made into a
function (expr.py makes the text).

The templates around the text: fast code whose failure (FAILURES) hands the expression
to its checked version, the checked code itself, and a store. The function is compiled
by Python on its first call (deferred.py), or at once where Python might refuse the
text, which is then E403.
"""
from __future__ import annotations

from .. import budget
from ..errors import Diagnostic, GameRuntimeError, RuleError
from . import deferred

# Any of these in fast code hands the expression to its checked version, which then
# decides: it raises the precise error, or (e.g. an indexed filter evaluated its key
# where the original `where` would have skipped it) gives the value the rules mean.
FAILURES = (KeyError, TypeError, AttributeError, IndexError, ValueError, ZeroDivisionError, GameRuntimeError)

TEMPLATE = """\
def _expr(w, env):
    try:
{pre}        return {body}
    except _WORK:
        raise
    except _FAILURES:
        return _checked(w, env)
"""

# An expression's own function whose text is lines ending in a `return` (looped.returned:
# an aggregate at its top a loop of its own).
LINES_TEMPLATE = TEMPLATE.replace("return {body}", "{body}")


def body_lines(text: str) -> str:
    """Lines of text as a template's `{body}` (8 spaces in) holds them."""
    return text.replace("\n", "\n        ")


CHECKED_TEMPLATE = """\
def _expr(w, env):
    return {body}
"""

# A store evaluates everything before it writes, so a failure has changed nothing and
# the checked version can run in its place to raise the precise error.
STORE_TEMPLATE = """\
def _expr(vm, env):
    w = vm.w
    try:
{pre}        {body}
    except _WORK:
        raise
    except _FAILURES:
        _checked(vm, env)
"""


def source_text(template, body, gen) -> str:
    """The source of a generated function: `template` holding `body` and the lines reading
    the columns it names (TableReads.prologue)."""
    body = gen.settled(body)
    return template.format(pre="".join(f"        {line}\n" for line in gen.prologue()), body=body)


def namespace(gen, checked) -> dict:
    """The globals of a generated function: the values its text names, and `checked`."""
    ns = dict(gen.consts)
    ns["_FAILURES"] = FAILURES
    ns["_WORK"] = budget.WorkLimit
    ns["_checked"] = checked
    return ns


def built(source, ns, gen, span, written=None):
    """Compiles the generated text (deferred.py; `written` may give a better text on its
    first call). An expression nested too deeply for Python's parser (about 200 levels of
    brackets; an aggregate adds three), or too long (deferred.MAX_SOURCE), is E403."""
    try:
        return deferred.function(source, f"<ruledsl code at {span.where()}>", gen.p.path, ns, "_expr", written)
    except (SyntaxError, RecursionError, MemoryError):
        raise RuleError([Diagnostic(span, "E403", "this expression is nested too deeply or too long to compile; "
                                                  "split it with 'let' or defs")]) from None


class Checked:
    """The checked version of an expression, generated on first use (when its fast code fails)."""

    def __init__(self, owner, e):
        self.owner, self.e, self.fn = owner, e, None

    def __call__(self, w, env):
        if self.fn is None:
            self.fn = self.owner(self.e, checked=True)
        return self.fn(w, env)
