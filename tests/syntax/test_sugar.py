"""Sugar lowering (ruledsl/syntax/sugar.py) and the tree rebuild it runs on
(ast.transform), which looks into statements and leaves expressions alone."""
from __future__ import annotations

import re
from pathlib import Path

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


def test_a_window_in_a_trigger_is_lowered_and_declarations_without_a_block_are_left_alone():
    text = TEXT + """board ring(kind: int = 0) graph {
  space a
  space b
  link a b
}
on land ring(s: ring, p: player) {
  window q in players as "answer" { n = 2 }
}
"""
    decls = parse_text("t.game", text).decls
    lowered = sugar.lower(decls)
    assert "Window" in _kinds(decls) and "Window" not in _kinds(lowered)
    assert [sugar.has_block(d) for d in decls] == [isinstance(d, (ast.Rule, ast.Trigger)) for d in decls]
    assert all(new is old for new, old in zip(lowered, decls) if not sugar.has_block(old))


def test_only_rules_and_triggers_among_declarations_have_a_block():
    """sugar.lower looks for statements only in declarations with a block (has_block):
    a declaration of another kind written with a block in the grammar fails here."""
    grammar = (Path(sugar.__file__).parent / "ruledsl.lark").read_text(encoding="utf-8")
    with_block = {m.group(1) for m in re.finditer(r"^(\w+):[^\n]*\bblock\b", grammar, re.M)}
    statements = {n for n in with_block if n.endswith("_stmt") or n in ("elif_clause", "option")}
    assert with_block - statements == {"rule_decl", "trigger_decl"}
