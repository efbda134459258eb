"""Generated Python text made into a function, compiled by Python on its first call.

Compiling a game writes a few thousand small Python functions (expressions, stretches of
statements). Python's compile() of their text is most of what compiling the game costs,
and `ruledsl check` never calls them. So a text that cannot fail to compile is compiled
when its function is first called: until then the function is a stub, which on that call
compiles the text and takes over its code (`__code__`: callers keep the very function
object, and after the first call it is the generated function, at its speed).

A text that might fail to compile is compiled at once, so that its error (E403, nested
too deeply for Python) is reported where it was before: by `ruledsl check`. Python
3.10-3.13 refuse 201 brackets inside each other, 21 blocks inside each other (3.13: 22 in
a function) and 100 levels of indentation, and about 3,000 levels of other nesting (`-`
repeated: a text of 3,000 characters; 3.13: about 6,000). A level of nesting that is no
block takes a bracket, an operator's character (`-`, `.`, `=`...) or one of a few words
(`if`, `elif`, `lambda`, `not`...): a text with fewer than 2,900 of those (NESTING,
counted where they are part of a name too), fewer than 190 opening brackets and no line
indented 16 levels can do none of that (tests/compile/test_deferred.py tries each kind
of nesting). A text longer than MAX_SOURCE is refused (`compiled`), also at once.
"""
from __future__ import annotations

import threading
import types

from .. import cache

MAX_DEFERRED = 2900  # characters of text, or of them those that may nest (NESTING)
# The longest text compiled at all: Python's compiler takes about 130 bytes of memory a
# character of text (a rule of 40,000 statements in one function took 1.6 GB). The
# shipped games' longest is 9,000; ops.py splits long runs of statements (MAX_STRETCH),
# so a longer text is an expression of tens of thousands of parts, or a whole rule's
# generator (whole.py then runs the rule's op list).
MAX_SOURCE = 200_000
MAX_BRACKETS = 190
DEEP_LINE = "\n" + "    " * 16

# inspect's CO_GENERATOR, CO_COROUTINE, CO_ITERABLE_COROUTINE and CO_ASYNC_GENERATOR: a
# function whose code has one of them is called through its stub (function's first_call)
_GENERATOR_FLAGS = 0x20 | 0x80 | 0x100 | 0x200
_STUB = compile("def _stub(*args, _first_call, **kwargs):\n    return _first_call(args, kwargs)\n",
                "<ruledsl deferred>", "exec").co_consts[0]


NESTING_CHARACTERS = "([{+-*/%@<>=!&|^~."
NESTING = (*NESTING_CHARACTERS, "if", "lambda", "not", "and", "or", "in", "is", "yield", "await")
_BRACKETS, _CHARACTERS = b"([{", NESTING_CHARACTERS.encode()
_WORDS = NESTING[len(NESTING_CHARACTERS):]


def may_fail(source: str) -> bool:
    """Whether Python could refuse to compile `source` (see above). The characters are
    counted in the text's bytes, all kinds in one pass (bytes.translate deleting them)."""
    size = len(source)
    if size > MAX_SOURCE or DEEP_LINE in source:
        return True
    if size < MAX_BRACKETS:  # (most texts: too short to hold that many brackets)
        return False
    text = source.encode("utf-8", "surrogatepass")  # the characters counted are ASCII: a byte each
    if len(text) - len(text.translate(None, _BRACKETS)) >= MAX_BRACKETS:
        return True
    return size >= MAX_DEFERRED and \
        len(text) - len(text.translate(None, _CHARACTERS)) + sum(map(source.count, _WORDS)) >= MAX_DEFERRED


def function(source: str, filename: str, group: str, ns: dict, name: str, better=None):
    """The function `name` that `source` defines when run in the namespace `ns` (compiled
    through the code cache of `group`: cache.compiled). Raises compile()'s errors for a text
    that may fail; others are compiled on the first call, where `better()`, if given, may
    give a text doing the same faster and the namespace it needs (its values then added to
    `ns`), used unless Python refuses it."""
    if may_fail(source):
        exec(_on_any_stack(source, filename, group), ns)
        return ns[name]
    stub = types.FunctionType(_STUB, ns, name)

    def first_call(args, kwargs):
        if better is None or not _made_better(better, filename, group, ns):
            exec(_on_any_stack(source, filename, group), ns)
        made = ns[name]
        if made.__code__.co_flags & _GENERATOR_FLAGS:  # a plain function can't take a generator's code
            stub.__kwdefaults__ = {"_first_call": lambda args, kwargs: made(*args, **kwargs)}  # (3.13 warns)
        else:
            stub.__code__, stub.__defaults__, stub.__kwdefaults__ = made.__code__, made.__defaults__, made.__kwdefaults__
        return made(*args, **kwargs)

    stub.__kwdefaults__ = {"_first_call": first_call}
    return stub


def _made_better(better, filename: str, group: str, ns: dict) -> bool:
    """Whether the text `better()` gives, with its namespace, compiled (and ran in `ns`,
    which then holds that namespace's values)."""
    try:
        source, values = better()
        code = _on_any_stack(source, filename, group)
    except (SyntaxError, RecursionError, MemoryError):
        return False
    ns.update(values)
    exec(code, ns)
    return True


def _on_any_stack(source: str, filename: str, group: str):
    """compile() of a text, the same wherever it is called from (a first call, a load).
    Python's compiler nests only as deep as the stack leaves it room (3.11: three levels a
    frame still free), and a first call may come deep in a game's recursion. So where it
    runs out of room, the text is compiled on a fresh stack (a thread of its own): whether
    it compiles never depends on where it was first called."""
    try:
        return compiled(source, filename, group)
    except RecursionError:
        pass
    out: list = []

    def fresh():
        try:
            out.append(compiled(source, filename, group))
        except BaseException as err:  # noqa: BLE001 - raised again below, on the caller's stack
            out.append(err)
    thread = threading.Thread(target=fresh, name="ruledsl compile")
    thread.start()
    thread.join()
    if isinstance(out[0], BaseException):
        raise out[0]
    return out[0]


def compiled(source: str, filename: str, group: str):
    """compile() of a generated text through the code cache of `group` (cache.compiled);
    a text longer than MAX_SOURCE is refused as Python refuses one too deep (SyntaxError)."""
    if len(source) > MAX_SOURCE:
        raise SyntaxError(f"{len(source):,} characters of generated code in one function: too long to compile")
    return cache.compiled(source, filename, group)
