"""Generators resumed after a pause (compile/resume.py): a fast Machine cloned while a rule
is under way goes on in the rule's generator resumed there, with no replay, and plays
on exactly as the original does. (test_random_programs.py clones random programs at
every decision; here each construct on the way in is named.)"""
from __future__ import annotations

import random

import pytest

from ruledsl.pipeline import load_game
from ruledsl.runtime.machine import Machine, RandomChance
from support import ROOT, FixedChance, compiled_texts, text_program

GAME_FILES = sorted(str(p.relative_to(ROOT)) for d in ("games", "examples") for p in (ROOT / d).glob("*.game"))

# Every construct a pause can be inside: loops over players (with end conditions), a
# repeat, a while, a `loop`, ifs with elif and else, a menu with and without guards, a
# may with a guard, rules called in place (a return in a loop and outside one), a rule
# with a frame of its own (called from three places), a walk with a trigger, a window.
CONSTRUCTS = """shared { n: int = 0  t: int = 0 }
player { v: int = 0  at: track = k0 }
board track(i: int) loop {
  space k0 0
  space k1 1
  space k2 2
}
on pass track(s: track, q: player?) { n += 1 }
end when many "n grew": n > 500 draw
rule flow() {
  let turns = 0
  while turns < 3 {
    turns += 1
    for p in players {
      p.v += turns
      repeat 2 {
        choose k from 1..3 by p as "k"
        if k == 1 {
          let got = pick(p)
          t += got
        } else if k == 2 {
          may p "raise" if t < 50 {
            choose j from 1..2 by p as "j"
            p.v += j
          }
        } else {
          choose by p as "menu" {
            option "walk" { move p.at by 2 steps forward }
            option "deep" if t >= 0 {
              let f = framed(p)
              n += f
            }
            option "none" { }
          }
        }
      }
    }
    window q in players as "shout" { n += 1 }
    loop {
      choose stop from [true, false] by seat(0) as "stop"
      if stop { break }
    }
  }
  let a = first_odd(seat(0))
  let b = framed(seat(1))
  let c = framed(seat(0))
  n += a + b + c
}
rule pick(p: player) -> int {
  for i in 1..3 {
    choose c from 0..i by p as "pick"
    if c > 0 { return c }
  }
  return 0
}
rule first_odd(p: player) -> int {
  choose a from 1..4 by p as "odd"
  if a % 2 == 1 { return a }
  choose b from 1..4 by p as "odd again"
  return b
}
rule framed(p: player) -> int {
  choose f from 1..2 by p as "framed"
  choose g from 1..2 by p as "framed again"  # a clone here: its caller's resumed generator has not run yet
  return f + g
}
score p: p.v
"""


def plays(m: Machine, seed: int, clone_each: bool, limit: int = 300) -> list:
    """Seeded random choices; the state after each (a clone made before each choice
    goes on in the original's place when `clone_each`)."""
    rng, seen = random.Random(seed), []
    while m.pending is not None and m.steps < limit:
        if clone_each:
            m = m.clone()
        m.choose_index(rng.randrange(len(m.pending.labels)))
        seen.append((m.w.snapshot(), None if m.pending is None else (m.pending.seat, m.pending.name, m.pending.labels),
                     m.result and (m.result.reason, m.result.winners), m.spent, [locals_of(f) for f in m.frames]))
    return seen


def locals_of(frame) -> dict:
    """A frame's locals of the rules (not a loop's iterator, a walk's state: whole.py's place locals)."""
    return {k: v for k, v in frame.env.items() if not k.startswith(("·", "#"))}


def no_replay(monkeypatch):
    monkeypatch.setattr(Machine, "as_op_lists", lambda self: pytest.fail("a clone replayed the game"))


@pytest.mark.parametrize("seed", range(6))
def test_a_clone_at_every_decision_of_every_construct_plays_on_as_the_original(tmp_path, monkeypatch, seed):
    program = text_program(tmp_path, CONSTRUCTS)
    straight = plays(Machine(program, 2, FixedChance(), fast=True), seed, clone_each=False)
    no_replay(monkeypatch)
    assert plays(Machine(program, 2, FixedChance(), fast=True), seed, clone_each=True) == straight
    assert len(straight) > 20


def test_every_pause_of_the_constructs_has_its_resumed_generator(tmp_path):
    program = text_program(tmp_path, CONSTRUCTS)
    Machine(program, 2, FixedChance(), fast=True)
    for name in ("flow", "framed"):
        resumed = program.rules[name].resumed
        assert resumed is not None
    m = Machine(program, 2, FixedChance(), fast=True)
    points = set()
    for seed in range(6):
        m = Machine(program, 2, FixedChance(), fast=True)
        rng = random.Random(seed)
        while m.pending is not None and m.steps < 300:
            points.update((f.code.name, f.code.resumed.point_of(f.it)) for f in m.frames if f.it is not None)
            m.choose_index(rng.randrange(len(m.pending.labels)))
    assert len(points) >= 8
    assert all(program.rules[name].resumed(point) is not None for name, point in points)


@pytest.mark.parametrize("path", GAME_FILES)
def test_every_game_cloned_at_every_decision_plays_on_as_the_original(path, monkeypatch):
    program = load_game(str(ROOT / path)).program
    straight = plays(Machine(program, program.min_players, RandomChance(3), fast=True), 1, False, limit=60)
    no_replay(monkeypatch)
    assert plays(Machine(program, program.min_players, RandomChance(3), fast=True), 1, True, limit=60) == straight


def test_a_resumed_generator_is_written_once_per_pause(tmp_path, monkeypatch):
    """The second clone waiting at the same pause compiles nothing."""
    program = text_program(tmp_path, "rule flow() { loop { choose k from 1..2 by seat(0) } }\n")
    m = Machine(program, 2, FixedChance(), fast=True)
    texts = compiled_texts(monkeypatch)
    m.clone()
    assert len([t for t in texts if "_rs = True" in t]) == 1
    m.clone()
    m.choose_index(0)
    m.clone()
    assert len([t for t in texts if "_rs = True" in t]) == 1


def test_a_place_the_rule_does_not_have_gives_no_resumed_generator(tmp_path):
    program = text_program(tmp_path, "rule flow() { loop { choose k from 1..2 by seat(0) } }\n")
    m = Machine(program, 2, FixedChance(), fast=True)
    resumed = program.rules["flow"].resumed
    assert resumed(resumed.point_of(m.frames[-1].it)) is not None
    assert resumed(((0, 0), (5, None))) is None and resumed(((3, None),)) is None
