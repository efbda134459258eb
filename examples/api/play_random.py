"""Plays a shipped game with random choices through ruledsl's Python API, records it,
replays the transcript, and shows clone(): a copy of a game in progress that plays on
without touching the original.

    python examples/api/play_random.py [GAME] [PLAYERS] [SEED]     (default: mafialand 3 7)
"""
from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

import ruledsl


def main(game_name: str = "mafialand", players: int = 3, seed: int = 7) -> ruledsl.Result:
    game = ruledsl.load(game_name)                   # a path, or a shipped game's name
    print(f"{game.title}: {game.min_players}..{game.max_players} players")
    pick = random.Random(seed)
    transcript = Path(tempfile.mkdtemp()) / "game.jsonl"
    match = game.start(players=players, seed=seed, record=transcript)
    while not match.over:
        decision = match.decision                    # who decides what, and the legal labels
        if match.steps == 10:
            what_if = match.clone()                  # explore a line of play on a copy
            what_if.choose(decision.labels[-1])
            assert match.steps == 10                 # the original is untouched
        match.choose(pick.choice(decision.labels))
    result = match.result
    print(f"{match.steps} decisions; {result.reason}; winners: {list(result.winners)}")
    print("seat 0 sees:", sorted(match.view(seat=0)["players"][0]))
    report = ruledsl.replay(transcript)              # the rules as recorded in the transcript
    print(f"replayed {report.steps} steps: all match")
    return result


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0] if args else "mafialand", int(args[1]) if len(args) > 1 else 3, int(args[2]) if len(args) > 2 else 7)
