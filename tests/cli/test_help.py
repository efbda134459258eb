"""Every command's --help describes each option and ends with its arguments, an example and its exit codes."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from ruledsl.cli import main

COMMANDS = sorted(main.commands)


def test_the_commands_of_this_issue_are_there():
    assert {"check", "list", "schema", "play", "replay", "simulate", "compare", "state"} <= set(COMMANDS)


@pytest.mark.parametrize("name", COMMANDS)
def test_help_has_options_an_example_and_exit_codes(name):
    command = main.commands[name]
    undescribed = [p.name for p in command.params if p.param_type_name == "option" and not p.help]
    assert undescribed == []
    result = CliRunner().invoke(main, [name, "--help"])
    assert result.exit_code == 0
    text = result.stdout
    assert "Arguments:" in text and "Examples:" in text and "Exit codes:" in text
    examples = text.split("Examples:")[1].split("Exit codes:")[0]
    assert f"ruledsl {name}" in examples
    codes = text.split("Exit codes:")[1]
    assert "  0  " in codes
