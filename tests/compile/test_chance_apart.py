"""Statements that ask for chance compiled apart (compile_game's chance_apart, what the
OpenSpiel adapter loads): each roll, shuffle and draw an op of its own, so that a step
may pause where it asks. The games must play exactly as compiled the usual way: the same
transcript, byte for byte, and the same work spent."""
from __future__ import annotations

import pytest

from ruledsl.pipeline import load_game
from support import ROOT, record_game

GAME_FILES = sorted(str(p.relative_to(ROOT)) for d in ("games", "examples") for p in (ROOT / d).rglob("*.game"))


@pytest.mark.parametrize("path", GAME_FILES)
def test_every_game_plays_the_same_with_chance_apart(path):
    players = max(2, load_game(str(ROOT / path)).program.min_players)
    for seed in range(2):
        usual, text = record_game(str(ROOT / path), players, seed, max_steps=3000)
        apart, text_apart = record_game(str(ROOT / path), players, seed, max_steps=3000, chance_apart=True)
        assert text_apart == text, f"{path} seed {seed}: compiled apart, another game"
        assert apart.spent == usual.spent


def test_each_chance_statement_is_an_op_of_its_own():
    program = load_game(str(ROOT / "games" / "mafialand.game"), chance_apart=True).program
    kinds = [k for code in program.rules.values() for k in code.kinds]
    assert {"roll", "shuffle", "draw"} <= set(kinds)
    usual = load_game(str(ROOT / "games" / "mafialand.game")).program
    assert "roll" not in [k for code in usual.rules.values() for k in code.kinds]  # in a stretch there
