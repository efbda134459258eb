"""Random playouts of a compiled game, many in a row, for statistics.

Built for speed: no listener, no digests, no views. Game i of a run with seed S
uses seed S + i, for chance and agents alike, so `play --seed S+i` with random
agents replays exactly game i.
"""
from __future__ import annotations

import multiprocessing
import statistics
import time
from collections import Counter

import attrs

from .agents import RandomAgent
from .errors import GameRuntimeError
from .runtime import Machine, RandomChance

MAX_ERRORS_KEPT = 3


def limit_reason(max_steps: int) -> str:
    return f"step limit: {max_steps} decisions"


def playout(program, players: int, seed: int, max_steps: int | None = None):
    """One game with random agents; returns (Result, steps)."""
    machine = Machine(program, players, RandomChance(seed))
    agents = [RandomAgent(seat, seed) for seat in range(players)]
    while machine.pending is not None:
        if max_steps is not None and machine.steps >= max_steps:
            machine.stop_at_limit(limit_reason(max_steps))
            break
        decision = machine.pending
        machine.choose_index(agents[decision.seat].choose(None, decision))
    return machine.result, machine.steps


@attrs.define
class Summary:
    games: int = 0
    errors: int = 0
    error_messages: list = attrs.Factory(list)  # (seed, GameRuntimeError), the first few
    ended: Counter = attrs.Factory(Counter)
    steps: list = attrs.Factory(list)
    wins: list = attrs.Factory(list)
    shared: int = 0  # games with more than one winner (a draw or a shared victory)
    no_winner: int = 0  # games nobody won (e.g. stopped by the step limit)
    seconds: float = 0.0

    def add(self, result, steps: int):
        self.games += 1
        self.ended[result.reason] += 1
        self.steps.append(steps)
        for seat in result.winners:
            self.wins[seat] += 1
        if len(result.winners) > 1:
            self.shared += 1
        elif not result.winners:
            self.no_winner += 1

    def merge(self, other: "Summary"):
        """Adds a later run's games (the games after this one's, by seed)."""
        self.games += other.games
        self.errors += other.errors
        room = MAX_ERRORS_KEPT - len(self.error_messages)
        self.error_messages += other.error_messages[:max(room, 0)]
        self.ended.update(other.ended)
        self.steps += other.steps
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        self.shared += other.shared
        self.no_winner += other.no_winner

    def add_error(self, seed: int, err: GameRuntimeError):
        self.games += 1
        self.errors += 1
        if len(self.error_messages) < MAX_ERRORS_KEPT:
            self.error_messages.append((seed, err))

    def as_json(self) -> dict:
        return {
            "games": self.games,
            "errors": self.errors,
            "ended": dict(sorted(self.ended.items())),
            "steps_mean": round(statistics.fmean(self.steps), 3) if self.steps else None,
            "steps_median": statistics.median(self.steps) if self.steps else None,
            "wins": list(self.wins),
            "shared_wins": self.shared,
            "no_winner": self.no_winner,
            "seconds": round(self.seconds, 3),
            "playouts_per_second": round(self.games / self.seconds, 1) if self.seconds > 0 else None,
        }

    def text(self) -> list:
        data = self.as_json()
        lines = [f"games: {self.games} (errors: {self.errors})", "ended:"]
        lines += [f"  {reason}: {count}" for reason, count in data["ended"].items()] or ["  (none)"]
        lines.append(f"steps: mean {data['steps_mean']}, median {data['steps_median']}")
        lines.append("wins by seat: " + ", ".join(f"seat {s}: {n}" for s, n in enumerate(self.wins))
                     + f" (shared by several: {self.shared}, won by nobody: {self.no_winner})")
        lines.append(f"time: {data['seconds']} s ({data['playouts_per_second']} playouts/s)")
        return lines


def simulate(program, players: int, games: int, seed: int, max_steps: int | None = None,
             progress=None) -> Summary:
    """Plays `games` random games; `progress(n)` (optional) is told of each finished one."""
    summary = Summary(wins=[0] * players)
    start = time.perf_counter()
    for i in range(games):
        try:
            result, steps = playout(program, players, seed + i, max_steps)
        except GameRuntimeError as err:
            summary.add_error(seed + i, err)
        else:
            summary.add(result, steps)
        if progress is not None:
            progress(1)
    summary.seconds = time.perf_counter() - start
    return summary


def simulate_file(path: str, players: int, games: int, seed: int, max_steps: int | None = None,
                  jobs: int = 1) -> Summary:
    """Like `simulate`, over `jobs` processes, each loading the game from `path` and
    playing a contiguous block of seeds. The summary is the same as with one process
    (games are merged in seed order); only `seconds` differs."""
    from .pipeline import load_game
    jobs = max(1, min(jobs, games))
    if jobs == 1:
        return simulate(load_game(path).program, players, games, seed, max_steps)
    sizes = [games // jobs + (1 if i < games % jobs else 0) for i in range(jobs)]
    starts = [seed + sum(sizes[:i]) for i in range(jobs)]
    begin = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        parts = pool.starmap(_simulate_block, [(path, players, n, s, max_steps) for n, s in zip(sizes, starts)])
    total = Summary(wins=[0] * players)
    for part in parts:
        total.merge(part)
    total.seconds = time.perf_counter() - begin
    return total


def _simulate_block(path, players, games, seed, max_steps):
    from .pipeline import load_game
    return simulate(load_game(path).program, players, games, seed, max_steps)
