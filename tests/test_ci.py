"""`.ci/run` runs the README's two set-up commands, exactly: the README's install (CI may
add extras, so that the optional tests run) and its test command."""
from __future__ import annotations

import re

from support import ROOT

SETUP = re.compile(r"## Set-up for development\n.*?```sh\n(.*?)```", re.S)
INSTALL = re.compile(r"python3 -m pip install -e '\.\[([a-z,]+)\]'")


def readme_commands() -> list:
    block = SETUP.search((ROOT / "README.md").read_text(encoding="utf-8"))
    assert block, "README.md has no 'Set-up for development' with a sh block"
    return [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def ci_lines() -> list:
    return [line.split("#")[0].strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]


def test_the_readme_gives_two_commands_an_install_and_the_tests():
    install, tests = readme_commands()
    assert INSTALL.fullmatch(install) and "test" in INSTALL.fullmatch(install).group(1).split(",")
    assert tests.startswith("python3 -m pytest")


def test_ci_runs_the_readmes_test_command_and_its_install_with_extras():
    install, tests = readme_commands()
    lines = ci_lines()
    assert tests in lines, f"{tests!r} is not a line of .ci/run"
    installs = [INSTALL.fullmatch(line) for line in lines if INSTALL.fullmatch(line)]
    assert len(installs) == 1, ".ci/run installs the README's way once"
    assert set(INSTALL.fullmatch(install).group(1).split(",")) <= set(installs[0].group(1).split(","))
