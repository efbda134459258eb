"""Fuzzing: mutants of every game file and corrupted transcripts must never crash ruledsl.

Each mutant is checked and, when it checks, played for a few random decisions;
each corrupted transcript is read and replayed. Anything but a diagnostic, a
runtime error with a code, a refusal or a corrupt-transcript message is a
failure: an internal error. CPU per run is measured and reported.

The test suite runs a sample (tests/test_fuzz.py). The long run:

    python tests/fuzz.py --mutants 1000 --transcripts 200 [--seed 1]

prints the counts, the slowest runs and every failure, and exits 1 on any.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ruledsl.play.agents import RandomAgent  # noqa: E402
from ruledsl.play.divergence import Divergence, ReplayError  # noqa: E402
from ruledsl.errors import GameRuntimeError, RuleError  # noqa: E402
from ruledsl.pipeline import load_game  # noqa: E402
from ruledsl.play.replay import replay  # noqa: E402
from ruledsl.runtime.chance import ChancePause, RandomChance, ScriptedChance  # noqa: E402
from ruledsl.runtime.machine import Machine  # noqa: E402
from ruledsl.play.transcript import TranscriptError, TranscriptWriter, parse_lines  # noqa: E402

EXPECTED = (RuleError, GameRuntimeError, Divergence, ReplayError, TranscriptError)
WORDS = ["override", "rule", "const", "{", "}", "(", ")", "none", "0", "-1", "99999999999999999", "1..1000000",
         "players", "seat(0)", "draw", "roll 3d6", "end", "loop", "\"", "#", "..", "x", "if", "else", "choose"]


AGGREGATES = ["count", "any", "all", "sum", "first", "max", "min"]
AGGREGATE = re.compile(r"\b(?:count|any|all|sum|first|max|min)\(")
RANGE = re.compile(r"(\w+|\))\s*\.\.\s*(-?\w+|\()")  # `1..CARDS`, `0..n`: a range, or players 2..4


def game_files() -> list:
    return sorted(p for folder in ("games", "examples") for p in (ROOT / folder).rglob("*.game"))


# ---------------------------------------------------------------- game mutants
def mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    kind = rng.randrange(13)
    i = rng.randrange(len(lines))
    if kind in (7, 8, 9):  # a line with an aggregate (a range), if the file has one
        pattern = RANGE if kind == 9 else AGGREGATE
        with_them = [j for j, line in enumerate(lines) if pattern.search(line)]
        i = rng.choice(with_them) if with_them else i
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif kind == 2:
        tokens = re.findall(r"\S+|\s+", lines[i]) or [""]
        tokens[rng.randrange(len(tokens))] = rng.choice(WORDS)
        lines[i] = "".join(tokens)
    elif kind == 3:
        lines[i] = re.sub(r"\d+", lambda m: rng.choice(["0", "-1", "1000000000", m.group(0) * 3]), lines[i])
    elif kind == 4:
        names = re.findall(r"[a-z_][a-z0-9_]*", text)
        lines[i] = re.sub(r"[a-z_][a-z0-9_]*", lambda m: rng.choice(names) if rng.random() < 0.3 else m.group(0),
                          lines[i])
    elif kind == 5 and lines[i]:
        j = rng.randrange(len(lines[i]))
        lines[i] = lines[i][:j] + lines[i][j + 1:]
    elif kind == 7:  # another aggregate in the same place
        lines[i] = AGGREGATE.sub(lambda m: rng.choice(AGGREGATES) + "(", lines[i])
    elif kind == 8:  # an aggregate without its value: `all(x in S where c)`, every x meets c
        lines[i] = re.sub(r"(\b(?:count|any|all|sum|first|max|min)\([^():]*):[^():]*\)", r"\1)", lines[i])
    elif kind == 9:  # a range made empty or one long: no cards, no spaces, no turns
        lines[i] = RANGE.sub(lambda m: rng.choice(["1..0", "0..-1", f"{m.group(1)}..{m.group(1)}"]), lines[i])
    elif kind == 10:  # the line deep inside ifs: the stages walk the tree recursively (E004 or it runs)
        depth = rng.choice([20, 150, 180, 220, 300, 500])
        lines[i] = "if true { " * depth + lines[i] + " }" * depth
    elif kind == 11:  # a number made a deep expression: brackets, or a long sum (E232, E004, E403 or it runs)
        depth = rng.choice([50, 130, 250, 500])
        deep = rng.choice([lambda d: "(" * depth + d + ")" * depth, lambda d: " + ".join([d] * depth)])
        lines[i] = re.sub(r"\b\d+\b", lambda m: deep(m.group(0)), lines[i], count=1)
    elif kind == 12:  # the line many times over: a long run of statements (split into stretches)
        lines[i:i + 1] = [lines[i]] * rng.choice([100, 400, 2000])
    else:
        lines = lines[:i]
    return "\n".join(lines)


def run_mutant(path: Path, players_hint: int = 2) -> str | None:
    """None when ruledsl answered as it should; else what went wrong."""
    try:
        game = load_game(str(path))
    except EXPECTED:
        return None
    except Exception as err:  # noqa: BLE001 - that is what a fuzzer looks for
        return f"check: {type(err).__name__}: {err}"
    prog = game.program
    n = max(prog.min_players, min(players_hint, prog.max_players))
    played = [play_mutant(prog, n, fast=True), play_mutant(prog, n)]
    try:  # compiled with chance apart (as the OpenSpiel adapter loads it), pausing at each roll and shuffle
        played.append(play_mutant(load_game(str(path), chance_apart=True).program, n, paused=True))
    except EXPECTED as err:
        return f"compiled apart: {type(err).__name__}: {err}"
    for way, outcome in zip(("", "fast ", "paused "), played):
        if isinstance(outcome, str):
            return f"{way}play: {outcome}"
    if played[0] != played[1]:  # whole rules as generators must play what the op lists play
        return f"fast play differs: {played[0]} != {played[1]}"
    if played[2] != played[1]:  # and so must op lists paused for chance (Machine.resume)
        return f"paused play differs: {played[2]} != {played[1]}"
    return None


def play_mutant(prog, n: int, fast: bool = False, paused: bool = False):
    """How a few random decisions went: (steps, result, error code and place, digest), or
    the text of an internal error. `paused`: the chance source pauses each step where it
    asks for chance (ScriptedChance), then the step goes on with the outcome RandomChance(1)
    draws for that roll or shuffle, as it draws it when not paused."""
    agents = [RandomAgent(s, 1) for s in range(n)]
    machine, error = None, None
    try:
        source = RandomChance(1)
        machine = Machine(prog, n, ScriptedChance() if paused else source, fast=fast, start=False)
        if paused:
            source.attach(machine)  # the Machine attached its own source, the ScriptedChance (no attach)
        pausing(machine, machine.run, source)
        while machine.pending is not None and machine.steps < 60:
            d = machine.pending
            i = agents[d.seat].choose(None, d)
            pausing(machine, lambda: machine.choose_index(i), source)
    except EXPECTED as err:
        d = getattr(err, "diagnostic", None)
        error = (type(err).__name__, d.code, d.span.where()) if d is not None else type(err).__name__
    except Exception as err:  # noqa: BLE001
        return f"{type(err).__name__}: {err}"
    if machine is None:
        return 0, None, error, None
    return machine.steps, machine.result, error, machine.w.digest()


def pausing(machine, step, source):
    """Runs `step`; while it pauses for chance, gives the outcome `source` draws and goes on."""
    while True:
        try:
            step()
            return
        except ChancePause as pause:
            kind, *asked = pause.event
            outcome = source.roll(*asked) if kind == "roll" else source.shuffle(list(asked[0]), asked[1])
            machine.chance.outcomes.append(outcome)
            step = machine.resume


def mutants(count: int, seed: int, workdir: Path):
    """Yields (label, failure or None, cpu seconds) for `count` mutants over every game file."""
    rng = random.Random(seed)
    files = game_files()
    for k in range(count):
        source = files[k % len(files)]
        rel = source.relative_to(ROOT)
        target = workdir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        original = source.read_text(encoding="utf-8")
        text = original
        for _ in range(rng.randint(1, 3)):
            text = mutate(text, rng)
        target.write_text(text, encoding="utf-8")
        start = time.process_time()
        failure = run_mutant(target)
        yield f"{rel} mutant {k}", failure, time.process_time() - start
        target.write_text(original, encoding="utf-8")  # a later variant's base stays whole


def copy_games(workdir: Path):
    for source in game_files():
        target = workdir / source.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source, target)


# ---------------------------------------------------------------- corrupted transcripts
def record(path: str, players: int, seed: int, steps: int) -> str:
    game = load_game(path)
    out = io.StringIO()
    writer = TranscriptWriter(out)
    writer.header(game, players, seed, ["random"] * players)
    machine = Machine(game.program, players, RandomChance(seed), listener=writer)
    agents = [RandomAgent(s, seed) for s in range(players)]
    while machine.pending is not None and machine.steps < steps:
        d = machine.pending
        machine.choose(d.labels[agents[d.seat].choose(None, d)])
    machine.stop_at_limit(f"step limit: {steps} decisions")
    writer.result(machine)
    return out.getvalue()


def _record(line: str):
    """A transcript line's JSON, or None when an earlier corruption broke it."""
    try:
        return json.loads(line)
    except ValueError:
        return None


def corrupt(lines: list, rng: random.Random) -> list:
    lines = list(lines)
    i = rng.randrange(len(lines))
    kind = rng.randrange(6)
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif kind == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 3 and lines[i]:
        j = rng.randrange(len(lines[i]))
        lines[i] = lines[i][:j] + rng.choice(['"', "}", "9", "-", "[", "x", ""]) + lines[i][j + 1:]
    elif kind == 4 and isinstance(record := _record(lines[i]), dict) and record:
        key = rng.choice(list(record))
        record[key] = rng.choice([None, -1, 10 ** 30, "x", [], {}, True, "0" * 50])
        lines[i] = json.dumps(record)
    else:
        lines = lines[:i]
    return lines


def transcripts(count: int, seed: int):
    rng = random.Random(seed)
    sources = [("tests/fixtures/games/secret_bid.game", 3), ("tests/fixtures/games/dice_race.game", 2),
               ("examples/kuhn_poker.game", 2), ("games/the_boss.game", 3)]
    recorded = {path: record(str(ROOT / path), n, 7, 40).splitlines() for path, n in sources}
    games = {path: load_game(str(ROOT / path)) for path, _ in sources}
    for k in range(count):
        path = sources[k % len(sources)][0]
        lines = recorded[path]
        for _ in range(rng.randint(1, 2)):
            lines = corrupt(lines, rng) or lines[:1]
        start = time.process_time()
        failure = None
        try:
            replay(games[path], parse_lines(lines))
        except EXPECTED:
            pass
        except Exception as err:  # noqa: BLE001
            failure = f"{type(err).__name__}: {err}"
        yield f"{path} corrupted {k}", failure, time.process_time() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=1000)
    parser.add_argument("--transcripts", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    failures, times = [], []
    with tempfile.TemporaryDirectory() as tmp:
        # thousands of throw-away games: their parse results and code go to a cache of the
        # run's own (removed with it), not into the user's (ruledsl/cache.py)
        os.environ.setdefault("RULEDSL_CACHE_DIR", os.path.join(tmp, "cache"))
        copy_games(Path(tmp))
        cwd = os.getcwd()
        os.chdir(tmp)
        try:
            runs = list(mutants(args.mutants, args.seed, Path(tmp))) + list(transcripts(args.transcripts, args.seed))
        finally:
            os.chdir(cwd)
    for label, failure, cpu in runs:
        times.append((cpu, label))
        if failure:
            failures.append(f"{label}: {failure}")
    times.sort(reverse=True)
    print(f"{len(runs)} runs ({args.mutants} game mutants, {args.transcripts} corrupted transcripts), "
          f"{len(failures)} internal errors; slowest: " + ", ".join(f"{label} {cpu:.2f} s" for cpu, label in times[:3]))
    for failure in failures:
        print(failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
