"""What every command shares: the error guard (no tracebacks, exit code 1), loading
a game by path or shipped name, and the seats' agents."""
from __future__ import annotations

import functools
import os
import sys

import click

from .. import api
from ..errors import UserError

DEBUG_ENV = "RULEDSL_DEBUG"  # set it to see tracebacks of internal errors


class Failure(UserError):
    """A user-facing error: printed as is to stderr, exit code 1."""

    prefix = ""


# ---------------------------------------------------------------- errors
def user_message(err: Exception) -> str | None:
    """The message for an error the user caused, or None for a bug of ruledsl."""
    if isinstance(err, UserError):
        return err.user_message()
    if isinstance(err, OSError):
        where = f"{err.filename}: " if err.filename else ""
        return f"error: {where}{err.strerror or err}"
    return None


def guarded(command):
    """Turns every exception into a message on stderr and exit code 1."""
    @functools.wraps(command)
    def run(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except BrokenPipeError:  # e.g. `ruledsl play ... | head`: the reader left; say nothing more
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(1)
        except Exception as err:  # noqa: BLE001 - the point is: no tracebacks
            message = user_message(err)
            if message is None:
                if os.environ.get(DEBUG_ENV):
                    raise
                message = f"internal error (a bug in ruledsl): {type(err).__name__}: {err}"
            click.echo(message, err=True)
            sys.exit(1)
    return run


# ---------------------------------------------------------------- shared steps
def load(path: str):
    """A game by path, or by a shipped game's name (`ruledsl list`)."""
    return api.load(path).compiled


def player_count(game, players: int | None) -> int:
    prog = game.program
    n = prog.min_players if players is None else players
    if not prog.min_players <= n <= prog.max_players:
        raise Failure(f"error: {prog.title!r} takes {prog.min_players}..{prog.max_players} players, not {n}")
    return n


def build_agents(specs, players: int, seed: int):
    """Agents for every seat from `--agent SEAT=KIND` options (random by default); returns (agents, kinds)."""
    from ..play.agents import seat_agents  # here: `ruledsl check` needs no agents
    return seat_agents(specs, players, seed)


def check_agents(specs, players: int):
    """Makes the agents once, so a bad --agent fails before any game; a human cannot sit in a simulation."""
    from ..play.agents import seat_agents
    _, kinds = seat_agents(specs, players, 0)
    if "human" in kinds:
        raise Failure("error: --agent ...=human: simulate and compare play without a terminal; "
                      "use play for a human seat")


def echo_lines(lines):
    for line in lines:
        click.echo(line)
