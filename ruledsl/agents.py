"""Agents: whoever makes the decisions of one seat.

An agent sees only what its seat sees (`machine.w.snapshot(seat)`) and the
pending Decision, and answers with an index into `decision.labels`:

    agent.choose(view, decision) -> int

Agents that never look at the view say so with `needs_view = False`, so the
driver can skip building it (simulations run many games).
"""
from __future__ import annotations

import json

import click

from .streams import KeyedStreams


class AgentError(Exception):
    """An agent could not answer (a script ran out, or names an illegal label)."""


class RandomAgent:
    """Picks uniformly at random, from a stream per game seed, seat and decision name
    (streams.py): a decision added elsewhere by a rule change leaves this seat's other
    picks as they were, and so does an option added or removed beside the one picked."""

    needs_view = False

    def __init__(self, seat: int, seed):
        self.seat = seat
        self.streams = KeyedStreams(f"agent:{seed}:{seat}")

    def choose(self, view, decision) -> int:
        return self.streams.pick(decision.name, decision.labels)


class FirstAgent:
    """Always takes the first option offered."""

    needs_view = False

    def __init__(self, seat: int):
        self.seat = seat

    def choose(self, view, decision) -> int:
        return 0


class ScriptedAgent:
    """Answers with labels from a list, in order."""

    needs_view = False

    def __init__(self, seat: int, labels):
        self.seat = seat
        self.labels = list(labels)
        self.used = 0

    def choose(self, view, decision) -> int:
        if self.used >= len(self.labels):
            raise AgentError(f"seat {self.seat}: the script ran out after {self.used} choice(s); "
                             f"'{decision.name}' still needs one of {_quoted(decision.labels)}")
        label = self.labels[self.used]
        if label not in decision.labels:
            raise AgentError(f"seat {self.seat}: scripted choice {self.used + 1} \"{label}\" is not legal "
                             f"for '{decision.name}'; legal: {_quoted(decision.labels)}")
        self.used += 1
        return decision.labels.index(label)


class HumanAgent:
    """Asks at the terminal: shows the seat's view and numbered options."""

    needs_view = True

    def __init__(self, seat: int):
        self.seat = seat

    def choose(self, view, decision) -> int:
        click.echo(f"--- seat {self.seat} to choose: {decision.name} ---")
        click.echo(render_view(view, self.seat))
        click.echo("options:")
        for i, label in enumerate(decision.labels, start=1):
            click.echo(f"  {i}. {label}")
        return self.ask(len(decision.labels))

    def ask(self, count: int) -> int:
        while True:
            answer = click.prompt(f"number 1-{count}", type=str).strip()
            if answer.isdigit() and 1 <= int(answer) <= count:
                return int(answer) - 1
            click.echo(f"'{answer}' is not an option: enter a number from 1 to {count}")


def render_view(view: dict, seat: int) -> str:
    """A compact, line-per-part text of a seat's view."""
    lines = []
    if view.get("shared"):
        lines.append("shared: " + _pairs(view["shared"]))
    for player in view.get("players", []):
        fields = {k: v for k, v in player.items() if k not in ("seat", "alive")}
        who = "you" if player["seat"] == seat else f"seat {player['seat']}"
        out = "" if player.get("alive", True) else " (out)"
        lines.append(f"{who}{out}: {_pairs(fields)}")
    for name, cards in view.get("zones", {}).items():
        lines.append(f"{name}: {_zone_text(cards)}")
    for board, spaces in view.get("boards", {}).items():
        lines.append(f"{board}: " + "; ".join(f"{space} {_pairs(fields)}" for space, fields in spaces.items()))
    return "\n".join(lines)


def _pairs(fields: dict) -> str:
    return " ".join(f"{k}={_value_text(v)}" for k, v in fields.items()) or "-"


def _value_text(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, str)) or value is None:
        return "none" if value is None else str(value)
    return json.dumps(value, separators=(",", ":"))


def _zone_text(cards) -> str:
    if isinstance(cards, list):
        return "[" + ", ".join(cards) + "]"
    parts = [f"{cards['count']} card(s)"]
    if "top" in cards:
        parts.append(f"top {cards['top']}")
    if "show" in cards:
        parts.append("showing " + ", ".join(cards["show"]))
    return ", ".join(parts)


def _quoted(labels) -> str:
    return ", ".join(f'"{label}"' for label in labels)


KINDS = ("random", "first", "human", "scripted")


def make_agent(kind: str, seat: int, seed, script=None):
    """Builds an agent by kind name; `script` is the label list of a scripted agent."""
    if kind == "random":
        return RandomAgent(seat, seed)
    if kind == "first":
        return FirstAgent(seat)
    if kind == "human":
        return HumanAgent(seat)
    if kind == "scripted":
        return ScriptedAgent(seat, script or [])
    raise AgentError(f"unknown agent kind '{kind}'; kinds: {', '.join(KINDS)}")


def parse_agent_spec(spec: str):
    """`SEAT=KIND` or `SEAT=scripted:label,label,...` -> (seat, kind, script)."""
    seat_text, sep, kind = spec.partition("=")
    if not sep or not seat_text.strip().isdigit():
        raise AgentError(f"'{spec}': write --agent SEAT=KIND, e.g. 1=human (kinds: {', '.join(KINDS)})")
    kind, _, script_text = kind.strip().partition(":")
    script = [s.strip() for s in script_text.split(",")] if script_text else None
    if kind not in KINDS:
        raise AgentError(f"unknown agent kind '{kind}'; kinds: {', '.join(KINDS)}")
    return int(seat_text), kind, script


def ask_agent(agent, machine) -> int:
    """The index an agent picks for the machine's pending decision (only its seat's view)."""
    decision = machine.pending
    view = machine.w.snapshot(decision.seat) if agent.needs_view else None
    index = agent.choose(view, decision)
    if not isinstance(index, int) or not 0 <= index < len(decision.labels):
        raise AgentError(f"seat {decision.seat}: agent answered {index!r}, not an option index "
                         f"0..{len(decision.labels) - 1}")
    return index
