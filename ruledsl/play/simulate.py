"""Random playouts of a compiled game, many in a row, for statistics.

Built for speed: no listener, no digests, no views. Game i of a run with seed S
uses seed S + i, for chance and agents alike, so `play --seed S+i` with random
agents replays exactly game i.

Runs can be spread over processes (`run_blocks`): the seeds are cut into blocks,
the blocks are played by a pool and their summaries merged in seed order, so the
result is the one a single process gives. Everything that crosses a process
boundary is plain data (`GameRecord`, `ErrorRecord`), never an exception object.

The game is parsed, checked and compiled once, in this process: where the pool can
fork (`start_method`), its workers inherit the compiled program and the imported
engine, and parse, check, compile and import nothing (but for Python compiling each
generated function a worker calls, at its first call: compile/deferred.py). Elsewhere they are spawned and
load each game file once, at their first block of it.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import shlex
import statistics
import sys
import threading
import time
from collections import Counter

import msgspec
import click

from ..errors import GameRuntimeError, Span
from ..runtime.machine import Machine, RandomChance
from .agents import RandomAgent, ask_agent, seat_agents

MAX_ERRORS_LISTED = 100  # failed games listed one by one; the rest are only counted
BLOCKS_PER_JOB = 8  # seed blocks per process: finer blocks let the progress bar move


def limit_reason(max_steps: int) -> str:
    return f"step limit: {max_steps} decisions"


def playout(program, players: int, seed: int, max_steps: int | None = None, agents: tuple = ()):
    """One game with random agents, or those `agents` specs name (`SEAT=KIND`, made
    afresh for the game's seed); returns (Result, steps). The Machine is a fast one
    (whole rules as generators, compile/whole.py); an agent that searches on clones of
    it gets fast clones too (compile/resume.py)."""
    if agents:
        seated = seat_agents(agents, players, seed)[0]
        return play_with(Machine(program, players, RandomChance(seed), fast=True), seated, max_steps)
    machine = Machine(program, players, RandomChance(seed), fast=True)
    agents = [RandomAgent(seat, seed) for seat in range(players)]
    while machine.pending is not None:
        if max_steps is not None and machine.steps >= max_steps:
            machine.stop_at_limit(limit_reason(max_steps))
            break
        decision = machine.pending
        machine.choose_index(agents[decision.seat].choose(None, decision))
    return machine.result, machine.steps


def play_with(machine, agents: list, max_steps: int | None):
    while machine.pending is not None:
        if max_steps is not None and machine.steps >= max_steps:
            machine.stop_at_limit(limit_reason(max_steps))
            break
        machine.choose_index(ask_agent(agents[machine.pending.seat], machine))
    return machine.result, machine.steps


def play_command(path: str, players: int, seed: int) -> str:
    """The command that replays one game of a run, as typed in a shell."""
    return f"ruledsl play {shlex.quote(path)} --players {players} --seed {seed}"


class GameRecord(msgspec.Struct, frozen=True):
    """How one finished game went (kept only when a run asks for records)."""
    seed: int
    steps: int
    reason: str
    winners: tuple
    scores: tuple


class ErrorRecord(msgspec.Struct, frozen=True):
    """A game a rule failed in: the seed and the diagnostic, as plain data."""
    seed: int
    code: str
    message: str
    span: Span

    @classmethod
    def of(cls, seed: int, err: GameRuntimeError) -> "ErrorRecord":
        d = err.diagnostic
        return cls(seed, d.code, d.message, d.span)

    def error(self) -> GameRuntimeError:
        return GameRuntimeError(self.span, self.code, self.message)

    def line(self) -> str:
        """`game with seed S: path:line:col: runtime error: message [CODE]`"""
        return f"game with seed {self.seed}: {self.error()}"

    def as_json(self, path: str, players: int) -> dict:
        return {"seed": self.seed, "code": self.code, "message": self.message,
                "rule": f"{self.span.path}:{self.span.line}", "column": self.span.col,
                "replay": play_command(path, players, self.seed)}


class Summary(msgspec.Struct):
    games: int = 0
    errors: int = 0
    error_list: list = msgspec.field(default_factory=list)  # ErrorRecords, the first MAX_ERRORS_LISTED by seed
    ended: Counter = msgspec.field(default_factory=Counter)
    steps: list = msgspec.field(default_factory=list)
    wins: list = msgspec.field(default_factory=list)
    shared: int = 0  # games with more than one winner (a shared victory)
    no_winner: int = 0  # games nobody won (draws, or stopped by the step limit)
    draws: int = 0  # games a rule ended as a draw (`end ... draw`)
    seconds: float = 0.0
    records: list | None = None  # a GameRecord per finished game, when asked for
    path: str = ""  # the game file, for the replay commands of failed games
    players: int = 0

    @classmethod
    def empty(cls, players: int, path: str = "", keep_records: bool = False) -> "Summary":
        return cls(wins=[0] * players, records=[] if keep_records else None, path=path, players=players)

    def add(self, result, steps: int, seed: int = 0):
        self.games += 1
        self.ended[result.reason] += 1
        self.steps.append(steps)
        for seat in result.winners:
            self.wins[seat] += 1
        if len(result.winners) > 1:
            self.shared += 1
        elif not result.winners:
            self.no_winner += 1
            self.draws += result.draw
        if self.records is not None:
            self.records.append(GameRecord(seed, steps, result.reason, tuple(result.winners),
                                           tuple(result.scores)))

    def add_error(self, seed: int, err: GameRuntimeError):
        self.games += 1
        self.errors += 1
        if len(self.error_list) < MAX_ERRORS_LISTED:
            self.error_list.append(ErrorRecord.of(seed, err))

    def merge(self, other: "Summary"):
        """Adds a later run's games (the games after this one's, by seed)."""
        self.games += other.games
        self.errors += other.errors
        room = MAX_ERRORS_LISTED - len(self.error_list)
        self.error_list += other.error_list[:max(room, 0)]
        self.ended.update(other.ended)
        self.steps += other.steps
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        self.shared += other.shared
        self.no_winner += other.no_winner
        self.draws += other.draws
        if self.records is not None and other.records is not None:
            self.records += other.records

    def errors_json(self) -> list:
        return [e.as_json(self.path, self.players) for e in self.error_list]

    def error_lines(self) -> list:
        """One line per listed failed game, a count of the rest, and how to replay one."""
        lines = [e.line() for e in self.error_list]
        if self.errors > len(self.error_list):
            lines.append(f"... and {self.errors - len(self.error_list)} more failed games")
        if self.error_list:
            lines.append("replay one with: " + play_command(self.path, self.players, self.error_list[0].seed))
        return lines

    def as_json(self) -> dict:
        return {
            "games": self.games,
            "errors": self.errors,
            "error_list": self.errors_json(),
            "errors_not_listed": self.errors - len(self.error_list),
            "ended": dict(sorted(self.ended.items())),
            "steps_mean": round(statistics.fmean(self.steps), 3) if self.steps else None,
            "steps_median": statistics.median(self.steps) if self.steps else None,
            "wins": list(self.wins),
            "shared_wins": self.shared,
            "no_winner": self.no_winner,
            "draws": self.draws,
            "seconds": round(self.seconds, 3),
            "playouts_per_second": round(self.games / self.seconds, 1) if self.seconds > 0 else None,
        }

    def text(self) -> list:
        data = self.as_json()
        lines = [f"games: {self.games} (errors: {self.errors})", "ended:"]
        lines += [f"  {reason}: {count}" for reason, count in data["ended"].items()] or ["  (none)"]
        lines.append(f"steps: mean {data['steps_mean']}, median {data['steps_median']}" if self.steps
                     else "steps: (no game ended)")
        lines.append("wins by seat: " + ", ".join(f"seat {s}: {n}" for s, n in enumerate(self.wins))
                     + f" (shared by several: {self.shared}, won by nobody: {self.no_winner}"
                       + (f", of which draws: {self.draws})" if self.draws else ")"))
        lines.append(f"time: {data['seconds']} s ({data['playouts_per_second']} playouts/s)")
        return lines


def simulate(program, players: int, games: int, seed: int, max_steps: int | None = None,
             progress=None, summary: Summary | None = None, agents: tuple = ()) -> Summary:
    """Plays `games` games (random agents, or as `agents` specs say); `progress(n)` (optional)
    is told of each finished one. The games are added to `summary` when one is given (e.g. one
    that keeps records)."""
    summary = Summary.empty(players) if summary is None else summary
    start = time.perf_counter()
    for i in range(games):
        try:
            result, steps = playout(program, players, seed + i, max_steps, agents)
        except GameRuntimeError as err:
            summary.add_error(seed + i, err)
        else:
            summary.add(result, steps, seed + i)
        if progress is not None:
            progress(1)
    summary.seconds = time.perf_counter() - start
    return summary


# ---------------------------------------------------------------- over processes
class Block(msgspec.Struct, frozen=True):
    """A run of consecutive seeds of one game file."""
    path: str
    players: int
    games: int
    seed: int
    max_steps: int | None
    keep_records: bool = False
    agents: tuple = ()  # `SEAT=KIND` specs: agents are made from them in each process


def seed_blocks(path: str, players: int, games: int, seed: int, max_steps: int | None, jobs: int,
                keep_records: bool = False, agents: tuple = ()) -> list:
    """Cuts seeds seed..seed+games-1 into about BLOCKS_PER_JOB blocks per process."""
    count = max(1, min(games, jobs * BLOCKS_PER_JOB)) if jobs > 1 else 1
    sizes = [games // count + (1 if i < games % count else 0) for i in range(count)]
    starts = [seed + sum(sizes[:i]) for i in range(count)]
    return [Block(path, players, n, s, max_steps, keep_records, tuple(agents)) for n, s in zip(sizes, starts)]


_WORKER_PROGRAMS: dict = {}  # in a pool process: game path -> program, loaded or inherited once per process


def _load_program(path: str):
    from ..pipeline import load_game
    return load_game(path).program


def _programs_for(blocks: list, programs: dict | None) -> dict:
    """`programs` plus the program of every other game the blocks play, loaded here."""
    out = dict(programs or {})
    for block in blocks:
        if block.path not in out:
            out[block.path] = _load_program(block.path)
    return out


def play_block(block: Block, program, progress=None) -> Summary:
    summary = Summary.empty(block.players, block.path, block.keep_records)
    return simulate(program, block.players, block.games, block.seed, block.max_steps, progress, summary,
                    block.agents)


def _adopt_programs(programs: dict):
    """A pool process's initializer: the programs it was handed (never pickled: it forked)."""
    _WORKER_PROGRAMS.update(programs)


def _play_block_in_worker(block: Block) -> Summary:
    if block.path not in _WORKER_PROGRAMS:
        _WORKER_PROGRAMS[block.path] = _load_program(block.path)
    return play_block(block, _WORKER_PROGRAMS[block.path])


def start_method() -> str:
    """How the pool starts its processes: "fork" where the platform has it (not macOS,
    whose system libraries are not fork-safe) and this process runs a single thread (a
    fork copies only the calling thread, so a lock another thread holds would stay held
    in the worker); else "spawn". Forked workers inherit the programs compiled here;
    the summaries are the same either way."""
    if (sys.platform != "darwin" and "fork" in multiprocessing.get_all_start_methods()
            and threading.active_count() == 1):
        return "fork"
    return "spawn"


def run_blocks(blocks: list, jobs: int = 1, progress=None, programs: dict | None = None,
               backend=None) -> list:
    """Plays every block, over `jobs` processes (or on `backend`, e.g. ray_backend.RayBackend);
    one Summary per block, in block order. `programs` maps game paths to programs already
    loaded in this process. In one process, or in processes that fork, every block plays
    these programs, and the games they lack are loaded here first, once; spawned processes
    load each game file themselves, once each. `progress(n)` is told of finished games: one
    by one in a single process, a block at a time with several."""
    if backend is not None:
        return backend.run(blocks, progress)
    jobs = max(1, min(jobs, len(blocks)))
    if jobs == 1:
        programs = _programs_for(blocks, programs)
        return [play_block(block, programs[block.path], progress) for block in blocks]
    method = start_method()
    programs = _programs_for(blocks, programs) if method == "fork" else {}
    for program in programs.values():  # the fast Machines' generators too, made once here, not in each worker
        if program.make_whole is not None:
            program.make_whole()
    for stream in (sys.stdout, sys.stderr):  # or a fork would write what is still buffered twice
        stream.flush()
    parts = []
    with multiprocessing.get_context(method).Pool(jobs, _adopt_programs, (programs,)) as pool:
        for part in pool.imap(_play_block_in_worker, blocks):  # in seed order, as blocks finish
            parts.append(part)
            if progress is not None:
                progress(part.games)
    return parts


def merged(parts: list, players: int, path: str = "", keep_records: bool = False) -> Summary:
    total = Summary.empty(players, path, keep_records)
    for part in parts:
        total.merge(part)
    return total


def simulate_file(path: str, players: int, games: int, seed: int, max_steps: int | None = None,
                  jobs: int = 1, progress=None, program=None, keep_records: bool = False,
                  agents: tuple = (), backend=None) -> Summary:
    """Like `simulate`, over `jobs` processes, each loading the game from `path` (or
    using `program`, already loaded, in this one). The summary is the same as with
    one process (blocks are merged in seed order); only `seconds` differs."""
    begin = time.perf_counter()
    blocks = seed_blocks(path, players, games, seed, max_steps, jobs, keep_records, agents)
    programs = {path: program} if program is not None else None
    total = merged(run_blocks(blocks, jobs, progress, programs, backend), players, path, keep_records)
    total.seconds = time.perf_counter() - begin
    return total


@contextlib.contextmanager
def terminal_progress(length: int, label: str = "playing"):
    """A progress bar on stderr when stderr is a terminal (never in a pipe, a file or
    a CI log); yields its `update(n)`, or None when there is no bar."""
    if not sys.stderr.isatty():
        yield None
        return
    with click.progressbar(length=length, label=label, file=sys.stderr) as bar:
        yield bar.update
