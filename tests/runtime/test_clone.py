"""Machine.clone(): a game in progress, copied. Same choices -> same states and result;
moves on the clone leave the original alone. With a seeded and a replayed chance source."""
from __future__ import annotations

import random

import pytest

from ruledsl.play.agents import ask_agent, make_agent
from ruledsl.play.divergence import chance_of
from ruledsl.pipeline import load_game
from ruledsl.runtime.machine import Machine, RandomChance
from ruledsl.play.transcript import parse_line
from support import ROOT, record_game, text_program

GAMES = ["games/mafialand.game", "games/bada_bing.game", "games/the_boss.game", "examples/pig.game",
         "examples/kuhn_poker.game", "tests/fixtures/games/secret_bid.game"]


def state(m: Machine):
    pending = None if m.pending is None else (m.pending.seat, m.pending.name, list(m.pending.labels))
    result = None if m.result is None else (m.result.reason, m.result.winners, m.result.ranking, m.result.scores)
    return m.w.snapshot(), pending, result, m.steps


def play_on(m: Machine, seed: int, limit: int = 400) -> list:
    """Plays `m` with seeded random choices; returns the states after each choice."""
    rng = random.Random(seed)
    states = []
    while m.pending is not None and m.steps < limit:
        m.choose(rng.choice(m.pending.labels))
        states.append(state(m))
    return states


def advance(m: Machine, steps: int, seed: int):
    rng = random.Random(seed)
    while m.pending is not None and steps > 0:
        m.choose(rng.choice(m.pending.labels))
        steps -= 1


@pytest.mark.parametrize("fast", [False, True], ids=["op lists", "fast"])
@pytest.mark.parametrize("path", GAMES)
@pytest.mark.parametrize("at", [0, 7, 30])
def test_a_clone_plays_on_as_the_original_would(path, at, fast):
    """Also of a fast Machine (whole rules as generators): cloned while a rule is under
    way, the clone goes on in the rule's generator resumed after the pause it waits at
    (compile/resume.py), and both go on as generators."""
    program = load_game(str(ROOT / path)).program
    original = Machine(program, program.min_players, RandomChance(5), fast=fast)
    advance(original, at, seed=1)
    spent = original.spent
    clone = original.clone()
    assert state(clone) == state(original) and clone.spent == original.spent == spent
    assert clone.fast == original.fast == fast
    assert [f.it is not None for f in clone.frames] == [f.it is not None for f in original.frames]
    before = state(original)
    on_clone = play_on(clone, seed=2)
    assert state(original) == before  # the clone's moves left the original alone
    on_original = play_on(original, seed=2)
    assert on_clone == on_original
    assert state(clone) == state(original)


def test_the_original_is_unaffected_by_a_clone_that_plays_to_the_end():
    program = load_game(str(ROOT / "games/mafialand.game")).program
    original = Machine(program, 3, RandomChance(9))
    advance(original, 12, seed=3)
    snapshot, digest = original.w.snapshot(), original.w.digest()
    frames = [(f.code, f.pc, dict(f.env)) for f in original.frames]
    clone = original.clone()
    play_on(clone, seed=4, limit=10_000)
    assert clone.result is not None and original.result is None
    assert original.w.snapshot() == snapshot and original.w.digest() == digest
    assert [(f.code, f.pc, f.env) for f in original.frames] == frames
    assert original.pending is not None


def test_a_clone_of_a_replayed_game_takes_the_same_recorded_chance():
    _, text = record_game(str(ROOT / "examples/pig.game"), 2, seed=3)
    records = [parse_line(i + 1, line) for i, line in enumerate(text.splitlines())]
    choices = [r["choice"] for r in records if r["type"] == "decision"]
    program = load_game(str(ROOT / "examples/pig.game")).program
    original = Machine(program, 2, chance_of(records))
    for label in choices[:5]:
        original.chance.step = original.steps + 1
        original.choose(label)
    clone = original.clone()
    assert clone.chance is not original.chance
    for m in (clone, original):
        for label in choices[5:]:
            m.chance.step = m.steps + 1
            m.choose(label)
    assert state(clone) == state(original) and clone.result is not None


def test_a_clone_does_not_report_to_the_originals_listener():
    heard = []
    program = load_game(str(ROOT / "examples/pig.game")).program
    original = Machine(program, 2, RandomChance(1), listener=lambda kind, data: heard.append(kind))
    count = len(heard)
    clone = original.clone()
    agent = make_agent("random", 0, 1)
    while clone.pending is not None:
        clone.choose_index(ask_agent(agent, clone))
    assert len(heard) == count


def test_a_copy_holds_the_zones_with_cards_and_shows_every_zone():
    """World.zones keeps only zones that held cards (runtime/world.py, Zones): MafiaDollar
    has a zone per card, 721 in all. Empty ones are made on first use, an unknown key is
    still an error, and views show every zone in the program's order."""
    import pickle

    program = load_game(str(ROOT / "games" / "mafia_dollar.game")).program
    m = Machine(program, 3, RandomChance(1))
    w = m.w.clone()
    assert len(w.zones) < 50 < len(w.zones.order) == 721
    assert all(w.zones.values())  # a copy copies zones that hold cards only
    labels = [program.zone_label(k) for k in w.zones.order]
    assert list(w.snapshot()["zones"]) == labels and list(w.snapshot(0)["zones"]) == labels
    empty = next(k for k in w.zones.order if k not in w.zones)
    assert w.zones[empty] == [] and empty in w.zones  # made on first use
    with pytest.raises(KeyError):
        w.zones[("no such zone", None)]
    again = pickle.loads(pickle.dumps(w.zones))
    assert again == w.zones and again.order == w.zones.order and again.in_order() == w.zones.in_order()
    card = w.zones.filled()[0][1][0]
    w.put(card, empty)
    assert (empty, [card]) in w.zones.filled()
    assert [k for k, _ in w.zones.filled()] == sorted(w.zones.keys() - {k for k, v in w.zones.items() if not v},
                                                       key=w.zones.order.index)
    assert m.w.snapshot() != w.snapshot()  # the copy changed alone


def test_a_game_of_few_zones_has_them_all_made_and_copied():
    """Up to ALL_MADE zones, every zone is made at the start and every copy copies each,
    empty or not: none is made again in each game (Kuhn poker's two hands)."""
    from ruledsl.runtime.world import ALL_MADE

    program = load_game(str(ROOT / "examples" / "kuhn_poker.game")).program
    start = program.start_world(2)
    assert len(start.zones.order) <= ALL_MADE and set(start.zones) == set(start.zones.order)
    w = start.clone()
    assert w.zones == start.zones and all(w.zones[k] is not start.zones[k] for k in w.zones)
    assert w.zones[("hand", 0)] == [] and set(w.zones) == set(w.zones.order)


COPIED = ["games/mafialand.game", "games/bada_bing.game", "games/road_to_infamy.game", "games/the_boss.game",
          "games/mafia_dollar.game", "examples/tic_tac_toe.game", "examples/kuhn_poker.game"]


@pytest.mark.parametrize("path", COPIED)
def test_a_world_copy_shares_no_container_with_its_original(path):
    """World.clone copies by code written for the program's shape (world.copier): every
    container (players, boards' columns with their tallies and each tally's groups, card
    fields, zones) is a new one holding what the original holds, of the same type; empty
    zones are kept in a game of ALL_MADE zones or fewer and left out in a larger one. Who is in play and the order
    of those out are shared: an elimination replaces them."""
    from ruledsl.runtime.world import ALL_MADE, Column

    program = load_game(str(ROOT / path)).program
    m = Machine(program, program.min_players + 1 if program.max_players > program.min_players else 2,
                RandomChance(3))
    advance(m, 12, seed=4)
    w = m.w
    c = w.clone()
    assert c.snapshot() == w.snapshot() and c.version == w.version and c.work == w.work
    assert c.alive is w.alive and c.out_order is w.out_order  # replaced when changed, never changed in place
    pairs = [(c.shared, w.shared), (c.loc, w.loc), (c.players, w.players), (c.spaces, w.spaces), (c.cardf, w.cardf)]
    pairs += list(zip(c.players, w.players))
    pairs += [(c.spaces[b][f], col) for b, cols in w.spaces.items() for f, col in cols.items()]
    pairs += [(c.cardf[f], col) for f, col in w.cardf.items()]
    pairs += [(c.zones[k], cards) for k, cards in w.zones.items() if cards]
    for mine, theirs in pairs:
        assert mine == theirs and mine is not theirs and type(mine) is type(theirs)
    for b, cols in w.spaces.items():
        for f, col in cols.items():
            if isinstance(col, Column):
                for mine, theirs in zip(c.spaces[b][f].tallies, col.tallies, strict=True):
                    assert mine == theirs and mine is not theirs and type(mine) is type(theirs)
                    assert all(mine[group] is not counts for group, counts in theirs.items())
    assert c.zones.filled() == w.zones.filled() and c.zones is not w.zones and type(c.zones) is type(w.zones)
    if len(w.zones.order) <= ALL_MADE:
        assert set(c.zones) == set(w.zones.order)
    else:
        assert all(c.zones.values()) and len(c.zones) < len(w.zones.order)
    assert c.zones.order is w.zones.order and c.consts is w.consts


def test_an_elimination_in_a_clone_leaves_the_original_alone(tmp_path):
    from support import run_text

    m = run_text(tmp_path, """rule flow() {
  loop {
    choose by seat(0) as "who goes" {
      option "one" { eliminate seat(1) }
      option "two" { eliminate seat(2) }
    }
  }
}
""", players=4)
    clone = m.clone()
    clone.choose("one")
    assert clone.w.alive == [True, False, True, True] and clone.w.out_order == [1]
    assert m.w.alive == [True] * 4 and m.w.out_order == []
    m.choose("two")
    again = m.clone()
    again.choose("one")
    assert m.w.alive == [True, True, False, True] and m.w.out_order == [2]
    assert again.w.alive == [True, False, False, True] and again.w.out_order == [2, 1]


def test_a_fast_machine_is_cloned_without_a_replay_and_stays_fast(monkeypatch):
    """A clone's generators are resumed ones (compile/resume.py): nothing is played again
    (the listener hears nothing), the original stays fast, and each resumed generator is
    written once for its pause, then shared by every clone waiting there."""
    program = load_game(str(ROOT / "games/mafialand.game")).program
    heard = []
    original = Machine(program, 3, RandomChance(9), fast=True, listener=lambda kind, data: heard.append(kind))
    advance(original, 25, seed=3)
    monkeypatch.setattr(Machine, "as_op_lists", lambda self: pytest.fail("replayed"))
    told = len(heard)
    first, second = original.clone(), original.clone()
    assert len(heard) == told and original.fast and original.log is not None
    assert [f.it is not None for f in original.frames] == [True]
    assert first.frames[0].it is not second.frames[0].it and first.frames[0].it is not original.frames[0].it
    resumed = program.rules["flow"].resumed
    point = resumed.point_of(original.frames[0].it)
    assert list(resumed.made) == [point] and resumed(point) is not None
    assert state(first) == state(second) == state(original)
    play_on(original, seed=4)
    assert play_on(first, seed=4)[-1] == state(original)


def test_a_fast_machine_whose_rule_has_no_resumed_generator_replays_its_game_once(monkeypatch):
    """Where a rule has no generator resumed after the pause (a text Python refuses, say),
    as_op_lists: the choices so far played again on a Machine of op lists, silently (the
    original's listener hears nothing of it), then clones are copies of op lists."""
    program = load_game(str(ROOT / "games/mafialand.game")).program
    heard = []
    original = Machine(program, 3, RandomChance(9), fast=True, listener=lambda kind, data: heard.append(kind))
    advance(original, 25, seed=3)
    assert original.wholes and len(original.log) == original.steps == 25
    monkeypatch.setattr(program.rules["flow"].resumed, "taken", lambda gen, env: None)
    replays = []
    real = Machine.as_op_lists
    monkeypatch.setattr(Machine, "as_op_lists", lambda self: replays.append(self.steps) or real(self))
    told = len(heard)
    first, second = original.clone(), original.clone()
    assert replays == [25] and len(heard) == told  # one replay, which told the listener nothing
    assert not original.fast and original.log is None and all(f.it is None for f in original.frames)
    assert state(first) == state(second) == state(original)
    play_on(original, seed=4)
    assert play_on(first, seed=4)[-1] == state(original)  # the replayed chance is the original's own


def test_a_fast_machine_whose_chance_has_no_restart_is_cloned_unless_it_must_replay(monkeypatch):
    class Dice:  # a chance source with no restart(): its outcomes can't be drawn again
        def roll(self, count, sides, what):
            return [1] * count

        def shuffle(self, cards, what):
            return list(cards)
    program = load_game(str(ROOT / "examples/pig.game")).program
    m = Machine(program, 2, Dice(), fast=True)
    assert m.clone().pending.name == m.pending.name  # resumed: nothing to draw again
    monkeypatch.setattr(program.rules["flow"].resumed, "taken", lambda gen, env: None)
    with pytest.raises(RuntimeError, match="restart"):
        m.clone()


IN_PLAY = """shared { everyone: int = 0  facing0: int = 0  facing1: int = 0  facing3: int = 0 }
rule flow() {
  choose q from opponents(seat(0)) by seat(0) as "out"
  eliminate q
  everyone = sum(p in players: 1 + 10 * p.seat)
  facing0 = sum(r in opponents(seat(0)): 1 + 10 * r.seat)
  facing1 = sum(r in opponents(seat(1)): 1 + 10 * r.seat)
  facing3 = sum(r in opponents(seat(3)): 1 + 10 * r.seat)
  choose x from players by seat(0) as "last"
}
"""


@pytest.mark.parametrize("fast", [False, True], ids=["op lists", "fast"])
def test_who_is_in_play_is_a_worlds_own_after_an_elimination_in_a_copy(tmp_path, fast):
    """`players` and `opponents(p)` are lists made once for who is in and shared by a
    World's copies (World.put_out): an elimination in a copy leaves the original's as they
    were. A seat out is nobody's opponent, and its own opponents are the seats still in."""
    program = text_program(tmp_path, IN_PLAY)
    original = Machine(program, 4, RandomChance(1), fast=fast)
    assert original.pending.labels == ["seat 1", "seat 2", "seat 3"]
    clone = original.clone()
    original.choose("seat 1")
    clone.choose("seat 2")
    sums = lambda m: [m.w.shared[f] for f in ("everyone", "facing0", "facing1", "facing3")]  # noqa: E731
    # each seat adds 1 + 10 * its number: seats 0, 2, 3 make 3 + 50 = 53; 0 and 2 make 2 + 20 = 22; 0, 1, 3 make
    # 3 + 40 = 43; 1 and 3 make 2 + 40 = 42; 0 and 3 make 2 + 30 = 32
    assert sums(original) == [53, 52, 53, 22] and original.pending.labels == ["seat 0", "seat 2", "seat 3"]
    assert sums(clone) == [43, 42, 32, 12] and clone.pending.labels == ["seat 0", "seat 1", "seat 3"]
    assert original.w.others is not clone.w.others
