"""The Python API of ruledsl: load a game, play it choice by choice, look at it, clone it,
record it and replay it. docs/api.md documents it with a runnable example.

    import ruledsl
    game = ruledsl.load("games/base.game")      # a path, or a shipped game's name
    match = game.start(players=3, seed=7)
    while not match.over:
        d = match.decision                      # seat, name, labels
        match.choose(d.labels[0])
    print(match.result.winners)

What this module exports is the stable part; everything else in the package may change.
"""
from __future__ import annotations

import os
from typing import IO, TYPE_CHECKING

import msgspec

from .collector import collections_paused
from .errors import UserError
from .pipeline import Game as Compiled
from .pipeline import load_game
from .runtime.machine import Machine, RandomChance
from .syntax import shipped

if TYPE_CHECKING:  # replay and transcripts are imported where used: `ruledsl check` needs neither
    from .play.replay import ReplayReport

__all__ = ["Decision", "Game", "GameNotFound", "IllegalChoice", "Match", "Result", "find", "load",
           "replay", "shipped_games"]


class GameNotFound(LookupError, UserError):
    """Neither a file nor a shipped game's name."""


class IllegalChoice(ValueError):
    """A label that is not among the pending decision's (or no decision is pending)."""

    def __init__(self, message: str, code: str, legal: list):
        super().__init__(message)
        self.code = code
        self.legal = legal


class Decision(msgspec.Struct, frozen=True):
    """What the game waits for: `seat` chooses one of `labels` for the decision `name`."""
    seat: int
    name: str
    labels: tuple
    kind: str  # choose | menu | may
    secret: bool  # only the seat sees the choice
    rule: str  # path:line of the decision in the rules


class Result(msgspec.Struct, frozen=True):
    """How a game ended. `by_rule` is False when a step limit stopped it (then no winners);
    `draw` is True when a rule ended it as a draw (`end ... draw`: no winners either)."""
    reason: str
    winners: tuple
    ranking: tuple
    scores: tuple
    by_rule: bool
    draw: bool = False


def find(game: str | os.PathLike) -> str:
    """The path of a game: an existing file as given, else a shipped game's (`NAME`,
    `NAME/VARIANT`, `ruledsl:NAME`). Raises GameNotFound."""
    text = os.fspath(game)
    path = shipped.resolve(text)
    if path is None:
        raise GameNotFound(f"{text}: no such file, nor a shipped game (`ruledsl list` shows them)")
    return path


def load(game: str | os.PathLike, files: dict | None = None) -> "Game":
    """Loads, checks and compiles a game by path or shipped name.

    With `files` (path -> text, e.g. the rules a transcript recorded) the game is
    loaded from those texts only, never from disk. Raises GameNotFound, or
    ruledsl.errors.RuleError whose `render()` is every `path:line:col: error: ...`."""
    path = os.fspath(game) if files is not None else find(game)
    with collections_paused():
        return Game(load_game(path, files=files))


def shipped_games() -> list:
    """[(name, path)] of the games that ship with ruledsl, as `ruledsl list` shows them."""
    return shipped.names()


class Game:
    """A checked, compiled game. Start any number of matches from it."""

    def __init__(self, compiled: Compiled):
        self.compiled = compiled  # the pipeline's Game (program, model, loaded files)
        self._layouts: dict = {}  # players -> the observation's Layout (play/tensor.py)

    @property
    def path(self) -> str:
        return self.compiled.path

    @property
    def title(self) -> str:
        return self.compiled.program.title

    @property
    def min_players(self) -> int:
        return self.compiled.program.min_players

    @property
    def max_players(self) -> int:
        return self.compiled.program.max_players

    @property
    def rules_sha256(self) -> str:
        """A hash of what plays (not comments or layout), as transcripts record it."""
        return self.compiled.rules_sha256

    def start(self, players: int | None = None, seed: int = 0, record: str | os.PathLike | IO | None = None,
              agents: list | None = None) -> "Match":
        """A new match, run up to its first decision. `players` defaults to the game's minimum;
        `seed` fixes every roll and shuffle. `record`, a path or a text file, gets the
        transcript (JSON Lines, `ruledsl schema transcript`), `agents` naming who plays each
        seat in its header (default "python")."""
        n = self.min_players if players is None else players
        if not self.min_players <= n <= self.max_players:
            raise ValueError(f"{self.title!r} takes {self.min_players}..{self.max_players} players, not {n}")
        return Match(self, n, seed, record, agents)

    def observation_pieces(self, players: int) -> list:
        """[(name, shape, start)] of the vector `Match.observation` gives at `players`: what
        each part of it holds is in docs/api.md ("Observations as numbers")."""
        return list(self._observation_layout(players).pieces)

    def observation_legend(self, players: int) -> list:
        """A name for each number of `Match.observation` at `players`, in order:
        "players[seat 1].coins", "board grid[b2].owner=seat 0", "cards[red #2] in hand", ..."""
        return self._observation_layout(players).legend()

    def _observation_layout(self, players: int):
        layout = self._layouts.get(players)
        if layout is None:
            from .play.tensor import Layout  # here: playing needs no layout
            layout = self._layouts[players] = Layout(self.compiled, players)
        return layout


class Match:
    """A game in progress. Not thread-safe; clone() it to explore alternatives."""

    def __init__(self, game: Game, players: int, seed: int, record=None, agents=None, machine=None):
        self.game, self.players, self.seed = game, players, seed
        self._out, self._owned = None, False
        self._writer = None
        if machine is not None:
            self.machine = machine
            return
        if record is not None:
            if hasattr(record, "write"):
                self._out = record
            else:
                self._out, self._owned = open(record, "w", encoding="utf-8"), True
            from .play.transcript import TranscriptWriter  # here: loading a game needs no transcripts
            self._writer = TranscriptWriter(self._out)
            self._writer.header(game.compiled, players, seed, list(agents or ["python"] * players))
        self.machine = Machine(game.compiled.program, players, RandomChance(seed), listener=self._writer, fast=True)
        self._finish_record()

    @property
    def decision(self) -> Decision | None:
        """The pending decision, or None when the game is over."""
        d = self.machine.pending
        if d is None:
            return None
        return Decision(seat=d.seat, name=d.name, labels=tuple(d.labels), kind=d.kind, secret=d.secret,
                        rule=f"{d.span.path}:{d.span.line}")

    @property
    def over(self) -> bool:
        return self.machine.result is not None

    @property
    def result(self) -> Result | None:
        r = self.machine.result
        if r is None:
            return None
        return Result(reason=r.reason, winners=tuple(r.winners), ranking=tuple(r.ranking), scores=tuple(r.scores),
                      by_rule=r.by_rule, draw=r.draw)

    @property
    def steps(self) -> int:
        """Decisions made so far."""
        return self.machine.steps

    def choose(self, label: str) -> None:
        """Applies the pending decision's option `label`; raises IllegalChoice for another label."""
        m = self.machine
        d = m.pending
        if d is None or d.index_of(label) is None:
            refusal = m.choose(label)  # the machine's own refusal, with its message
            raise IllegalChoice(refusal.message, refusal.code, refusal.legal)
        m.choose(label)
        self._finish_record()

    def stop(self, reason: str = "stopped") -> None:
        """Ends the game now (no winners, `by_rule` False), as a step limit does."""
        self.machine.stop_at_limit(reason)
        self._finish_record()

    def view(self, seat: int | None = None) -> dict:
        """The state as JSON-ready data: everything, or only what `seat` sees."""
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"seat {seat}: the game has seats 0..{self.players - 1}")
        return self.machine.w.snapshot(seat)

    def observation(self, seat: int) -> list:
        """What `seat` sees, as `Game.observation_pieces` lays it out: floats, the same
        length in every state of a game at this player count (for learning agents; the
        OpenSpiel adapter's observation_tensor)."""
        if not 0 <= seat < self.players:
            raise ValueError(f"seat {seat}: the game has seats 0..{self.players - 1}")
        return self.game._observation_layout(self.players).observe(self.machine, seat)

    def digest(self) -> str:
        """A short hash of the whole state, as transcripts record it after each choice."""
        return self.machine.w.digest()

    def clone(self) -> "Match":
        """An independent copy of this match: the same choices give the same states and
        result, and moves on either leave the other alone. A clone records nothing."""
        return Match(self.game, self.players, self.seed, machine=self.machine.clone())

    def close(self) -> None:
        """Closes a transcript file this match opened (a game stopped midway leaves a
        transcript without a result, which still replays as far as it goes)."""
        if self._owned and self._out is not None:
            self._out.close()
        self._out, self._owned, self._writer = None, False, None

    def __enter__(self) -> "Match":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _finish_record(self):
        if self._writer is not None and self.machine.result is not None:
            self._writer.result(self.machine)
            self.close()


def replay(transcript: str | os.PathLike | list, game: str | os.PathLike | Game | None = None) -> ReplayReport:
    """Replays a transcript (a path, or its records) against `game` (default: the rules it
    recorded). Returns the report (narration `lines`, `notes`, `result`, `steps`); raises
    ruledsl.play.replay.Divergence when the rules no longer play it, naming the step and the
    rule edit responsible, and TranscriptError / ReplayError for a corrupt one."""
    from .play.replay import recorded_game
    from .play.replay import replay as replay_records
    from .play.transcript import read_transcript
    records = transcript if isinstance(transcript, list) else read_transcript(os.fspath(transcript))
    if isinstance(game, Game):
        compiled = game.compiled
    elif game is not None:
        compiled = load(game).compiled
    else:
        compiled = recorded_game(records) or load(records[0]["game"]).compiled
    return replay_records(compiled, records)
