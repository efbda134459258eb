"""A seat's view as a vector of numbers, for learning agents: what `World.snapshot(seat)`
shows that seat, laid out in places fixed for a game and a player count. OpenSpiel's
`observation_tensor` (ruledsl.openspiel) and the API's `Match.observation` are made here.

A `Layout` is made once for a game and a player count; `encode` fills a list of floats
of `Layout.size`. The vector is a sequence of named pieces (`Layout.pieces`: name, shape,
where it starts), in this order (P seats):

- `observer` (P): one-hot, the seat that observes;
- `to_move` (P+1): one-hot, the seat a decision waits for; the last place when none does
  (chance, set-up, a simultaneous node, the game over);
- `decision` (D+1): one-hot, the name of the decision waiting for the observer, among the
  names the rules give decisions (sorted); the last place for a name made while playing;
- `shared` (F): the shared fields;
- `players` (P, 1+F): a row per seat: in play (1 or 0), then the player fields; another
  seat's `secret` field is 0s;
- `board NAME` (spaces, F): for each board with stored fields, a row per space;
- `zone sizes` (Z): how many cards each zone holds (every seat sees that);
- `cards` (C, W): a row per card, where the observer sees it: the zone's declaration
  (one-hot), its key (one-hot by seat, enum value or space; a zone per card by the number
  of its card's label in its set, from 1), and 1 if it is the zone's top card; 0s where
  the observer does not see it. Copies (one set, one label) are one group of rows, filled
  in the order they are seen (zones in the program's order, each from its top), so the
  vector depends on what the seat sees, not on which copy is which;
- `shown` (N): for each zone whose cards show attributes (`show a, b`), how many of its
  cards have each value of each shown attribute.

A value is written as a number (int, bool) or one-hot (a player by seat, an enum value, a
space of its board, a card by its label among its set's labels); none is 0s. Only what
the snapshot shows the seat goes in: card fields are shown to no seat, and are not here.
"""
from __future__ import annotations

import math

from ..runtime.world import sees_every_face
from ..syntax import ast
from .actions import statements


class _Place:
    """How one value is written: at `offset` within a row, a number (`index` None) or
    one-hot (`index`: value -> place, among `names`, one for each place)."""
    __slots__ = ("offset", "index", "names")

    def __init__(self, offset: int, index: dict | None = None, names: list | None = None):
        self.offset, self.index, self.names = offset, index, names

    @property
    def width(self) -> int:
        return 1 if self.names is None else len(self.names)

    def write(self, out: list, at: int, value):
        if self.index is None:
            out[at + self.offset] = float(value)
        elif value is not None:
            i = self.index.get(value)
            if i is not None:
                out[at + self.offset + i] = 1.0


def _one_hot(values) -> dict:
    return {v: i for i, v in enumerate(values)}


class Layout:
    """Where each part of a seat's view goes, for `compiled` (pipeline.Game) at `players`."""

    def __init__(self, compiled, players: int):
        self.program, self.model, self.players = compiled.program, compiled.model, players
        p = self.program
        self.label_groups, self.row_labels = self._label_groups()
        self.pieces: list = []  # (name, shape, start)
        self.size = 0
        self.observer = self._piece("observer", (players,))
        self.to_move = self._piece("to_move", (players + 1,))
        self.decisions = _one_hot(decision_names(statements(compiled)))
        self.decision = self._piece("decision", (len(self.decisions) + 1,))
        self.shared_row, width = self._fields(self.model.shared_fields, 0)
        self.shared_at = self._piece("shared", (width,))
        self.player_row, width = self._fields(self.model.player_fields, 1)
        self.players_at = self._piece("players", (players, width))
        self.player_width = width
        self.boards = []  # (name, {field: place}, row width, start)
        for name, info in self.model.boards.items():
            if info.fields:
                places, width = self._fields(info.fields, 0)
                self.boards.append((name, places, width, self._piece(f"board {name}", (len(info.spaces), width))))
        self.zone_order = tuple(p.new_world(players).zones.order)
        self.zone_sizes = self._piece("zone sizes", (len(self.zone_order),))
        self.zone_places, width = self._zone_places()
        self.card_width = width
        self.cards_at = self._piece("cards", (len(p.cards), width))
        self.shown = self._shown_places()
        self.shown_at = self._piece("shown", (sum(len(v) for v in self.shown.values()),))

    # ------------------------------------------------------------ the layout
    def _piece(self, name: str, shape: tuple) -> int:
        start = self.size
        self.pieces.append((name, shape, start))
        self.size += math.prod(shape)
        return start

    def _label_groups(self) -> tuple:
        """({card id: (its group's first row, its label's number in its set)}, a name for
        each row). Copies of a card (one set, one label) are a group; the groups' rows
        follow each other, in the order of their first cards' ids."""
        groups: dict = {}  # (set, label) -> its cards' ids
        numbers: dict = {}  # (set, label) -> its label's number in its set
        for card in self.program.cards:
            key = (card.set, card.label)
            if key not in groups:
                groups[key] = []
                numbers[key] = sum(1 for k in numbers if k[0] == card.set)
            groups[key].append(card.id)
        of_card, row_labels = {}, []
        for key, ids in groups.items():
            for k, c in enumerate(ids):
                of_card[c] = (len(row_labels) - k, numbers[key])
                row_labels.append(key[1] if k == 0 else f"{key[1]} #{k + 1}")
        return of_card, row_labels

    def _set_labels(self, name: str) -> dict:
        """card id -> the number of its label in card set `name` (one-hot place)."""
        return {c: self.label_groups[c][1] for c in self.program.cardset_ids.get(name, ())}

    def _type_place(self, ref: ast.TypeRef, offset: int) -> _Place:
        t = self.model.resolve_type(ref)
        return _Place(offset) if t is None else self._value_place(t.kind, t.name, offset)

    def _value_place(self, kind: str, name: str | None, offset: int) -> _Place:
        """A value of a kind (and enum, board or card set `name`): one-hot by seat, enum
        value, space or card label; a number otherwise."""
        if kind == "player":
            names = [f"seat {s}" for s in range(self.players)]
            return _Place(offset, _one_hot(range(self.players)), names)
        if kind == "enum":
            names = list(self.model.enums[name])
        elif kind == "space":
            names = list(self.model.boards[name].spaces)
        elif kind == "card":
            index = self._set_labels(name)
            names = [""] * (max(index.values(), default=-1) + 1)
            for c, k in index.items():
                names[k] = names[k] or self.program.cards[c].label
            return _Place(offset, index, names)
        else:
            return _Place(offset)
        return _Place(offset, _one_hot(names), names)

    def _fields(self, decls: dict, offset: int) -> tuple:
        """({field: its place}, the row's width) for field declarations, after `offset` places."""
        places = {}
        for name, decl in decls.items():
            place = places[name] = self._type_place(decl.type, offset)
            offset += place.width
        return places, offset

    def _zone_places(self) -> tuple:
        """({zone name: (its one-hot place, the place of its key or None)}, a card row's
        width): the zones' declarations first, then one place per kind of key (a seat, an
        enum value or a space one-hot; a zone per card by the number of that card's label
        in its set, from 1), then the top."""
        p = self.program
        names = list(p.zones)
        self.key_places: dict = {}  # what zones are per -> the place of their keys
        offset = len(names)
        for name in names:
            per = p.zones[name].per
            if per is None or per in self.key_places:
                continue
            kind = "player" if per == "player" else "enum" if per in p.enums else "number" \
                if per in p.cardset_ids else "space"
            place = self.key_places[per] = self._value_place(kind, per, offset)
            offset += place.width
        places = {name: (i, self.key_places.get(p.zones[name].per)) for i, name in enumerate(names)}
        self.top_place = offset
        return places, offset + 1

    def _shown_places(self) -> dict:
        """{zone key: [((attribute, value), place)]} for every zone that shows attributes."""
        p, shown, offset = self.program, {}, 0
        for key in self.zone_order:
            zone = p.zones[key[0]]
            if not zone.show:
                continue
            ids = p.cardset_ids.get(zone.cards, ())
            pairs = []
            for a in zone.show:
                for v in sorted({str(p.cards[c].attrs.get(a)) for c in ids}):
                    pairs.append(((a, v), offset))
                    offset += 1
            shown[key] = dict(pairs)
        return shown

    # ------------------------------------------------------------ names
    def legend(self) -> list:
        """A name for each number of the vector, in order: 'players[seat 1].coins',
        'board grid[b2].owner=seat 0', 'cards[red #2] in hand', 'zone sizes[deck'], ..."""
        p, names = self.program, [""] * self.size
        seats = [f"seat {s}" for s in range(self.players)]
        for s, seat in enumerate(seats):
            names[self.observer + s] = f"observer={seat}"
            names[self.to_move + s] = f"to_move={seat}"
        names[self.to_move + self.players] = "to_move=no one"
        for name, i in self.decisions.items():
            names[self.decision + i] = f"decision={name}"
        names[self.decision + len(self.decisions)] = "decision=another"
        self._name_fields(names, self.shared_at, "shared", self.shared_row)
        for s, seat in enumerate(seats):
            at = self.players_at + s * self.player_width
            names[at] = f"players[{seat}] in play"
            self._name_fields(names, at, f"players[{seat}]", self.player_row)
        for board, places, width, start in self.boards:
            for row, space in enumerate(self.model.boards[board].spaces):
                self._name_fields(names, start + row * width, f"board {board}[{space}]", places)
        for i, key in enumerate(self.zone_order):
            names[self.zone_sizes + i] = f"zone sizes[{p.zone_label(key)}]"
        for row, label in enumerate(self.row_labels):
            at = self.cards_at + row * self.card_width
            for zone, (number, _) in self.zone_places.items():
                names[at + number] = f"cards[{label}] in {zone}"
            for per, place in self.key_places.items():
                if place.names is None:
                    names[at + place.offset] = f"cards[{label}] per {per}: the number of its card's label"
                else:
                    for k, value in enumerate(place.names):
                        names[at + place.offset + k] = f"cards[{label}] per {per}={value}"
            names[at + self.top_place] = f"cards[{label}] on top"
        for key, places in self.shown.items():
            for (attr, value), k in places.items():
                names[self.shown_at + k] = f"shown[{p.zone_label(key)}] {attr}={value}"
        return names

    @staticmethod
    def _name_fields(names: list, at: int, owner: str, places: dict):
        for field, place in places.items():
            if place.index is None:
                names[at + place.offset] = f"{owner}.{field}"
            else:
                for k, value in enumerate(place.names):
                    names[at + place.offset + k] = f"{owner}.{field}={value}"

    # ------------------------------------------------------------ a view
    def observe(self, machine, seat: int) -> list:
        """Seat `seat`'s view of a Machine's game, its pending decision included."""
        d = machine.pending
        if d is None:
            return self.encode(machine.w, seat)
        return self.encode(machine.w, seat, d.seat, d.name if d.seat == seat else None)

    def unseen(self, seat: int, to_move: int | None = None) -> list:
        """The vector of a seat that sees nothing yet (before set-up): who observes, who moves."""
        out = [0.0] * self.size
        out[self.observer + seat] = 1.0
        out[self.to_move + (self.players if to_move is None else to_move)] = 1.0
        return out

    def encode(self, w, seat: int, to_move: int | None = None, decision: str | None = None) -> list:
        """Seat `seat`'s view of World `w`, as `size` floats: `to_move` the seat a decision
        waits for (None: no one seat), `decision` the name of the one waiting for `seat`."""
        out = self.unseen(seat, to_move)
        if decision is not None:
            out[self.decision + self.decisions.get(decision, len(self.decisions))] = 1.0
        self._write_fields(out, self.shared_at, self.shared_row, w.shared)
        self._write_players(out, w, seat)
        for name, places, width, start in self.boards:
            columns = w.spaces[name]
            for row, space in enumerate(self.model.boards[name].spaces):
                at = start + row * width
                for field, place in places.items():
                    place.write(out, at, columns[field][space])
        self._write_zones(out, w, seat)
        return out

    @staticmethod
    def _write_fields(out: list, at: int, places: dict, values: dict):
        for name, place in places.items():
            place.write(out, at, values[name])

    def _write_players(self, out: list, w, seat: int):
        secret = self.program.secret_player_fields
        for s, fields in enumerate(w.players):
            at = self.players_at + s * self.player_width
            out[at] = 1.0 if w.alive[s] else 0.0
            for name, place in self.player_row.items():
                if s == seat or not secret.get(name):
                    place.write(out, at, fields[name])

    def _write_zones(self, out: list, w, seat: int):
        p, filled = self.program, {}  # group's first row -> rows of it filled so far
        zones = w.zones
        for i, key in enumerate(self.zone_order):
            cards = zones.get(key) or ()
            out[self.zone_sizes + i] = float(len(cards))
            if not cards:
                continue
            zone = p.zones[key[0]]
            seen = _seen(zone.visibility, key, seat, len(cards))
            if seen:
                self._write_cards(out, filled, key, cards[:seen])
            shown = self.shown.get(key)
            if shown:
                for c in cards:
                    attrs = p.cards[c].attrs
                    for a in zone.show:
                        out[self.shown_at + shown[(a, str(attrs.get(a)))]] += 1.0

    def _write_cards(self, out: list, filled: dict, key, cards):
        zone_number, key_place = self.zone_places[key[0]]
        for place, c in enumerate(cards):
            first, _ = self.label_groups[c]
            row = first + filled.get(first, 0)
            filled[first] = filled.get(first, 0) + 1
            at = self.cards_at + row * self.card_width
            out[at + zone_number] = 1.0
            if key_place is not None:  # a zone per card: the number of that card's label, from 1
                key_place.write(out, at, key[1] if key_place.index is not None else self.label_groups[key[1]][1] + 1)
            if place == 0:
                out[at + self.top_place] = 1.0


def _seen(visibility: str, key, seat: int, count: int) -> int:
    """How many of a zone's cards, from its top, seat `seat` sees the faces of (as
    World.show_zone shows them)."""
    if sees_every_face(visibility, key, seat):
        return count
    return 1 if visibility == "top" else 0


def decision_names(rules) -> list:
    """The names `rules` (actions.statements) give decisions, sorted: a statement's
    `as "..."` label, a `choose`'s variable where it has none, and the names a decision
    without one takes."""
    names = {"choice", "route"}  # a menu's and a walk's fork's name without `as`
    for node in ast.walk(rules):
        if isinstance(node, ast.Stmt):
            label = getattr(node, "label", None)
            if isinstance(label, str):
                names.add(label)
            elif isinstance(node, ast.Choose):
                names.add(node.var)
    return sorted(names)
