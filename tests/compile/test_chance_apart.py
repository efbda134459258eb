"""Statements that ask for chance compiled apart (compile_game's chance_apart, what the
OpenSpiel adapter loads): each roll, shuffle and draw an op of its own, so that a step
may pause where it asks. The games must play exactly as compiled the usual way: the same
transcript, byte for byte, and the same work spent."""
from __future__ import annotations

import pytest

from ruledsl.pipeline import load_game
from support import ROOT, plays_the_same

GAME_FILES = sorted(str(p.relative_to(ROOT)) for d in ("games", "examples") for p in (ROOT / d).rglob("*.game"))


def same_games(path, seeds, max_steps, players=None):
    plays_the_same(path, seeds, max_steps, players, chance_apart=True)


@pytest.mark.parametrize("path", GAME_FILES)
def test_every_game_plays_the_same_with_chance_apart(path):
    same_games(path, range(1), max_steps=400)  # the fast subset; the slow test plays whole games


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(p for p in GAME_FILES if p.startswith("games/") and p.count("/") == 1))
@pytest.mark.parametrize("players", [3, 4])
def test_whole_games_play_the_same_with_chance_apart(path, players):
    same_games(path, range(1, 5), max_steps=3000, players=players)


def test_each_chance_statement_is_an_op_of_its_own():
    program = load_game(str(ROOT / "games" / "mafialand.game"), chance_apart=True).program
    kinds = [k for code in program.rules.values() for k in code.kinds]
    assert {"roll", "shuffle", "draw"} <= set(kinds)
    usual = load_game(str(ROOT / "games" / "mafialand.game")).program
    assert "roll" not in [k for code in usual.rules.values() for k in code.kinds]  # in a stretch there
