"""Replaying a transcript against the current rules, narrating as it goes.

Every step is checked (divergence.py). When the rules differ from the recorded
ones (by what plays, not by comments) and the transcript carries its rules, the
recorded rules are loaded from the transcript alone, never from disk, and a
divergence is explained by running both side by side (explain.py): the fields
that differ with both values, the statement that wrote the first differing
value, and the rule edit responsible, each as path:line.
"""
from __future__ import annotations

import msgspec

from ..errors import RuleError
from ..pipeline import load_game
from .agents import render_view
from .divergence import Divergence, RecordingEnds, Reference, ReplayChance, ReplayError, check_result, check_run, follow
from .explain import explain
from .narrate import narrate
from .transcript import TranscriptWriter, recorded_files


class ReplayReport(msgspec.Struct):
    lines: list
    notes: list
    result: dict | None  # the result record, None for a transcript cut short
    steps: int


def replay(game, records, as_seat=None, out=None) -> ReplayReport:
    """Re-executes a transcript (a list of records, header first) against `game`.

    Narration lines go to `out` (a function of one str) as they come, and into the
    report. Raises Divergence (explained where the transcript has its rules) or
    ReplayError."""
    header = records[0]
    _check_players(game, header, as_seat)
    lines: list = []

    def say(line):
        lines.append(line)
        if out is not None:
            out(line)

    def show(record):
        for line in narrate(record, as_seat):
            say(line)
    notes = _notes(game, records)
    for note in notes:
        say(note)
    show(header)
    if as_seat is not None:
        say(f"      (seen by seat {as_seat}: its own view at each of its decisions, its private reveals; "
            "other seats' hidden cards and sealed choices are not shown)")
    recorded = recorded_game(records) if notes else None
    writer = TranscriptWriter(on_record=show, digests=False)  # narration only: the check compares states itself

    def seat_view(machine):
        if machine.pending.seat == as_seat:
            say(f"      what seat {as_seat} sees:")
            for line in render_view(machine.w.snapshot(as_seat), as_seat).splitlines():
                say(f"        {line}")
    try:
        reference = _reference(recorded, records)
        run = check_run(game.program, records, listener=writer, reference=reference,
                        before=seat_view if as_seat is not None else None)
        result = next((r for r in records if r["type"] == "result"), None)
        if result is not None:
            check_result(run.machine, result)
    except Divergence as err:
        _explain(err, recorded, game, records, rules_changed=bool(notes))
        raise
    if result is None:
        notes.append(f"note: the transcript stops after step {run.steps} without a result "
                     "(an interrupted game); everything recorded matches")
        say(notes[-1])
    else:
        show(result)
    return ReplayReport(lines=lines, notes=notes, result=result, steps=run.steps)


def _explain(err, recorded, game, records, rules_changed: bool):
    another = recorded is not None and recorded.program.title != game.program.title
    if another or rules_changed and err.step <= 1 and err.asked_otherwise and recorded is None:
        was = f": it was recorded with {recorded.program.title!r}" if another else ""
        err.detail += f" (is this a transcript of another game?{was})"
    if recorded is not None:
        err.explanation = explain(err, recorded, game, records)
    elif rules_changed:
        err.explanation = ["(the transcript does not carry its rules (format 1), so what differs can't be shown)"]


def _reference(recorded, records):
    if recorded is None:
        return None
    try:
        return Reference(recorded.program, records)
    except RecordingEnds:
        return None  # cut during set-up: nothing to compare beyond the prefix


def recorded_game(records):
    """The rules a transcript was recorded with, loaded from the transcript alone; None without them."""
    files = recorded_files(records)
    if files is None:
        return None
    path = records[0]["game"] if records[0]["game"] in files else list(files)[-1]
    try:
        return load_game(path, files=files)
    except RuleError as err:
        raise ReplayError(f"the rules recorded in the transcript do not load:\n{err.render()}") from None


def _check_players(game, header, as_seat) -> int:
    prog = game.program
    n = header["players"]
    if not prog.min_players <= n <= prog.max_players:
        raise ReplayError(f"the transcript is for {n} players, but {prog.title!r} ({game.path}) takes "
                          f"{prog.min_players}..{prog.max_players}: is it a transcript of another game?")
    if as_seat is not None and not 0 <= as_seat < n:
        raise ReplayError(f"--as-seat {as_seat}: the game has seats 0..{n - 1}")
    return n


def _notes(game, records) -> list:
    header = records[0]
    if header["rules_sha256"] == game.rules_sha256:
        return []
    return [f"note: the rules in {game.path} differ from the ones recorded (from {header['game']}): "
            "rules_sha256 differs; replaying against the current rules"]
