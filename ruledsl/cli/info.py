"""Commands that tell about ruledsl itself: `list` (the shipped games) and `schema` (file formats).

commands.py attaches them to the `ruledsl` group."""
from __future__ import annotations

import json

import click

from .. import api
from ..errors import RuleError
from ..pipeline import load_game


@click.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of {name, title, players, path}.")
def list_command(as_json):
    """List the games that ship with ruledsl: name, player counts and title.

    Any command that takes a GAME takes one of these names, and a variant can
    extend one with `extends "ruledsl:NAME"`.
    """
    rows = []
    for name, path in api.shipped_games():
        try:
            prog = load_game(path).program
            low, high = prog.min_players, prog.max_players
            title, players = prog.title, str(low) if low == high else f"{low}..{high}"
        except RuleError:
            title, players = "(does not check: run `ruledsl check`)", "?"
        rows.append({"name": name, "title": title, "players": players, "path": path})
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False))
        return
    width = max((len(r["name"]) for r in rows), default=4)
    for r in rows:
        click.echo(f"{r['name']:<{width}}  {r['players']:>6}  {r['title']}")


@click.command("schema")
@click.argument("name", type=click.Choice(["transcript"]))
def schema_command(name):
    """Print the JSON Schema of a file format: `transcript` (one record, a line of a transcript).

    Every line of a transcript written by `ruledsl play --record` validates against it.
    """
    from ..play.schema import text
    click.echo(text(name), nl=False)
