"""ast.walk: every node under a node, parents before their parts, parts in field order."""
from __future__ import annotations

import pytest

from ruledsl.errors import Span
from ruledsl.syntax import ast
from ruledsl.syntax.load import load
from support import repository_game_files


def _walked(node) -> list:
    """What ast.walk gives, written recursively (the order it keeps)."""
    if isinstance(node, (tuple, list)):
        return [n for item in node for n in _walked(item)]
    if isinstance(node, ast.Node):
        return [node] + [n for f in ast.syntax_fields(type(node)) for n in _walked(getattr(node, f.name))]
    return []


@pytest.mark.parametrize("path", repository_game_files()[:6], ids=lambda p: p.name)
def test_walk_gives_every_node_in_order(path):
    decls = load(str(path)).decls
    expected = _walked(decls)
    assert len(expected) > 50
    assert [id(n) for n in ast.walk(decls)] == [id(n) for n in expected]


def test_walk_goes_deeper_than_python_recurses():
    at = Span("t.game", 1, 1)
    node = ast.Int(span=at, value=1)
    for _ in range(5000):
        node = ast.Neg(span=at, operand=node)
    walked = list(ast.walk(node))
    assert len(walked) == 5001 and isinstance(walked[-1], ast.Int)
