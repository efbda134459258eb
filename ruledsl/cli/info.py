"""Commands that tell about ruledsl itself: `list` (the shipped games) and `schema` (file formats).

commands.py attaches them to the `ruledsl` group."""
from __future__ import annotations

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
        import json
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


@click.command("cache")
@click.option("--clear", "clear", is_flag=True, help="Remove every entry: built parser, parse results, compiled code.")
def cache_command(clear):
    """Show where ruledsl keeps what it reuses between runs, and how much; --clear empties it.

    Three caches make a second start fast: the built parser (only where the parser tables
    shipped with ruledsl do not fit: a grammar being edited, another Lark), each file's
    parse result and the compiled code of its rules. Each entry is checked before use and made again when
    missing or damaged, so clearing is never needed for correctness. RULEDSL_CACHE_DIR
    sets the folder; RULEDSL_CACHE_DIR="" turns every cache off.
    """
    from .. import cache
    if clear:
        click.echo(f"removed {cache.clear()} cache files")
        return
    base, kinds = cache.contents()
    if base is None:
        click.echo(f'caching is off ({cache.CACHE_ENV}="", or no folder of this user\'s own to keep it in)')
        return
    click.echo(f"cache folder: {base}")
    for kind, (files, size) in kinds.items():
        click.echo(f"  {kind:<14} {files:>5} files {size / 1e6:>9.2f} MB")
