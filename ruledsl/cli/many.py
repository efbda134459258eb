"""Many games at once: `simulate` and `compare` (local processes or Ray tasks)."""
from __future__ import annotations

import sys
from contextlib import nullcontext

import click

from .common import Failure, check_agents, echo_lines, guarded, load, player_count
from .types import JOBS, SEED


def backend_of(name: str, address: str | None):
    """None for local processes, or a Ray backend (Ray must be importable)."""
    if name == "process":
        if address:
            raise Failure("error: --address is for --backend ray")
        return None
    from ..play.ray_backend import ray_backend
    return ray_backend(address)


def playout_options(command):
    """--json, --max-steps, --jobs, --agent, --backend and --address, as simulate and compare take them."""
    command = click.option("--address", help="With --backend ray: the Ray cluster to join (default: start a local one).")(
        command)
    command = click.option("--backend", type=click.Choice(["process", "ray"]), default="process", show_default=True,
                           help="Where the seed blocks are played: local processes (--jobs of them), or Ray tasks "
                                "(--jobs sets the blocks, 8 per job).")(command)
    command = click.option("--agent", "agent_specs", multiple=True, metavar="SEAT=KIND",
                           help="Who plays a seat in every game: random (default), first, mcts[:SIMS[:DEPTH]], "
                                "an entry point of ruledsl.agents, or module:Class (docs/agents.md).")(command)
    command = click.option("--jobs", "-j", type=JOBS, default=1, show_default=True,
                           help="Processes to spread the games over (same results, less time); auto: one "
                                "per CPU this process may use.")(command)
    command = click.option("--max-steps", type=click.IntRange(min=0), default=10_000, show_default=True,
                           help="Stop a game after this many decisions.")(command)
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(command)


@click.command("simulate")
@click.argument("game_path", metavar="GAME")
@click.option("--players", "-n", type=int, help="Number of players (default: the game's minimum).")
@click.option("--games", "-g", type=click.IntRange(min=1), default=100, show_default=True,
              help="How many games to play.")
@click.option("--seed", "-s", type=SEED, default=0, show_default=True, help="Game i uses seed SEED+i.")
@playout_options
@click.option("--profile", "profiled", is_flag=True,
              help="Also print where the time went, by line of the game: the lines with the most CPU samples "
                   "(docs/simulate.md#profile; --jobs 1 only).")
@guarded
def simulate_command(game_path, players, games, seed, as_json, max_steps, jobs, agent_specs, backend, address,
                     profiled):
    """Play many random games and summarize how they ended.

    Exit code 0 when every game ran to its end, 1 when a rule failed in any game
    (the summary or JSON is printed first). Failed games are listed, the first 100
    of them, with seed, error code, message and rule: on stderr, or in the JSON's
    `error_list`; `ruledsl play GAME --players N --seed SEED` shows one again.
    A progress bar shows on stderr when stderr is a terminal.
    """
    from ..play.simulate import simulate_file, terminal_progress  # here: other commands need no simulation
    profile = sampling(profiled, jobs, backend)
    game = load(game_path)
    n = player_count(game, players)
    check_agents(agent_specs, n)
    with terminal_progress(games) as progress, profile or nullcontext():
        summary = simulate_file(game.path, n, games, seed, max_steps, jobs, progress, program=game.program,
                                agents=agent_specs, backend=backend_of(backend, address))
    if as_json:
        import json
        out = summary.as_json()
        if profile is not None:
            out["profile"] = profile.as_json(game.loaded.sources)
        click.echo(json.dumps(out))
    else:
        for line in summary.error_lines():
            click.echo(line, err=True)
        echo_lines(summary.text())
        if profile is not None:
            echo_lines(profile.text(game.loaded.sources))
    if summary.errors:
        sys.exit(1)


def sampling(profiled: bool, jobs: int, backend: str):
    """The profiler `--profile` asks for (play/profile.py), or None without it."""
    if not profiled:
        return None
    from ..play.profile import Profile
    if jobs != 1 or backend != "process":
        raise Failure("error: --profile samples this process: use it with --jobs 1 and --backend process")
    if not Profile.available():
        raise Failure("error: --profile needs CPU-time signals (signal.setitimer), which this platform lacks")
    return Profile()


@click.command("compare")
@click.argument("path_a", metavar="A")
@click.argument("path_b", metavar="B")
@click.option("--players", "-n", type=int, help="Number of players (default: the smallest count both games take).")
@click.option("--games", "-g", type=click.IntRange(min=1), default=200, show_default=True,
              help="Games played on each of A and B.")
@click.option("--seed", "-s", type=SEED, default=0, show_default=True, help="A's game i uses seed SEED+i.")
@click.option("--seed-b", type=int, help="B's game i uses seed SEED_B+i (default: the same seeds as A).")
@playout_options
@guarded
def compare_command(path_a, path_b, players, games, seed, seed_b, as_json, max_steps, jobs, agent_specs, backend,
                    address):
    """Play the same seeds on games A and B (e.g. a base game and a house-rule
    variant) and report, metric by metric, A, B, B - A, a test and a verdict.

    On the same seeds (the default) each game of A is paired with B's: win rates, shared
    wins and games without a winner by McNemar's exact test, scores and game length by
    the Wilcoxon signed-rank test; with --seed-b, Fisher's exact test and Mann-Whitney U.
    End reasons: chi-square. p values are
    adjusted with Holm's method over all the metrics of the report, and a metric
    is flagged (*) when its adjusted p is below 0.05 (** below 0.01).

    Exit code 0, or 1 when a rule failed in any game of A or B (the report is
    printed first; failed games are listed as `simulate` lists them). A progress
    bar shows on stderr when stderr is a terminal.
    """
    from ..play.compare import compare_files
    from ..play.simulate import terminal_progress
    game_a, game_b = load(path_a), load(path_b)
    if players is None:
        players = max(game_a.program.min_players, game_b.program.min_players)
    n = player_count(game_a, players)
    player_count(game_b, n)
    check_agents(agent_specs, n)
    programs = {game_a.path: game_a.program, game_b.path: game_b.program}
    with terminal_progress(2 * games) as progress:
        report = compare_files(game_a.path, game_b.path, n, games, seed, seed_b, max_steps, jobs, progress, programs,
                               agents=agent_specs, backend=backend_of(backend, address))
    if as_json:
        import json
        click.echo(json.dumps(report.as_json()))
    else:
        for line in report.a.error_lines() + report.b.error_lines():
            click.echo(line, err=True)
        echo_lines(report.text())
    if report.errors:
        sys.exit(1)
