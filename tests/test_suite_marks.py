"""The fast subset (`pytest -m "not slow"`) leaves out the random-game property modules:
each tests/games/*_random.py marks itself slow as a whole (a module-level `pytestmark`)."""
import ast
from pathlib import Path

import pytest

RANDOM_MODULES = sorted((Path(__file__).parent / "games").glob("test_*_random.py"))


def module_marks(path: Path) -> list:
    """The marks a module's top-level `pytestmark = ...` names (`pytest.mark.X` -> X)."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "pytestmark" for t in node.targets):
            return [n.attr for n in ast.walk(node.value)
                    if isinstance(n, ast.Attribute) and getattr(n.value, "attr", None) == "mark"]
    return []


def test_there_are_random_modules():
    assert len(RANDOM_MODULES) >= 5


@pytest.mark.parametrize("path", RANDOM_MODULES, ids=[p.stem for p in RANDOM_MODULES])
def test_a_random_game_module_is_marked_slow(path):
    assert "slow" in module_marks(path), f"{path.name}: add `pytestmark = pytest.mark.slow` at the top"


def test_module_marks_reads_a_list_and_ignores_other_names(tmp_path):
    path = tmp_path / "test_x.py"
    path.write_text("import pytest\nslow = 1\npytestmark = [pytest.mark.skipif(False, reason='r'), pytest.mark.slow]\n")
    assert sorted(module_marks(path)) == ["skipif", "slow"]
    path.write_text("import pytest\nmarks = pytest.mark.slow\n")
    assert module_marks(path) == []
