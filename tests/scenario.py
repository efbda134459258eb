"""Helpers for scenario tests: fixed chance, scripted decisions, state pokes.

A test that changes `m.w` by hand (not through `World.put`) should call `m.w.touch()`
afterwards if an end condition may now hold: the Machine skips end checks while the
World's version is unchanged.
"""
from __future__ import annotations

import random
from pathlib import Path

from click.testing import CliRunner

from ruledsl.cli import main
from ruledsl.pipeline import load_game
from ruledsl.runtime import Machine, RandomChance

ROOT = Path(__file__).resolve().parent.parent


class FixedChance:
    """Dice come from a queue (then 1s); shuffles keep the order cards were listed in."""

    def __init__(self, rolls=()):
        self.rolls = list(rolls)

    def roll(self, count, sides, what):
        out = [self.rolls.pop(0) if self.rolls else 1 for _ in range(count)]
        return out

    def shuffle(self, cards, what):
        return list(cards)


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


def start(game_path: str, players: int, rolls=()) -> Machine:
    game = load_game(str(ROOT / game_path))
    return Machine(game.program, players, FixedChance(rolls))


def drive(m: Machine, *steps):
    """Each step is (decision name, label); both must match what the game asks."""
    for name, label in steps:
        assert m.pending is not None, f"game over ({m.result and m.result.reason}) before {name!r}"
        assert m.pending.name == name, f"asked {m.pending.name!r} {m.pending.labels}, expected {name!r}"
        refusal = m.choose(label)
        assert refusal is None, f"{refusal.message}; legal: {refusal.legal}"


def card(m: Machine, label: str) -> int:
    return next(c.id for c in m.program.cards if c.label == label)


def labels(m: Machine, zone, key=None) -> list:
    return [m.program.cards[c].label for c in m.w.zones[(zone, key)]]


def give(m: Machine, seat: int, *card_labels):
    """Puts named cards on top of a seat's hand, wherever they were."""
    for lab in card_labels:
        m.w.put(card(m, lab), ("hand", seat))


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
