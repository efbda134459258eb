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
