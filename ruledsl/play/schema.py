"""JSON Schema (2020-12) of a transcript record: every line of a transcript validates against it.

It says what transcript.py writes and reads (`REQUIRED`, `parse_line`); the
order of records (header first, steps counting up, the result last) is
transcript.py's `check_order`, which a schema of one line can't express.
`ruledsl schema transcript` prints it; docs/transcript.schema.json is a copy.
"""
from __future__ import annotations

import json

from .transcript import FORMAT, READABLE_FORMATS

INT = {"type": "integer"}
SEAT = {"type": "integer", "minimum": 0}
STEP = {"type": "integer", "minimum": 0, "description": "decisions made before this record (0 during setup)"}
INTS = {"type": "array", "items": INT}
SEATS = {"type": "array", "items": SEAT}
TEXT = {"type": "string"}


def record(kind: str, description: str, properties: dict, required: list, **more) -> dict:
    return {"type": "object", "description": description,
            "properties": {"type": {"const": kind}, **properties},
            "required": ["type", *required], "additionalProperties": False, **more}


HEADER = record("header", "The first record: which game, rules, players, seed and agents.", {
    "format": {"enum": list(READABLE_FORMATS), "description": f"transcript format (this ruledsl writes {FORMAT})"},
    "ruledsl": {"type": "string", "description": "the ruledsl version that wrote it"},
    "game": {"type": "string", "description": "the path of the .game file played"},
    "rules_sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$",
                     "description": "hash of the merged declarations (what plays; not comments or layout)"},
    "players": {"type": "integer", "minimum": 1},
    "seed": INT,
    "agents": {"type": "array", "items": TEXT, "description": "one agent kind per seat"},
}, ["format", "ruledsl", "game", "rules_sha256", "players", "seed", "agents"])

RULES = record("rules", "Right after the header (format 2): the text of every rules file, base first.", {
    "files": {"type": "array", "minItems": 1, "items": {
        "type": "object", "properties": {"path": TEXT, "text": TEXT},
        "required": ["path", "text"], "additionalProperties": False}},
}, ["files"])

CHANCE = record("chance", "A roll or shuffle and its outcome.", {
    "step": STEP,
    "what": {"type": "string", "pattern": "^(roll [0-9]+d[0-9]+|shuffle .+)$",
             "examples": ["roll 2d6", "shuffle deck"]},
    "outcome": {"type": "array", "description": "the dice, or the card ids in their new order"},
}, ["step", "what", "outcome"])

DECISION = record("decision", "A choice made by a seat.", {
    "step": {"type": "integer", "minimum": 1, "description": "decisions counted from 1"},
    "seat": SEAT,
    "decision": {"type": "string", "description": "the decision's name in the rules"},
    "choice": {"type": "string", "description": "the chosen option's label"},
    "digest": {"type": "string", "description": "hash of the state after the choice (optional)"},
    "secret": {"const": True, "description": "present when only the seat saw the choice"},
}, ["step", "seat", "decision", "choice"])

EVENT = {
    "type": "object", "description": "Something the rules said or did: say, reveal (to one seat or all), eliminate.",
    "properties": {"type": {"const": "event"}, "step": STEP,
                   "kind": {"enum": ["say", "reveal", "eliminate"]},
                   "text": TEXT, "to": SEAT, "seat": SEAT},
    "required": ["type", "step", "kind"], "additionalProperties": False,
    "allOf": [
        {"if": {"properties": {"kind": {"enum": ["say", "reveal"]}}},
         "then": {"required": ["text"], "not": {"required": ["seat"]}}},
        {"if": {"properties": {"kind": {"const": "eliminate"}}},
         "then": {"required": ["seat"], "not": {"anyOf": [{"required": ["text"]}, {"required": ["to"]}]}}},
    ],
}

RESULT = record("result", "The last record: how the game ended.", {
    "reason": TEXT,
    "by_rule": {"type": "boolean", "description": "false when a step limit stopped the game"},
    "scores": INTS,
    "ranking": SEATS,
    "winners": SEATS,
    "steps": {"type": "integer", "minimum": 0},
}, ["reason", "by_rule", "scores", "ranking", "winners", "steps"])

KINDS = {"header": HEADER, "rules": RULES, "chance": CHANCE, "decision": DECISION, "event": EVENT,
         "result": RESULT}

TRANSCRIPT = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "ruledsl transcript record",
    "description": "One line of a ruledsl transcript (JSON Lines). The header comes first, then (format 2) the "
                   "rules record; decision steps count up from 1, chance and event records carry the number of "
                   "decisions before them, and the result record, when the game ended, comes last.",
    "type": "object",
    "required": ["type"],
    "properties": {"type": {"enum": list(KINDS)}},
    "$defs": KINDS,
    "allOf": [{"if": {"properties": {"type": {"const": kind}}}, "then": {"$ref": f"#/$defs/{kind}"}}
              for kind in KINDS],
}

SCHEMAS = {"transcript": TRANSCRIPT}


def text(name: str) -> str:
    """A schema as the command prints it and docs/ keeps it."""
    return json.dumps(SCHEMAS[name], indent=2, ensure_ascii=False) + "\n"
