"""Walks without `on pass` triggers move in one step (Program.walk_to): the same space
as stepping one space at a time, on every track of every game, for any count."""
import pytest

from support import ROOT, repository_game, run_text


def step_by_step(program, space, direction, steps):
    """The reference: one space at a time, stopping at the end of a line."""
    here = space
    while steps > 0:
        steps -= 1
        here = program.step_space(here, direction)
        if steps > 0 and program.step_space(here, direction) == here:
            break
    return here


GAME_FILES = sorted(str(p.relative_to(ROOT)) for p in [*ROOT.glob("games/*.game"), *ROOT.glob("examples/*.game")])


@pytest.mark.parametrize("game", GAME_FILES)
def test_walk_to_lands_where_single_steps_land(game):
    program = repository_game(game).program
    tracks = [b for b in program.boards.values() if b.forward or b.backward]
    for board in tracks:
        for space in board.spaces:
            for direction in ("forward", "backward"):
                for steps in range(0, 2 * len(board.spaces) + 3):
                    assert program.walk_to(space, direction, steps) == step_by_step(program, space, direction, steps)


LANE = '''
board lane() KIND { space a space b space c space d }
player { at: lane = a }
'''


@pytest.mark.parametrize("kind, where", [("loop", "b"), ("line", "d")])
def test_a_huge_count_is_taken_in_one_step(tmp_path, kind, where):
    """4 * 10**15 + 1 steps: round a loop to the next space, or to a line's end, at once."""
    m = run_text(tmp_path, LANE.replace("KIND", kind) + "rule flow() { move seat(0).at by 4000000000000001 steps forward }")
    assert m.w.players[0]["at"] == where


def test_a_track_that_runs_into_a_loop_goes_round_the_loop(tmp_path):
    """A line leading into a loop (a -> b -> c -> d -> b ...), as `next` rows can draw."""
    from ruledsl.runtime.program import Track
    nxt = {"a": "b", "b": "c", "c": "d", "d": "b"}
    track = Track.of("a", nxt.__getitem__)
    assert (track.path, track.loop_from) == (("a", "b", "c", "d"), 1)
    here = "a"
    for steps in range(1, 12):
        here = nxt[here]
        assert track.at(steps) == here
