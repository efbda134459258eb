"""Untrusted input: transcripts cut or tampered with, terminal control characters, error floods."""
from __future__ import annotations

import json
import sys

import pytest
from click.testing import CliRunner

from ruledsl.cli import main
from ruledsl.errors import MAX_SHOWN, Diagnostic, RuleError, Span, printable
from ruledsl.pipeline import load_game
from ruledsl.play.replay import Divergence, replay
from ruledsl.play.transcript import parse_lines
from support import ROOT, record_game, run_cli, run_process


def records_of(lines) -> list:
    return parse_lines(list(lines))


# ---------------------------------------------------------------- cut transcripts
@pytest.mark.parametrize("name,players,seed", [("secret_bid.game", 3, 4), ("dice_race.game", 2, 7)])
def test_a_transcript_cut_at_any_line_replays_as_a_prefix(games_dir, name, players, seed):
    _, text = record_game(name, players, seed=seed)
    lines = text.splitlines()
    game = load_game(name)
    full = replay(game, records_of(lines)).steps
    for cut in range(1, len(lines)):
        records = records_of(lines[:cut])
        report = replay(game, records)
        decisions = sum(1 for r in records if r["type"] == "decision")
        assert report.result is None and report.steps in (decisions, decisions - 1), cut
        assert "without a result" in report.notes[-1]
    assert full > 3


# ---------------------------------------------------------------- tampered events
def tampered(name, players, seed, change):
    _, text = record_game(name, players, seed=seed)
    records = [json.loads(line) for line in text.splitlines()]
    change(records)
    return records_of(json.dumps(r) for r in records)


def test_an_edited_say_text_is_a_divergence(games_dir):
    def edit(records):
        say = next(r for r in records if r["type"] == "event" and r["kind"] == "say")
        say["text"] = "seat 9 wins everything"
    with pytest.raises(Divergence, match='the events differ from the recording: recorded say "seat 9 wins '
                                         'everything", now say "seat'):
        replay(load_game("secret_bid.game"), tampered("secret_bid.game", 2, 3, edit))


def test_a_deleted_or_duplicated_event_is_a_divergence(games_dir):
    def delete(records):
        records.remove(next(r for r in records if r["type"] == "event" and r["kind"] == "reveal"))

    def duplicate(records):
        event = next(r for r in records if r["type"] == "event")
        records.insert(records.index(event), dict(event))
    for change in (delete, duplicate):
        with pytest.raises(Divergence, match="the events differ from the recording"):
            replay(load_game("secret_bid.game"), tampered("secret_bid.game", 2, 3, change))


# ---------------------------------------------------------------- terminal control characters
def test_control_characters_from_a_game_reach_no_terminal(tmp_path):
    game = tmp_path / "esc.game"
    game.write_text('game "Esc" players 2..2\nrule flow() {\n  say "\x1b[2Jok\x07"\n}\n')
    result = CliRunner().invoke(main, ["play", str(game)])
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert '"\\x1b[2Jok\\x07"' in result.output
    bad = tmp_path / "bad.game"
    bad.write_text('game "Bad" players 2..2\nrule flow() { \x1b[2K oops }\n')
    result = CliRunner().invoke(main, ["check", str(bad)])
    assert result.exit_code == 1 and "\x1b" not in result.output and "\\x1b" in result.output


def test_printable_escapes_controls_bidi_and_separators_but_keeps_text():
    assert printable("a\x1bb\x00c\x7f\x9bd\u202ee\u2028f") == "a\\x1bb\\x00c\\x7f\\x9bd\\u202ee\\u2028f"
    assert printable("plain ünïcödé\ttab\nline") == "plain ünïcödé\ttab\nline"


# ---------------------------------------------------------------- error floods
def test_diagnostics_are_capped_and_rendered_in_linear_time():
    source = "\n".join(f"line {i}" for i in range(20_000))
    diags = [Diagnostic(Span("f.game", i + 1, 1), "E201", f"unknown name 'x{i}'") for i in range(20_000)]
    text = RuleError(diags, {"f.game": source}).render()
    lines = text.splitlines()
    assert len(lines) == 3 * MAX_SHOWN + 1
    assert lines[-1] == f"... and {20_000 - MAX_SHOWN} more errors (the first {MAX_SHOWN} are shown)"


def test_check_of_a_line_with_thousands_of_bad_names_prints_a_bounded_report(tmp_path):
    game = tmp_path / "flood.game"
    says = " ".join('say "{n%d}"' % i for i in range(5000))
    game.write_text(f'game "Flood" players 2..2\nrule flow() {{ {says} }}\n')
    result = CliRunner().invoke(main, ["check", str(game)])
    assert result.exit_code == 1
    assert len(result.output) < 200_000
    assert "more errors (the first 100 are shown)" in result.output


def test_a_long_source_line_is_shown_as_a_window_with_the_caret_under_the_error(tmp_path):
    game = tmp_path / "long.game"
    game.write_text('game "Long" players 2..2\nrule flow() { ' + 'say "a" ' * 60 + "oops }\n")
    result = CliRunner().invoke(main, ["check", str(game)])
    head, source, caret = result.output.splitlines()[:3]
    assert head.endswith("error: a statement must be a rule call or an assignment [E003]")
    assert source.startswith("    ...") and len(source) <= 4 + 3 + 120 + 3
    assert source[caret.index("^"):caret.index("^") + 4] == "oops" and caret.strip() == "^^^^"


# ---------------------------------------------------------------- hostile game files: diagnostics, not crashes
HOSTILE = [  # (game text after the title line, what the message says, where)
    ("const override = 2\nrule flow() { say \"{override}\" }\n", None, None),
    ("enum override { a b }\nrule flow() { }\n", None, None),
    ("const X = 1" + "0" * 5000 + "\nrule flow() { }\n", "error: a number has at most 18 digits [E005]", ":2:11:"),
    ("shared {\n  a: int = b + 1\n  b: int = 1\n}\nrule flow() { say \"{a}\" }\n",
     "error: the start value of shared field 'a' reads shared field 'b', which is set up after it", ":3:12:"),
    ("cards c(a: int) { card 1 }\nzone z: c public\nshared { t: c? = top(z) }\nrule flow() { }\n",
     "error: the start value of shared field 't' reads zone 'z', which is set up after it", ":4:22:"),
    ("board b(x: int) { space s 1 }\nshared { t: int = sum(s in b: s.x) }\nrule flow() { }\n", None, None),
    ("def f(n: int) = f(n + 1)\nshared { x: int = f(1) }\nrule flow() { }\n",
     "runtime error: the starting value of shared field 'x': defs call each other too deep [R004]", ":3:10:"),
    ("def f(n: int) = if n == 0 then 1 else f(n - 1) + 1\ncards c(a: int) label \"{f(a)}\" { card 5000 }\n"
     "rule flow() { }\n", "error: card set 'c': its rows and label are fixed before a game starts", ":3:1:"),
]


@pytest.mark.parametrize("body,message,where", HOSTILE, ids=["const_override", "enum_override", "long_number",
                                                            "forward_field", "field_reads_zone", "field_reads_board",
                                                            "recursive_field", "recursive_card_label"])
def test_hostile_declarations_get_a_diagnostic_not_an_internal_error(tmp_path, body, message, where):
    game = tmp_path / "h.game"
    game.write_text('game "H" players 2..2\n' + body)
    result = CliRunner().invoke(main, ["play", str(game)])
    assert "internal error" not in result.output and "Traceback" not in result.output
    if message is None:
        assert result.exit_code == 0, result.output  # 'override' is a fine name for a constant or an enum
    else:
        assert result.exit_code == 1
        line = next(line for line in result.output.splitlines() if message in line)
        assert line.startswith(f"{game}{where}")


# ---------------------------------------------------------------- the work budget (budget.py)
WORK = [  # (game text after the title line, the code, the message's start)
    pytest.param("def f(n: int) = if n == 0 then 1 else f(n - 1) + f(n - 1)\nrule flow() { say \"{f(80)}\" }\n",
                 "R010", "this step did more work than one step may", marks=pytest.mark.slow),  # ~3 s of calls
    ("rule flow() { let n = sum(a in 1..100000: count(b in 1..100000 where a == b)) }\n",
     "R010", "this step did more work than one step may"),
    ("cards c(a: int) { card 1 }\nzone deck: c hidden refill from used\nzone used: c public\n"
     "rule flow() { draw 1000000000000 from deck to used }\n", "R010", "this step did more work"),
    ("shared { x: int = 2 }\nrule flow() { repeat 40 { x = x * x } }\n", "R012", "a number beyond"),
    ("rule flow() { let s = \"ab\"\n repeat 40 { s = \"{s}{s}\" } }\n", "R013", "a text of 131,072 characters"),
    ("rule flow() { let r = 1..2000000000 }\n", "E335", "a range of 2,000,000,000 numbers"),
    ("rule flow() { for i in 1..2000000000 { } }\n", "E335", "a range of 2,000,000,000 numbers"),
    ("rule flow() { choose i from 1..20000000 by seat(0) as \"x\" }\n", "E335", "a range of 20,000,000"),
    ("rule flow() { let n = 2000000000\n for i in 1..n { } }\n", "R011", "a range of 2,000,000,000 numbers"),
    ("cards c(a: int) { card 1 x 1000000000 }\nrule flow() { }\n", "E402", "card set 'c': a game has at most"),
    ("cards c(v: int) { card 1 x 90000 }\nzone deck: c hidden\n"
     "rule flow() { loop { let n = count(x in deck where x.v > 0) } }\n", "R010", "this step did more work"),
    ("cards c(v: int) { card 1 x 20000 }\nzone deck: c hidden\n"  # 8 units a card shuffled: 6 shuffles a step
     "rule flow() { repeat 60 { shuffle deck } }\n", "R010", "this step did more work"),
    ("rule flow() {\n  let a = 1..900000\n  choose j from 1..2 by seat(0)\n"  # a list kept from an earlier step
     "  repeat 200 { let x = 0 in a }\n}\n", "R010", "this step did more work"),
    ("rule flow() {\n  let a = 1..900000\n  choose j from 1..2 by seat(0)\n"
     "  repeat 200 { let x = a == a }\n}\n", "R010", "this step did more work"),
    ("rule flow() {\n  let a = 1..15000\n  choose j from 1..2 by seat(0)\n"  # 8 units an item told: 8 texts
     "  repeat 300 { say \"{a}\" }\n}\n", "R010", "this step did more work"),
    ("rule flow() {\n  let a = 1..15000\n  choose j from 1..2 by seat(0)\n"
     "  repeat 300 { reveal a }\n}\n", "R010", "this step did more work"),
]


@pytest.mark.parametrize("body,code,message", WORK, ids=["exp_def", "nested_aggregate", "endless_draw", "big_int",
                                                        "big_text", "let_range", "for_range", "choose_range",
                                                        "computed_range", "card_copies", "loop_of_aggregates",
                                                        "shuffles", "list_membership", "list_equality",
                                                        "told_lists", "revealed_lists"])
def test_unbounded_work_ends_with_a_coded_error(tmp_path, body, code, message):
    """Bounded by counted work, not time (so no time is asserted): each ends at its limit."""
    game = tmp_path / "w.game"
    game.write_text('game "W" players 2..2\n' + body)
    result = CliRunner().invoke(main, ["play", str(game), "--record", str(tmp_path / "t.jsonl")])
    assert result.exit_code == 1, result.output
    assert f"[{code}]" in result.output and message in result.output
    assert f"{game}:" in result.output and "internal error" not in result.output
    transcript = tmp_path / "t.jsonl"
    assert not transcript.exists() or transcript.stat().st_size < 1_000_000  # no flood of records either


def test_a_game_that_spends_too_much_work_in_all_stops_not_by_the_rules(tmp_path):
    game = tmp_path / "slow.game"
    game.write_text('game "Slow" players 2..2\nshared { t: int = 0 }\n'
                    'end when slow "slow": count(a in 1..600 where count(b in 1..600 where a == b + t) > 5) > 0\n'
                    'rule flow() { loop { choose k from 1..2 by seat(0) as "k"\n t += 1 } }\n')
    result = CliRunner().invoke(main, ["play", str(game), "--max-steps", "10000"])
    assert result.exit_code == 0, result.output
    assert "step limit: too much work in one game (stopped, not by the rules)" in result.output


@pytest.mark.slow  # a real process playing about 6 s of huge menus
def test_options_offered_cost_work_so_a_game_of_huge_menus_stops(tmp_path):
    """Each option a `choose` labels costs a unit: a 900,000-item list kept from set-up and
    offered at every decision stops the game at its work in all after a few decisions
    (it offered them for free, about 5,000,000 decisions of a third of a second each)."""
    game = tmp_path / "menus.game"
    game.write_text('game "M" players 2..2\nrule flow() {\n  let a = 1..900000\n'
                    "  choose j from 1..2 by seat(0)\n  loop { choose x from a by seat(0) }\n}\n")
    done = run_process("play", game, "--seed", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "step limit: too much work in one game" in done.stdout


def test_a_transcript_line_nested_thousands_deep_is_refused_with_its_line(tmp_path):
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 100_000 + "\n")
    result = CliRunner().invoke(main, ["replay", str(deep)])
    assert result.exit_code == 1
    assert result.stderr.strip() == f"{deep}: corrupt transcript: line 1: not a record: JSON nested too deeply"


def test_a_superscript_digit_at_a_prompt_or_in_a_seat_is_no_crash():
    from ruledsl.play.agents import AgentError, parse_agent_spec, pick_option
    assert pick_option("²", ["a", "b"]) is None
    with pytest.raises(AgentError):
        parse_agent_spec("²=random")


# ---------------------------------------------------------------- file access
@pytest.mark.parametrize("base,says", [
    ("/etc/passwd", "'/etc/passwd' is not a .game file"),
    ("/dev/zero", "'/dev/zero' is not a .game file"),
    ("../../../../etc/passwd", "is not a .game file"),
    ("/tmp/elsewhere.game", "'/tmp/elsewhere.game' is an absolute path"),
])
def test_extends_opens_only_game_files_named_relative(tmp_path, base, says):
    game = tmp_path / "v.game"
    game.write_text(f'extends "{base}"\n')
    result = CliRunner().invoke(main, ["check", str(game)])
    assert result.exit_code == 1
    assert f"{game}:1:1: error: " in result.stderr and says in result.stderr and "[E103]" in result.stderr
    assert "root:" not in result.output  # nothing of the named file is shown


def test_commands_open_only_regular_game_files(tmp_path):
    import os
    fifo = tmp_path / "pipe.game"
    os.mkfifo(fifo)
    for path, says in ((fifo, "not a regular file"), ("/etc/passwd", "only .game files are read")):
        result = CliRunner().invoke(main, ["check", str(path)])
        assert result.exit_code == 1 and says in result.stderr and "root:" not in result.output
    header = '{"type":"header","format":2,"ruledsl":"0","game":"/etc/passwd","rules_sha256":"x","players":2,' \
             '"seed":0,"agents":["random","random"]}'
    (tmp_path / "t.jsonl").write_text(header + "\n")
    result = CliRunner().invoke(main, ["replay", str(tmp_path / "t.jsonl")])
    assert result.exit_code == 1 and "root:" not in result.output


def test_a_board_of_too_many_spaces_is_refused_by_the_checker(tmp_path):
    game = tmp_path / "spaces.game"
    spaces = "\n".join(f"  space s{i}" for i in range(10_001))
    game.write_text(f'game "S" players 2..2\nboard b() {{\n{spaces}\n}}\nrule flow() {{ }}\n')
    result = CliRunner().invoke(main, ["check", str(game)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{game}:2:1: error: board 'b' has 10,001 spaces; a board has at most 10,000 [E336]")


@pytest.mark.parametrize("seed", ["9" * 5000, "1e9", "²", "--"])
def test_a_seed_that_is_no_64_bit_integer_is_refused_in_one_line(seed):
    result = run_cli("simulate", ROOT / "examples" / "pig.game", "--games", 1, "--seed", seed)
    assert result.exit_code == 2 and "is not a seed: a seed is an integer of at most 19 digits" in result.output
    assert len(result.output) < 400 and "Traceback" not in result.output


def test_a_generated_row_of_a_constant_that_doubles_its_digits_sixty_times_is_refused_fast(tmp_path):
    lines = ['game "G" players 2..2', "const A0 = 99999999999"]
    lines += [f"const A{i} = A{i - 1} * A{i - 1}" for i in range(1, 60)]
    lines += ["board b(n: int) {", '  each i in 1..2: space "s{i}" (A59)', "}", "rule flow() { }"]
    path = tmp_path / "big.game"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(RuleError) as err:
        load_game(str(path))
    assert [d.code for d in err.value.diagnostics] == ["E339"]


# ---------------------------------------------------------------- nesting
NESTINGS = {
    "calls": lambda n: "rule flow() { n = " + "f(" * n + "1" + ")" * n + " }",
    "lists": lambda n: "rule flow() { n = size(" + "[" * n + "1" + "]" * n + ") }",
    "nots": lambda n: "rule flow() { if " + "not " * n + "true { n = 1 } }",
    "ifs": lambda n: "rule flow() { " + "if true { " * n + "n = 1" + " }" * n + " }",
    "negations": lambda n: "rule flow() { n = " + "-" * n + "1 }",
    "sums": lambda n: "rule flow() { n = " + " + ".join(["1"] * n) + " }",
    "sums in a string": lambda n: 'rule flow() { say "{' + " + ".join(["1"] * n) + '}" }',
}


@pytest.mark.parametrize("kind", NESTINGS)
def test_any_nesting_loads_or_is_an_error_never_a_crash(tmp_path, kind):
    """Each stage walks the declarations recursively: whatever the depth, and whichever
    stage would run out of stack (160 ifs inside each other crashed the sugar lowering of
    the check stage), a file loads or gets its diagnostics."""
    codes = set()
    for depth in (60, 130, 160, 200, 230, 300, 420, 500, 1200):
        path = tmp_path / f"{depth}.game"
        path.write_text('game "T" players 2..4\nshared { n: int = 0 }\ndef f(x: int) = x\n'
                        + NESTINGS[kind](depth) + "\n")
        try:
            load_game(str(path))
            codes.add("loads")
        except RuleError as err:
            codes |= {d.code for d in err.diagnostics}
    assert "E004" in codes and codes <= {"loads", "E004", "E232", "E403"}, codes


def test_an_override_calling_base_deep_inside_blocks_loads_or_is_an_error_never_a_crash(tmp_path, python_recursion_limit):
    """Merging a variant finds and renames the override's `base(...)` call by walking it
    (the fuzzer found 240 ifs inside each other crashing that walk): the variant loads,
    or gets E004 at its override (on 3.10 and 3.11, at 160 ifs), or the parser's E004
    (from 3.12 Python calls take less of the stack, and the parser runs out first)."""
    (tmp_path / "base.game").write_text('game "T" players 2..4\nshared { n: int = 0 }\n'
                                        "rule turn() { n += 1 }\nrule flow() { turn() }\n")
    codes = set()
    for depth in (60, 160, 240, 300, 420):
        path = tmp_path / f"{depth}.game"
        path.write_text('extends "base.game"\noverride rule turn() {\n'
                        + "if true { " * depth + "base()" + " }" * depth + "\n}\n")
        try:
            load_game(str(path))
            codes.add("loads")
        except RuleError as err:
            codes |= {(d.code, d.span.line) for d in err.diagnostics}
    assert "loads" in codes and codes <= {"loads", ("E004", 1), ("E004", 2)}, codes
    assert ("E004", 2) in codes or (sys.version_info >= (3, 12) and ("E004", 1) in codes), codes


@pytest.mark.parametrize("grows", [
    "def sq(n: int, k: int) = if k == 0 then n else sq(n * n, k - 1)\nrule flow() { let x = sq(3, 40) }\n",
    "rule g(k: int) -> int {\n  if k == 0 { return 3 }\n  let r = g(k - 1)\n  return r * r\n}\n"
    "rule flow() { let x = g(40) }\n",
])
def test_a_number_squared_at_each_call_stops_at_r012_not_at_the_machines_limits(tmp_path, grows):
    """3 squared 40 times has 2**40 digits: before every number kept was checked (R012 at
    a def's argument, a rule's result), `ruledsl play` ran until killed."""
    (tmp_path / "t.game").write_text('game "T" players 2..4\n' + grows)
    done = run_process("play", tmp_path / "t.game", "--seed", "1", cwd=tmp_path)
    assert done.returncode == 1 and "[R012]" in done.stderr, done.stderr
