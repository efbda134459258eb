"""Transcripts: one game as JSON Lines, written record by record as play goes.

Records, one compact JSON object a line, keys in the fixed order shown:

    {"type":"header","format":2,"ruledsl":V,"game":PATH,"rules_sha256":H,"players":N,"seed":S,"agents":[...]}
    {"type":"rules","files":[{"path":P,"text":T},...]}
    {"type":"chance","step":K,"what":"roll 2d6","outcome":[3,4]}
    {"type":"decision","step":K,"seat":S,"decision":NAME,"choice":LABEL[,"digest":D][,"secret":true]}
    {"type":"event","step":K,"kind":"say"|"reveal","text":T[,"to":S]}   or   "kind":"eliminate","seat":S
    {"type":"result","reason":R,"by_rule":B,"scores":[...],"ranking":[...],"winners":[...],"steps":K}

A decision's step counts decisions from 1; a chance or event record carries the
number of decisions made before it (0 during setup). The digest is the state
after the choice took effect; a transcript written without digests (snapshots,
which then change only where the game does) is checked against its recorded
rules run beside the current ones instead. `rules_sha256` hashes what plays (the merged
declarations, not comments or layout). The rules record, right after the header,
holds the text of every file the rules were loaded from (base first), so a
replay against edited rules can run the recorded rules beside the current ones
and say exactly what differs. Format 1 transcripts (no rules record) still
replay, with less to say about a divergence. Replaying lives in replay.py.
"""
from __future__ import annotations

import json

from ..version import __version__

FORMAT = 2
READABLE_FORMATS = (1, 2)

REQUIRED = {
    "header": {"format": int, "ruledsl": str, "game": str, "rules_sha256": str, "players": int,
               "seed": int, "agents": list},
    "rules": {"files": list},
    "decision": {"step": int, "seat": int, "decision": str, "choice": str},
    "chance": {"step": int, "what": str, "outcome": list},
    "event": {"step": int, "kind": str},
    "result": {"reason": str, "by_rule": bool, "scores": list, "ranking": list, "winners": list, "steps": int},
}


class TranscriptError(Exception):
    """A transcript line that is not a valid record."""

    def __init__(self, line_no: int, reason: str):
        self.line_no = line_no
        self.reason = reason
        super().__init__(f"line {line_no}: {reason}")


def dumps(record: dict) -> str:
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


def header_record(game, players: int, seed: int, agents: list) -> dict:
    return {"type": "header", "format": FORMAT, "ruledsl": __version__, "game": game.path,
            "rules_sha256": game.rules_sha256, "players": players, "seed": seed, "agents": list(agents)}


def rules_record(game) -> dict:
    return {"type": "rules", "files": [{"path": path, "text": text} for path, text in game.loaded.files()]}


def recorded_files(records: list) -> dict | None:
    """path -> text of the rules a transcript recorded, or None (format 1)."""
    rules = next((r for r in records if r["type"] == "rules"), None)
    return None if rules is None else {f["path"]: f["text"] for f in rules["files"]}


def result_record(result, steps: int) -> dict:
    return {"type": "result", "reason": result.reason, "by_rule": result.by_rule, "scores": list(result.scores),
            "ranking": list(result.ranking), "winners": list(result.winners), "steps": steps}


# ---------------------------------------------------------------- writing
class TranscriptWriter:
    """The Machine's listener; turns events and choices into records. It only listens:
    choices are made on the Machine (`machine.choose(label)`).

    Each record goes to `out` (a text file, written and flushed line by line)
    and to `on_record`, either of which may be None. Events caused by a choice
    are held back until the choice's own record is written (when the step has
    settled, with the state's digest), so a decision comes before its consequences.
    """

    def __init__(self, out=None, on_record=None, digests: bool = True):
        self.out = out
        self.on_record = on_record
        self.digests = digests  # without, a replay checks states against the recorded rules run beside
        self.step = 0
        self.held: list | None = None
        self.chosen = None  # (decision, label) of the step under way

    def write(self, record: dict):
        if self.out is not None:
            self.out.write(dumps(record) + "\n")
            self.out.flush()
        if self.on_record is not None:
            self.on_record(record)

    def __call__(self, kind: str, data: dict):
        if kind == "chosen":
            self.step += 1
            self.held, self.chosen = [], (data["decision"], data["label"])
            return
        if kind == "settled":
            self.settled(data["machine"])
            return
        record = event_record(kind, data, self.step)
        if record is None:
            return
        if self.held is not None:
            self.held.append(record)
        else:
            self.write(record)

    def header(self, game, players: int, seed: int, agents: list):
        self.write(header_record(game, players, seed, agents))
        self.write(rules_record(game))

    def settled(self, machine):
        (d, label), held = self.chosen, self.held
        self.held = self.chosen = None
        self.write(decision_record(self.step, d, label, machine.w.digest() if self.digests else None))
        for record in held:
            self.write(record)

    def result(self, machine):
        self.write(result_record(machine.result, machine.steps))


def event_record(kind: str, data: dict, step: int) -> dict | None:
    if kind == "chance":
        return {"type": "chance", "step": step, "what": data["what"], "outcome": list(data["outcome"])}
    if kind in ("say", "reveal"):
        record = {"type": "event", "step": step, "kind": kind, "text": data["text"]}
        if "to" in data:
            record["to"] = data["to"]  # a private reveal: only that seat sees the text
        return record
    if kind == "eliminate":
        return {"type": "event", "step": step, "kind": kind, "seat": data["seat"]}
    if kind == "end":
        return None  # the result record's business
    raise ValueError(f"no transcript record for an event of kind {kind!r}: add it to event_record")


def decision_record(step: int, decision, label: str, digest: str | None) -> dict:
    record = {"type": "decision", "step": step, "seat": decision.seat, "decision": decision.name, "choice": label}
    if digest is not None:
        record["digest"] = digest
    if decision.secret:
        record["secret"] = True
    return record


# ---------------------------------------------------------------- reading
def read_transcript(path: str) -> list:
    """Every record of a transcript file; raises TranscriptError naming the bad line."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as err:
        raise TranscriptError(0, f"cannot read {path}: {getattr(err, 'strerror', None) or err}") from None
    return parse_lines(text.split("\n"))


def parse_lines(lines) -> list:
    lines = list(lines)
    if lines and lines[-1] == "":
        lines.pop()  # the newline ending the last record
    if not lines:
        raise TranscriptError(1, "the transcript is empty (no header)")
    records = []
    state = {"decisions": 0, "ended": False}
    for line_no, line in enumerate(lines, start=1):
        record = parse_line(line_no, line)
        check_order(line_no, record, records, state)
        records.append(record)
    return records


def parse_line(line_no: int, line: str) -> dict:
    try:
        record = json.loads(line)
    except ValueError as err:
        raise TranscriptError(line_no, f"not valid JSON ({err})") from None
    except RecursionError:
        raise TranscriptError(line_no, "not a record: JSON nested too deeply") from None
    if not isinstance(record, dict):
        raise TranscriptError(line_no, "a record must be a JSON object")
    kind = record.get("type")
    if not isinstance(kind, str) or kind not in REQUIRED:
        raise TranscriptError(line_no, f"unknown record type {kind!r}; known: {', '.join(REQUIRED)}")
    for key, want in REQUIRED[kind].items():
        if key not in record:
            raise TranscriptError(line_no, f"{kind} record lacks the key '{key}'")
        if not _is(record[key], want):
            raise TranscriptError(line_no, f"{kind} record: '{key}' must be {want.__name__}")
    if kind == "decision" and not isinstance(record.get("digest", ""), str):
        raise TranscriptError(line_no, "decision record: 'digest' must be str")
    return record


def _is(value, want) -> bool:
    if want is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, want)


def check_order(line_no: int, record: dict, before: list, state: dict):
    kind = record["type"]
    if (kind == "header") != (not before):
        raise TranscriptError(line_no, "the header must be the first record, and only the first")
    if kind == "header" and record["format"] not in READABLE_FORMATS:
        raise TranscriptError(line_no, f"transcript format {record['format']}; this ruledsl reads formats "
                                       f"{', '.join(map(str, READABLE_FORMATS))}")
    if kind == "rules":
        _check_rules(line_no, record, before)
    if state["ended"]:
        raise TranscriptError(line_no, "a record after the result record")
    if kind == "decision":
        state["decisions"] += 1
        if record["step"] != state["decisions"]:
            raise TranscriptError(line_no, f"decision step {record['step']} out of order "
                                           f"(expected {state['decisions']})")
    elif kind in ("chance", "event") and record["step"] != state["decisions"]:
        raise TranscriptError(line_no, f"{kind} step {record['step']} does not follow decision "
                                       f"{state['decisions']}")
    elif kind == "result":
        state["ended"] = True
        if record["steps"] != state["decisions"]:
            raise TranscriptError(line_no, f"result says {record['steps']} steps, the transcript has "
                                           f"{state['decisions']} decisions")


def _check_rules(line_no: int, record: dict, before: list):
    if len(before) != 1:
        raise TranscriptError(line_no, "the rules record must come right after the header")
    for f in record["files"]:
        if not (isinstance(f, dict) and isinstance(f.get("path"), str) and isinstance(f.get("text"), str)):
            raise TranscriptError(line_no, 'rules record: each file must be {"path": str, "text": str}')
    if not record["files"]:
        raise TranscriptError(line_no, "rules record: no files")
