"""A person at a terminal: options by label or its start, `?` for help, plain lines or prompt_toolkit
(issue 15, part 3)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from click.testing import CliRunner

from ruledsl.play.agents import changed_text, pick_option, render_view
from ruledsl.cli import main
from support import ROOT, run_process

pytestmark = pytest.mark.slow  # drives `ruledsl play` in a terminal (pexpect) and real processes

TIC_TAC_TOE = ROOT / "examples" / "tic_tac_toe.game"
CPR = "\x1b[6n"  # prompt_toolkit asks the terminal where the cursor is; a terminal answers ESC[row;colR


def _spawn(*args):
    """`ruledsl play tic-tac-toe ARGS` in a pseudo-terminal of 40 rows."""
    pexpect = pytest.importorskip("pexpect")
    return pexpect.spawn(sys.executable, ["-m", "ruledsl", "play", str(TIC_TAC_TOE), *args], encoding="utf-8",
                         timeout=30, dimensions=(40, 100), env={**os.environ, "TERM": "xterm"})


def _expect_answering_cpr(child, text):
    """Waits for `text`, answering prompt_toolkit's cursor position requests as a terminal does."""
    while child.expect_exact([CPR, text]) == 0:
        child.send("\x1b[20;1R")


@pytest.mark.parametrize("answer, index", [
    ("2", 1), ("0", None), ("5", None), ("b2", 1), ("B2", 1), ("pa", 2), ("p", 2), ("b", None), ("", None),
    ("zz", None)])
def test_an_option_by_number_label_or_start(answer, index):
    assert pick_option(answer, ["a1", "b2", "pass", "b3"]) == index  # "b" starts two labels: asked again


def test_a_whole_game_of_tic_tac_toe_typed_by_labels_in_plain_mode(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    record = tmp_path / "game.jsonl"
    child = _spawn("--agent", "0=human", "--agent", "1=human", "--record", str(record), "--plain")
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


def test_the_grid_is_drawn_and_a_cell_keeps_its_number(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    child = _spawn("--agent", "0=human", "--agent", "1=human", "--seed", "1", "--plain")
    child.expect(r"4 b1 \. +\| 5 b2 \. +\| 6 b3 \.")  # a 3x3 grid, each cell with its number
    child.expect(r"number 1-9, a label")
    child.sendline("1")
    child.expect(r"1 a1 seat 0 \| 2 a2 \. ")
    child.expect(r"number 2-9, a label")
    child.sendline("?")
    child.expect("the numbers are fixed: each option keeps its place in the spaces of board grid")
    child.sendline("5")  # b2 is 5 whatever else is taken
    child.expect(r"number 2,3,4,6,7,8,9, a label")  # seat 0 again: a1 and b2 are taken
    child.sendline("5")
    child.expect(r"'5' is not an option")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1


class _Decision:
    def __init__(self, labels, kind="choose"):
        self.labels, self.kind = labels, kind
        self.span = type("Span", (), {"where": lambda self: "nowhere"})()


def test_options_are_numbered_by_their_place_in_a_fixed_domain():
    from ruledsl.pipeline import load_game
    from ruledsl.play.terminal import option_numbers
    program = load_game(str(ROOT / "examples" / "tic_tac_toe.game")).program
    assert option_numbers(_Decision(["b2", "c3"]), program) == [5, 9]  # board spaces
    assert option_numbers(_Decision(["seat 1"]), program) == [2]  # seats
    assert option_numbers(_Decision(["4", "6"]), program) == [4, 6]  # whole numbers: themselves
    assert option_numbers(_Decision(["0", "1", "2"]), program) == [0, 1, 2]  # so `1` is "1", not "0"
    assert option_numbers(_Decision(["roll", "hold"], "menu"), program) == [1, 2]  # as offered
    assert option_numbers(_Decision(["ace", "b2"]), program) == [1, 2]
    assert pick_option("9", ["b2", "c3"], [5, 9]) == 1 and pick_option("1", ["b2", "c3"], [5, 9]) is None


def test_a_track_is_one_line_with_empty_stretches_summed_up():
    from ruledsl.play.terminal import track_line
    drawing = {"shape": "ring", "spaces": [{"name": n} for n in ("go", "a", "b", "c", "jail")]}
    assert track_line(drawing, {"go": "seat 0 at", "jail": "seat 1 at"}) == \
        "  go [seat 0 at] > · x3 > jail [seat 1 at] ↺"
    assert track_line(drawing, {}) == "  5 spaces, nothing on them"


def test_play_without_a_seed_records_a_random_one_that_replays(tmp_path):
    record = tmp_path / "game.jsonl"
    game = str(ROOT / "examples" / "pig.game")
    result = CliRunner().invoke(main, ["play", game, "--players", "2", "--record", str(record)])
    assert result.exit_code == 0, result.output
    seed = json.loads(record.read_text().splitlines()[0])["seed"]
    assert isinstance(seed, int) and f"seed {seed} " in result.output.splitlines()[0]
    assert CliRunner().invoke(main, ["replay", str(record)]).exit_code == 0
    again = run_process("play", game, "--players", "2", "--seed", seed)
    assert again.returncode == 0 and again.stdout == result.output  # --seed N plays it again


def test_a_bad_seed_is_a_message_not_a_traceback():
    bad = run_process("play", ROOT / "examples" / "pig.game", "--seed", "many")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "--seed" in bad.stderr


def test_a_guarded_menu_keeps_its_options_numbers(tmp_path):
    from ruledsl.pipeline import load_game
    from ruledsl.play.terminal import menu_options, option_numbers
    game = load_game(str(ROOT / "games" / "bada_bing.game"))
    menus = menu_options(game.loaded.decls)
    court = next(where for where, labels in menus.items() if labels[0] == "pay 1M")
    decision = _Decision(["draw a Special Investigation card"], "menu")
    decision.span = type("Span", (), {"where": lambda self: court})()
    assert option_numbers(decision, game.program, menus) == [2]  # "pay 1M" left out by its guard


def test_a_whole_game_in_prompt_toolkit_mode_with_the_question_and_options_at_the_bottom(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    pytest.importorskip("prompt_toolkit")
    record = tmp_path / "game.jsonl"
    child = _spawn("--agent", "0=human", "--agent", "1=human", "--seed", "1", "--record", str(record))
    free = {cell: number for number, cell in enumerate(["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"], 1)}
    for seat, typed, cell in [(0, "a1", "a1"), (1, "B1", "b1"), (0, "a2", "a2"), (1, "b2", "b2"), (0, "A", "a3")]:
        _expect_answering_cpr(child, "a label, or ? for help:")
        _expect_answering_cpr(child, f"seat {seat} to choose: mark a cell (Tab completes a label")  # the toolbar
        _expect_answering_cpr(child, "   ".join(f"{n} {c}" for c, n in free.items()))  # each cell keeps its number
        child.send(typed)
        if typed == "A":
            child.send("\t")  # the one cell left that starts with a (any case)
            child.expect_exact("a3")
        child.send("\r")
        del free[cell]
    child.expect_exact("winners: seat 0")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    plain = tmp_path / "plain.jsonl"
    result = CliRunner().invoke(main, ["play", str(TIC_TAC_TOE), "--agent", "0=human", "--agent", "1=human",
                                       "--seed", "1", "--record", str(plain)], input="a1\nb1\na2\nb2\na3\n")
    assert result.exit_code == 0, result.output
    assert record.read_text() == plain.read_text()  # the transcript does not depend on the mode


@pytest.mark.parametrize("key", ["\x03", "\x04"])  # Ctrl-C, Ctrl-D
def test_ctrl_c_or_d_in_prompt_toolkit_mode_stops_cleanly_and_keeps_the_transcript(tmp_path, key):
    pexpect = pytest.importorskip("pexpect")
    pytest.importorskip("prompt_toolkit")
    record = tmp_path / "game.jsonl"
    child = _spawn("--agent", "0=human", "--seed", "1", "--record", str(record))
    _expect_answering_cpr(child, "(Tab completes a label")
    child.send("b2\r")
    _expect_answering_cpr(child, "(Tab completes a label")
    child.send(key)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1 and "Traceback" not in child.before
    assert '"choice":"b2"' in record.read_text().splitlines()[2]


def test_plain_flag_and_a_pipe_use_plain_lines():
    pexpect = pytest.importorskip("pexpect")
    child = _spawn("--agent", "0=human", "--seed", "1", "--plain")
    child.expect_exact("a label, or ? for help: ")
    assert "\x1b" not in child.before  # no escape sequences: no cursor position request, no toolbar
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert "\x1b" not in child.before and "Tab completes" not in child.before
    piped = subprocess.run([sys.executable, "-m", "ruledsl", "play", str(TIC_TAC_TOE), "--agent", "0=human",
                            "--seed", "1"], input="b2\nq\n", capture_output=True, text=True, timeout=120)
    assert piped.returncode == 1 and "a label, or ? for help: " in piped.stdout
    assert "\x1b" not in piped.stdout and "Tab completes" not in piped.stdout


def test_the_toolbar_wraps_the_options_and_the_completer_ignores_case():
    pytest.importorskip("prompt_toolkit")
    from prompt_toolkit.document import Document
    from ruledsl.play.terminal_prompt import label_completer, toolbar_text
    text = toolbar_text("seat 0 to choose: card", [f"card {i}" for i in range(1, 31)], list(range(1, 31)), 40)
    lines = text.splitlines()
    assert lines[0].startswith("seat 0 to choose: card") and len(lines) == 6
    assert lines[1] == "1 card 1   2 card 2   3 card 3" and all(len(line) < 40 for line in lines[1:-1])
    assert lines[-1] == "... and 18 more (listed above)"  # 4 lines of 3 shown
    labels = label_completer(["Pass", "pay 1M", "b2"])
    assert [c.text for c in labels.get_completions(Document("PAS"), None)] == ["Pass"]
    assert [c.text for c in labels.get_completions(Document("pa"), None)] == ["Pass", "pay 1M"]
