"""End conditions are looked at again only after writes of what they read
(ruledsl/compile/watch.py). The games must play exactly as when every write counts."""
from __future__ import annotations

from pathlib import Path

import pytest

from ruledsl.compile.game import compile_game
from ruledsl.compile.watch import ends_read
from ruledsl.pipeline import load_game
from support import ROOT, random_playout, run_text

GAME_FILES = sorted(p for d in ("games", "examples") for p in (ROOT / d).rglob("*.game"))


def _trace(program, players, seed):
    steps = []
    m = random_playout(program, players, seed, 400, each_step=lambda m: steps.append(
        (m.pending.seat, m.pending.name, tuple(m.pending.labels))))
    result = m.result and (m.result.reason, tuple(m.result.winners))
    return steps, result, m.w.digest()


@pytest.mark.slow
@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_game_plays_the_same_whether_or_not_only_read_writes_count(path):
    game = load_game(str(path))
    every_write = compile_game(game.model, game.path, watch=False)
    assert every_write.ends_read is None and game.program.zones_watched is not None
    players = game.program.min_players if game.program.min_players > 1 else 2
    players = min(max(players, 2), game.program.max_players)
    for seed in (1, 2, 3):
        assert _trace(game.program, players, seed) == _trace(every_write, players, seed)


@pytest.mark.slow
@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_game_plays_the_same_with_its_straight_stretches_fused_or_one_op_per_statement(path):
    """Fusing (straight statements in a row, and ifs and loops made only of them, as one
    op of plain Python) changes no decision, result or state."""
    game = load_game(str(path))
    one_op_each = compile_game(game.model, game.path, fuse=False)
    players = game.program.min_players if game.program.min_players > 1 else 2
    players = min(max(players, 2), game.program.max_players)
    for seed in (1, 2, 3):
        assert _trace(game.program, players, seed) == _trace(one_op_each, players, seed)


def test_what_end_conditions_read_follows_defs_and_names_fields_zones_and_who_is_in(tmp_path):
    m = run_text(tmp_path, """
player { points: int = 0  bag: int = 0 }
shared { round: int = 0  log: int = 0 }
zone pile: c public
cards c(n: int) { card 1 }
def lead(p: player) = p.points - max(q in opponents(p): q.points)
end when big "a lead of 5": any(p in players: lead(p) >= 5) or round > 9 or size(pile) > 3
rule flow() { }
""")
    assert m.program.ends_read == frozenset({("alive",), ("player", "points"), ("shared", "round"), ("zone", "pile")})
    assert m.program.zones_watched == frozenset({"pile"})


def test_writes_of_what_no_end_condition_reads_leave_the_world_unchanged_for_them(tmp_path):
    m = run_text(tmp_path, """
player { points: int = 0  bag: int = 0 }
end when big "ten points": any(p in players: p.points >= 10)
rule flow() {
  loop {
    for p in players {
      choose n from 1..2 by p as "how many"
      p.bag += n
      if n == 2 { p.points += 5 }
    }
  }
}
""")
    before = m.w.version
    m.choose("1")
    assert m.w.version == before  # only bag changed: the conditions are not looked at again
    m.choose("2")
    assert m.w.version > before
    m.choose("2")
    m.choose("2")
    assert m.result is not None and m.result.reason == "ten points"


@pytest.mark.parametrize("fast", [True, False])
def test_a_game_without_end_conditions_never_looks_at_them(monkeypatch, fast):
    """Kuhn poker and tic-tac-toe have no `end when`: neither their turn boundaries (a loop
    over players, in a stretch, an op or a whole rule's generator) nor their decisions call
    check_ends; a game with some does."""
    from ruledsl.runtime.chance import RandomChance
    from ruledsl.runtime.machine import Machine
    looked = []
    real = Machine.check_ends
    monkeypatch.setattr(Machine, "check_ends", lambda m: looked.append(1) or real(m))
    for path, players in (("examples/kuhn_poker.game", 2), ("examples/tic_tac_toe.game", 2),
                          ("games/mafialand.game", 3)):
        program = load_game(str(ROOT / path), fuse=fast).program
        looked.clear()
        m = Machine(program, players, RandomChance(1), fast=fast)
        while m.pending is not None and m.steps < 40:
            m.choose_index(0)
        assert bool(looked) == bool(program.ends), path


@pytest.mark.parametrize("fast", [True, False])
def test_a_draw_written_out_counts_as_a_change_only_of_a_zone_read(tmp_path, fast):
    """A draw whose zones the text names is written out (texts.card_drawn): into `pile`,
    which the end condition reads, it marks the World changed; into `aside` it doesn't."""
    m = run_text(tmp_path, """
zone deck: c hidden
zone pile: c public
zone aside per player: c public
cards c(n: int) { card 1  card 2  card 3  card 4  card 5 }
end when full "two on the pile": size(pile) >= 2
rule flow() {
  loop {
    choose by seat(0) as "where" {
      option "pile" { draw 1 from deck to pile }
      option "aside" { draw 1 from deck to aside[seat(0)] }
    }
  }
}
""", fast=fast)
    before = m.w.version
    m.choose("aside")
    assert m.w.version == before and len(m.w.zones[("aside", 0)]) == 1
    m.choose("pile")
    assert m.w.version > before and m.result is None
    m.choose("pile")
    assert m.result is not None and m.result.reason == "two on the pile"
    assert m.w.loc[m.w.zones[("pile", None)][0]] == ("pile", None)
