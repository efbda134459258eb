"""ast.walk: every node under a node, parents before their parts, parts in field order."""
from __future__ import annotations

import msgspec
import pytest

from ruledsl.errors import Span
from ruledsl.syntax import ast
from ruledsl.syntax.load import canonical, load, plays_sha256
from support import repository_game_files


def _walked(node) -> list:
    """What ast.walk gives, written recursively (the order it keeps)."""
    if isinstance(node, (tuple, list)):
        return [n for item in node for n in _walked(item)]
    if isinstance(node, ast.Node):
        return [node] + [n for name in ast.syntax_fields(type(node)) for n in _walked(getattr(node, name))]
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


def test_syntax_fields_are_the_parts_in_order_without_span_or_note():
    for cls in (ast.Rule, ast.EndWhen, ast.Trigger):
        names = [f.name for f in msgspec.structs.fields(cls)]
        assert ast.syntax_fields(cls) == tuple(n for n in names if n not in ("span", "note"))
    assert ast.syntax_fields(ast.Rule)[-1] == "returns"


def test_rules_hash_leaves_an_added_field_out_only_at_its_default():
    at = Span("t.game", 1, 1)
    rule = ast.Rule(span=at, name="r", params=(), body=())
    assert "returns" not in dict(canonical(rule)[1:])
    typed = ast.evolve(rule, returns=ast.TypeRef(span=at, name="int", optional=False))
    assert "returns" in dict(canonical(typed)[1:])
    assert plays_sha256([rule]) != plays_sha256([typed])
