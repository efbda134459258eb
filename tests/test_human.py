"""A person at a terminal: options by label or its start, `?` for help (issue 15, part 3, in part)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ruledsl.agents import pick_option

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
