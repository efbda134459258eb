"""Agents: whoever makes the decisions of one seat.

An agent sees only what its seat sees (`machine.w.snapshot(seat)`) and the
pending Decision, and answers with an index into `decision.labels`:

    agent.choose(view, decision) -> int

Agents that never look at the view say so with `needs_view = False`, so the
driver can skip building it (simulations run many games). A searching agent
(`needs_machine = True`, e.g. mcts) is also given the game itself,
`choose(view, decision, machine)`, to copy and search from; it must not read what
its seat cannot see. Plug-ins: docs/agents.md.
"""
from __future__ import annotations

import functools
import json

import click

from ..errors import UserError
from ..runtime.streams import KeyedStreams
from .view import changes


class AgentError(UserError):
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

    def skip(self, decision):
        """Moves this seat's stream past a pick made before (a resumed game)."""
        self.streams.draw(decision.name)


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
    """Asks at the terminal: shows the seat's view and numbered options, the question last.

    `terminal` (terminal.py, set by `play`) draws boards as pictures and numbers options
    by their place in a fixed domain; without it the options are numbered 1..n."""

    needs_view = True

    def __init__(self, seat: int):
        self.seat = seat
        self.last_view: dict | None = None  # what this seat saw at its last decision
        self.terminal = None

    def choose(self, view, decision) -> int:
        click.echo(f"--- seat {self.seat} to choose: {decision.name} ---")
        click.echo(f"what seat {self.seat} sees (other seats' hidden cards are not shown):")
        click.echo(render_view(view, self.seat, self.terminal))
        if self.last_view is not None:
            click.echo(changed_text(self.last_view, view))
        self.last_view = view
        numbers, domain = self.terminal.numbers(decision) if self.terminal else (None, None)
        numbers = numbers or list(range(1, len(decision.labels) + 1))
        click.echo("options:")
        for number, label in zip(numbers, decision.labels):
            click.echo(f"  {number}. {label}")
        return self.ask(decision, numbers, domain)

    def ask(self, decision, numbers=None, domain=None) -> int:
        """An option by its number, its label or the start of one label (any case); `?` for help.
        Read with plain lines, or at a terminal by the terminal's reader (terminal_prompt.py:
        the question and options kept at the bottom, Tab completing labels)."""
        numbers = numbers or list(range(1, len(decision.labels) + 1))
        shown = _number_range(numbers)
        message = f"number {shown}, a label, or ? for help"
        read = getattr(self.terminal, "reader", None)
        while True:
            if read is None:
                answer = click.prompt(message, type=str).strip()
            else:
                answer = read(message, f"seat {self.seat} to choose: {decision.name}", decision.labels, numbers).strip()
            if not answer:
                continue
            if answer == "?":
                click.echo(human_help(decision, domain))
                continue
            if answer == "q" and "q" not in decision.labels:
                raise click.Abort()  # play's transcript keeps every step so far
            index = pick_option(answer, decision.labels, numbers)
            if index is not None:
                return index
            click.echo(f"'{answer}' is not an option: enter a number shown ({shown}), "
                       "or a label or the start of one (? for help)")


def _number_range(numbers: list) -> str:
    if numbers == list(range(numbers[0], numbers[0] + len(numbers))):
        return f"{numbers[0]}-{numbers[-1]}" if len(numbers) > 1 else str(numbers[0])
    return ",".join(str(n) for n in numbers)


def pick_option(answer: str, labels: list, numbers: list | None = None) -> int | None:
    """A number picks the option shown with it (by default its position); other text an
    exact label, else the one label it starts."""
    if answer.isascii() and answer.isdigit():  # not '²', which isdigit() but int() refuses
        numbers = numbers or list(range(1, len(labels) + 1))
        return numbers.index(int(answer)) if int(answer) in numbers else None
    low = answer.lower()
    exact = [i for i, label in enumerate(labels) if label.lower() == low]
    if exact:
        return exact[0]
    starts = [i for i, label in enumerate(labels) if low and label.lower().startswith(low)]
    return starts[0] if len(starts) == 1 else None


def human_help(decision, domain=None) -> str:
    """The rule asking, how to answer, what the numbers count in (`domain`, None: this list)."""
    from .terminal import numbering_help
    return (f"{decision.name}: asked by the rule at {decision.span.where()}\n"
            "answer with the option's number, its label, or the start of a label (any case);\n"
            f"{numbering_help(domain)}\n"
            "q, Ctrl-C or Ctrl-D stops the game (a transcript being recorded keeps every step so far).")


def render_view(view: dict, seat: int, terminal=None) -> str:
    """A compact, line-per-part text of a seat's view; with a terminal, boards as pictures."""
    lines = []
    if view.get("shared"):
        lines.append("shared: " + _pairs(view["shared"]))
    for player in view.get("players", []):
        fields = {k: v for k, v in player.items() if k not in ("seat", "alive")}
        who = "you" if player["seat"] == seat else f"seat {player['seat']}"
        out = "" if player.get("alive", True) else " (out)"
        lines.append(f"{who}{out}: {_pairs(fields)}")
    empty = [name for name, cards in view.get("zones", {}).items() if _size(cards) == 0]
    for name, cards in view.get("zones", {}).items():
        if _size(cards):
            lines.append(f"{name}: {_zone_text(cards)}")
    if empty:
        lines.append("empty: " + empty_text(empty))
    pictures = dict(terminal.boards(view)) if terminal else {}
    for board, spaces in view.get("boards", {}).items():
        if not pictures.get(board):
            lines.append(f"{board}: " + "; ".join(f"{space} {_pairs(fields)}" for space, fields in spaces.items()))
    for board, picture in pictures.items():
        if picture:
            lines += [f"{board}:"] + picture
    return "\n".join(lines)


def empty_text(names: list, most: int = 3) -> str:
    """Empty zones by name; a zone kept per player or per card with more than `most`
    empty ones is summed up ("gear: 180 of them") instead of listed one by one."""
    groups: dict = {}
    for name in names:
        groups.setdefault(name.split("/", 1)[0], []).append(name)
    parts = []
    for base, members in groups.items():
        parts += members if len(members) <= most else [f"{base}/... ({len(members)} of them)"]
    return ", ".join(parts)


def _pairs(fields: dict) -> str:
    return " ".join(f"{k}={_value_text(v)}" for k, v in fields.items()) or "-"


def _value_text(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, str)) or value is None:
        return "none" if value is None else str(value)
    return json.dumps(value, separators=(",", ":"))


def _size(cards) -> int:
    return len(cards) if isinstance(cards, list) else cards["count"]


def _zone_text(cards) -> str:
    if isinstance(cards, list):
        return "[" + ", ".join(_runs(cards)) + "]"
    parts = [f"{cards['count']} card(s)"]
    if "top" in cards:
        parts.append(f"top {cards['top']}")
    if "show" in cards:
        parts.append("showing " + ", ".join(cards["show"]))
    return ", ".join(parts)


def _runs(labels) -> list:
    """Repeated cards side by side once, with a count: 'big cube x7'."""
    out: list = []
    for label in labels:
        if out and out[-1][0] == label:
            out[-1][1] += 1
        else:
            out.append([label, 1])
    return [label if n == 1 else f"{label} x{n}" for label, n in out]


MAX_CHANGES = 8


def changed_text(before: dict, now: dict) -> str:
    """What changed in a seat's view since its last decision, a few lines at most."""
    lines = []
    for op in changes(before, now):
        where = "/".join(str(k) for k in op[0])
        lines.append(f"  {where}: removed" if len(op) == 1 else f"  {where} = {_value_text(op[1])}")
    more = f"\n  ... and {len(lines) - MAX_CHANGES} more" if len(lines) > MAX_CHANGES else ""
    return "since your last turn:\n" + ("\n".join(lines[:MAX_CHANGES]) + more if lines else "  nothing changed")


def _quoted(labels) -> str:
    return ", ".join(f'"{label}"' for label in labels)


KINDS = ("random", "first", "human", "scripted", "mcts")
ENTRY_POINTS = "ruledsl.agents"  # plug-in agents by name: factory(seat, seed, arg)


def make_agent(kind: str, seat: int, seed, script=None):
    """Builds an agent by kind: a built-in name, an entry point of the `ruledsl.agents`
    group, or `module:Class`. `script` is what followed the kind after a colon (a
    scripted agent's labels as a list, mcts's budget, a plug-in's argument)."""
    if kind == "random":
        return RandomAgent(seat, seed)
    if kind == "first":
        return FirstAgent(seat)
    if kind == "human":
        return HumanAgent(seat)
    if kind == "scripted":
        return ScriptedAgent(seat, script or [])
    if kind == "mcts":
        from .mcts import BudgetError, MctsAgent
        try:
            return MctsAgent(seat, seed, script)
        except BudgetError as err:
            raise AgentError(str(err)) from None
    return plug_in(kind, seat, seed, script)


def known_kinds() -> list:
    return list(KINDS) + sorted(entry_points())


@functools.lru_cache(maxsize=1)
def entry_points() -> dict:
    """The installed plug-ins by name (read once: simulate makes agents for every game)."""
    from importlib.metadata import entry_points as found
    return {ep.name: ep for ep in found(group=ENTRY_POINTS)}


def plug_in(kind: str, seat: int, seed, arg):
    """A plug-in agent: `module:Class` or an entry point's name; called as factory(seat, seed, arg)."""
    points = entry_points()
    if kind in points:
        where = f"entry point '{kind}' ({points[kind].value})"
        try:
            factory = points[kind].load()
        except Exception as err:  # noqa: BLE001 - a broken plug-in is the user's to fix: say why
            raise AgentError(f"{where} cannot be loaded: {type(err).__name__}: {err}") from None
    elif ":" in kind:
        factory, where = import_factory(kind), f"'{kind}'"
    else:
        raise AgentError(f"unknown agent kind '{kind}'; kinds: {', '.join(known_kinds())}, "
                         "or module:Class for a plug-in")
    try:
        agent = factory(seat, seed, arg)
    except Exception as err:  # noqa: BLE001
        raise AgentError(f"agent {where} could not be made for seat {seat}: {type(err).__name__}: {err}") from None
    if not callable(getattr(agent, "choose", None)):
        raise AgentError(f"agent {where} has no choose(view, decision) method")
    return agent


def import_factory(kind: str):
    import importlib
    module_name, _, attr = kind.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as err:  # noqa: BLE001
        raise AgentError(f"agent '{kind}': cannot import module '{module_name}': {type(err).__name__}: {err}") from None
    factory = getattr(module, attr, None)
    if factory is None:
        raise AgentError(f"agent '{kind}': module '{module_name}' has no '{attr}'")
    return factory


def parse_agent_spec(spec: str):
    """`SEAT=KIND[:ARG]` -> (seat, kind, arg); `SEAT=scripted:label,label,...` gives the labels
    as a list; `SEAT=module:Class[:ARG]` names a plug-in class. The agent is not made here."""
    seat_text, sep, kind = spec.partition("=")
    if not sep or not (seat_text.strip().isascii() and seat_text.strip().isdigit()):
        raise AgentError(f"'{spec}': write --agent SEAT=KIND, e.g. 1=human (kinds: {', '.join(known_kinds())})")
    kind, _, arg = kind.strip().partition(":")
    if kind == "scripted":
        return int(seat_text), kind, [s.strip() for s in arg.split(",")] if arg else None
    if kind in KINDS or kind in entry_points():
        return int(seat_text), kind, arg or None
    if not arg or not all(part.isidentifier() for part in kind.split(".")):
        raise AgentError(f"unknown agent kind '{kind}'; kinds: {', '.join(known_kinds())}, "
                         "or module:Class for a plug-in")
    cls, _, arg = arg.partition(":")
    return int(seat_text), f"{kind}:{cls}", arg or None


def seat_agents(specs, players: int, seed) -> tuple:
    """Agents for every seat from `SEAT=KIND` specs (random by default); returns (agents, kinds)."""
    kinds = ["random"] * players
    args: list = [None] * players
    for spec in specs:
        seat, kind, arg = parse_agent_spec(spec)
        if seat >= players:
            raise AgentError(f"--agent {spec}: there are seats 0..{players - 1}")
        kinds[seat], args[seat] = kind, arg
    return [make_agent(kind, seat, seed, args[seat]) for seat, kind in enumerate(kinds)], kinds


def ask_agent(agent, machine) -> int:
    """The index an agent picks for the machine's pending decision (only its seat's view)."""
    decision = machine.pending
    view = machine.w.snapshot(decision.seat) if getattr(agent, "needs_view", True) else None
    if getattr(agent, "needs_machine", False):
        index = agent.choose(view, decision, machine)
    else:
        index = agent.choose(view, decision)
    if not isinstance(index, int) or not 0 <= index < len(decision.labels):
        raise AgentError(f"seat {decision.seat}: agent answered {index!r}, not an option index "
                         f"0..{len(decision.labels) - 1}")
    return index
