"""Small random programs, played in every way the engine can run them: they must agree.

The compile stage has several ways to run the same rules: an op per statement and a
frame per call (fuse=False, explain's mode, the reference here), calls compiled in place
and stretches (fuse=True, what clones and search run), whole rules as generators (a fast
Machine, what `simulate` and `play` run), chance apart (the OpenSpiel adapter's), a clone
made at every decision, and the text of a say built or not (a listener or none). The
repository's games meet few of the corners where these could differ (a parameter changed
inside a call compiled in place, a name a sibling block used too, a `return` inside a
loop of an inlined rule, an end condition met just before a decision, a failure inside
an expression written into another), so hypothesis writes programs over the statement
forms that nest and the data they change: lets, assignments, ifs, the four loops, break,
return, rule calls with and without results, defs, decisions (choose, secret choose,
menus, may, response windows), loops over the players as they are, sorted or clockwise,
rolls, walks on a loop with `on pass`/`on land` triggers and on a graph with forks,
draws, shuffles and cards moved between zones, fields of cards and of a board's spaces
(counted through columns and tallies), lists indexed, `match`, `max`/`min` aggregates,
says, eliminations, `end`, and an end condition looked at between turns (the writer:
tests/random_programs.py). Each is played with the same choices and dice in every mode, and
as framed ops with every aggregate a comprehension (none written as a loop, as every mode
writes them), and everything observable must be the same: what was said, the decisions asked, the World at
the end, the result or the failure (its code, place and message), and the work spent.
And a game recorded as `ruledsl play --record` records it (fast) replays from its
transcript without a divergence, or fails at the same place again; and played through
the OpenSpiel adapter (steps in place, paused where they ask for chance; skipped without
pyspiel) it asks, holds and ends the same.

It found that a walk with no `on pass` trigger cost a unit of work on op lists and none
in a stretch. A long run, printing every program that differs (not shrunk):

    python tests/compile/test_random_programs.py --programs 2000 --seed 7
"""
from __future__ import annotations

import importlib.util
import io
import sys
import tempfile
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings

if __name__ == "__main__":  # run as a script (main): ruledsl and the tests' support module
    sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).resolve().parents[1])]

from ruledsl.compile import stores  # noqa: E402
from ruledsl.compile.looped import StatementLoops  # noqa: E402
from ruledsl.errors import GameRuntimeError  # noqa: E402
from ruledsl.pipeline import load_game  # noqa: E402
from ruledsl.play.replay import replay  # noqa: E402
from ruledsl.play.transcript import TranscriptWriter, parse_lines  # noqa: E402
from ruledsl.runtime.machine import Machine  # noqa: E402
from random_programs import programs  # noqa: E402
from support import FixedChance  # noqa: E402

DICE = [3, 5, 1, 6, 2, 4, 4, 2, 6, 1, 5, 3] * 4
MAX_DECISIONS = 40
# (fuse, fast, chance_apart, listening, cloned): the first is the reference, each rule's
# ops with a frame per call; "cloned" plays on a clone made at each decision
MODES = {
    "framed ops": (False, False, False, True, False),
    "fused ops": (True, False, False, True, False),
    "whole rules": (True, True, False, True, False),
    "chance apart": (True, False, True, True, False),
    "whole rules, nobody listening": (True, True, False, False, False),
    "fused ops, nobody listening": (True, False, False, False, False),
    "fused ops, cloned at each decision": (True, False, False, True, True),
    "whole rules, cloned at each decision": (True, True, False, True, True),  # the first replays (as_op_lists)
}
# framed ops with every aggregate a comprehension or a call: no expression written as a
# statement's or a function's own loop (looped.py), as every mode above writes them
COMPREHENSIONS = "framed ops, no aggregate written as a loop"

# ------------------------------------------------------------------ playing
def chosen(step: int, decision) -> int:
    """The option taken at decision `step` (1, 2, ...): the same in every way of playing."""
    return (step * 7 + 3) % len(decision.labels)


def played(text: str, mode) -> dict:
    """What a game of `text` does in `mode`: the same choices (an index from the step and
    the menu's size) and dice in every mode."""
    fuse, fast, apart, listening, cloned = mode
    program = load_game("r.game", files={"r.game": text}, fuse=fuse, chance_apart=apart).program
    heard: list = []
    listener = (lambda kind, data: heard.append((kind, data.get("text"), data.get("outcome")))) if listening else None
    asked: list = []
    failure = None
    m = None
    try:
        m = Machine(program, 3, FixedChance(DICE), listener=listener, fast=fast)
        while m.pending is not None and len(asked) < MAX_DECISIONS:
            d = m.pending
            asked.append((d.name, d.seat, list(d.labels)))
            if cloned:
                m = m.clone(listener=listener)
            m.choose_index(chosen(len(asked), d))
    except GameRuntimeError as err:
        failure = (err.diagnostic.code, str(err))
    out = {"asked": asked, "failure": failure}
    if listening:
        out["heard"] = [h for h in heard if h[0] != "settled"]
    if m is not None:  # the World whole (fields, zones, cards, boards), and what was spent
        out.update(world=m.w.snapshot(), spent=m.spent, steps=m.steps,
                   result=None if m.result is None else (m.result.reason, m.result.winners))
    return out


def comprehended(text: str) -> dict:
    """What a game of `text` does as framed ops with no aggregate written as a loop."""
    with mock.patch.object(StatementLoops, "statement", lambda gen, e, target, room=0: f"{target} = {gen.expr(e)}"), \
            mock.patch.object(StatementLoops, "returned", lambda gen, e, room: "return " + gen.expr(e)), \
            mock.patch.object(stores, "_made_first", lambda gen, value, op, room: None):
        return played(text, MODES["framed ops"])


def differences(text: str) -> list:
    """The modes that did not do what the reference (framed ops) did, with what differed
    (what a mode without a listener heard is not compared)."""
    runs = {name: played(text, mode) for name, mode in MODES.items()}
    runs[COMPREHENSIONS] = comprehended(text)
    reference = runs["framed ops"]
    found = []
    for name, run in runs.items():
        for key in reference.keys() | run.keys():
            if key == "heard" and key not in run:
                continue
            if run.get(key, "missing") != reference.get(key, "missing"):
                found.append((name, key, reference.get(key, "missing"), run.get(key, "missing")))
    return found


def replayed(text: str) -> tuple:
    """A game of `text` recorded as `ruledsl play --record` records it (a fast Machine, the
    same choices and dice as `played`), then replayed from its transcript on op lists
    (replay.py checks each step's state): (the failure when recorded, the failure replaying),
    the same GameRuntimeError text both, or None both."""
    game = load_game("r.game", files={"r.game": text})
    out = io.StringIO()
    writer = TranscriptWriter(out)
    writer.header(game, 3, 0, ["scripted"] * 3)
    failures = []
    try:
        m = Machine(game.program, 3, FixedChance(DICE), listener=writer, fast=True)
        while m.pending is not None and m.steps < MAX_DECISIONS:
            m.choose_index(chosen(m.steps + 1, m.pending))
        if m.result is None:
            m.stop_at_limit(f"step limit: {MAX_DECISIONS} decisions")  # as `ruledsl play --max-steps` stops
        writer.result(m)
        failures.append(None)
    except GameRuntimeError as err:  # the transcript stops at the step that failed
        failures.append(str(err))
    try:
        replay(game, parse_lines(out.getvalue().splitlines()))
        failures.append(None)
    except GameRuntimeError as err:
        failures.append(str(err))
    return tuple(failures)


def through_openspiel(text: str, folder) -> dict:
    """What `played` tells of a game of `text` played through the OpenSpiel adapter (a
    pyspiel state; chance nodes answered as FixedChance answers: the dice in turn, the
    cards in the order listed), with the same choices: what a researcher's loop sees."""
    from ruledsl.openspiel.game import load_game as load_adapted
    path = Path(folder) / "r.game"
    path.write_text(text, encoding="utf-8")
    game = load_adapted(str(path), players=3, max_steps=10 * MAX_DECISIONS)
    dice, asked, failure, state = iter(DICE), [], None, None
    try:
        state = game.new_initial_state()
        while not state.is_terminal():
            play = state.play
            if state.is_chance_node():  # a die a node, a shuffle a card a node (the first left)
                state.apply_action(next(dice, 1) - 1 if play.event[0] == "roll" else 0)
            elif len(asked) < MAX_DECISIONS:
                d = play.machine.pending
                asked.append((d.name, d.seat, list(d.labels)))
                state.apply_action(play.ids[chosen(len(asked), d)])
            else:
                break
    except GameRuntimeError as err:
        failure = (err.diagnostic.code, str(err).replace(str(path), "r.game"))
    out = {"asked": asked, "failure": failure}
    if failure is None:
        m = state.play.machine
        out.update(world=m.w.snapshot(), steps=m.steps,
                   result=None if m.result is None else (m.result.reason, m.result.winners))
    return out


def adapter_differences(text: str) -> list:
    """What the OpenSpiel adapter did otherwise than the reference (nothing without pyspiel)."""
    if importlib.util.find_spec("pyspiel") is None:  # the openspiel extra
        return []
    with tempfile.TemporaryDirectory() as folder:
        adapted = through_openspiel(text, folder)
    reference = played(text, MODES["framed ops"])
    return [("through OpenSpiel", key, reference.get(key), value)
            for key, value in adapted.items() if reference.get(key) != value]


def replay_differences(text: str) -> list:
    recorded, replaying = replayed(text)
    return [] if recorded == replaying else [("recorded fast, replayed", recorded, replaying)]


SETTINGS = dict(deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@settings(max_examples=40, **SETTINGS)
@given(programs())
def test_random_programs_play_the_same_in_every_mode(text):
    assert differences(text) == [], text


@pytest.mark.slow
@settings(max_examples=600, **SETTINGS)
@given(programs())
def test_many_random_programs_play_the_same_in_every_mode(text):
    assert differences(text) == [], text


@settings(max_examples=10, **SETTINGS)
@given(programs())
def test_a_random_program_plays_the_same_through_the_openspiel_adapter(text):
    """Steps in place, paused where they ask for chance and gone on from that op."""
    assert adapter_differences(text) == [], text


@pytest.mark.slow
@settings(max_examples=200, **SETTINGS)
@given(programs())
def test_many_random_programs_play_the_same_through_the_openspiel_adapter(text):
    assert adapter_differences(text) == [], text


@settings(max_examples=15, **SETTINGS)
@given(programs())
def test_a_random_program_recorded_fast_replays_without_divergence(text):
    assert replay_differences(text) == [], text


@pytest.mark.slow
@settings(max_examples=300, **SETTINGS)
@given(programs())
def test_many_random_programs_recorded_fast_replay_without_divergence(text):
    assert replay_differences(text) == [], text


def main():
    import argparse
    parser = argparse.ArgumentParser(description="Random programs played in every mode; prints those that differ.")
    parser.add_argument("--programs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    found = []

    @seed(args.seed)
    @settings(max_examples=args.programs, database=None, phases=[Phase.generate], **dict(SETTINGS, derandomize=False))
    @given(programs())
    def run(text):
        found.extend((text, diff) for check in (differences, replay_differences, adapter_differences)
                     for diff in check(text))
    run()
    for text, diff in sorted(found, key=lambda f: len(f[0])):
        print(text, diff, sep="\n", end="\n\n")
    print(f"{args.programs} programs, {len({text for text, _ in found})} playing differently in some mode")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
