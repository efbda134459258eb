"""Generated functions compiled by Python on their first call (ruledsl/compile/deferred.py)."""
from __future__ import annotations

import inspect
import sys
import warnings

import pytest

from ruledsl import cache
from ruledsl.compile import deferred
from ruledsl.errors import RuleError
from ruledsl.pipeline import load_game
from support import ROOT, random_playout


@pytest.fixture
def compiles(monkeypatch):
    """The texts given to Python's compile() (through the code cache), in order."""
    seen = []
    real = cache.compiled

    def counting(source, filename, group):
        seen.append(source)
        return real(source, filename, group)
    monkeypatch.setattr(cache, "compiled", counting)
    return seen


def test_a_function_is_compiled_on_its_first_call_and_is_then_the_generated_one(compiles):
    ns = {"_k": 10}
    f = deferred.function("def _f(a, b=2):\n    return a * b + _k\n", "<t>", "g", ns, "_f")
    assert compiles == [] and f.__code__.co_name == "_stub"
    assert f(3) == 16 and len(compiles) == 1
    assert f.__code__.co_name == "_f" and f.__defaults__ == (2,) and f.__kwdefaults__ is None
    assert f(3, b=3) == 19 and f(1) == 12 and len(compiles) == 1  # compiled once
    ns["_k"] = 0
    assert f(3) == 6  # its globals are the namespace, as an exec'd function's


def test_a_generator_function_is_deferred_too(compiles):
    """Called through its stub, which keeps a plain function's code (a generator's code
    given to a plain function: deprecated in 3.13)."""
    g = deferred.function("def _g(n):\n    yield from range(n)\n", "<t>", "g", {}, "_g")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert list(g(3)) == [0, 1, 2] and list(g(2)) == [0, 1] and len(compiles) == 1
    assert g.__code__.co_name == "_stub" and inspect.isgenerator(g(1))


@pytest.mark.parametrize("text", [
    "x = " + "(" * 201 + "1" + ")" * 201,  # Python's parser: at most 200 brackets inside each other
    "x = " + "-" * 3000 + "1",  # its compiler: some 3,000 levels of other nesting (3.13: 6,000)
    "".join("    " * i + f"for a{i} in b:\n" for i in range(21)) + "    " * 21 + "x = 1\n",  # 20 blocks (3.13: more)
])
def test_a_text_python_may_refuse_is_compiled_at_once(python_recursion_limit, compiles, text):
    assert deferred.may_fail(text)
    try:
        compile(text, "<t>", "exec")
    except (SyntaxError, RecursionError, MemoryError):
        with pytest.raises((SyntaxError, RecursionError, MemoryError)):
            deferred.function(text, "<t>", "g", {}, "x")  # raised here, not at a first call
    else:  # this Python takes it (3.13 nests deeper): compiled here all the same, not at a first call
        assert deferred.function(text, "<t>", "g", {"b": [1]}, "x") is not None and len(compiles) == 1


@pytest.mark.parametrize("text", [
    "x = " + "(" * (deferred.MAX_BRACKETS - 1) + "1" + ")" * (deferred.MAX_BRACKETS - 1),
    "x = " + "-" * (deferred.MAX_DEFERRED - 6) + "1",
    "".join("    " * i + f"for a{i} in b:\n" for i in range(15)) + "    " * 15 + "pass\n",
])
def test_texts_just_inside_the_bounds_compile(python_recursion_limit, text):
    assert not deferred.may_fail(text)
    deferred._on_any_stack(text, "<t>", "g")  # (on pytest's stack, Python's compiler has less room)


# Each kind of nesting Python's compiler follows level by level (its recursion, about 3,000
# levels), as a text of n levels: each level takes a bracket, an operator's character or
# one of deferred.NESTING's words, so a text with fewer than MAX_DEFERRED of those is
# compiled on its first call.
NESTINGS = {
    "unary minus": lambda n: "x = " + "-" * n + "1",
    "additions": lambda n: "x = " + "+".join(["1"] * n),
    "powers": lambda n: "x = " + "**".join(["1"] * n),
    "attributes": lambda n: "x = a" + ".b" * n,
    "calls": lambda n: "x = f" + "()" * n,
    "subscripts": lambda n: "x = a" + "[0]" * n,
    "conditionals": lambda n: "x = " + "".join(f"v{i} if c else " for i in range(n)) + "0",
    "lambdas": lambda n: "x = " + "lambda: " * n + "1",
    "nots": lambda n: "x = " + "not " * n + "1",
    "elifs": lambda n: "if c:\n    pass\n" + "".join(f"elif c{i}:\n    pass\n" for i in range(n)),
}


def _deepest_deferred(make) -> int:
    """The most levels of `make` whose text is not compiled at once (may_fail is monotone)."""
    low, high = 1, 3000
    assert not deferred.may_fail(make(low)) and deferred.may_fail(make(high))
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if deferred.may_fail(make(middle)) else (middle, high)
    return low


@pytest.mark.parametrize("kind", NESTINGS)
def test_each_kind_of_nesting_python_refuses_is_compiled_at_once(python_recursion_limit, kind):
    make = NESTINGS[kind]
    refused = make(3000)  # Python 3.10-3.12 refuse about 3,000 levels (3.13: more)
    if sys.version_info < (3, 13):
        with pytest.raises((SyntaxError, RecursionError, MemoryError)):
            compile(refused, "<t>", "exec")
    assert deferred.may_fail(refused)
    deepest = make(_deepest_deferred(make))  # and the deepest text not compiled at once compiles
    deferred._on_any_stack(deepest, "<t>", "g")


def test_a_long_text_that_nests_little_is_compiled_on_its_first_call(compiles):
    text = "def _f(w):\n" + "".join(f"    v{i} = w + {i}\n" for i in range(400)) + "    return v399\n"
    assert len(text) > 2 * deferred.MAX_DEFERRED and not deferred.may_fail(text)
    f = deferred.function(text, "<t>", "g", {}, "_f")
    assert compiles == [] and f(1) == 400 and len(compiles) == 1


def _deep(n: int, then):
    return then() if n == 0 else _deep(n - 1, then)


def test_a_first_call_deep_in_recursion_compiles_as_anywhere_else(compiles):
    """Python's compiler has three levels a free frame (3.10, 3.11): at 100 frames from the
    limit, too few for a text nesting 400 levels, which a call near the bottom of the stack
    takes. (From 3.12 its depth does not follow the frames in use: it compiles anywhere.)"""
    text = "def _f(a):\n    return " + "-" * 400 + "a\n"
    f = deferred.function(text, "<t>", "g", {}, "_f")
    room = sys.getrecursionlimit() - len(inspect.stack(0)) - 100
    if sys.version_info < (3, 12):
        with pytest.raises(RecursionError):
            _deep(room, lambda: compile(text, "<t>", "exec"))
    assert _deep(room, lambda: f(5)) == 5
    assert len(compiles) == (2 if sys.version_info < (3, 12) else 1)  # the second on a fresh stack


def test_compiling_a_game_leaves_most_python_compiling_to_its_play(compiles):
    program = load_game(str(ROOT / "games" / "mafialand.game")).program
    at_once = len(compiles)
    random_playout(program, 3, seed=1, max_decisions=200)
    assert 0 < at_once < len(compiles) / 10  # the long texts only


def test_a_better_text_runs_from_the_first_call_unless_python_refuses_it(compiles):
    """`better` (small defs written in: compile/defs.py) replaces the text on the first
    call; a text Python refuses (here 300 brackets deep) leaves the function its own text."""
    f = deferred.function("def _f(a):\n    return a + 1\n", "<t>", "g", {}, "_f",
                          better=lambda: ("def _f(a):\n    return a + _two\n", {"_two": 2}))
    assert f(1) == 3 and f(2) == 4
    deep = "def _g(a):\n    return " + "(" * 300 + "a" + ")" * 300 + "\n"
    g = deferred.function("def _g(a):\n    return a + 1\n", "<t>", "g", {}, "_g", better=lambda: (deep, {}))
    assert g(1) == 2 and g(5) == 6
    assert compiles[-1] == "def _g(a):\n    return a + 1\n"


def test_a_text_longer_than_max_source_is_refused_before_python_compiles_it(monkeypatch):
    compiles = []
    monkeypatch.setattr(cache, "compiled",
                        lambda source, *rest: compiles.append(source) or compile(source, "t", "exec"))
    text = "x = [" + "1, " * (deferred.MAX_SOURCE // 3) + "]\n"
    with pytest.raises(SyntaxError, match="too long to compile"):
        deferred.function(text, "<t>", "g", {}, "x")
    deferred.compiled(text[:deferred.MAX_SOURCE - 2] + "]\n", "<t>", "g")
    assert len(compiles) == 1  # only the one inside the bound reached Python


def test_an_expression_too_long_to_compile_is_e403(tmp_path, monkeypatch):
    monkeypatch.setattr(deferred, "MAX_SOURCE", 4000)
    path = tmp_path / "t.game"
    path.write_text('game "T" players 2..4\nshared { n: int = 0 }\nrule flow() { n = size([' + "1, " * 1500 + "1]) }\n")
    with pytest.raises(RuleError) as err:
        load_game(str(path))
    assert [d.code for d in err.value.diagnostics] == ["E403"] and "too long" in err.value.diagnostics[0].message


def _counted(source: str) -> bool:
    """may_fail as the module's docstring says it, counting in the text itself."""
    if len(source) > deferred.MAX_SOURCE or deferred.DEEP_LINE in source:
        return True
    if sum(map(source.count, "([{")) >= deferred.MAX_BRACKETS:
        return True
    return len(source) >= deferred.MAX_DEFERRED and sum(map(source.count, deferred.NESTING)) >= deferred.MAX_DEFERRED


@pytest.mark.parametrize("filler", ["x", "·", "\u00e9t\u00e9", "\U0001f3b2", "\udcff"])
@pytest.mark.parametrize("brackets, nesting", [(0, 0), (10, 0), (189, 0), (190, 0), (0, 2899), (100, 2800),
                                               (10, 2900)])
def test_may_fail_counts_as_in_the_text_whatever_else_it_holds(filler, brackets, nesting):
    """Counted in the text's bytes (one pass a kind): the same answers as counting in the
    text, with letters of other widths (a game's names and strings) around them."""
    body = ["(" * brackets, "+" * (nesting // 2), " if " * (nesting - nesting // 2)]
    for fill in (0, 1, 200, 3000):
        text = filler * fill + "".join(body) + filler * fill
        assert deferred.may_fail(text) == _counted(text), (fill, len(text))
