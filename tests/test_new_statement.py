"""Adding a statement to the language touches five places, each obvious, and nothing else.

This test adds `bump F` (adds 1 to a shared int field) from outside the package: a
grammar line, an AST node that says what the compiler must know of it (`straight`,
`changes_world`), a Builder method, a checker method and a compiler method. It then runs
a game that uses it, and shows that an end condition reading the field is looked at again
after it (a statement that forgot `changes_world` would leave the game running). In the
package, the grammar's shipped tables are then made again (`python -m ruledsl.syntax.tables`;
tests/syntax/test_tables.py fails until they are)."""
from __future__ import annotations

import pytest
from lark import v_args

from ruledsl.syntax import ast, grammar, parse
from ruledsl.check.stmt import StmtChecker
from ruledsl.compile.game import StmtCompiler
from ruledsl.check.types import INT
from support import run_text


class Bump(ast.Stmt):                                   # 1. the AST node and its properties
    straight = True
    changes_world = True
    field: str


@v_args(meta=True, inline=True)
def bump_stmt(self, meta, field):                       # 2. the Builder makes the node
    return Bump(span=self.span(meta), field=str(field))


def s_Bump_check(self, s, scope):                       # 3. the checker
    if self.m.shared_fields.get(s.field) is None or self.x.name_type(s.field, scope) != INT:
        self.err(s, "E202", f"'bump' needs a shared int field, not '{s.field}'")


def s_Bump_compile(self, code, s):                      # 4. the compiler (a straight statement)
    field = s.field

    def bump(vm, env):
        vm.w.shared[field] += 1
    self.simple(code, s, bump)


@pytest.fixture
def with_bump(monkeypatch):
    text = grammar.grammar_text() + '\n%extend stmt: bump_stmt\nbump_stmt: "bump" NAME\n'  # 5. the grammar
    monkeypatch.setenv(grammar.CACHE_ENV, "")  # don't replace the real grammar's cached parser
    monkeypatch.setattr(parse, "grammar_text", lambda: text)
    parse.parser.cache_clear()
    monkeypatch.setattr(parse.Builder, "bump_stmt", bump_stmt, raising=False)
    monkeypatch.setattr(StmtChecker, "s_Bump", s_Bump_check, raising=False)
    monkeypatch.setattr(StmtCompiler, "s_Bump", s_Bump_compile, raising=False)
    yield
    parse.parser.cache_clear()


GAME = """
shared { n: int = 0 }
end when three "n reached 3": n >= 3
rule flow() {
  loop {
    for p in players {
      bump n
      say "n is {n}"
      choose x from 1..2 by p as "go on"
    }
  }
}
"""


def test_a_new_statement_runs_end_to_end(with_bump, tmp_path):
    said = []
    m = run_text(tmp_path, GAME, listener=lambda kind, data: said.append(data.get("text")) if kind == "say" else None)
    m.choose("1")
    m.choose("2")
    assert m.result is not None and m.result.reason == "n reached 3"
    assert said == ["n is 1", "n is 2", "n is 3"]


def test_a_new_statement_is_checked(with_bump, tmp_path):
    from ruledsl.errors import RuleError
    with pytest.raises(RuleError) as err:
        run_text(tmp_path, "rule flow() { bump nothing }")
    assert "'bump' needs a shared int field, not 'nothing'" in str(err.value.render())
