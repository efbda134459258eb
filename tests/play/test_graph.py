"""`ruledsl graph`: what the diagram shows, both formats, bad input, and the docs' copies."""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from ruledsl.cli import main
from support import GAMES, ROOT, run_process

GAME_NAMES = ["bada_bing", "mafia_dollar", "mafialand", "road_to_infamy", "the_boss"]
FLOW_BLOCK = re.compile(r"## Flow of play\n.*?```mermaid\n(.*?)```\n", re.S)


def graph(*args) -> tuple:
    result = CliRunner().invoke(main, ["graph", *map(str, args)])
    return result.exit_code, result.output


def test_kuhn_poker_flow_in_mermaid():
    code, out = graph(ROOT / "examples" / "kuhn_poker.game")
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0] == "flowchart TD"
    assert '  r_flow["flow()"]' in lines
    assert "  r_flow --> r_showdown" in lines and "  r_showdown --> r_take_pot" in lines  # calls
    assert any('{{"first: open (pass / bet)"}}' in line for line in lines)  # who decides what, with options
    assert any('(["end: fold, winner rival(p)"])' in line for line in lines)  # an end statement


def test_triggers_and_end_conditions():
    code, out = graph(ROOT / "games" / "mafialand.game")
    assert code == 0, out
    assert 'subgraph ends ["checked before every decision"]' in out
    assert "end when three_sectors: locked down three sectors" in out
    code, out = graph(ROOT / "games" / "bada_bing.game")
    assert "  r_roll_and_move -.-> t_land_square" in out.splitlines()  # a walk runs the board's triggers
    assert '  t_land_square[/"on land square"/]' in out.splitlines()


def test_secret_decisions_are_marked():
    code, out = graph(GAMES / "secret_bid.game")
    assert code == 0, out
    assert '{{"p: bid (secret)"}}' in out


def test_dot_format():
    code, out = graph(ROOT / "examples" / "pig.game", "--format", "dot")
    assert code == 0, out
    assert out.startswith("digraph rules {\n") and out.endswith("}\n")
    assert 'label="Pig";' in out
    assert re.search(r'd_r_turn_\d+ \[label="p: roll or hold \(roll / hold\)", shape=hexagon', out)
    assert "  r_flow -> r_turn;" in out


def test_one_rule_and_what_it_leads_to():
    code, out = graph(ROOT / "games" / "mafialand.game", "--rule", "fight")
    assert code == 0, out
    assert "r_fight" in out and "r_refill_hand" in out
    assert "r_flow" not in out and "r_gamble" not in out and "subgraph" not in out


def test_labels_cannot_break_the_diagram(tmp_path):
    game = tmp_path / "sly.game"
    game.write_text('game "x" players 2..2\nrule flow() {\n  for p in players {\n'
                    '    choose by p as "a\\"b<c>#d" {\n      option "x\\"]" { end "q\\"uote" }\n'
                    '      option "y" { }\n    }\n  }\n}\n', encoding="utf-8")
    code, out = graph(game)
    assert code == 0, out
    assert '"p: a#quot;b#lt;c#gt;#35;d (x#quot;] / y)"' in out
    code, out = graph(game, "--format", "dot")
    assert 'label="end: q\\"uote"' in out


@pytest.mark.parametrize("args, expected", [
    (["nope.game"], "nope.game"),
    ([str(GAMES / "broken_syntax.game")], "error"),
    ([str(ROOT / "examples" / "pig.game"), "--rule", "nope"], "--rule nope: no such rule (rules: turn, flow)"),
    ([str(ROOT / "examples" / "pig.game"), "--format", "svg"], "Invalid value"),
])
def test_bad_input_gets_a_message(args, expected):
    code, out = graph(*args)
    assert code != 0
    assert expected in out and "Traceback" not in out


def test_the_exit_code_of_the_installed_command():
    run = run_process("graph", "nope.game")
    assert run.returncode == 1
    assert "nope.game" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_docs_show_the_current_diagram(name):
    """docs/games/NAME.md's "Flow of play" is `ruledsl graph games/NAME.game`, so it can't go stale."""
    doc = (ROOT / "docs" / "games" / f"{name}.md").read_text(encoding="utf-8")
    found = FLOW_BLOCK.search(doc)
    assert found, f"docs/games/{name}.md has no Flow of play diagram"
    code, out = graph(ROOT / "games" / f"{name}.game")
    assert code == 0, out
    assert found.group(1) == out, f"docs/games/{name}.md: paste `ruledsl graph games/{name}.game` again"
