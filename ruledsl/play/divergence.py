"""Running a transcript's choices against some rules, and where they stop fitting.

Chance comes from the recorded chance records (`ReplayChance`), choices from the
recorded decision records. `check_run` checks every step (the same seat deciding
the same thing, the recorded label legal, the same state digest afterwards) and
raises `Divergence` at the first difference; `follow` plays the choices up to a
step without checking, to look at a state (explain.py, `ruledsl state`).
"""
from __future__ import annotations

import msgspec

from ..errors import UserError, printable
from ..runtime.machine import Machine
from .transcript import event_record, result_record

# Divergence kinds: what stopped fitting
STATE = "state"  # the state after a step (or after set-up, step 0) differs
ILLEGAL = "illegal"  # the recorded choice is no longer legal
DECISION = "decision"  # another decision is asked than the one recorded
CHANCE = "chance"  # other chance events are asked for
ENDED = "ended"  # the current rules end the game before the recording does
CONTINUES = "continues"  # the recording ends, the current rules go on
RESULT = "result"  # the final result differs
EVENTS = "events"  # what was said, revealed or eliminated differs


class Divergence(UserError):
    """The current rules do not play out the way the recording did.

    `explanation` holds indented lines that say more (field differences, the
    statement and the rule edit responsible); replay.py fills them in."""

    prefix = ""

    def __init__(self, step: int, detail: str, asked_otherwise: bool = False, kind: str = STATE):
        self.step = step
        self.detail = detail
        self.asked_otherwise = asked_otherwise  # the rules asked for another decision or chance event
        self.kind = kind
        self.explanation: list = []
        super().__init__(f"diverged at step {step}: {detail}")

    def __str__(self) -> str:
        head = f"diverged at step {self.step}: {self.detail}"
        return "\n".join([head] + ["  " + line for line in self.explanation])


class ReplayError(UserError):
    """The transcript cannot be replayed against this game at all."""

    prefix = ""


class RecordingEnds(Exception):
    """An interrupted transcript (no result record) ran out of chance records mid-step:
    what it has is a prefix, and the replay stops there."""

    def __init__(self, step: int):
        self.step = step
        super().__init__(f"the recording stops during step {step}")


def quoted(label) -> str:
    return f'"{printable(str(label))}"'


def allowed(labels) -> str:
    return ", ".join(quoted(x) for x in labels)


def _at(where) -> str:
    return f" (rule at {where})" if where else ""


def where(decision) -> str:
    return f"{decision.span.path}:{decision.span.line}"


# ---------------------------------------------------------------- chance
class ReplayChance:
    """The chance interface of runtime.RandomChance, answered from recorded chance records.

    `step` is the number of decisions replayed so far (the replay keeps it up to
    date); `where` optionally names the rule asking for chance.
    """

    def __init__(self, records, truncated: bool = False):
        self.records = list(records)
        self.truncated = truncated  # an interrupted transcript: running out means it was cut here
        self.next_index = 0
        self.step = 0
        self.where = lambda: None

    def clone(self) -> "ReplayChance":
        """A copy at the same place in the records (shared: they are only read); the
        machine that takes it attaches itself anew."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        return other

    def attach(self, machine):
        """Called by the Machine before it runs, so divergences can name the rule."""
        self.where = lambda: current_rule(machine)

    def roll(self, count, sides, what):
        record = self.take(f"roll {count}d{sides}")
        outcome = record["outcome"]
        if len(outcome) != count or not all(isinstance(x, int) and 1 <= x <= sides for x in outcome):
            raise Divergence(self.step, f"the recorded roll {outcome} is not a roll of {count}d{sides}"
                                        f"{_at(self.where())}", kind=CHANCE)
        return list(outcome)

    def shuffle(self, cards, what):
        record = self.take(f"shuffle {what}")
        outcome = record["outcome"]
        if sorted(outcome, key=repr) != sorted(cards, key=repr):
            raise Divergence(self.step, f"the recording shuffles other cards into {what} than the current "
                                        f"rules ({len(outcome)} recorded, {len(cards)} now){_at(self.where())}",
                             kind=CHANCE)
        return list(outcome)

    def take(self, what: str) -> dict:
        if self.next_index >= len(self.records):
            if self.truncated:
                raise RecordingEnds(self.step)
            raise Divergence(self.step, f"the current rules ask for a {what}{_at(self.where())}, "
                                        "but the recording has no more chance events", True, CHANCE)
        record = self.records[self.next_index]
        if record["step"] != self.step or record["what"] != what:
            raise Divergence(self.step, f"the current rules ask for a {what}{_at(self.where())}, but the "
                                        f"recording has a {record['what']} at step {record['step']}", True, CHANCE)
        self.next_index += 1
        return record

    def check_used(self, after: str):
        """Every chance event recorded up to this step must have been asked for."""
        if self.next_index < len(self.records):
            record = self.records[self.next_index]
            if record["step"] <= self.step:
                raise Divergence(self.step, f"the recording has a {record['what']} {after}, "
                                            "which the current rules no longer make", True, CHANCE)


def current_rule(machine) -> str | None:
    frames = getattr(machine, "frames", None)
    if not frames:
        return None
    frame = frames[-1]
    if frame.pc >= len(frame.code.spans):
        return None
    span = frame.code.spans[frame.pc]
    return f"{span.path}:{span.line}"


def chance_of(records) -> ReplayChance:
    return ReplayChance((r for r in records if r["type"] == "chance"), truncated=interrupted(records))


def interrupted(records) -> bool:
    return not any(r["type"] == "result" for r in records)


def decisions_of(records) -> list:
    return [r for r in records if r["type"] == "decision"]


# ---------------------------------------------------------------- following
def follow(program, records, upto: int, before_last=None) -> Machine:
    """A Machine that has made the recorded choices 1..upto, unchecked.

    `before_last(machine)` is called just before choice `upto` is made (for
    upto == 0 there is none: set-up is what is looked at). Raises whatever the
    rules raise (Divergence from the recorded chance, GameRuntimeError), and
    ReplayError when a recorded choice is not offered."""
    chance = chance_of(records)
    machine = Machine(program, records[0]["players"], chance)
    for record in decisions_of(records)[:upto]:
        d = machine.pending
        if d is None or d.index_of(record["choice"]) is None:
            raise ReplayError(f"step {record['step']}: the choice is not offered")
        if record["step"] == upto and before_last is not None:
            before_last(machine)
        chance.step = record["step"]
        machine.choose(record["choice"])
    return machine


# ---------------------------------------------------------------- checking
class Reference:
    """The recorded rules played beside the current ones: the expected state of a
    transcript written without digests."""

    def __init__(self, program, records):
        self.chance = chance_of(records)
        self.machine = self._fits(0, lambda: Machine(program, records[0]["players"], self.chance))
        self.setup_digest = self.machine.w.digest()

    def digest_after(self, record) -> str:
        m, step = self.machine, record["step"]
        if m.pending is None or m.pending.index_of(record["choice"]) is None:
            raise ReplayError(f"step {step}: the transcript does not fit the rules it carries")
        self.chance.step = step
        self._fits(step, lambda: m.choose(record["choice"]))
        return m.w.digest()

    @staticmethod
    def _fits(step, run):
        try:
            return run()
        except Divergence as err:
            raise ReplayError(f"step {step}: the transcript does not fit the rules it carries: {err}") from None


class Events:
    """The events (say, reveal, eliminate) the rules make, checked step by step against the recorded ones."""

    KINDS = ("say", "reveal", "eliminate")

    def __init__(self, records, listener=None):
        self.recorded: dict = {}
        for r in records:
            if r["type"] == "event":
                self.recorded.setdefault(r["step"], []).append(_bare_event(r))
        self.truncated = interrupted(records)
        self.listener = listener
        self.made: list = []

    def __call__(self, kind, data):
        if self.listener is not None:
            self.listener(kind, data)
        if kind in self.KINDS:
            self.made.append(_bare_event(event_record(kind, data, 0)))

    def check(self, step: int, last: bool):
        made, self.made = self.made, []
        recorded = self.recorded.get(step, [])
        if made == recorded or (last and self.truncated and made[:len(recorded)] == recorded):
            return
        i = next(i for i in range(max(len(made), len(recorded)))
                 if i >= len(made) or i >= len(recorded) or made[i] != recorded[i])
        was = _event_text(recorded[i]) if i < len(recorded) else "nothing more"
        now = _event_text(made[i]) if i < len(made) else "nothing more"
        raise Divergence(step, f"the events differ from the recording: recorded {was}, now {now}", kind=EVENTS)


def _bare_event(record) -> dict:
    return {k: v for k, v in record.items() if k not in ("type", "step")}


def _event_text(event) -> str:
    if event["kind"] == "eliminate":
        return f"seat {event['seat']} eliminated"
    to = f" (to seat {event['to']})" if "to" in event else ""
    return f"{event['kind']} {quoted(event.get('text', ''))}{to}"


class CheckedRun(msgspec.Struct):
    machine: Machine
    steps: int


def check_run(program, records, listener=None, reference: Reference | None = None, before=None) -> CheckedRun:
    """Replays every recorded step, checking each; raises Divergence at the first misfit.

    `listener` hears the machine (e.g. a TranscriptWriter, so the records are narrated);
    `reference`, the recorded rules played beside, gives the expected state after set-up
    and wherever a record has no digest; `before(machine)`, if given, is called at each
    recorded decision before it is made."""
    chance = chance_of(records)
    decisions = decisions_of(records)
    events = Events(records, listener)
    try:
        machine = Machine(program, records[0]["players"], chance, listener=events)
    except RecordingEnds:
        return CheckedRun(None, 0)  # cut during set-up
    if reference is not None and machine.w.digest() != reference.setup_digest:
        raise Divergence(0, "after set-up, before the first decision, the state differs from the recording")
    events.check(0, last=not decisions)
    chance.check_used("before the first decision")
    result = next((r for r in records if r["type"] == "result"), None)
    for index, record in enumerate(decisions):
        last = index == len(decisions) - 1
        ends = last and result is not None and result["by_rule"]
        try:
            _check_decision(machine, chance, record, decisions[index:], reference, ends, last, before)
        except RecordingEnds:
            return CheckedRun(machine, index)  # cut during this step: the steps before it are the prefix
        events.check(record["step"], last)
    return CheckedRun(machine, len(decisions))


def _check_decision(machine, chance, record, recorded_from_here, reference, ends: bool, last: bool, before=None):
    step, seat, name, label = record["step"], record["seat"], record["decision"], record["choice"]
    chosen = f"seat {seat} chose {quoted(label)} for {name}"
    if machine.result is not None:
        raise Divergence(step, f"the recording has {chosen}, but the current rules already ended the game "
                               f"({machine.result.reason})", kind=ENDED)
    d = machine.pending
    if d.seat != seat or d.name != name:
        raise Divergence(step, _other_decision(d, chosen, name, recorded_from_here), True, DECISION)
    if d.index_of(label) is None:
        raise Divergence(step, f"{chosen}, which the current rules do not allow there "
                               f"(allowed: {allowed(d.labels)}) (rule at {where(d)})", kind=ILLEGAL)
    chance.step = step
    if before is not None:
        before(machine)
    machine.choose(label)
    if ends and machine.result is None:
        d = machine.pending
        raise Divergence(step, f"after {chosen} the recorded game ends, but the current rules continue: "
                               f"seat {d.seat} to choose {d.name} from {allowed(d.labels)} (rule at {where(d)})",
                         kind=CONTINUES)
    if not last and machine.result is not None:
        raise Divergence(step, f"after {chosen} the current rules end the game ({machine.result.reason}), "
                               "but the recording goes on", kind=ENDED)
    expected = record.get("digest")
    if expected is None and reference is not None:
        expected = reference.digest_after(record)
    if expected is not None and machine.w.digest() != expected:
        raise Divergence(step, f"after {chosen} the state differs from the recording")
    chance.check_used(f"after {chosen}")


def _other_decision(d, chosen, name, recorded_from_here) -> str:
    asked = f"seat {d.seat} to choose {d.name} (allowed: {allowed(d.labels)}) (rule at {where(d)})"
    if all(r["decision"] != d.name for r in recorded_from_here):
        return (f"a new decision appears: the current rules ask {asked}, which the recording never asks "
                f"from here on (it has {chosen})")
    return (f"the recorded decision is no longer asked here ({chosen}); the current rules go on to ask "
            f"{asked}")


def check_result(machine, recorded: dict):
    step = recorded["steps"]
    if machine.result is None and not recorded["by_rule"]:
        machine.stop_at_limit(recorded["reason"])  # the recording was stopped, not ended by the rules
    if machine.result is None:
        d = machine.pending
        raise Divergence(step + 1, f"the recording ends ({recorded['reason']}), but the current rules continue: "
                                   f"seat {d.seat} to choose {d.name} from {allowed(d.labels)} "
                                   f"(rule at {where(d)})", kind=CONTINUES)
    now = result_record(machine.result, machine.steps)
    differ = [f"{key} {recorded[key]!r} recorded, {now[key]!r} now"
              for key in ("reason", "by_rule", "winners", "ranking", "scores") if recorded[key] != now[key]]
    if differ:
        raise Divergence(step, "the result differs from the recording: " + "; ".join(differ), kind=RESULT)
