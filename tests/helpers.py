"""Shared helpers of the agent, transcript and CLI tests (fixtures live in conftest.py).
"""
from __future__ import annotations

import io
from pathlib import Path

from ruledsl.agents import ask_agent, make_agent
from ruledsl.pipeline import load_game
from ruledsl.runtime import Machine, RandomChance
from ruledsl.transcript import TranscriptWriter

GAMES = Path(__file__).parent / "fixtures" / "games"


def record_game(path: str, players: int, seed: int, kinds=None, scripts=None, max_steps=None):
    """Plays a game like `ruledsl play --record` does; returns (machine, transcript text).

    `scripts` maps seats of kind "scripted" to their labels; `max_steps` stops the game
    after that many decisions, as `--max-steps` does.
    """
    game = load_game(path)
    kinds = kinds or ["random"] * players
    scripts = scripts or {}
    agents = [make_agent(kind, seat, seed, scripts.get(seat)) for seat, kind in enumerate(kinds)]
    out = io.StringIO()
    writer = TranscriptWriter(out)
    writer.header(game, players, seed, kinds)
    machine = Machine(game.program, players, RandomChance(seed), listener=writer)
    while machine.pending is not None:
        if max_steps is not None and machine.steps >= max_steps:
            machine.stop_at_limit(f"step limit: {max_steps} decisions")
            break
        index = ask_agent(agents[machine.pending.seat], machine)
        writer.decision(machine, machine.pending.labels[index])
    writer.result(machine)
    return machine, out.getvalue()
