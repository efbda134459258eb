"""Replaying a transcript against the current rules.

Chance comes from the recorded chance records (`ReplayChance`), choices from the
recorded decision records. Every step is checked: the same seat deciding the
same thing, the recorded label legal, the same state digest afterwards, the same
result at the end. The first difference raises `Divergence`, whose message
starts with `diverged at step K: ` and names the rule (path:line) involved.
"""
from __future__ import annotations

import attrs

from .narrate import narrate
from .runtime import Machine
from .transcript import TranscriptWriter, result_record


class Divergence(Exception):
    """The current rules do not play out the way the recording did."""

    def __init__(self, step: int, detail: str, asked_otherwise: bool = False):
        self.step = step
        self.detail = detail
        self.asked_otherwise = asked_otherwise  # the rules asked for another decision or chance event
        super().__init__(f"diverged at step {step}: {detail}")


class ReplayError(Exception):
    """The transcript cannot be replayed against this game at all."""


def _q(label) -> str:
    return f'"{label}"'


def _allowed(labels) -> str:
    return ", ".join(_q(x) for x in labels)


def _at(where) -> str:
    return f" (rule at {where})" if where else ""


# ---------------------------------------------------------------- chance
class ReplayChance:
    """The chance interface of runtime.RandomChance, answered from recorded chance records.

    `step` is the number of decisions replayed so far (the replay keeps it up to
    date); `where` optionally names the rule asking for chance.
    """

    def __init__(self, records):
        self.records = list(records)
        self.next_index = 0
        self.step = 0
        self.where = lambda: None

    def attach(self, machine):
        """Called by the Machine before it runs, so divergences can name the rule."""
        self.where = lambda: current_rule(machine)

    def roll(self, count, sides, what):
        record = self.take(f"roll {count}d{sides}")
        outcome = record["outcome"]
        if len(outcome) != count or not all(isinstance(x, int) and 1 <= x <= sides for x in outcome):
            raise Divergence(self.step, f"the recorded roll {outcome} is not a roll of {count}d{sides}"
                                        f"{_at(self.where())}")
        return list(outcome)

    def shuffle(self, cards, what):
        record = self.take(f"shuffle {what}")
        outcome = record["outcome"]
        if sorted(outcome, key=repr) != sorted(cards, key=repr):
            raise Divergence(self.step, f"the recording shuffles other cards into {what} than the current "
                                        f"rules ({len(outcome)} recorded, {len(cards)} now){_at(self.where())}")
        return list(outcome)

    def take(self, what: str) -> dict:
        if self.next_index >= len(self.records):
            raise Divergence(self.step, f"the current rules ask for a {what}{_at(self.where())}, "
                                        "but the recording has no more chance events", asked_otherwise=True)
        record = self.records[self.next_index]
        if record["step"] != self.step or record["what"] != what:
            raise Divergence(self.step, f"the current rules ask for a {what}{_at(self.where())}, but the "
                                        f"recording has a {record['what']} at step {record['step']}",
                             asked_otherwise=True)
        self.next_index += 1
        return record

    def check_used(self, after: str):
        """Every chance event recorded up to this step must have been asked for."""
        if self.next_index < len(self.records):
            record = self.records[self.next_index]
            if record["step"] <= self.step:
                raise Divergence(self.step, f"the recording has a {record['what']} {after}, "
                                            "which the current rules no longer make", asked_otherwise=True)


# ---------------------------------------------------------------- replay
@attrs.define
class ReplayReport:
    lines: list
    notes: list
    result: dict | None  # the result record, None for a transcript cut short
    steps: int


def replay(game, records, as_seat=None, out=None) -> ReplayReport:
    """Re-executes a transcript (a list of records, header first) against `game`.

    Narration lines go to `out` (a function of one str) as they come, and into the
    report. Raises Divergence or ReplayError.
    """
    header = records[0]
    players = _check_players(game, header, as_seat)
    lines: list = []

    def say(line):
        lines.append(line)
        if out is not None:
            out(line)

    def show(record):
        for line in narrate(record, as_seat):
            say(line)
    notes = _notes(game, header)
    for note in notes:
        say(note)
    show(header)
    machine, decisions = _replay_steps(game, records, players, show, rules_changed=bool(notes))
    result = next((r for r in records if r["type"] == "result"), None)
    if result is None:
        notes.append(f"note: the transcript stops after step {len(decisions)} without a result "
                     "(an interrupted game); everything recorded matches")
        say(notes[-1])
    else:
        _check_result(machine, result)
        show(result)
    return ReplayReport(lines=lines, notes=notes, result=result, steps=len(decisions))


def _replay_steps(game, records, players, show, rules_changed: bool):
    chance = ReplayChance(r for r in records if r["type"] == "chance")
    writer = TranscriptWriter(on_record=show)
    decisions = [r for r in records if r["type"] == "decision"]
    try:
        machine = _start(game, players, chance, writer)
        chance.check_used("before the first decision")
        for record in decisions:
            _replay_decision(machine, writer, chance, record)
    except Divergence as err:
        nothing_matched = chance.step == 0 and err.asked_otherwise
        if rules_changed and nothing_matched:
            raise Divergence(err.step, err.detail + " (is this a transcript of another game?)") from None
        raise
    return machine, decisions


def _check_players(game, header, as_seat) -> int:
    prog = game.program
    n = header["players"]
    if not prog.min_players <= n <= prog.max_players:
        raise ReplayError(f"the transcript is for {n} players, but {prog.title!r} ({game.path}) takes "
                          f"{prog.min_players}..{prog.max_players}: is it a transcript of another game?")
    if as_seat is not None and not 0 <= as_seat < n:
        raise ReplayError(f"--as-seat {as_seat}: the game has seats 0..{n - 1}")
    return n


def _notes(game, header) -> list:
    if header["rules_sha256"] == game.rules_sha256:
        return []
    return [f"note: the rules in {game.path} differ from the ones recorded (from {header['game']}): "
            "rules_sha256 differs; replaying against the current rules"]


def _start(game, players, chance, writer) -> Machine:
    """A Machine replaying recorded chance; it attaches itself to `chance` first."""
    return Machine(game.program, players, chance, listener=writer)


def current_rule(machine) -> str | None:
    frames = getattr(machine, "frames", None)
    if not frames:
        return None
    frame = frames[-1]
    if frame.pc >= len(frame.code.spans):
        return None
    span = frame.code.spans[frame.pc]
    return f"{span.path}:{span.line}"


def _where(decision) -> str:
    return f"{decision.span.path}:{decision.span.line}"


def _replay_decision(machine, writer, chance, record):
    step, seat, name, label = record["step"], record["seat"], record["decision"], record["choice"]
    chosen = f"seat {seat} chose {_q(label)} for {name}"
    if machine.result is not None:
        raise Divergence(step, f"the recording has {chosen}, but the current rules already ended the game "
                               f"({machine.result.reason})")
    d = machine.pending
    if d.seat != seat or d.name != name:
        raise Divergence(step, f"the recording has {chosen}, but the current rules ask seat {d.seat} to "
                               f"choose {d.name} here (allowed: {_allowed(d.labels)}) (rule at {_where(d)})",
                         asked_otherwise=True)
    if d.index_of(label) is None:
        raise Divergence(step, f"{chosen}, which the current rules do not allow there "
                               f"(allowed: {_allowed(d.labels)}) (rule at {_where(d)})")
    chance.step = step
    writer.decision(machine, label)
    if machine.w.digest() != record["digest"]:
        raise Divergence(step, f"after {chosen} the state differs from the recording (rule at {_where(d)})")
    chance.check_used(f"after {chosen}")


def _check_result(machine, recorded: dict):
    step = recorded["steps"]
    if machine.result is None and not recorded["by_rule"]:
        machine.stop_at_limit(recorded["reason"])  # the recording was stopped, not ended by the rules
    if machine.result is None:
        d = machine.pending
        raise Divergence(step + 1, f"the recording ends ({recorded['reason']}), but the current rules continue: "
                                   f"seat {d.seat} to choose {d.name} from {_allowed(d.labels)} "
                                   f"(rule at {_where(d)})")
    now = result_record(machine.result, machine.steps)
    differ = [f"{key} {recorded[key]!r} recorded, {now[key]!r} now"
              for key in ("reason", "by_rule", "winners", "ranking", "scores") if recorded[key] != now[key]]
    if differ:
        raise Divergence(step, "the result differs from the recording: " + "; ".join(differ))
