"""The pytest plugin as a user meets it: docs/testing.md's recipe, built in a temp dir and run by pytest.

The project's files are read from the doc's code blocks (```lang title="path"), so
the recipe and this test can't drift apart.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # each test runs pytest in a fresh process

DOC = Path(__file__).parent.parent / "docs" / "testing.md"


def recipe_files() -> dict:
    blocks = re.findall(r'```\w* title="([^"]+)"\n(.*?)```', DOC.read_text(encoding="utf-8"), flags=re.S)
    return dict(blocks)


def pytest_in(project: Path, *args) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "PYTHONPATH"))}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
                          cwd=project, capture_output=True, text=True, env=env, timeout=300)


def failure_section(output: str) -> list:
    """The lines pytest shows for the failing tests, without its own banners."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if "FAILURES" in line)
    end = next(i for i, line in enumerate(lines) if "short test summary" in line or "snapshot report" in line)
    return [line for line in lines[start + 1:end] if not re.match(r"^_+ \w+ _+$", line)]


@pytest.fixture
def project(tmp_path) -> Path:
    files = recipe_files()
    assert set(files) == {"games/pig.game", "variants/high_roller.game", "tests/test_rules.py", "pytest.ini"}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_the_recipe_stores_passes_fails_with_the_edited_line_and_passes_again(project):
    test_file = (project / "tests" / "test_rules.py").read_text()
    assert len([line for line in test_file.splitlines() if line.strip()]) <= 6
    first = pytest_in(project)
    assert first.returncode == 1 and "no snapshot stored yet" in first.stdout  # nothing stored yet
    stored = pytest_in(project, "--snapshot-update")
    assert stored.returncode == 0, stored.stdout
    snapshots = sorted(p.name for p in (project / "tests" / "__snapshots__" / "test_rules").iterdir())
    assert snapshots == [f"test_base_game[2p-seed{s}].jsonl" for s in (1, 2)] + \
        [f"test_high_roller[3p-seed{s}].jsonl" for s in range(3)]
    assert pytest_in(project).returncode == 0

    variant = project / "variants" / "high_roller.game"
    variant.write_text(variant.read_text().replace("GOAL = 50", "GOAL = 60"))
    failed = pytest_in(project)
    assert failed.returncode == 1
    section = failure_section(failed.stdout)
    assert len(section) <= 40, "\n".join(section)
    assert section[0] == "variants/high_roller.game: 3 game(s) no longer play as stored"
    assert sum(line.startswith("[3p-seed") for line in section) == 3
    responsible = [line for line in section if "rule change responsible" in line]
    assert responsible and all(line.strip() == "rule change responsible: variants/high_roller.game:3: "
                               "override const GOAL = 60   (recorded: override const GOAL = 50)"
                               for line in responsible)
    assert "test_base_game" not in failed.stdout.split("short test summary")[-1]  # the base still passes
    assert "Traceback" not in failed.stdout

    assert pytest_in(project, "--snapshot-update").returncode == 0
    assert pytest_in(project).returncode == 0
    base = project / "games" / "pig.game"
    base.write_text("# a comment-only edit\n" + base.read_text().replace("const GOAL = 100", "const GOAL = 100  # x"))
    again = pytest_in(project)
    assert again.returncode == 0, again.stdout


def test_golden_games_replay_and_a_diverging_one_is_explained(project):
    golden = project / "golden"
    golden.mkdir()
    from ruledsl.cli import main
    from click.testing import CliRunner
    cwd = os.getcwd()
    os.chdir(project)
    try:
        result = CliRunner().invoke(main, ["play", "games/pig.game", "-n", "2", "--seed", "4", "--record",
                                           "golden/g1.jsonl"])
    finally:
        os.chdir(cwd)
    assert result.exit_code == 0, result.output
    (project / "tests" / "test_golden.py").write_text(
        'def test_golden(ruledsl_replay):\n    assert ruledsl_replay("golden/*.jsonl") == 1\n')
    assert pytest_in(project, "tests/test_golden.py").returncode == 0
    base = project / "games" / "pig.game"
    base.write_text(base.read_text().replace("if r == 1 { return }", "if r == 1 or r == 2 { return }"))
    failed = pytest_in(project, "tests/test_golden.py")
    assert failed.returncode == 1
    assert "[golden/g1.jsonl] diverged at step " in failed.stdout
    line = base.read_text().splitlines().index("        if r == 1 or r == 2 { return }") + 1
    assert f"games/pig.game:{line}: if r == 1 or r == 2 {{ return }}   (recorded: if r == 1 {{ return }})" \
        in failed.stdout
    assert "golden/*.jsonl: 1 game(s) no longer play as stored" in failed.stdout
