"""Built-in functions: how the checker types them and what they do at run time.

Each takes the runtime world `w` first. Players are seat numbers, spaces are
their names, cards are ids, zones are (name, key) pairs.
"""
from __future__ import annotations

import msgspec

from .types import ANY, DIRECTION, INT, PLAYER, T, coll


class Builtin(msgspec.Struct, frozen=True):
    args: tuple  # arg kinds for checking: "int" "player" "space" "zone" "countable" "dir"
    result: object  # T, or a function(arg types) -> T
    run: object
    optional: int = 0  # how many trailing args may be left out
    doc: str = ""
    text: object = None  # function(arg types) -> a Python expression over `w` and the args' texts
    #                      ({0}, {1}: each used once) that gives what `run` gives, or None: call `run`

    def check(self, checker, call, scope):
        n = len(call.args)
        lo, hi = len(self.args) - self.optional, len(self.args)
        if not lo <= n <= hi:
            want = str(hi) if lo == hi else f"{lo} to {hi}"
            checker.err(call, "E210", f"'{call.name}' takes {want} argument(s), got {n}")
        types = []
        for arg, kind in zip(call.args, self.args):
            t = checker.expr(arg, scope)
            types.append(t)
            if not _fits(t, kind):
                checker.err(arg, "E201", f"argument of '{call.name}' must be {KIND_WORDS[kind]}, not {t}")
        for arg in call.args[hi:]:
            checker.expr(arg, scope)
        return self.result(types) if callable(self.result) else self.result


KIND_WORDS = {"int": "int", "player": "a player", "space": "a space", "zone": "a zone",
              "countable": "a collection or zone", "dir": "a direction"}


def _fits(t: T, kind: str) -> bool:
    if t.kind == "any":
        return True
    if kind == "countable":
        return t.kind in ("coll", "zone")
    if kind == "dir":
        return t == T("enum", DIRECTION)
    return t.kind == kind


def _space_result(types):
    return types[0] if types and types[0].kind == "space" else ANY


def _card_result(types):
    return T("card", types[0].name) if types and types[0].kind == "zone" else ANY


def _size(w, x):
    return len(w.zones[x]) if isinstance(x, tuple) else len(x)


def _top(w, z):
    cards = w.zones[z]
    return cards[0] if cards else None


def _bottom(w, z):
    cards = w.zones[z]
    return cards[-1] if cards else None


def _next(w, s, d="forward"):
    return w.program.step_space(s, d)


def _prev(w, s):
    return w.program.step_space(s, "backward")


def _neighbors(w, s):
    for b in w.program.boards.values():
        if s in b.links:
            return list(b.links[s])
    return []


def _space_coll(types):
    return coll(types[0]) if types and types[0].kind == "space" else coll(ANY)


def _next_player(w, p):
    alive = w.alive
    n = len(alive)
    q = (p + 1) % n
    if alive[q]:  # the next seat is in play (always, in a game nobody leaves)
        return q
    for i in range(2, n + 1):
        q = (p + i) % n
        if alive[q]:
            return q
    return p


def _opponents(w, p):
    # made once for who is in (World.put_out): a rule's lists are never changed. Not a
    # seat (none): every player still in, as `q != p` keeps them all
    return w.others.get(p, w.playing)


def _seat(w, n):
    return n % len(w.alive)


def _size_text(types):
    kind = types[0].kind
    return "len(w.zones[{0}])" if kind == "zone" else "len({0})" if kind == "coll" else None


def _always(text: str):
    return lambda types: text


BUILTINS = {
    "size": Builtin(("countable",), INT, _size, doc="number of items in a collection or cards in a zone",
                    text=_size_text),
    "top": Builtin(("zone",), _card_result, _top, doc="the top card of a zone, or none",
                   text=_always("next(iter(w.zones[{0}]), None)")),
    "bottom": Builtin(("zone",), _card_result, _bottom, doc="the bottom card of a zone, or none",
                      text=_always("next(reversed(w.zones[{0}]), None)")),
    "next": Builtin(("space", "dir"), _space_result, _next, optional=1, doc="the next space along a track"),
    "prev": Builtin(("space",), _space_result, _prev, doc="the previous space along a track"),
    "neighbors": Builtin(("space",), _space_coll, _neighbors, doc="the spaces linked to a space (`link` rows)"),
    "abs": Builtin(("int",), INT, lambda w, x: abs(x), doc="absolute value", text=_always("abs({0})")),
    "min": Builtin(("int", "int"), INT, lambda w, a, b: min(a, b), doc="the smaller of two ints",
                   text=_always("min({0}, {1})")),
    "max": Builtin(("int", "int"), INT, lambda w, a, b: max(a, b), doc="the larger of two ints",
                   text=_always("max({0}, {1})")),
    "next_player": Builtin(("player",), PLAYER, _next_player, doc="the next player still in, clockwise"),
    "opponents": Builtin(("player",), coll(PLAYER), _opponents, doc="every other player still in"),
    "seat": Builtin(("int",), PLAYER, _seat, doc="the player at a seat number (0 = first)",
                    text=_always("({0} % w.n)")),
}
