"""A person at a terminal: options by label or its start, `?` for help (issue 15, part 3, in part)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from click.testing import CliRunner

from ruledsl.agents import changed_text, pick_option, render_view
from ruledsl.cli import main

ROOT = Path(__file__).parent.parent


@pytest.mark.parametrize("answer, index", [
    ("2", 1), ("0", None), ("5", None), ("b2", 1), ("B2", 1), ("pa", 2), ("p", 2), ("b", None), ("", None),
    ("zz", None)])
def test_an_option_by_number_label_or_start(answer, index):
    assert pick_option(answer, ["a1", "b2", "pass", "b3"]) == index  # "b" starts two labels: asked again


def test_a_whole_game_of_tic_tac_toe_typed_by_labels(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    record = tmp_path / "game.jsonl"
    child = pexpect.spawn(sys.executable, ["-m", "ruledsl", "play", str(ROOT / "examples" / "tic_tac_toe.game"),
                                           "--agent", "0=human", "--agent", "1=human", "--record", str(record)],
                          encoding="utf-8", timeout=30, dimensions=(40, 100))
    child.expect(r"a label, or \? for help")
    child.sendline("?")
    child.expect("asked by the rule at .*tic_tac_toe.game:")
    for cell in ("a1", "B1", "a2", "b2"):
        child.expect(r"a label, or \? for help")
        child.sendline(cell)
    child.expect(r"a label, or \? for help")
    child.sendline("zz")
    child.expect("'zz' is not an option")
    child.sendline("a3")
    child.expect("winners: seat 0")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    chosen = [line for line in record.read_text().splitlines() if '"type":"decision"' in line]
    assert [c.split('"choice":"')[1].split('"')[0] for c in chosen] == ["a1", "b1", "a2", "b2", "a3"]


def test_the_view_sums_up_empty_zones_and_repeated_cards():
    view = {"players": [{"seat": 0, "alive": True}],
            "zones": {"reserve/seat 0": ["big cube", "big cube", "big cube", "small cube"], "dead": [],
                      "deck": {"count": 0}, "hospital": []}}
    assert render_view(view, 0).splitlines()[1:] == ["reserve/seat 0: [big cube x3, small cube]",
                                                     "empty: dead, deck, hospital"]


def test_what_changed_since_the_last_turn():
    before = {"players": [{"seat": 0, "gold": 3}], "zones": {"hand/seat 0": ["ace"]}}
    now = {"players": [{"seat": 0, "gold": 5}], "zones": {"hand/seat 0": []}}
    assert changed_text(before, now).splitlines() == [
        "since your last turn:", "  players/0/gold = 5", "  zones/hand/seat 0 = []"]
    assert changed_text(now, now).splitlines()[1] == "  nothing changed"


def test_q_stops_the_game_and_keeps_the_transcript(tmp_path):
    record = tmp_path / "game.jsonl"
    result = CliRunner().invoke(main, ["play", str(ROOT / "examples" / "tic_tac_toe.game"), "--agent", "0=human",
                                       "--record", str(record)], input="b2\nq\n")
    assert result.exit_code == 1 and "Traceback" not in result.output
    lines = record.read_text().splitlines()
    assert '"choice":"b2"' in lines[2] and len(lines) == 4  # header, rules, seat 0's b2, seat 1's reply
