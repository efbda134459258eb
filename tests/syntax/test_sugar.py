"""Sugar lowering (ruledsl/syntax/sugar.py) and the tree rebuild it runs on
(ast.transform), which looks into statements and leaves expressions alone."""
from __future__ import annotations

from ruledsl.syntax import ast, sugar
from ruledsl.syntax.parse import parse_text

TEXT = """game "T" players 2..3
shared { n: int = 0 }
rule flow() {
  for p in players {
    if n == 0 {
      window q in players as "offer" { n = 1 + 2 }
    }
  }
}
"""


def _kinds(nodes) -> set:
    return {type(n).__name__ for n in ast.walk(nodes)}


def test_a_window_inside_ifs_and_loops_is_lowered():
    decls = parse_text("t.game", TEXT).decls
    assert "Window" in _kinds(decls)
    lowered = sugar.lower(decls)
    assert "Window" not in _kinds(lowered) and {"While", "May", "Binary"} <= _kinds(lowered)


def test_transform_leaves_kept_classes_as_they_are_and_does_not_look_into_them():
    decls = parse_text("t.game", TEXT).decls
    seen: list = []

    def note(node):
        seen.append(type(node).__name__)
        return node

    assert ast.transform(decls, note) is decls  # nothing changed: nothing copied
    assert {"Binary", "Int", "Window", "For"} <= set(seen)
    seen.clear()
    assert ast.transform(decls, note, keep=(ast.Expr,)) is decls
    assert {"Window", "For", "If"} <= set(seen) and not {"Binary", "Int", "Name"} & set(seen)
