"""The checker corpus: every broken .game file here has its expected errors beside it.

`NAME.expected` lists one error per line as `LINE:COL [CODE] message`, in the
order the checker reports them. Files named `ok_*.game` must check clean.
"""
from pathlib import Path

import pytest

from ruledsl.errors import RuleError
from ruledsl.pipeline import load_game

CASES = Path(__file__).parent / "check_cases"
BROKEN = sorted(p for p in CASES.glob("*.game") if not p.name.startswith("ok_"))
GOOD = sorted(CASES.glob("ok_*.game"))


def reported(path: Path) -> list[str]:
    try:
        load_game(str(path))
    except RuleError as err:
        return [f"{d.span.line}:{d.span.col} [{d.code}] {d.message}" for d in err.diagnostics]
    return []


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_broken_file_reports_expected_errors(path):
    expected = path.with_suffix(".expected").read_text().splitlines()
    assert reported(path) == expected


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.stem)
def test_good_file_checks_clean(path):
    assert reported(path) == []


def test_every_broken_case_has_expectations():
    assert BROKEN, "the corpus is empty"
    for path in BROKEN:
        assert path.with_suffix(".expected").is_file(), f"{path.name} has no .expected file"


def test_rendering_has_path_line_col_source_and_caret():
    with pytest.raises(RuleError) as info:
        load_game(str(CASES / "type_mismatch.game"))
    text = info.value.render()
    first = text.splitlines()[:3]
    assert first[0].startswith(str(CASES / "type_mismatch.game") + ":6:16: error: ")
    assert first[1].strip() == "p.points = red"
    assert first[2].strip() == "^^^"


def test_a_variant_can_replace_the_game_line():
    game = load_game(str(CASES / "ok_variant_more_players.game"))
    assert (game.program.title, game.program.min_players, game.program.max_players) == ("Base for six", 2, 6)


def _bound_by_walking(rule) -> tuple:
    """A rule's locals found by walking its body (as compile/inline.py found them before
    the checker noted them): its parameters and every name a binder binds; the parameters
    a statement `k = ...` or `move k by ...` assigns (the inliner missed the walk) or a
    binder binds again."""
    from ruledsl.compile.inline import BINDERS
    from ruledsl.syntax import ast
    params = {p.name for p in rule.params}
    bound, assigned = set(), set()
    for n in ast.walk(rule.body):
        binder = BINDERS.get(type(n))
        if binder is not None:
            bound.add(getattr(n, binder))
        elif isinstance(n, (ast.Assign, ast.Walk)) and isinstance(n.target, ast.Name):
            assigned.add(n.target.name)
    return (params | bound) - {None}, (bound | assigned) & params


def test_the_checker_notes_each_rules_locals_as_a_walk_of_it_finds_them():
    """Model.rule_locals, which compiling a call in place renames: for every rule of every
    game file that checks, the same sets as a walk of the rule's body gives."""
    from ruledsl.check.decls import check as check_loaded
    from ruledsl.syntax.load import load
    from support import repository_game_files
    compared = 0
    for path in repository_game_files():
        try:
            model = check_loaded(load(str(path)))
        except RuleError:
            continue
        assert set(model.rule_locals) == set(model.rules), path
        for name, rule in model.rules.items():
            assert model.rule_locals[name] == _bound_by_walking(rule), (path, name)
            compared += 1
    assert compared > 300


def test_the_checker_notes_the_parameters_a_rule_changes(tmp_path):
    """Assigned (`k = ...`, `move k by ...`) or bound again (`let`, `for`, a
    comprehension's variable)."""
    from ruledsl.check.decls import check as check_loaded
    from ruledsl.syntax.load import load
    path = tmp_path / "t.game"
    path.write_text('game "T" players 2..2\nshared { total: int = 0 }\n'
                    "rule bump(k: int, n: int, m: int) {\n  k = k + 1\n  for i in 1..n { total += i }\n"
                    "  total += count(m in 1..3 where m > 1)\n  total += k\n}\n"
                    'rule flow() {\n  bump(1, 2, 3)\n  end "done" draw\n}\n', encoding="utf-8")
    model = check_loaded(load(str(path)))
    assert model.rule_locals["bump"] == ({"k", "n", "m", "i"}, {"k", "m"})
    assert model.rule_locals["bump"] == _bound_by_walking(model.rules["bump"])
    assert model.rule_locals["flow"] == (set(), set())
