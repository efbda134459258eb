"""Statements that ask for chance compiled apart (compile_game's chance_apart, what the
OpenSpiel adapter loads): each roll, shuffle and draw an op of its own, so that a step
may pause where it asks. The games must play exactly as compiled the usual way: the same
transcript, byte for byte, and the same work spent."""
from __future__ import annotations

import pytest

from ruledsl.pipeline import load_game
from ruledsl.runtime.chance import ChancePause, RandomChance, ScriptedChance
from ruledsl.runtime.machine import Machine
from support import FAST_STEPS, GAMES, ROOT, plays_the_same

GAME_FILES = sorted(str(p.relative_to(ROOT)) for d in ("games", "examples") for p in (ROOT / d).rglob("*.game"))


def same_games(path, seeds, max_steps, players=None):
    plays_the_same(path, seeds, max_steps, players, chance_apart=True)


@pytest.mark.parametrize("path", GAME_FILES)
def test_every_game_plays_the_same_with_chance_apart(path):
    same_games(path, range(1), max_steps=FAST_STEPS)  # the fast subset; the slow test plays whole games


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



class _Recording(RandomChance):
    """A random source that keeps the shuffles it gave."""

    def __init__(self, seed):
        super().__init__(seed)
        self.given = []

    def shuffle(self, cards, what):
        self.given.append(super().shuffle(cards, what))
        return self.given[-1]


def test_a_draw_paused_by_its_second_refill_tells_its_first_shuffle_once():
    """`draw 7` with 2 cards in the deck refills it twice. Paused at the second refill,
    the draw runs again whole; a listener hears each shuffle once, as in a run that
    never paused (it heard the first one twice)."""
    program = load_game(str(GAMES / "refill_twice.game"), chance_apart=True).program

    def draw_seven(chance, outcomes=()):
        heard = []
        m = Machine(program, 2, chance, listener=lambda kind, data: heard.append((kind, data)))
        step, known = (lambda: m.choose("7")), list(outcomes)
        while True:
            try:
                step()
                break
            except ChancePause:  # the source is told the outcome; the step goes on
                chance.outcomes.append(known.pop(0))
                step = m.resume
        return [(d["what"], d["outcome"]) for kind, d in heard if kind == "chance"], m

    never_paused, m = draw_seven(_Recording(5))
    assert len(never_paused) == 2 and m.pending is not None
    paused, m2 = draw_seven(ScriptedChance(), m.chance.given)
    assert paused == never_paused and m2.w.zones == m.w.zones and m2.pending is not None
