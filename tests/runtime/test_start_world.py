"""Every game starts from a copy of one start World per player count (Program.new_world)."""
import pytest

from ruledsl.errors import GameRuntimeError
from ruledsl.runtime.machine import Machine
from ruledsl.pipeline import load_game
from support import FixedChance, repository_game


def test_a_game_leaves_the_next_games_start_alone():
    program = repository_game("games/mafialand.game").program
    first = Machine(program, 3, FixedChance([3, 4]))
    first.w.players[0]["stash"] = 99
    first.w.spaces["houses"]["owner"][next(iter(first.w.spaces["houses"]["owner"]))] = 1
    first.w.zones[("deck", None)].clear()
    second = Machine(program, 3, FixedChance([3, 4]))
    assert second.w.players[0]["stash"] != 99
    assert all(owner is None for owner in second.w.spaces["houses"]["owner"].values())
    assert second.w.zones[("deck", None)] or second.w.zones[("hand", 0)]
    assert program.start_world(3).players[0]["stash"] != 99


def test_a_start_value_that_fails_fails_every_game(tmp_path):
    path = tmp_path / "t.game"
    path.write_text('game "T" players 2..4\nshared { n: int = 1 / 0 }\nrule flow() { n = 1 }\n')
    program = load_game(str(path)).program
    for _ in range(2):  # nothing half-built is kept for the second game
        with pytest.raises(GameRuntimeError) as err:
            Machine(program, 2, FixedChance())
        assert err.value.diagnostic.code in ("R003", "R009")
