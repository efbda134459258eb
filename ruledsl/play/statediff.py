"""Field-by-field differences between two game states, in words a reader knows.

States are compared as `World.snapshot()` renders them (labels, not ids), so two
states of different rules (say, the recorded rules and an edited copy) compare
by what a player would see on the table. A field is a path into the snapshot:

    ("shared", NAME)                 shared NAME
    ("players", SEAT, NAME)          seat SEAT NAME
    ("zones", LABEL)                 zone LABEL
    ("boards", BOARD, SPACE, NAME)   board BOARD space SPACE NAME
    ("card_fields", CARD, NAME)      card CARD NAME

`read(world, path)` reads one field straight from a World, cheaply enough to be
asked after every statement of a traced step (see explain.py).
"""
from __future__ import annotations

import json
from collections import Counter

import msgspec

ABSENT = "(absent)"
SHOWN_ITEMS = 8


class FieldDiff(msgspec.Struct, frozen=True):
    path: tuple
    recorded: object
    now: object

    def text(self) -> str:
        return f"{field_name(self.path)}: {values_text(self.recorded, self.now)}"


def diff(recorded: dict, now: dict) -> list:
    """Every field whose value differs between two snapshots, in snapshot order."""
    out: list = []
    for part in ("shared", "players", "zones", "boards", "card_fields"):
        _walk((part,), recorded.get(part, {}), now.get(part, {}), out)
    return out


LEAF_DEPTH = {"shared": 2, "players": 3, "zones": 2, "boards": 4, "card_fields": 3}


def _walk(path, a, b, out, depth=1):
    leaf = depth >= LEAF_DEPTH[path[0]]
    if not leaf and isinstance(a, (dict, list)) and isinstance(b, (dict, list)) and type(a) is type(b):
        keys = range(max(len(a), len(b))) if isinstance(a, list) else list(a) + [k for k in b if k not in a]
        for k in keys:
            _walk(path + (k,), _get(a, k), _get(b, k), out, depth + 1)
        return
    if a != b:
        out.append(FieldDiff(path, a, b))


def _get(container, key):
    if isinstance(container, list):
        return container[key] if key < len(container) else ABSENT
    return container.get(key, ABSENT)


def field_name(path: tuple) -> str:
    part, rest = path[0], path[1:]
    if part == "players":
        return f"seat {rest[0]} " + " ".join(str(x) for x in rest[1:])
    if part == "zones":
        return f"zone {rest[0]}"
    if part == "boards":
        return f"board {rest[0]} space " + " ".join(str(x) for x in rest[1:])
    if part == "card_fields":
        return "card " + " ".join(str(x) for x in rest)
    return "shared " + " ".join(str(x) for x in rest)


def values_text(recorded, now) -> str:
    if isinstance(recorded, list) and isinstance(now, list):
        return _lists_text(recorded, now)
    return f"recorded {shown(recorded)}, now {shown(now)}"


def _lists_text(recorded: list, now: list) -> str:
    if len(recorded) <= SHOWN_ITEMS and len(now) <= SHOWN_ITEMS:
        return f"recorded {shown(recorded)}, now {shown(now)}"
    gone = list((Counter(map(_key, recorded)) - Counter(map(_key, now))).elements())
    new = list((Counter(map(_key, now)) - Counter(map(_key, recorded))).elements())
    parts = [f"recorded {len(recorded)} items, now {len(now)}"]
    if gone:
        parts.append(f"no longer there: {_few(gone)}")
    if new:
        parts.append(f"new: {_few(new)}")
    if not gone and not new:
        parts.append("the same items in another order")
    return "; ".join(parts)


def _key(item) -> str:
    return item if isinstance(item, str) else json.dumps(item, ensure_ascii=False, sort_keys=True)


def _few(items: list) -> str:
    shown = ", ".join(items[:SHOWN_ITEMS])
    return shown + (f" and {len(items) - SHOWN_ITEMS} more" if len(items) > SHOWN_ITEMS else "")


def shown(value) -> str:
    if value == ABSENT:
        return ABSENT
    return json.dumps(value, ensure_ascii=False)


# ---------------------------------------------------------------- reading one field
class FieldReader:
    """Reads snapshot fields straight from a World: `reader(world, path)`."""

    def __init__(self, program):
        self.p = program
        self.zone_keys: dict | None = None

    def __call__(self, w, path):
        part, rest = path[0], path[1:]
        if part == "shared":
            return self._shown(w.shared, "shared", rest[0])
        if part == "players":
            seat, name = rest
            if seat >= w.n:
                return ABSENT
            return w.alive[seat] if name == "alive" else self._shown(w.players[seat], "player", name)
        if part == "zones":
            key = self._zone_key(w, rest[0])
            return ABSENT if key is None else w.show_zone(key, w.zones[key], None)
        if part == "boards":
            board, space, name = rest
            return self._shown(w.space_fields(board, space), board, name)
        if part == "card_fields":
            label, name = rest
            card = int(label.rsplit("#", 1)[1])
            return self._shown(w.card_fields(card), None, name)
        return ABSENT

    def _shown(self, fields, owner, name):
        if name not in fields:
            return ABSENT
        return fields[name] if owner is None else self.p.show_field(owner, name, fields[name])

    def _zone_key(self, w, label):
        if self.zone_keys is None or label not in self.zone_keys:
            self.zone_keys = {self.p.zone_label(k): k for k in w.zones.order}
        return self.zone_keys.get(label)
