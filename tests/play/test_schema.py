"""`ruledsl schema transcript`: a valid JSON Schema, the same as docs/, and every transcript
the suite writes or stores validates against it (conftest.py checks each written record)."""
from __future__ import annotations

import json

import jsonschema
import pytest
from click.testing import CliRunner

from ruledsl.cli import main
from ruledsl.play.schema import TRANSCRIPT
from ruledsl.play.transcript import REQUIRED, TranscriptWriter
from support import ROOT, record_game

STORED = sorted((ROOT / "tests").rglob("*.jsonl"))
VALIDATOR = jsonschema.Draft202012Validator(TRANSCRIPT)


def test_the_command_prints_a_valid_schema_kept_in_docs():
    result = CliRunner().invoke(main, ["schema", "transcript"])
    assert result.exit_code == 0
    printed = json.loads(result.stdout)
    jsonschema.Draft202012Validator.check_schema(printed)
    assert printed == TRANSCRIPT
    assert json.loads((ROOT / "docs" / "transcript.schema.json").read_text()) == printed


def test_the_schema_requires_what_the_reader_requires():
    for kind, keys in REQUIRED.items():
        assert set(keys) <= set(TRANSCRIPT["$defs"][kind]["required"]), kind


def test_there_are_stored_transcripts():
    assert len(STORED) >= 10


@pytest.mark.parametrize("path", STORED, ids=lambda p: p.name)
def test_a_stored_transcript_validates(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    for line in lines:
        VALIDATOR.validate(json.loads(line))


def test_written_records_are_checked_as_the_suite_runs():
    _, text = record_game(str(ROOT / "games" / "bada_bing.game"), 3, seed=1, max_steps=40)
    assert {json.loads(line)["type"] for line in text.splitlines()} >= {"header", "rules", "decision", "result"}
    with pytest.raises(jsonschema.ValidationError):
        TranscriptWriter().write({"type": "decision", "step": 1, "seat": 0, "decision": "bid"})


@pytest.mark.parametrize("record", [
    {"type": "nothing"},
    {"type": "decision", "step": 1, "seat": 0, "decision": "bid"},
    {"type": "decision", "step": 0, "seat": 0, "decision": "bid", "choice": "1"},
    {"type": "decision", "step": 1, "seat": 0, "decision": "bid", "choice": "1", "digest": 5},
    {"type": "decision", "step": 1, "seat": True, "decision": "bid", "choice": "1"},
    {"type": "header", "format": 3, "ruledsl": "0.1.0", "game": "g", "rules_sha256": "0" * 64, "players": 2,
     "seed": 0, "agents": []},
    {"type": "rules", "files": []},
    {"type": "chance", "step": 0, "what": "draw", "outcome": []},
    {"type": "event", "step": 0, "kind": "eliminate", "text": "x"},
    {"type": "event", "step": 0, "kind": "say"},
    {"type": "result", "reason": "r", "by_rule": 1, "scores": [], "ranking": [], "winners": [], "steps": 0},
])
def test_a_bad_record_does_not_validate(record):
    assert not VALIDATOR.is_valid(record)
