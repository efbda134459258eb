"""Runtime, part 1: the World, plain data for everything a game holds.

Players are seat numbers, spaces their names, cards ids, zones (name, key)
pairs. A World copies cheaply and renders to JSON for views, state and digests.

Board and card fields are kept by column: `spaces[board][field][space]` and
`cardf[field][card]`, so a copy copies a dict per field, not one per space or card.
"""
from __future__ import annotations

import functools
import hashlib
from types import MappingProxyType

import msgspec

from ..budget import STEP_WORK


class Column(dict):
    """A stored field of a board, {space: value}, that also keeps tallies: for each of its
    groupings (a {space: group} table: by a fixed attribute of the board, or all spaces in
    one group), how many spaces of each group hold each value, `tallies[i][group][value]`.
    Every write keeps them (the rules' and anybody's: nothing writes it but by item), so
    that `count(s in lots where s.block == b and s.owner == p)` is a lookup
    (compile/aggregates.py, CollectionGen.looked_up). A tally is keyed by group, then by
    value, not by a (group, value) tuple: a lookup builds and hashes no tuple."""
    __slots__ = ("groupings", "tallies")

    def __init__(self, values: dict, groupings: list):
        super().__init__(values)
        self.groupings = groupings  # shared by every copy: never changed
        self.tallies = []
        for group_of in groupings:
            tally = Tally((group, {}) for group in group_of.values())
            for space, value in values.items():
                counts = tally[group_of[space]]
                counts[value] = counts.get(value, 0) + 1
            self.tallies.append(tally)

    def __setitem__(self, space, value):
        old = dict.get(self, space, _NOTHING)
        dict.__setitem__(self, space, value)
        for group_of, tally in zip(self.groupings, self.tallies):
            counts = tally[group_of[space]]
            if old is not _NOTHING:
                counts[old] -= 1
            counts[value] = counts.get(value, 0) + 1

    def copy(self) -> "Column":
        other = Column.__new__(Column)
        dict.update(other, self)
        other.groupings = self.groupings
        other.tallies = [t.copy() for t in self.tallies]
        return other

    def __reduce__(self):  # a World sent to another process
        return (Column, (dict(self), self.groupings))


class Tally(dict):
    """{group: {value: spaces of the group holding it}} of one grouping. Every group of a
    space is there from the start; a group no space is in reads as no spaces at all."""
    __slots__ = ()

    def __missing__(self, group):
        return _NO_SPACES

    def copy(self) -> "Tally":
        return Tally([(group, counts.copy()) for group, counts in self.items()])


_NO_SPACES = MappingProxyType({})  # read only: every group a write reaches is a space's own


_NOTHING = object()


ALL_MADE = 32  # a game with at most this many zones has them all made at the start, and copied


class Zones(dict):
    """The zones' cards, {(zone, key): [card, ...]}. A game may have hundreds of zones (one
    per card, say), mostly empty: then it holds only zones that held a card at some time,
    an empty zone is made on first use, and a copy copies the ones that hold cards. A game
    of ALL_MADE zones or fewer has every zone made at the start (Program.init_world) and
    copied by World.clone, which costs less than making them again in every game. `order`
    has every zone's key in the program's order (shared by every copy), which is the order
    in which they are shown (`in_order`)."""
    __slots__ = ("order", "index")

    def __init__(self, order: tuple, index: dict, filled=()):
        super().__init__(filled)
        self.order, self.index = order, index  # index: key -> its place in order

    def __missing__(self, key):
        if key not in self.index:
            raise KeyError(key)
        cards = self[key] = []
        return cards

    def copy(self) -> "Zones":
        """The zones that hold cards, copied (a game of ALL_MADE zones or fewer has each
        copied by World.clone's copier)."""
        other = Zones.__new__(Zones)
        for k, v in self.items():
            if v:
                other[k] = v[:]
        other.order, other.index = self.order, self.index
        return other

    def in_order(self):
        """(key, cards) of every zone, empty or not, in the program's order."""
        get = self.get
        return [(key, get(key) or []) for key in self.order]

    def filled(self):
        """(key, cards) of the zones that hold cards, in the program's order."""
        keys = sorted([k for k, v in self.items() if v], key=self.index.__getitem__)
        return [(key, self[key]) for key in keys]

    def __reduce__(self):  # a World sent to another process
        return (Zones, (self.order, self.index, dict(self)))


def _in_play(alive: list) -> tuple:
    """(the seats still in, in seat order; {seat: the other seats still in}): the values
    of `players` and `opponents(p)`, read by rules and never changed (a rule's
    collections are values: no statement changes one in place), so made once for a
    World's `alive` and shared by every reader."""
    playing = [s for s, living in enumerate(alive) if living]
    return playing, {p: [q for q in playing if q != p] for p in range(len(alive))}


@functools.lru_cache(maxsize=None)
def _all_in(n: int) -> tuple:
    """_in_play of n seats all in play: the same lists for every game of n players."""
    return _in_play([True] * n)


class World:
    __slots__ = ("program", "n", "alive", "out_order", "playing", "others", "consts", "shared", "players", "spaces",
                 "cardf", "zones", "loc", "version", "work")

    def __init__(self, program, n_players: int):
        self.program = program
        self.n = n_players
        self.alive = [True] * n_players  # `alive` and `out_order` are replaced, never changed in place:
        self.out_order: list = []  # a copy shares them (an elimination makes new ones: put_out)
        self.playing, self.others = _all_in(n_players)  # made from `alive`, and replaced with it
        self.consts: dict = {}
        self.shared: dict = {}
        self.players: list = [dict() for _ in range(n_players)]
        self.spaces: dict = {}
        self.cardf: dict = {}
        self.zones: dict = {}  # a Zones once set up (Program.start_world)
        self.loc: dict = {}
        self.version = 0  # bumped by every change rules make (see touch)
        self.work = STEP_WORK  # what the current step may still spend (budget.py); the Machine resets it

    def touch(self):
        """Marks the World changed. Rule effects do this; so must code that pokes it directly."""
        self.version += 1

    def put_out(self, seat: int):
        """Takes `seat` out of play: `alive`, `out_order`, `playing` and `others` replaced
        (copies of the World share them), never changed in place."""
        alive = self.alive[:]
        alive[seat] = False
        self.alive, self.out_order = alive, [*self.out_order, seat]
        self.playing, self.others = _in_play(alive)

    def clone(self) -> "World":
        """A copy to change apart: every container copied (constants, never changed,
        shared), by straight code written for this program's Worlds of this many players
        (copier), made at the first copy."""
        copiers = self.program.world_copiers
        copy = copiers.get(self.n)
        if copy is None:
            copy = copiers[self.n] = copier(self)
        return copy(self)

    # ------------------------------------------------------------ fields by owner
    def space_fields(self, board: str, space: str) -> dict:
        """{field: value} of one space ({} for a board without fields or an unknown space)."""
        return {f: col[space] for f, col in self.spaces.get(board, {}).items() if space in col}

    def card_fields(self, card: int) -> dict:
        """{field: value} of one card, in its set's order ({} for a card without fields)."""
        p = self.program
        fields = p.card_fields.get(p.cards[card].set, ()) if 0 <= card < len(p.cards) else ()
        return {f: self.cardf[f][card] for f, _ in fields}

    # ------------------------------------------------------------ zones
    def zone(self, key) -> list:
        return self.zones[key]

    def put(self, card: int, key, bottom: bool = False):
        zones, loc = self.zones, self.loc
        old = loc.get(card)
        if old is not None:
            zones[old].remove(card)
        dest = zones[key]
        if bottom:
            dest.append(card)
        else:
            dest.insert(0, card)
        loc[card] = key
        watch = self.program.zones_watched  # as zone_changed, for both zones
        if watch is None or key[0] in watch or (old is not None and old[0] != key[0] and old[0] in watch):
            self.version += 1

    def draw_top(self, src, key):
        """Moves the top card of zone `src` (which holds one) onto zone `key`: `put` for
        a card known to lie on top of `src`, found without a search."""
        zones = self.zones
        card = zones[src].pop(0)
        zones[key].insert(0, card)
        self.loc[card] = key
        watch = self.program.zones_watched
        if watch is None or key[0] in watch or (src[0] != key[0] and src[0] in watch):
            self.version += 1

    def put_all(self, src, key):
        """Moves every card of zone `src` to the bottom of zone `key`, in their order:
        `put(card, key, bottom=True)` for each, in one go. (A zone onto itself goes card
        by card; CardCompiler.refill never asks it, its zone being empty.)"""
        zones, loc = self.zones, self.loc
        if src == key:
            for card in list(zones[src]):
                self.put(card, key, bottom=True)
            return
        cards = zones[src]
        zones[key].extend(cards)
        for card in cards:
            loc[card] = key
        watch = self.program.zones_watched
        if watch is None or key[0] in watch or (src[0] != key[0] and src[0] in watch):
            self.version += len(cards)
        cards.clear()

    def zone_changed(self, name: str):
        """Marks the World changed if an end condition reads zone `name` (compile/watch.py)."""
        watch = self.program.zones_watched
        if watch is None or name in watch:
            self.version += 1

    # ------------------------------------------------------------ rendering
    def snapshot(self, seat: int | None = None) -> dict:
        """The state as JSON-ready data; with a seat, only what that seat sees."""
        p = self.program
        players = []
        for i, fields in enumerate(self.players):
            shown = {"seat": i, "alive": self.alive[i]}
            for name, value in fields.items():
                hide = seat is not None and seat != i and p.secret_player_fields.get(name)
                shown[name] = "?" if hide else p.show_field("player", name, value)
            players.append(shown)
        if seat is None:  # every zone, in the program's order, then the ones that hold cards
            zones = {label: [] for label in p.zone_labels_in_order(self.zones.order)}
            for key, cards in self.zones.filled():
                zones[p.zone_label(key)] = self.show_zone(key, cards, None)
        else:
            zones = {p.zone_label(key): self.show_zone(key, cards, seat) for key, cards in self.zones.in_order()}
        boards = {b: self.show_board(b, cols) for b, cols in self.spaces.items()}
        out = {
            "shared": {k: p.show_field("shared", k, v) for k, v in self.shared.items()},
            "players": players,
            "zones": zones,
        }
        if boards:
            out["boards"] = boards
        if p.card_fields and seat is None:
            cols, rows = self.cardf, {}
            for key, c, names in p.field_card_rows():  # loops, not comprehensions: one per card costs a call each
                row = rows[key] = {}
                for f in names:
                    row[f] = cols[f][c]
            out["card_fields"] = rows
        return out

    def show_board(self, board: str, cols: dict) -> dict:
        """{space: {field: shown value}} of one board, in the board's order: each field
        labelled as a column (Program.show_field), the rows filled in by loops."""
        labelers, shown = self.program.field_labelers, []
        for f, col in cols.items():
            lab = labelers.get((board, f))
            shown.append((f, col if lab is None else {s: v if v is None else lab(v) for s, v in col.items()}))
        rows: dict = {}
        for s in self.program.boards[board].spaces:
            row = rows[s] = {}
            for f, values in shown:
                row[f] = values[s]
        return rows

    def show_zone(self, key, cards, seat):
        p = self.program
        zone = p.zones[key[0]]
        vis = zone.visibility
        if sees_every_face(vis, key, seat):
            return [p.cards[c].label for c in cards]
        if vis == "top":
            return {"count": len(cards), "top": p.cards[cards[0]].label if cards else None}
        if zone.show:
            return {"count": len(cards),
                    "show": [" ".join(str(p.cards[c].attrs[a]) for a in zone.show) for c in cards]}
        return {"count": len(cards)}

    def digest(self) -> str:
        return hashlib.sha256(canonical_json(self.snapshot())).hexdigest()[:16]


MANY_SEATS = 8  # with more players than this a copy copies them in a loop


def copier(w: World):
    """The function that copies a World of `w`'s shape (runs once per game and per search
    step): its players, boards' fields, card fields and, in a game of ALL_MADE zones or
    fewer, zones are fixed for a program and player count, so each container is copied
    by a line of its own, without the loops and calls of a general copy; who is in play
    and the order of those out are shared (an elimination replaces them). Keys are the
    function's globals, never written into its text."""
    names: dict = {"World": World, "Zones": Zones}
    lines = ["def copy(self):",
             "    w = World.__new__(World)",
             "    w.program, w.n, w.consts = self.program, self.n, self.consts",
             "    w.version, w.work = self.version, self.work",
             "    w.alive, w.out_order = self.alive, self.out_order",  # replaced when changed: shared
             "    w.playing, w.others = self.playing, self.others",
             "    w.shared = self.shared.copy()",
             "    w.loc = self.loc.copy()",
             "    p = self.players"]
    if w.n > MANY_SEATS:
        lines.append("    w.players = [q.copy() for q in p]")
    else:
        lines.append(f"    w.players = [{', '.join(f'p[{i}].copy()' for i in range(w.n))}]")

    given: dict = {}  # a key -> the global naming it

    def key(value) -> str:
        name = given.get(value)
        if name is None:
            name = given[value] = f"k{len(given)}"
            names[name] = value
        return name

    def board(b, cols) -> str:
        return f"{key(b)}: {{" + ", ".join(f"{key(f)}: s[{key(b)}][{key(f)}].copy()" for f in cols) + "}"

    boards = ", ".join(board(b, cols) for b, cols in w.spaces.items())
    lines += ["    s = self.spaces", f"    w.spaces = {{{boards}}}"] if boards else ["    w.spaces = {}"]
    fields = ", ".join(f"{key(f)}: c[{key(f)}].copy()" for f in w.cardf)
    lines += ["    c = self.cardf", f"    w.cardf = {{{fields}}}"] if fields else ["    w.cardf = {}"]
    if len(w.zones.order) > ALL_MADE:
        lines.append("    w.zones = self.zones.copy()")
    else:
        lines += ["    z = self.zones", "    o = w.zones = Zones.__new__(Zones)"]
        lines += [f"    o[{k}] = z[{k}][:]" for k in map(key, w.zones)]
        lines.append("    o.order, o.index = z.order, z.index")
    lines.append("    return w")
    exec(compile("\n".join(lines), "<ruledsl World copy>", "exec"), names)  # noqa: S102 - text made above, names only
    return names["copy"]


def canonical_json(data) -> bytes:
    """`json.dumps(data, sort_keys=True, separators=(",", ":"))` as bytes: what state
    digests hash, so these bytes must never change. msgspec's encoder is used when its
    bytes are sure to be the same: printable ASCII with nothing escaped, where JSON
    allows one spelling only (json.dumps escapes non-ASCII and DEL, msgspec does not).
    It is several times faster, and replays make a digest at every step."""
    try:
        out = msgspec.json.encode(data, order="sorted")
    except (msgspec.EncodeError, TypeError, ValueError, OverflowError):
        out = None
    if out is None or not out.isascii() or b"\\" in out or b"\x7f" in out:
        import json  # (here only: a check imports no json)
        out = json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    return out


def sees_every_face(visibility: str, key, seat: int | None) -> bool:
    """Whether seat `seat` (None: the whole table) sees the face of every card of the zone
    `key` of that visibility; else it sees how many, and with `top` the top card's face."""
    return seat is None or visibility == "public" or (visibility == "owner" and key[1] == seat)
