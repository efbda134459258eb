"""What ruledsl's machinery costs at the least, and the best ratio it allows if the rules
cost nothing at all.

A game in ruledsl pays, apart from its rules, for its set-up and end (a Machine, a copy of
the starting World, the result) and for each decision (a Decision offered, the rule's
generator suspended and resumed, the choice taken, the loop turn that reaches it, the
budget's unit and the end conditions' look). Those are measured here on their own:

- the cost of a game: a Machine of the real program made and finished, with no rule run;
- the cost of a decision: a game that is nothing but decisions (`repeat N { choose }`
  over two options), per decision, in bench.py's loop (a `randrange` a decision, as there);
- Python's own floor for a resumable decision: a generator that yields each decision to a
  driver that answers with a `randrange`, as small as a resumable game can be in Python.

An anchor's game (hand-written Python, OpenSpiel) is timed whole, rules and random numbers
included, and the number of decisions a game makes is ruledsl's own (the same rules; the
two agree in distribution, bench.py). Then `best` = anchor time / (cost of a game +
decisions x cost of a decision): the ratio ruledsl would reach if every rule, die and
shuffle took no time. A target above it can't be met by faster rules alone: it needs
cheaper decisions or set-up. All in one run, interleaved (bench.measure), on the same
machine; it reports, nothing asserts.

    python3 benchmarks/floor.py [--seconds 2] [--only mafialand]
"""
from __future__ import annotations

import argparse
import random
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402

from ruledsl.pipeline import load_game  # noqa: E402
from ruledsl.runtime.machine import Machine  # noqa: E402

DECISIONS = 1000  # in the game of decisions alone
FLOOR_GAME = """\
game "Decisions alone" players 2..4
enum option {{ a b }}
rule flow() {{
  repeat {n} {{ choose o from option by seat(0) as "option" }}
  end "done" draw
}}
"""
ANCHORS = {"mafialand": "hand-written", "the_boss": "hand-written", "tic_tac_toe": "OpenSpiel C++",
           "kuhn_poker": "OpenSpiel Python"}  # game -> the engine it is held against (bench.game_of: file, players)


def floor_program(decisions: int = DECISIONS):
    """The program of a game of `decisions` decisions and nothing else."""
    return load_game("decisions.game", files={"decisions.game": FLOOR_GAME.format(n=decisions)}).program


def game_floor(program, players: int, rng: random.Random):
    """A Machine of `program` made and finished, no rule run: what any game of it costs."""
    m = Machine(program, players, bench.SharedChance(rng), fast=True, start=False)
    m.finish("floor")
    return 0


def python_decisions(decisions: int, rng: random.Random):
    """Python's floor: a generator offering `decisions` decisions of two options, answered
    by a driver with a randrange each, as bench.py's loop answers ruledsl."""
    def game():
        for _ in range(decisions):
            yield 2
    g = game()
    for options in g:
        rng.randrange(options)
    return 0


def anchor_playout(name: str, engine: str, pyspiel):
    """The anchor's playout (bench.py's loops), or None where it isn't installed."""
    if engine == "hand-written":
        _, players, module = bench.BASELINES[name]
        return lambda rng: bench.handwritten_game(module, players, rng)
    if pyspiel is None:
        return None
    game = pyspiel.load_game(bench.CLASSICS[name][bench.SPIEL_ENGINES.index(engine)])
    return lambda rng: bench.openspiel_playout(game, rng)


def mean_decisions(records) -> float:
    """Mean decisions a game of ruledsl_game's records (steps, reason, outcome)."""
    n = sum(records.values())
    return sum(steps * times for (steps, _, _), times in records.items()) / n


def bound(name: str, seconds: float, pyspiel, decisions_program) -> dict | None:
    """The measurements of one anchor and the best ratio they allow; None without the anchor."""
    (path, players), engine = bench.game_of(name), ANCHORS[name]
    target = bench.TARGETS.get(name, (engine, None))[1]
    anchor = anchor_playout(name, engine, pyspiel)
    if anchor is None:
        return None
    program = load_game(str(bench.ROOT / path)).program
    rng = random.Random(f"floor:{name}")
    measured = bench.measure({
        "ruledsl": partial(bench.ruledsl_game, program, players, rng),
        "anchor": partial(anchor, rng),
        "game": partial(game_floor, program, players, rng),
        "decisions": partial(bench.ruledsl_game, decisions_program, 2, rng),
        "python": partial(python_decisions, DECISIONS, rng),
    }, seconds, min_games=20)
    us = {k: 1e6 / m.rate for k, m in measured.items()}
    decisions = mean_decisions(measured["ruledsl"].outcomes)
    per_decision = us["decisions"] / DECISIONS
    floor = us["game"] + decisions * per_decision
    return {"name": name, "players": players, "engine": engine, "target": target, "anchor_us": us["anchor"],
            "ruledsl_us": us["ruledsl"], "decisions": decisions, "game_us": us["game"],
            "decision_us": per_decision, "python_decision_us": us["python"] / DECISIONS, "floor_us": floor,
            "best": us["anchor"] / floor, "now": us["anchor"] / us["ruledsl"]}


def report(row: dict) -> str:
    target = f"; target {row['target']}x" if row["target"] else ""
    return "\n".join([
        f"\n{row['name']}, {row['players']} players, against {row['engine']}{target}",
        f"  a game: {row['anchor_us']:.1f} us in {row['engine']}, {row['ruledsl_us']:.1f} us in ruledsl "
        f"({row['now']:.3f}x), {row['decisions']:.1f} decisions",
        f"  ruledsl's floor: {row['game_us']:.2f} us a game + {row['decision_us']:.3f} us a decision "
        f"(Python's own {row['python_decision_us']:.3f}) = {row['floor_us']:.1f} us a game",
        f"  best ratio with rules, dice and shuffles free: {row['best']:.2f}x"
        + (f" ({'above' if row['best'] >= row['target'] else 'BELOW'} the target)" if row["target"] else ""),
    ])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time per engine and anchor")
    ap.add_argument("--only", action="append", choices=sorted(ANCHORS), help="an anchor (repeatable); default all")
    args = ap.parse_args(argv)
    pyspiel = bench.load_openspiel()
    decisions_program = floor_program()
    for name in args.only or ANCHORS:
        row = bound(name, args.seconds, pyspiel, decisions_program)
        print(report(row) if row else f"\n{name}: {ANCHORS[name]} is not installed (pip install -e '.[bench]')")


if __name__ == "__main__":
    main()
