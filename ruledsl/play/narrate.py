"""Readable lines for transcript records, as `play` and `replay` print them.

With `as_seat`, a line shows only what that seat saw: other seats' secret
choices and what was revealed privately to another seat are `(sealed)`. Shuffles show only their card count (the recorded order
is card ids, there for replays).
"""
from __future__ import annotations

from ..errors import printable

INDENT = "      "
NO_SEAT = -1  # as_seat for an onlooker who is no seat: every secret choice is sealed


def narrate(record: dict, as_seat: int | None = None) -> list:
    """The record's lines, with control characters from game text escaped (errors.printable)."""
    return [printable(line) for line in _lines(record, as_seat)]


def _lines(record: dict, as_seat: int | None) -> list:
    kind = record["type"]
    if kind == "header":
        return [_header(record)]
    if kind == "decision":
        return [_decision(record, as_seat)]
    if kind == "chance":
        return [INDENT + _chance(record)]
    if kind == "event":
        return [INDENT + _event(record, as_seat)]
    if kind == "result":
        return _result(record)
    return []


def _header(r) -> str:
    agents = ", ".join(f"seat {i}: {a}" for i, a in enumerate(r["agents"]))
    return f"{r['game']}: {r['players']} players, seed {r['seed']} ({agents})"


def _decision(r, as_seat) -> str:
    head = f"[{r['step']}] seat {r['seat']} chose"
    if r.get("secret") and as_seat is not None and r["seat"] != as_seat:
        return f"{head} (sealed) for {r['decision']}"
    secret = " (secret)" if r.get("secret") else ""
    return f"{head} \"{r['choice']}\" for {r['decision']}{secret}"


def _chance(r) -> str:
    verb, _, what = r["what"].partition(" ")
    outcome = r["outcome"]
    if verb == "roll":
        return f"rolls {what}: " + " ".join(str(x) for x in outcome)
    if verb == "shuffle":
        return f"shuffles {what} ({len(outcome)} cards)"  # the order is for replays, not readers
    return f"{r['what']}: {outcome}"


def _event(r, as_seat) -> str:
    kind = r["kind"]
    if kind == "say":
        return f"\"{r['text']}\""
    if kind == "reveal" and "to" in r:
        if as_seat is not None and as_seat != r["to"]:
            return f"reveals something to seat {r['to']} (sealed)"
        return f"reveals {r['text']} to seat {r['to']}"
    if kind == "reveal":
        return f"reveals {r['text']}"
    if kind == "eliminate":
        return f"seat {r['seat']} is eliminated"
    return f"{kind}: {r.get('text', '')}"


def _result(r) -> list:
    how = "" if r["by_rule"] else " (stopped, not by the rules)"
    winners = ", ".join(f"seat {s}" for s in r["winners"]) or "none"
    ranking = ", ".join(f"{i}. seat {s} (score {r['scores'][s]})" for i, s in enumerate(r["ranking"], start=1))
    return [f"game over after {r['steps']} steps: {r['reason']}{how}",
            f"winners: {winners}",
            f"ranking: {ranking}"]
