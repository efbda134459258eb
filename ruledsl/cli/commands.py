"""The command line: the `ruledsl` group and its commands for one game (check, play,
replay, state, view, graph); simulate and compare are in many.py.

Every failure a user can cause (bad rules, a rule failing at run time, a corrupt
or diverging transcript, a bad option) ends with a message and exit code 1,
never a traceback.

What only some commands need (agents, transcripts, replay, views, json) is imported
inside them, so that `ruledsl check` starts without it.
"""
from __future__ import annotations

import gc
import os
import sys

import click

from ..collector import collections_paused
from ..play.graph import FORMATS
from ..runtime.machine import Machine, RandomChance
from ..version import __version__
from .common import DEBUG_ENV, Failure, build_agents, echo_lines, guarded, load, player_count, user_message
from .help import add_epilogs
from .info import cache_command, list_command, schema_command
from .many import compare_command, simulate_command
from .types import SEED


def onlooker(kinds: list):
    """Whose eyes the narration uses: one human's, nobody's with several, everyone's with none."""
    from ..play.narrate import NO_SEAT
    humans = [seat for seat, kind in enumerate(kinds) if kind == "human"]
    if not humans:
        return None
    return humans[0] if len(humans) == 1 else NO_SEAT


def drive(machine, agents, writer, max_steps: int | None):
    """Asks the agents until the game ends (or the step limit stops it)."""
    from ..play.agents import ask_agent
    from ..play.simulate import limit_reason
    while machine.pending is not None:
        if max_steps is not None and machine.steps >= max_steps:
            machine.stop_at_limit(limit_reason(max_steps))
            return
        index = ask_agent(agents[machine.pending.seat], machine)
        machine.choose(machine.pending.labels[index])


# ---------------------------------------------------------------- commands
@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ruledsl")
def main():
    """ruledsl: check, play, replay and simulate games written in the rules language."""


FILES_A_COLLECTION = 16  # `check`: files checked between two passes of the cyclic collector


@main.command()
@click.argument("paths", nargs=-1, required=True)
def check(paths):
    """Parse and check .game files; print every error found."""
    failed = 0
    # Each file's game is dropped, its cycles left for a pass a few files later; what the
    # last files left is aged without a pass: the command ends here, and a process's
    # memory goes with it (a caller in process, such as a test, frees it at the
    # collector's next full pass).
    with collections_paused(aged=True):
        for done, path in enumerate(paths, 1):
            message = check_one(path)
            if message is None:
                click.echo(f"ok: {path}")
            else:
                failed += 1
                click.echo(message, err=True)
            if done % FILES_A_COLLECTION == 0:
                gc.collect()  # what the last files left: memory stays bounded however many are checked
    sys.exit(1 if failed else 0)


def check_one(path: str) -> str | None:
    try:
        with collections_paused():  # until the game is dropped: then nothing is left to look at
            load(path)
    except Exception as err:  # noqa: BLE001 - every input gets a message, not a traceback
        message = user_message(err)
        if message is None:
            if os.environ.get(DEBUG_ENV):
                raise
            message = f"{path}: internal error (a bug in ruledsl): {type(err).__name__}: {err}"
        return message
    return None


@main.command()
@click.argument("game_path", metavar="GAME", required=False)
@click.option("--players", "-n", type=int, help="Number of players (default: the game's minimum).")
@click.option("--seed", "-s", type=SEED,
              help="Seed for chance and random agents (default: a random one, printed and recorded).")
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False),
              help="Continue an interrupted recorded game under its recorded rules, seed and seats "
                   "(--agent changes a seat); it is recorded again, complete, to --record or the same file.")
@click.option("--agent", "agent_specs", multiple=True, metavar="SEAT=KIND",
              help="Who plays a seat: random, first, human, scripted:LABEL,LABEL,..., mcts[:SIMS[:DEPTH]], "
                   "or a plug-in (docs/agents.md) (default random).")
@click.option("--record", type=click.Path(dir_okay=False, writable=True), help="Write a JSON Lines transcript.")
@click.option("--max-steps", type=click.IntRange(min=0), help="Stop after this many decisions.")
@click.option("--plain", is_flag=True,
              help="Ask a human seat with plain lines even at a terminal (there, by default, prompt_toolkit if "
                   "installed keeps the question and options at the bottom and completes labels with Tab).")
@guarded
def play(game_path, players, seed, resume_path, agent_specs, record, max_steps, plain):
    """Play a game with agents, narrating as it goes."""
    from ..play.narrate import narrate
    from ..play.terminal import attach as attach_terminal
    from ..play.terminal import chosen_seed
    from ..play.transcript import TranscriptWriter
    if resume_path is not None:
        return play_resumed(resume_path, agent_specs, record, max_steps, plain)
    if game_path is None:
        raise Failure("error: give a GAME to play, or --resume FILE to go on with a recorded game")
    game = load(game_path)
    n = player_count(game, players)
    seed = chosen_seed(seed)
    agents, kinds = build_agents(agent_specs, n, seed)
    attach_terminal(agents, game, plain)
    as_seat = onlooker(kinds)
    out = open(record, "w", encoding="utf-8") if record else None
    try:
        writer = TranscriptWriter(out, on_record=lambda r: echo_lines(narrate(r, as_seat)))
        writer.header(game, n, seed, kinds)
        machine = Machine(game.program, n, RandomChance(seed), listener=writer, fast=True)
        drive(machine, agents, writer, max_steps)
        writer.result(machine)
    finally:
        if out is not None:
            out.close()


def play_resumed(path: str, agent_specs, record: str | None, max_steps: int | None, plain: bool = False):
    from ..play.narrate import narrate
    from ..play.replay import recorded_game
    from ..play.resume import resume
    from ..play.terminal import attach as attach_terminal
    from ..play.transcript import TranscriptWriter
    records = read_records(path)
    header = records[0]
    game = recorded_game(records) or load(recorded_game_path(header["game"], path))
    n, seed = header["players"], header["seed"]
    specs = [f"{seat}={kind}" for seat, kind in enumerate(header["agents"])] + list(agent_specs)
    agents, kinds = build_agents(specs, n, seed)
    attach_terminal(agents, game, plain)
    as_seat = onlooker(kinds)
    with open(record or path, "w", encoding="utf-8") as out:
        writer = TranscriptWriter(out)  # quiet while the recorded steps are made again
        writer.header(game, n, seed, kinds)
        machine, done = resume(game.program, records, agents, writer)
        click.echo(f"{path}: resumed after step {done} ({game.path}, {n} players, seed {seed})")
        writer.on_record = lambda r: echo_lines(narrate(r, as_seat))
        drive(machine, agents, writer, max_steps)
        writer.result(machine)


@main.command("replay")
@click.argument("transcript_path", metavar="FILE")
@click.option("--game", "game_path", help="The .game file to replay against (default: the one recorded).")
@click.option("--as-seat", type=int, help="Show only what this seat saw.")
@guarded
def replay_command(transcript_path, game_path, as_seat):
    """Re-run a transcript against the current rules and report any divergence."""
    from ..play.replay import replay
    records = read_records(transcript_path)
    if game_path is None:
        game_path = recorded_game_path(records[0]["game"], transcript_path)
        if not os.path.exists(game_path):
            raise Failure(f"error: {game_path}: no such file (the game named in the transcript; "
                          "give the game with --game PATH)")
    game = load(game_path)
    report = replay(game, records, as_seat=as_seat, out=click.echo)
    if report.result is not None:
        click.echo(f"replay ok: all {report.steps} steps match")


def read_records(transcript_path: str) -> list:
    from ..play.transcript import TranscriptError, read_transcript
    try:
        return read_transcript(transcript_path)
    except TranscriptError as err:
        raise Failure(f"{transcript_path}: corrupt transcript: {err}") from None


def recorded_game_path(recorded: str, transcript_path: str) -> str:
    """The recorded path, or the same path next to the transcript when that is where it is."""
    if os.path.exists(recorded) or os.path.isabs(recorded):
        return recorded
    beside = os.path.join(os.path.dirname(transcript_path), recorded)
    return beside if os.path.exists(beside) else recorded


@main.command()
@click.argument("game_path", metavar="[GAME]", required=False)
@click.option("--players", "-n", type=int, help="Number of players (default: the game's minimum).")
@click.option("--seed", "-s", type=SEED, default=0, show_default=True, help="Seed for chance and the random agents.")
@click.option("--steps", "-k", type=click.IntRange(min=0), default=0, show_default=True,
              help="Random decisions to make first.")
@click.option("--transcript", "-t", "transcript_path", type=click.Path(dir_okay=False),
              help="Show a recorded game instead, at --step (under the recorded rules, or GAME's if given).")
@click.option("--step", type=click.IntRange(min=0), help="With --transcript: after this many recorded decisions.")
@click.option("--game", "game_option", help="With --transcript: the rules to follow it under (as GAME).")
@click.option("--as-seat", type=int, help="Show only what this seat sees.")
@guarded
def state(game_path, players, seed, steps, transcript_path, step, game_option, as_seat):
    """Print the state as JSON: after setup or some random steps, or at a step of a transcript."""
    from ..play.agents import ask_agent
    game_path = game_path or game_option
    if transcript_path is not None:
        game, machine, records = recorded_state(transcript_path, game_path, step)
        n, seed = records[0]["players"], records[0]["seed"]
    else:
        if game_path is None:
            raise Failure("error: give a GAME, or a recorded game with --transcript FILE --step K")
        game = load(game_path)
        n = player_count(game, players)
        agents, _ = build_agents((), n, seed)
        machine = Machine(game.program, n, RandomChance(seed))
        while machine.pending is not None and machine.steps < steps:
            index = ask_agent(agents[machine.pending.seat], machine)
            machine.choose_index(index)
    if as_seat is not None and not 0 <= as_seat < n:
        raise Failure(f"error: --as-seat {as_seat}: the game has seats 0..{n - 1}")
    import json
    click.echo(json.dumps(state_json(game, machine, n, seed, as_seat), indent=2, ensure_ascii=False))


def recorded_state(transcript_path: str, game_path: str | None, step: int | None):
    """(game, machine at `step`, records): the recorded choices followed under the recorded rules
    (from the transcript), or under GAME's when given."""
    from ..play.replay import Divergence, RecordingEnds, ReplayError, follow
    records = read_records(transcript_path)
    decisions = sum(1 for r in records if r["type"] == "decision")
    if step is None:
        raise Failure(f"error: --transcript needs --step K (0..{decisions})")
    if step > decisions:
        raise Failure(f"error: --step {step}: the transcript has steps 0..{decisions}")
    game = transcript_rules(records, transcript_path, game_path)
    try:
        machine = follow(game.program, records, step)
    except (Divergence, ReplayError) as err:
        raise Failure(f"error: {game.path} does not play this transcript up to step {step}: {err}") from None
    except RecordingEnds as err:
        raise Failure(f"error: --step {step}: {err} (an interrupted transcript)") from None
    return game, machine, records


def transcript_rules(records, transcript_path: str, game_path: str | None):
    """GAME's rules when given, else the ones the transcript carries (or names, for format 1)."""
    from ..play.replay import recorded_game
    if game_path is not None:
        return load(game_path)
    return recorded_game(records) or load(recorded_game_path(records[0]["game"], transcript_path))


def state_json(game, machine, players: int, seed: int, as_seat: int | None = None) -> dict:
    d, r = machine.pending, machine.result
    pending = None if d is None else {
        "seat": d.seat, "decision": d.name, "kind": d.kind, "labels": list(d.labels),
        "secret": d.secret, "rule": d.span.where()}
    if pending is not None and as_seat is not None and as_seat != d.seat:
        pending = {"seat": d.seat, "decision": d.name}  # another seat's options are that seat's to see
    result = None if r is None else {
        "reason": r.reason, "by_rule": r.by_rule, "scores": r.scores, "ranking": r.ranking, "winners": r.winners}
    return {"game": game.path, "players": players, "seed": seed, "steps": machine.steps,
            "status": "over" if r is not None else "waiting", "pending": pending, "result": result,
            "state": machine.w.snapshot(as_seat)}


@main.command("view")
@click.argument("transcript_path", metavar="FILE")
@click.option("--output", "-o", type=click.Path(dir_okay=False), help="The HTML file (default: FILE with .html).")
@click.option("--as-seat", type=int, help="Put only what this seat saw into the page.")
@click.option("--game", "game_path", help="Show it under these rules (default: the ones recorded).")
@guarded
def view_command(transcript_path, output, as_seat, game_path):
    """Write a recorded game as one HTML page (no server, no network) to step through in a browser."""
    from ..play.view import render_html, view_data
    records = read_records(transcript_path)
    game = transcript_rules(records, transcript_path, game_path)
    page = render_html(view_data(game, records, as_seat))
    output = output or os.path.splitext(transcript_path)[0] + ".html"
    with open(output, "w", encoding="utf-8") as fh:
        fh.write(page)
    click.echo(f"wrote {output}: open it in a browser")


@main.command("graph")
@click.argument("game_path", metavar="GAME")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="mermaid", show_default=True,
              help="mermaid (renders on GitHub) or dot (Graphviz).")
@click.option("--rule", "rule", help="Only this rule and what it leads to.")
@guarded
def graph_command(game_path, fmt, rule):
    """Print how the rules flow: calls, decisions (who decides what), triggers and end conditions."""
    from ..play.graph import render as render_graph
    game = load(game_path)
    click.echo(render_graph(game, fmt, rule), nl=False)


main.add_command(simulate_command)
main.add_command(compare_command)
main.add_command(list_command)
main.add_command(schema_command)
main.add_command(cache_command)
add_epilogs(main)  # each command's --help ends with its arguments, examples and exit codes
