"""Snapshot-testing rules: seeded games stored as transcripts, compared by replaying.

A snapshot is one seeded game with random agents, stored by syrupy as a
transcript file of its own (`__snapshots__/<test file>/<test>[<name>].jsonl`),
without state digests, with the rules it was played under. So a stored
snapshot is also a golden game that `ruledsl replay` takes as it is.

A snapshot matches when the game played now under the current rules is the
stored one, record for record (the header's version and the rules record
aside), and, when the rules changed in what plays (not comments or layout),
when replaying the stored game under the current rules beside the stored ones
finds the same state at every step: so a change that moves no choice but
changes the state (a bank's size) still fails. When it does not match, the
message is the divergence explained as `ruledsl replay` explains it: the step,
the differing fields or choices, and the rule edit responsible.

Random streams are keyed (streams.py), so a small rule change changes the
stored games only where they really play differently.
"""
from __future__ import annotations

import hashlib
import io

from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from ..errors import GameRuntimeError, RuleError
from ..runtime.machine import Machine, RandomChance
from .agents import RandomAgent
from .divergence import Divergence, ReplayError
from .explain import edit_text, edits
from .replay import recorded_game, replay
from .transcript import TranscriptError, TranscriptWriter, parse_lines

MAX_LINES_PER_GAME = 14
_explained: dict = {}  # sha256 of the new transcript -> lines saying why it does not match


def play_transcript(game, players: int, seed: int, max_steps: int | None) -> str:
    """One game with random agents as `ruledsl play --seed` plays it, as a digest-free transcript."""
    out = io.StringIO()
    writer = TranscriptWriter(out, digests=False)
    writer.header(game, players, seed, ["random"] * players)
    machine = Machine(game.program, players, RandomChance(seed), listener=writer, fast=True)
    agents = [RandomAgent(seat, seed) for seat in range(players)]
    while machine.pending is not None:
        if max_steps is not None and machine.steps >= max_steps:
            machine.stop_at_limit(f"step limit: {max_steps} decisions")
            break
        d = machine.pending
        machine.choose(d.labels[agents[d.seat].choose(None, d)])
    writer.result(machine)
    return out.getvalue()


class TranscriptSnapshotExtension(SingleFileSnapshotExtension):
    """syrupy extension: one .jsonl transcript per snapshot, matched by what plays."""

    file_extension = "jsonl"
    _write_mode = WriteMode.TEXT

    def matches(self, *, serialized_data, snapshot_data) -> bool:
        lines = why_not_the_same(serialized_data, snapshot_data)
        if lines:
            _explained[_sha(serialized_data)] = lines
        return not lines

    def diff_lines(self, serialized_data, snapshot_data):
        yield from _explained.get(_sha(serialized_data)) or why_not_the_same(serialized_data, snapshot_data)


def explanation_for(new_text: str) -> list:
    """The lines `matches` found for this newly played transcript (empty if none); read once."""
    return _explained.pop(_sha(new_text), [])


def _sha(text) -> str:
    return hashlib.sha256(str(text).encode()).hexdigest()


def why_not_the_same(new_text: str, stored_text: str) -> list:
    """[] when the stored game is the game played now; else lines saying where and why not."""
    new = parse_lines(str(new_text).split("\n"))
    try:
        stored = parse_lines(str(stored_text).split("\n"))
    except TranscriptError as err:
        return [f"the stored snapshot is not a readable transcript: {err}"]
    same_game = _plays(new) == _plays(stored)
    if same_game and new[0]["rules_sha256"] == stored[0]["rules_sha256"]:
        return []
    current = recorded_game(new)  # the current rules, from the new transcript: no disk read
    try:
        replay(current, stored)  # with the stored rules beside: every state is compared
    except Divergence as err:
        return _clip(str(err).splitlines())
    except (ReplayError, RuleError, GameRuntimeError) as err:
        return _clip(str(err).splitlines())
    return [] if same_game else _clip(_other_picks(new, stored, current))


def _plays(records) -> list:
    """The records that say what happened: no version, hash or rules text."""
    out = []
    for r in records:
        if r["type"] == "rules":
            continue
        if r["type"] == "header":
            r = {k: v for k, v in r.items() if k not in ("ruledsl", "rules_sha256")}
        out.append(r)
    return out


def _other_picks(new, stored, current) -> list:
    """The stored game still replays, but the agents now play another: the options changed."""
    was, now = _plays(stored), _plays(new)
    i = next(i for i in range(max(len(was), len(now))) if i >= len(was) or i >= len(now) or was[i] != now[i])
    a = was[i] if i < len(was) else None
    b = now[i] if i < len(now) else None
    step = (b or a).get("step", (b or a).get("steps"))
    lines = [f"at step {step} the game played now goes another way, though the stored game still replays "
             "(the options offered changed, so the random agent picks differently):",
             f"  stored: {_one(a)}", f"  now:    {_one(b)}"]
    recorded = recorded_game(stored)
    if recorded is not None:
        found = edits(recorded.loaded, current.loaded)
        lines += ["rule change: " + edit_text(e, recorded, current) for e in found[:4]]
    return lines


def _one(record) -> str:
    if record is None:
        return "(nothing)"
    if record["type"] == "decision":
        return f'seat {record["seat"]} chose "{record["choice"]}" for {record["decision"]}'
    return " ".join(f"{k}={v}" for k, v in record.items() if k != "type")


def _clip(lines: list) -> list:
    if len(lines) <= MAX_LINES_PER_GAME:
        return lines
    return lines[:MAX_LINES_PER_GAME - 1] + [f"... ({len(lines) - MAX_LINES_PER_GAME + 1} more lines)"]
