"""The OpenSpiel adapter's steps in place (ruledsl/openspiel/play.py, Play.run_step): a
state no clone shares steps its machine in place, pausing where a step asks for chance,
and what it shows must be what a copy per step (the step run again from its start with
the outcomes known so far) shows: the same states, information states made again by a
replay when a later step changed the machine they were seen on, and clones, also clones
taken at a chance node half-way through a step, left alone by the original's steps.
"""
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from ruledsl.openspiel.game import load_game  # noqa: E402
from ruledsl.openspiel.play import Play  # noqa: E402
from support import GAMES as FIXTURES, ROOT  # noqa: E402

EXAMPLES = ROOT / "examples"
GAMES = [(EXAMPLES / "tic_tac_toe.game", 2), (EXAMPLES / "kuhn_poker.game", 2),
         (EXAMPLES / "goofspiel.game", 2), (ROOT / "games" / "mafia_dollar.game", 2),
         # chance after set-up: dice, shuffles, and draws from decks that refill
         (EXAMPLES / "pig.game", 2), (ROOT / "games" / "mafialand.game", 3),
         (ROOT / "games" / "road_to_infamy.game", 2), (ROOT / "games" / "the_boss.game", 3),
         (ROOT / "games" / "bada_bing.game", 2)]


def both_ways(path, players):
    """The game twice: stepping in place where it can, and with a copy per step."""
    fast, slow = load_game(str(path), players=players), load_game(str(path), players=players)
    slow.in_place = False
    return fast, slow


def random_actions(state, rng, limit):
    """A random line of play from `state` (changed in place), as a list of actions."""
    actions = []
    while not state.is_terminal() and len(actions) < limit:
        if state.is_chance_node():
            action = rng.choice([a for a, _ in state.chance_outcomes()])
        else:
            action = rng.choice(state.legal_actions())
        actions.append(action)
        state.apply_action(action)
    return actions


def views(state, players):
    return [str(state)] + [state.information_state_string(s) for s in range(players)] + \
        [state.observation_string(s) for s in range(players)]


@pytest.mark.parametrize("path,players", GAMES, ids=lambda v: getattr(v, "stem", v))
def test_in_place_states_show_what_a_copy_per_step_shows(path, players):
    fast, slow = both_ways(path, players)
    assert fast.in_place
    for seed in range(6):
        line = random_actions(fast.new_initial_state(), random.Random(seed), 60)
        a, b = fast.new_initial_state(), slow.new_initial_state()
        for action in line:
            if seed % 2:  # asked at every step: every link's views made while it is live
                assert views(a, players) == views(b, players)
            a.apply_action(action)
            b.apply_action(action)
        # asked at the end only: the earlier links' machines were changed in place since,
        # so their views come from a replay
        assert views(a, players) == views(b, players)
        assert a.returns() == b.returns()


@pytest.mark.parametrize("path,players", GAMES, ids=lambda v: getattr(v, "stem", v))
def test_a_clone_is_left_alone_by_the_originals_steps(path, players):
    fast, _ = both_ways(path, players)
    rng = random.Random(7)
    for _ in range(4):
        state = fast.new_initial_state()
        first = random_actions(state, rng, 3)
        branch = state.clone()
        before = views(branch, players)
        rest = random_actions(state, rng, 60)  # the original goes on (a copy first, then in place)
        assert views(branch, players) == before
        for action in rest:
            branch.apply_action(action)
        replayed = fast.new_initial_state()
        for action in first + rest:
            replayed.apply_action(action)
        assert views(branch, players) == views(state, players) == views(replayed, players)


def test_a_step_that_asks_for_chance_pauses_in_place_and_goes_on(monkeypatch):
    """Pig's roll: after the choice to roll, the state is a chance node whose machine is
    the same one, paused in the step; the outcome makes it go on. No copy is made."""
    game = load_game(str(EXAMPLES / "pig.game"), players=2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(0)
    copies = []
    monkeypatch.setattr(type(state.play.machine), "clone", lambda *a, **k: copies.append(a) or None)
    machine = state.play.machine
    state.apply_action(game.label_ids["roll"])
    assert state.is_chance_node() and state.play.paused is machine and machine.pending is None
    state.apply_action(3)  # a four
    assert not state.is_chance_node() and state.play.machine is machine and machine.pending is not None
    assert copies == []
    assert not load_game(str(EXAMPLES / "goofspiel.game"), simultaneous=True).in_place  # its runs keep copies


def test_a_draw_that_refills_twice_takes_each_shuffle_once():
    """`draw 7` with 2 cards in the deck refills it from `used` (the draw's own
    destination) twice: the second shuffle pauses a draw that has taken the first one's
    outcome, which must be given back (ScriptedChance.rewind) before the draw runs again."""
    fast, slow = both_ways(FIXTURES / "refill_twice.game", 2)
    line = [fast.label_ids["7"]] + [1, 2, 0] + [2, 0, 1] + [fast.label_ids["3"]]
    a, b = fast.new_initial_state(), slow.new_initial_state()
    for action in line:
        a.apply_action(action)
        b.apply_action(action)
        assert views(a, 2) == views(b, 2)
    assert not a.is_chance_node() and a.play.machine.steps == 2


def test_a_draw_paused_by_its_refill_puts_its_cards_back_and_runs_again_whole():
    """A draw that empties its deck half-way asks for the refill's shuffle: paused there,
    the cards it moved go back, so the paused state is the World before the draw."""
    text = """game "T" players 2..2
cards chip(v: int) { each v in 1..4 }
zone deck: chip hidden refill from used
zone used: chip public
zone hand per player: chip owner
rule setup() { draw 2 from deck to used }
rule flow() {
  loop {
    choose n from 1..3 by seat(0)
    draw n from deck to hand[seat(0)]
    draw n from hand[seat(0)] to used
  }
}
"""
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.game"
        path.write_text(text)
        game = load_game(str(path), players=2)
    state = game.new_initial_state()
    state.apply_action(game.label_ids["3"])  # 2 cards in the deck: the third needs a refill
    assert state.is_chance_node()
    paused = state.play.paused.w
    assert (len(paused.zones[("deck", None)]), len(paused.zones[("used", None)])) == (2, 2)
    assert all(paused.loc[c] == ("deck", None) for c in paused.zones[("deck", None)])
    branch = state.clone()
    state.apply_action(1)
    branch.apply_action(0)
    for s in (state, branch):
        assert not s.is_chance_node()
        w = s.play.machine.w
        assert len(w.zones[("used", None)]) == 3 and len(w.zones[("deck", None)]) == 1
    assert str(state) != str(branch)  # the two outcomes of the shuffle, each on its own machine
    assert isinstance(state.play, Play)
