"""Compile stage, part 2: the Program, the static tables a compiled game runs on.

Card lists, board tracks, zones, field start values, labels for values. The
rules themselves are `Code` objects built by compile/game.py.
"""
from __future__ import annotations

import msgspec

from ..syntax import ast
from .world import ALL_MADE, Column, Zones


class Card(msgspec.Struct, frozen=True):
    id: int
    set: str
    attrs: dict
    label: str


class BoardRT(msgspec.Struct):
    name: str
    spaces: list
    attrs_of_space: dict  # attr -> {space: value}
    forward: dict
    backward: dict
    fields: list  # (name, fn)
    links: dict = msgspec.field(default_factory=dict)  # space -> neighbouring spaces (graph boards)
    ways: dict = msgspec.field(default_factory=dict)  # direction -> {space: [spaces one step on]} (graph boards)


class Code(msgspec.Struct):
    name: str
    span: object
    params: list
    ops: list = msgspec.field(default_factory=list)
    spans: list = msgspec.field(default_factory=list)
    kinds: list = msgspec.field(default_factory=list)
    whole: object = None  # the rule as one generator function (compile/whole.py), for fast Machines
    resumed: object = None  # point -> that generator function resumed after the pause at point, or None (resume.py)


class Track(msgspec.Struct, frozen=True):
    """The spaces a walk from one space passes: path[0] is the start, path[i] the space
    after i steps. Either the path ends at a line's end (`loop_from` None: it stays
    there), or its next step returns to path[loop_from] and it goes round from there."""
    path: tuple
    loop_from: int | None

    @classmethod
    def of(cls, start, step) -> "Track":
        path, seen, here = [start], {start: 0}, start
        while True:
            nxt = step(here)
            if nxt == here:
                return cls(tuple(path), None)
            if nxt in seen:
                return cls(tuple(path), seen[nxt])
            seen[nxt] = len(path)
            path.append(nxt)
            here = nxt

    def at(self, steps: int):
        path, loop = self.path, self.loop_from
        if steps < len(path):
            return path[steps]
        if loop is None:
            return path[-1]
        return path[loop + (steps - loop) % (len(path) - loop)]


class EndRT(msgspec.Struct):
    name: str
    reason: str
    cond: object
    winner: object
    span: object
    draw: bool = False


class Program(msgspec.Struct):
    title: str
    path: str
    min_players: int
    max_players: int
    cards: list = msgspec.field(default_factory=list)
    cardset_ids: dict = msgspec.field(default_factory=dict)
    card_fields: dict = msgspec.field(default_factory=dict)  # set -> [(name, fn)]
    card_columns: dict = msgspec.field(default_factory=dict)  # card attribute -> its value by card id (card_column)
    boards: dict = msgspec.field(default_factory=dict)
    zones: dict = msgspec.field(default_factory=dict)  # name -> ast.Zone
    zone_order: list = msgspec.field(default_factory=list)
    rules: dict = msgspec.field(default_factory=dict)
    triggers: dict = msgspec.field(default_factory=dict)
    def_bodies: dict = msgspec.field(default_factory=dict)
    def_light: dict = msgspec.field(default_factory=dict)  # name -> cell of its function for light calls (defs.py)
    ends: list = msgspec.field(default_factory=list)
    score_fn: object = None
    scores_fn: object = None  # every seat's score in one call (ExprCompiler.each_seat)
    score_var: str = "p"
    tiebreaks: list = msgspec.field(default_factory=list)
    consts: list = msgspec.field(default_factory=list)  # (name, fn) in order
    shared_fields: list = msgspec.field(default_factory=list)
    player_fields: list = msgspec.field(default_factory=list)
    secret_player_fields: dict = msgspec.field(default_factory=dict)
    field_labelers: dict = msgspec.field(default_factory=dict)  # (owner, name) -> labeler
    enums: dict = msgspec.field(default_factory=dict)
    card_key_labels: dict = msgspec.field(default_factory=dict)  # card id -> unique label, for zones per card set
    zone_labels: dict = msgspec.field(default_factory=dict)  # zone key -> its label, made on first use (zone_label)
    zone_label_lists: dict = msgspec.field(default_factory=dict)  # Zones.order -> its labels (zone_labels_in_order)
    card_field_rows: list | None = None  # [(label #id, card, field names)] for snapshots, made on first use
    tracks: dict = msgspec.field(default_factory=dict)  # direction -> space -> Track, built on first use (walk_to)
    start_worlds: dict = msgspec.field(default_factory=dict)  # players -> the World as a game starts (new_world)
    world_copiers: dict = msgspec.field(default_factory=dict)  # players -> what copies such a World (world.copier)
    tallied: dict = msgspec.field(default_factory=dict)  # (board, field) -> its groupings: a fixed attribute, or None (tally)
    ends_read: frozenset | None = None  # what the end conditions read (compile/watch.py); None: anything
    zones_watched: frozenset | None = None  # zones whose changes count for them; None: all
    make_whole: object = None  # gives the rules their generators (compile/whole.py), at a first fast Machine
    chance_apart: bool = False  # each roll, shuffle and draw an op of its own (compile_game): a step may pause there

    def card_column(self, name: str) -> list:
        """Attribute `name` of every card, by card id (None for a card without it), for
        generated code to read in place of `cards[c].attrs[name]`. The list is filled once
        the cards are made (fill_card_columns); until then it is empty, and a read of it
        fails over to the checked code, which reads the cards."""
        column = self.card_columns.get(name)
        if column is None:
            column = self.card_columns[name] = [card.attrs.get(name) for card in self.cards]
        return column

    def fill_card_columns(self):
        """Fills the columns asked for before the cards were made, in place (generated code holds them)."""
        for name, column in self.card_columns.items():
            column[:] = [card.attrs.get(name) for card in self.cards]

    # ------------------------------------------------------------ world set-up
    def zone_keys(self, zone: ast.Zone, n: int) -> list:
        if zone.per is None:
            return [None]
        if zone.per == "player":
            return list(range(n))
        if zone.per in self.enums:
            return list(self.enums[zone.per])
        if zone.per in self.cardset_ids:
            return list(self.cardset_ids[zone.per])  # one zone per card: what lies on it
        return list(self.boards[zone.per].spaces)

    def new_world(self, n: int):
        """The World as a game of n players starts (before set-up), to play on."""
        copy = self.world_copiers.get(n)
        if copy is None:
            return self.start_world(n).clone()  # makes the copier
        return copy(self.start_worlds[n])

    def start_world(self, n: int):
        """The World as a game of n players starts, built once per player count and never
        changed (read it, or play on `new_world`). Start values are fixed by the rules and
        the player count alone (no chance), so every game would compute the same ones."""
        start = self.start_worlds.get(n)
        if start is None:
            from .world import World
            start = World(self, n)
            self.init_world(start)  # a start value that fails raises here, and nothing is kept
            self.start_worlds[n] = start
        return start

    def init_world(self, w):
        for name, fn in self.consts:
            w.consts[name] = fn(w, {})
        for name, fn in self.shared_fields:
            w.shared[name] = fn(w, {})
        for seat in range(w.n):
            for name, fn in self.player_fields:
                w.players[seat][name] = fn(w, {})
        for b in self.boards.values():
            if b.fields:
                cols = w.spaces[b.name] = {name: {} for name, _ in b.fields}
                for s in b.spaces:
                    for name, fn in b.fields:
                        cols[name][s] = fn(w, {})
                for name in cols:
                    if (b.name, name) in self.tallied:
                        cols[name] = Column(cols[name], self.groupings(b, self.tallied[(b.name, name)]))
        for set_name, fields in self.card_fields.items():
            for c in self.cardset_ids[set_name]:
                for name, fn in fields:
                    w.cardf.setdefault(name, {})[c] = fn(w, {})
        first_zone, order = {}, []
        for name in self.zone_order:
            zone = self.zones[name]
            keys = self.zone_keys(zone, w.n)
            order += [(name, key) for key in keys]
            first_zone.setdefault(zone.cards, (name, keys[0]))
        w.zones = Zones(tuple(order), {key: i for i, key in enumerate(order)},
                        [(key, []) for key in order] if len(order) <= ALL_MADE else ())
        for set_name, ids in self.cardset_ids.items():
            key = first_zone.get(set_name)
            if key is not None:
                w.zones[key] = list(ids)
                for c in ids:
                    w.loc[c] = key

    def tally(self, board: str, field: str, attr: str | None) -> int:
        """Asks that board field be kept as a Column tallied by fixed attribute `attr`
        (None: all spaces in one group); gives that grouping's number in the Column."""
        groups = self.tallied.setdefault((board, field), [])
        if attr not in groups:
            groups.append(attr)
        return groups.index(attr)

    @staticmethod
    def groupings(board, attrs_) -> list:
        return [{s: None if a is None else board.attrs_of_space[a][s] for s in board.spaces} for a in attrs_]

    def triggers_ref(self, key):
        """Late lookup, so triggers compiled after a rule are still found."""
        return lambda: self.triggers.get(key)

    # ------------------------------------------------------------ tracks
    def step_space(self, space, direction="forward"):
        for b in self.boards.values():
            table = b.forward if direction == "forward" else b.backward
            if space in table:
                return table[space]
        return space

    def walk_to(self, space, direction, steps: int):
        """Where `steps` steps from `space` lead, as step_space one at a time would: the
        walk stops early at the end of a line (a space whose next step is itself). The
        same in one step for any count, also a huge one (the track is a cycle or a line)."""
        tracks = self.tracks.get(direction)
        if tracks is None:
            tracks = self.tracks[direction] = {}
        track = tracks.get(space)
        if track is None:
            track = tracks[space] = Track.of(space, lambda s: self.step_space(s, direction))
        path = track.path
        if steps < len(path):  # Track.at, its most common case written in
            return path[steps]
        return track.at(steps)

    def graph_ways(self, board, space, direction, came_from):
        """The ways on from a space of a graph board: `link space X` rows going forward,
        `link X space` rows going backward, in the order written, never straight back
        to the space the walk just left. Where that isn't among them, the board's own
        list (shared: the walk's step only reads it)."""
        ways = self.boards[board].ways[direction].get(space, ())
        if came_from in ways:
            return [t for t in ways if t != came_from]
        return ways

    # ------------------------------------------------------------ labels
    def zone_label(self, key) -> str:
        """A zone's name in views, snapshots and transcripts: 'deck', 'hand/seat 1'.
        Snapshots ask for every zone's at every step, so each is made once."""
        label = self.zone_labels.get(key)
        if label is None:
            label = self.zone_labels[key] = self._zone_label(key)
        return label

    def _zone_label(self, key) -> str:
        name, k = key
        if k is None:
            return name
        per = self.zones[name].per
        if per == "player":
            return f"{name}/seat {k}"
        if per in self.cardset_ids:
            return f"{name}/{self.card_key_label(k)}"
        return f"{name}/{k}"

    def zone_labels_in_order(self, order: tuple) -> list:
        """The labels of the zones `order` lists (a World's Zones.order: every zone of a
        player count), made once per order."""
        labels = self.zone_label_lists.get(order)
        if labels is None:
            labels = self.zone_label_lists[order] = [self.zone_label(key) for key in order]
        return labels

    def field_card_rows(self) -> list:
        """(snapshot key 'label #id', card id, its field names) of each card that has
        fields, in id order."""
        if self.card_field_rows is None:
            names = {name: [f for f, _ in fields] for name, fields in self.card_fields.items()}
            cards = sorted(c for name in self.card_fields for c in self.cardset_ids[name])
            self.card_field_rows = [(f"{self.cards[c].label} #{c}", c, names[self.cards[c].set]) for c in cards]
        return self.card_field_rows

    def card_key_label(self, card: int) -> str:
        """A card's label, made unique within its set with ' #2', ' #3' in listed order."""
        labels = self.card_key_labels
        if not labels:
            for ids in self.cardset_ids.values():
                seen: dict = {}
                for c in ids:
                    lab = self.cards[c].label
                    seen[lab] = seen.get(lab, 0) + 1
                    labels[c] = lab if seen[lab] == 1 else f"{lab} #{seen[lab]}"
        return labels[card]

    def labeler(self, t):
        kind = t.kind
        if kind == "player":
            return lambda v: "none" if v is None else f"seat {v}"
        if kind == "card":
            cards = self.cards
            return lambda v: "none" if v is None else cards[v].label
        if kind == "bool":
            return lambda v: "yes" if v else "no"
        if kind == "zone":
            return self.zone_label
        if kind == "coll":
            inner = self.labeler(t.elem) if t.elem is not None else str
            return lambda v: "[" + ", ".join(inner(x) for x in v) + "]"
        if kind in ("space", "enum"):
            return lambda v: "none" if v is None else v  # spaces and enum values are their names
        return lambda v: "none" if v is None else str(v)

    def label_bound(self, t) -> int | None:
        """The most characters a label (labeler) of a value of type t can have, when the
        type bounds it: a player, yes/no, a card, space or enum value, or none. None for
        numbers, texts, lists and zones, whose labels only their values bound."""
        kind = t.kind
        if kind == "player":
            names = [f"seat {self.max_players - 1}"]
        elif kind == "bool":
            names = ["yes", "no"]
        elif kind == "card" and t.name in self.cardset_ids:
            names = [self.cards[c].label for c in self.cardset_ids[t.name]]
        elif kind == "space" and t.name in self.boards:
            names = self.boards[t.name].spaces
        elif kind == "enum" and t.name in self.enums:
            names = self.enums[t.name]
        else:
            return None
        return max([len("none"), *map(len, names)])  # a set of no cards, a board of no spaces: "none"

    def labels_differ(self, t) -> bool:
        """Whether any two different values of type t have different labels (labels_fn): a
        player's or a number's, or a card's of a set whose cards' labels all differ (none
        of them "none", a none card's)."""
        if t.kind in ("player", "int"):
            return True
        if t.kind == "card" and t.name in self.cardset_ids:
            names = [self.cards[c].label for c in self.cardset_ids[t.name]]
            return len(set(names)) == len(names) and "none" not in names
        return False

    def labels_fn(self, t):
        """A function labelling a whole list of values of type t (offered choices)."""
        kind = t.kind
        if kind in ("space", "enum"):
            return lambda vs: [v if v is not None else "none" for v in vs]
        if kind == "card":
            cards = self.cards
            return lambda vs: [cards[v].label if v is not None else "none" for v in vs]
        if kind == "player":
            return lambda vs: [f"seat {v}" if v is not None else "none" for v in vs]
        lab = self.labeler(t)
        return lambda vs: [lab(v) for v in vs]

    def show_field(self, owner, name, value):
        """A field's value for JSON: ints and bools as they are, the rest as labels."""
        lab = self.field_labelers.get((owner, name))
        if value is None or lab is None:
            return value
        return lab(value)

    def score(self, w, seat):
        if self.score_fn is None:
            return 0
        return self.score_fn(w, {self.score_var: seat})
