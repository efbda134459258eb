"""The one support module of the tests: paths, game text runners, scenario helpers.
(Random game files for property tests are written by random_programs.py beside it.)

Fixtures (games_dir, game_copy, the transcript schema check) live in conftest.py, which
puts this folder on sys.path, so tests write `from support import ...`.

Paths
    ROOT          the repository root (games/, examples/ below it)
    GAMES         tests/fixtures/games, the small games written for the tests
    repository_game_files  every .game file of the repository, the tests' own too
    mutated_texts  small game files with a few characters or words put in, cut or changed
Running things
    run_cli       `ruledsl ARGS...` through click's CliRunner (in process); returns the Result
    run_process   `python -m ruledsl ARGS...` in a real process (exit codes, no traceback)
    run_text      a Machine on a game written inline: `game "T" players 2..4` + text, fixed chance
    text_program  the compiled program of such a game; choose_labels plays labels on a Machine
    record_game   plays like `ruledsl play --record`, in process; returns (machine, transcript)
    plays_the_same  a game recorded the usual way (once a session: usual_game) and another way
    play_recorded / play_with   `ruledsl play --record` with random agents, from ROOT
    random_playout  a seeded game with random choices, stopped after N decisions
    compiled_texts  the generated texts given to Python's compile() from now on
Scenarios (a game driven decision by decision)
    FixedChance   dice from a queue, shuffles that keep the listed order
    start, drive  a Machine on a repository game (loaded once); decisions checked by name and label
    repository_game  a game of the repository, loaded once per session (not at import)
    card, labels, give   card ids, zone contents, putting cards in a hand
Transcripts
    records_of    transcript text -> records
    edit          replaces text in a game file (the text must be there)

A test that changes `m.w` by hand (not through `World.put`) should call `m.w.touch()`
afterwards if an end condition may now hold: the Machine skips end checks while the
World's version is unchanged.
"""
from __future__ import annotations

import functools
import io
import random
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner
from lark import Token, Tree

from ruledsl.play.agents import ask_agent, make_agent
from ruledsl.cli import main
from ruledsl.pipeline import load_game
from ruledsl.runtime.machine import Machine, RandomChance
from ruledsl.play.transcript import TranscriptWriter, parse_lines

ROOT = Path(__file__).resolve().parent.parent
GAMES = Path(__file__).parent / "fixtures" / "games"
FAST_STEPS = 300  # decisions a fast-subset test plays of a game that is compared two ways (plays_the_same)


def repository_game_files() -> list:
    """Every .game file of the repository: games/, examples/ and the tests' own."""
    return sorted(p for folder in ("games", "examples", "tests") for p in (ROOT / folder).rglob("*.game"))


MUTATIONS = list('{}()[]=<>+-*/%.,:?#"\\ \n\tdx09_aZ') + ["..", "->", "==", "+=", "2d6", "game", "rule", "none",
                                                        'say "{x}"']


def mutated_texts(seed: int, count: int, max_size: int = 6000):
    """`count` texts of the repository's game files under `max_size` characters, each with
    one to three characters or words (MUTATIONS) put in, over others or in place of none."""
    rng = random.Random(seed)
    texts = [p.read_text(encoding="utf-8") for p in repository_game_files() if p.stat().st_size < max_size]
    for _ in range(count):
        text = rng.choice(texts)
        for _ in range(rng.randrange(1, 4)):
            at = rng.randrange(len(text) + 1)
            text = text[:at] + rng.choice(MUTATIONS + [""]) + text[at + rng.choice([0, 0, 1, 2, 5]):]
        yield text


# ---------------------------------------------------------------- running things
def run_cli(*args, input=None):
    """`ruledsl ARGS...` in process (click's CliRunner); arguments may be paths or numbers."""
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def run_process(*args, cwd=GAMES) -> subprocess.CompletedProcess:
    """`python -m ruledsl ARGS...` in a real process, from the fixture games folder by default."""
    return subprocess.run([sys.executable, "-m", "ruledsl", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def run_text(tmp_path, text: str, players: int = 2, rolls=(), **kw) -> Machine:
    """A Machine on `game "T" players 2..4` followed by `text` (written to tmp_path/t.game),
    with FixedChance(rolls); `kw` goes to Machine (e.g. listener)."""
    return Machine(text_program(tmp_path, text), players, FixedChance(rolls), **kw)


def text_program(tmp_path, text: str, **load_kw):
    """The program of `game "T" players 2..4` followed by `text`, written to tmp_path/t.game;
    `load_kw` goes to load_game (e.g. fuse)."""
    path = tmp_path / "t.game"
    path.write_text('game "T" players 2..4\n' + text)
    return load_game(str(path), **load_kw).program


def compiled_texts(monkeypatch) -> list:
    """The generated texts given to Python's compile() (through ruledsl's code cache)
    from now on, in order: a list that fills as they are compiled."""
    from ruledsl import cache
    made, original = [], cache.compiled
    monkeypatch.setattr(cache, "compiled", lambda source, *a: made.append(source) or original(source, *a))
    return made


def choose_labels(machine, labels) -> list:
    """Chooses `labels` in turn, each of which must be legal; returns the names of the
    decisions asked."""
    asked = []
    for label in labels:
        asked.append(machine.pending.name)
        assert machine.choose(label) is None, label
    return asked


def record_game(path: str, players: int, seed: int, kinds=None, scripts=None, max_steps=None, fast=False,
                game=None, **load_kw):
    """Plays a game like `ruledsl play --record` does; returns (machine, transcript text).

    `scripts` maps seats of kind "scripted" to their labels; `max_steps` stops the game
    after that many decisions, as `--max-steps` does; `fast` runs whole rules as
    generators (Machine); `load_kw` goes to load_game (e.g. chance_apart), unless `game`
    is the game of `path` loaded already.
    """
    game = game or load_game(path, **load_kw)
    kinds = kinds or ["random"] * players
    scripts = scripts or {}
    agents = [make_agent(kind, seat, seed, scripts.get(seat)) for seat, kind in enumerate(kinds)]
    out = io.StringIO()
    writer = TranscriptWriter(out)
    writer.header(game, players, seed, kinds)
    machine = Machine(game.program, players, RandomChance(seed), listener=writer, fast=fast)
    while machine.pending is not None:
        if max_steps is not None and machine.steps >= max_steps:
            machine.stop_at_limit(f"step limit: {max_steps} decisions")
            break
        index = ask_agent(agents[machine.pending.seat], machine)
        machine.choose(machine.pending.labels[index])
    writer.result(machine)
    return machine, out.getvalue()


def plays_the_same(path: str, seeds, max_steps: int, players: int | None = None, **way):
    """Records each seeded game of `path` (relative to ROOT) the usual way and `way`
    (record_game's `fast`, load_game's `chance_apart`): the same transcript, byte for
    byte, after as many decisions and as much work."""
    players = players or max(2, repository_game(path).program.min_players)
    for seed in seeds:
        steps, spent, text = usual_game(path, players, seed, max_steps)
        other, other_text = record_game(str(ROOT / path), players, seed, max_steps=max_steps, **way)
        assert other_text == text, f"{path} seed {seed}, {way}: another game"
        assert (other.steps, other.spent) == (steps, spent)


@functools.lru_cache(maxsize=None)
def usual_game(path: str, players: int, seed: int, max_steps: int) -> tuple:
    """(decisions, work spent, transcript) of a game recorded the usual way, recorded once
    per session: several tests compare other ways of playing with the same game."""
    usual, text = record_game(str(ROOT / path), players, seed, max_steps=max_steps, game=repository_game(path))
    return usual.steps, usual.spent, text


def play_with(tmp_path, monkeypatch, game_path: str, players: int, want: str, seeds=range(1, 80), max_steps=None):
    """The first seeded game whose transcript contains `want`: (narration, transcript, seed).

    Tests look for a game with the property they need, not at one seed's outcome,
    so they survive a change of the random streams."""
    for seed in seeds:
        narration, transcript = play_recorded(tmp_path, monkeypatch, game_path, players, seed, max_steps)
        if want in transcript:
            return narration, transcript, seed
    raise AssertionError(f"no seed of {seeds} gives a {game_path} game with {want!r}")


def play_recorded(tmp_path, monkeypatch, game_path: str, players: int, seed: int, max_steps=None):
    """`ruledsl play` with random agents from the repository root; returns (narration, transcript)."""
    monkeypatch.chdir(ROOT)
    record = tmp_path / "game.jsonl"
    args = ["play", game_path, "--players", str(players), "--seed", str(seed), "--record", str(record)]
    if max_steps:
        args += ["--max-steps", str(max_steps)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return result.output, record.read_text()


def random_playout(program, players: int, seed: int, max_decisions: int, each_step=None) -> Machine:
    """A seeded game with uniformly random choices (seeded too), stopped after
    max_decisions if it hasn't ended; `each_step(m)` runs before every choice."""
    m = Machine(program, players, RandomChance(seed))
    rng = random.Random(seed)
    while m.result is None and m.steps < max_decisions:
        if each_step is not None:
            each_step(m)
        m.choose_index(rng.randrange(len(m.pending.labels)))
    return m


# ---------------------------------------------------------------- scenarios
class FixedChance:
    """Dice come from a queue (then 1s); shuffles keep the order cards were listed in."""

    def __init__(self, rolls=()):
        self.given = list(rolls)
        self.rolls = list(rolls)

    def restart(self):
        """As it was before its first roll (a fast Machine cloned mid-rule replays from it)."""
        return FixedChance(self.given)

    def roll(self, count, sides, what):
        out = [self.rolls.pop(0) if self.rolls else 1 for _ in range(count)]
        return out

    def shuffle(self, cards, what):
        return list(cards)


def start(game_path: str, players: int, rolls=()) -> Machine:
    """A Machine on a game of the repository (path relative to ROOT) with FixedChance(rolls)."""
    return Machine(repository_game(game_path).program, players, FixedChance(rolls))


def repository_game(game_path: str):
    """A game of the repository (path relative to ROOT), loaded once (see loaded_once)."""
    path = ROOT / game_path
    return loaded_once(str(path), path.stat().st_mtime_ns)


@functools.lru_cache(maxsize=None)
def loaded_once(path: str, mtime_ns: int):
    """load_game, once per file version and test session: Machines share a Program (as
    simulate's games do), and scenario tests start hundreds of Machines on five games."""
    return load_game(path)


def drive(m: Machine, *steps):
    """Each step is (decision name, label); both must match what the game asks."""
    for name, label in steps:
        assert m.pending is not None, f"game over ({m.result and m.result.reason}) before {name!r}"
        assert m.pending.name == name, f"asked {m.pending.name!r} {m.pending.labels}, expected {name!r}"
        refusal = m.choose(label)
        assert refusal is None, f"{refusal.message}; legal: {refusal.legal}"


def card(m: Machine, label: str) -> int:
    """The id of the first card with this label."""
    return next(c.id for c in m.program.cards if c.label == label)


def labels(m: Machine, zone, key=None) -> list:
    """The labels of the cards in a zone, in order."""
    return [m.program.cards[c].label for c in m.w.zones[(zone, key)]]


def give(m: Machine, seat: int, *card_labels):
    """Puts named cards on top of a seat's hand, wherever they were."""
    for lab in card_labels:
        m.w.put(card(m, lab), ("hand", seat))


# ---------------------------------------------------------------- transcripts and game files
def records_of(text: str) -> list:
    """The records of a transcript's text."""
    return parse_lines(text.split("\n"))


def edit(path, old: str, new: str):
    """Replaces `old` by `new` in a file (a game under test); `old` must be there."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def same_tree(ours, lark_s) -> None:
    """Asserts two parse trees are equal, with every token's and node's position."""
    assert type(ours) is type(lark_s), (ours, lark_s)
    if isinstance(ours, Tree):
        assert ours.data == lark_s.data and len(ours.children) == len(lark_s.children), (ours.data, lark_s.data)
        assert vars(ours.meta) == vars(lark_s.meta), ours.data
        for a, b in zip(ours.children, lark_s.children):
            same_tree(a, b)
    elif isinstance(ours, Token):
        assert [getattr(ours, k) for k in Token.__slots__] == [getattr(lark_s, k) for k in Token.__slots__]
    else:
        assert ours == lark_s
