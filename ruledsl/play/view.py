"""`ruledsl view`: a recorded game as one self-contained HTML page.

The page (view_template.html, shipped in the package) steps through the game:
the decisions with their narration, and the state after each, drawn from the
game's declarations (players' fields, zones, boards; view_layout.py places the
spaces). The states are `World.snapshot(seat)` after every decision, for the
whole table and for every seat, or with `as_seat` for that one seat only, so
nothing that seat could not see is in the file. Each view stores its first
state whole and every later one as the changes from the one before.

Game text goes into a JSON block with every `<` escaped, and the page inserts
it with textContent only: game files are untrusted.
"""
from __future__ import annotations

import json
from importlib import resources

from ..errors import UserError
from ..runtime.machine import Machine
from .divergence import ReplayError, chance_of, decisions_of
from .narrate import narrate
from .view_layout import board_layout

TEMPLATE = "view_template.html"
DATA_MARK = "/*RULEDSL_VIEW_DATA*/"


class ViewError(UserError):
    """The transcript cannot be shown under these rules."""


# ---------------------------------------------------------------- the states
def play_through(program, records) -> list:
    """The Machine's World after set-up and after each recorded decision (clones)."""
    chance = chance_of(records)
    machine = Machine(program, records[0]["players"], chance)
    worlds = [machine.w.clone()]
    for record in decisions_of(records):
        d = machine.pending
        if d is None or d.index_of(record["choice"]) is None:
            raise ReplayError(f"step {record['step']}: the recorded choice {record['choice']!r} is not offered")
        chance.step = record["step"]
        machine.choose(record["choice"])
        worlds.append(machine.w.clone())
    return worlds


def changes(before, after, path=()) -> list:
    """What turns `before` into `after`: [path, value] to set, [path] to delete."""
    if isinstance(before, dict) and isinstance(after, dict):
        out = [[list(path + (k,))] for k in before if k not in after]
        for k, v in after.items():
            out += changes(before[k], v, path + (k,)) if k in before else [[list(path + (k,)), v]]
        return out
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after) \
            and any(isinstance(x, (dict, list)) for x in before):
        out = []
        for i, (a, b) in enumerate(zip(before, after)):
            out += changes(a, b, path + (i,))
        return out
    return [] if before == after else [[list(path), after]]


def view_states(worlds, seat) -> list:
    """The first snapshot whole, then the changes step by step."""
    snaps = [w.snapshot(seat) for w in worlds]
    return [snaps[0]] + [changes(a, b) for a, b in zip(snaps, snaps[1:])]


# ---------------------------------------------------------------- the narration
def step_records(records) -> list:
    """Records grouped by step: 0 is the header and set-up, k the decision k and what it caused."""
    groups: list = [[]]
    for record in records:
        if record["type"] == "decision":
            groups.append([record])
        elif record["type"] in ("header", "chance", "event"):
            groups[-1].append(record)
    return groups


def step_entries(groups, as_seat) -> list:
    """Per step: the decision (seat, name, choice as this view sees it) and the narration lines."""
    out = []
    for group in groups:
        first = group[0] if group else {}
        entry = {"lines": [line.strip() for r in group for line in narrate(r, as_seat)]}
        if first.get("type") == "decision":
            sealed = first.get("secret") and as_seat is not None and as_seat != first["seat"]
            entry.update(step=first["step"], seat=first["seat"], decision=first["decision"],
                         choice=None if sealed else first["choice"], secret=bool(first.get("secret")))
        else:
            entry.update(step=0, seat=None, decision="set-up", choice=None, secret=False)
        out.append(entry)
    return out


# ---------------------------------------------------------------- the declarations
def board_drawings(game) -> list:
    program, model = game.program, game.model
    return [board_layout(name, model.boards[name], program.boards[name].links) for name in program.boards]


def pieces(game) -> list:
    """Fields whose value is a space: drawn as pieces on that space's board."""
    model = game.model
    out = []
    for owner, table in (("player", model.player_fields), ("shared", model.shared_fields)):
        for name, field in table.items():
            t = model.resolve_type(field.type)
            if t is not None and t.kind == "space":
                out.append({"owner": owner, "field": name, "board": t.name})
    return out


def zone_table(game, n: int) -> dict:
    """label -> {zone, per, key, visibility}: which zone a snapshot's zone label is."""
    program = game.program
    out = {}
    for name in program.zone_order:
        zone = program.zones[name]
        per = zone.per if zone.per in (None, "player") or zone.per in program.boards else "other"
        for key in program.zone_keys(zone, n):
            out[program.zone_label((name, key))] = {
                "zone": name, "per": per, "key": None if per in (None, "other") else key,
                "visibility": zone.visibility, "cards": zone.cards}
    return out


def space_owner_fields(game) -> dict:
    """board -> names of its space fields that hold a player (drawn as the space's colour)."""
    model = game.model
    out = {}
    for name, info in model.boards.items():
        out[name] = [f for f, decl in info.fields.items()
                     if (t := model.resolve_type(decl.type)) is not None and t.kind == "player"]
    return out


# ---------------------------------------------------------------- the page data
def view_data(game, records, as_seat=None) -> dict:
    header = records[0]
    n = header["players"]
    if not game.program.min_players <= n <= game.program.max_players:
        raise ViewError(f"the transcript is for {n} players; {game.program.title!r} takes "
                        f"{game.program.min_players}..{game.program.max_players}")
    if as_seat is not None and not 0 <= as_seat < n:
        raise ViewError(f"--as-seat {as_seat}: the game has seats 0..{n - 1}")
    worlds = play_through(game.program, records)
    groups = step_records(records)
    seats = [as_seat] if as_seat is not None else [None] + list(range(n))
    views = [{"name": "everything" if s is None else f"seat {s}", "seat": s,
              "steps": step_entries(groups, s), "states": view_states(worlds, s)} for s in seats]
    result = next((r for r in records if r["type"] == "result"), None)
    return {
        "title": game.program.title, "game": header["game"], "players": n, "seed": header["seed"],
        "agents": header["agents"], "as_seat": as_seat,
        "result": None if result is None else [line for line in narrate(result, as_seat)],
        "boards": board_drawings(game), "pieces": pieces(game), "zones": zone_table(game, n),
        "owner_fields": space_owner_fields(game), "views": views,
    }


def script_json(data) -> str:
    """JSON safe inside <script>: no '<' at all, so no '</script>' or '<!--' either."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def render_html(data) -> str:
    template = resources.files(__package__).joinpath(TEMPLATE).read_text(encoding="utf-8")
    head, mark, tail = template.partition(DATA_MARK)
    if not mark:
        raise RuntimeError(f"{TEMPLATE} lacks its data mark")
    return head + script_json(data) + tail
