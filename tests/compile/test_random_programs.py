"""Small random programs, played in every way the engine can run them: they must agree.

The compile stage has several ways to run the same rules: an op per statement and a
frame per call (fuse=False, explain's mode, the reference here), calls compiled in place
and stretches (fuse=True, what clones and search run), whole rules as generators (a fast
Machine, what `simulate` and `play` run), chance apart (the OpenSpiel adapter's), a clone
made at every decision, and the text of a say built or not (a listener or none). The
repository's games meet few of the corners where these could differ (a parameter changed
inside a call compiled in place, a name a sibling block used too, a `return` inside a
loop of an inlined rule, an end condition met just before a decision, a failure inside
an expression written into another), so hypothesis writes programs over the statement
forms that nest and the data they change: lets, assignments, ifs, the four loops, break,
return, rule calls with and without results, defs, decisions (choose, menus, may), rolls,
walks on a loop with `on pass`/`on land` triggers and on a graph with forks, draws,
shuffles and cards moved between zones, fields of cards and of a board's spaces (counted
through columns and tallies), says, eliminations, `end`, and an end condition looked at
between turns. Each is played with the same choices and dice in every mode, and
everything observable must be the same: what was said, the decisions asked, the World at
the end, the result or the failure (its code, place and message), and the work spent.
And a game recorded as `ruledsl play --record` records it (fast) replays from its
transcript without a divergence, or fails at the same place again; and played through
the OpenSpiel adapter (steps in place, paused where they ask for chance; skipped without
pyspiel) it asks, holds and ends the same.

It found that a walk with no `on pass` trigger cost a unit of work on op lists and none
in a stretch. A long run, printing every program that differs (not shrunk):

    python tests/compile/test_random_programs.py --programs 2000 --seed 7
"""
from __future__ import annotations

import importlib.util
import io
import itertools
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

if __name__ == "__main__":  # run as a script (main): ruledsl and the tests' support module
    sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).resolve().parents[1])]

from ruledsl.errors import GameRuntimeError  # noqa: E402
from ruledsl.pipeline import load_game  # noqa: E402
from ruledsl.play.replay import replay  # noqa: E402
from ruledsl.play.transcript import TranscriptWriter, parse_lines  # noqa: E402
from ruledsl.runtime.machine import Machine  # noqa: E402
from support import FixedChance  # noqa: E402

DICE = [3, 5, 1, 6, 2, 4, 4, 2, 6, 1, 5, 3] * 4
MAX_DECISIONS = 40
# (fuse, fast, chance_apart, listening, cloned): the first is the reference, each rule's
# ops with a frame per call; "cloned" plays on a clone made at each decision
MODES = {
    "framed ops": (False, False, False, True, False),
    "fused ops": (True, False, False, True, False),
    "whole rules": (True, True, False, True, False),
    "chance apart": (True, False, True, True, False),
    "whole rules, nobody listening": (True, True, False, False, False),
    "fused ops, nobody listening": (True, False, False, False, False),
    "fused ops, cloned at each decision": (True, False, False, True, True),
    "whole rules, cloned at each decision": (True, True, False, True, True),  # the first replays (as_op_lists)
}

HEAD = """game "R" players 2..3
board ring(n: int) loop {
  space s0 0
  space s1 1
  space s2 2
  space s3 3
}
shared { a: int = 1  b: int = 2  spot: ring = s0 }
board path(n: int) loop {
  space t0 0
  space t1 1
  space t2 2
}
board maze(k: int) graph {
  space m0 0
  space m1 1
  space m2 2
  space m3 3
  link m0 m1
  link m1 m2
  link m1 m3
  link m2 m0
  link m3 m0
}
player { v: int = 0  at: path = t0  way: maze = m0 }
cards chip(v: int) {
  field hot: int = 0
  each v in 1..6
}
zone deck: chip hidden refill from used
zone used: chip public
zone hand per player: chip owner
board grid(n: int) {
  field mark: int = 0
%s
}
def twice(x: int) = x * 2 + a
def gap(x: int, y: int) = if x > y then x - y else twice(y) - x
def far(r: ring) = r.n + b
def held(p: player) = sum(x in hand[p]: x.v)
""" % "\n".join(f"  space e{i} {i}" for i in range(13))  # 12 spaces or more: counts of a field are tallied


TRIGGERS = ("pass", "land")
PAUSING = {"choose", "menu", "may", "walk", "roll", "discard", "wander"}  # walks: a player's runs the path's triggers


class Writer:
    """Writes one random program from hypothesis's draws. Names in scope are tracked per
    block, so every program passes the checker (a local is never bound again where it is
    seen: E220); rules call only rules written after them (no recursion)."""

    def __init__(self, draw, rules: int):
        self.draw = draw
        self.fresh = itertools.count(3)  # (0-2: the names blocks share, Writer.local)
        self.rules = [f"r{i}" for i in range(rules)]
        self.returns = {name: draw(st.booleans()) for name in self.rules}
        kinds = st.sampled_from(["int", "int", "ring"])
        self.params = {name: draw(st.lists(kinds, min_size=draw(st.integers(0, 1)), max_size=2)) for name in self.rules}
        # a straight rule (no decision, no call of a rule that has one) may be written into its
        # callers: its parameters then read the arguments, unless the rule changes them
        self.straight = {name: draw(st.booleans()) for name in self.rules}

    # -------------------------------------------------------------- expressions
    def choice(self, options):
        return self.draw(st.sampled_from(options))

    def int_expr(self, scope, depth=0) -> str:
        ints = [n for n, t in scope.items() if t == "int"]
        players = [n for n, t in scope.items() if t == "player"]
        rings = [n for n, t in scope.items() if t == "ring"]
        leaves = [str(self.draw(st.integers(0, 9))), "a", "b", *ints, *ints, *(f"{p}.v" for p in players),
                  *(f"{r}.n" for r in rings), *(f"{p}.at.n" for p in players), "spot.n",
                  *(f"{n}.n" for n, t in scope.items() if t == "path"),
                  *(f"{h}.{f}" for h, t in scope.items() if t == "chip" for f in ("v", "hot")),
                  *(f"{p}.way.k" for p in players),
                  f"size(hand[{self.who(scope)}])", "size(deck)", f"e{self.draw(st.integers(0, 12))}.mark"]
        if depth >= 2 or self.draw(st.integers(0, 2)) == 0:
            return self.choice(leaves)
        sub = lambda: self.int_expr(scope, depth + 1)  # noqa: E731
        kind = self.choice(["+", "-", "*", "+", "-", "*", "/", "%", "if", "count", "sum", "twice", "gap", "far", "max",
                            "abs", "held", "stored", "stored"])
        if kind in "+-*":
            return f"({sub()} {kind} {sub()})"
        if kind in "/%":  # by zero now and then (R003)
            by = sub() if self.draw(st.integers(0, 3)) == 0 else str(self.draw(st.integers(1, 9)))
            return f"({sub()} {kind} {by})"
        if kind == "if":
            return f"(if {self.cond(scope, depth + 1)} then {sub()} else {sub()})"
        if kind in ("count", "sum"):
            item = f"i{next(self.fresh)}"  # an item may reuse a local's name: its own
            if ints and self.draw(st.integers(0, 2)) == 0:
                item = self.choice(ints)
            inner = dict(scope, **{item: "int"})
            where = f" where {self.cond(inner, depth + 1)}" if self.draw(st.booleans()) else ""
            value = f": {self.int_expr(inner, depth + 1)}" if kind == "sum" else ""
            return f"{kind}({item} in {self.draw(st.integers(0, 2))}..{self.draw(st.integers(0, 4))}{where}{value})"
        if kind == "held":
            return f"held({self.who(scope)})"
        if kind == "stored":  # over a field the game changes: columns, tallies, zones
            item, where = f"y{next(self.fresh)}", self.choice(["==", "!=", ">"])
            domain, field = self.choice([("grid", "mark"), ("chip", "hot"), (f"hand[{self.who(scope)}]", "hot"),
                                         ("used", "v"), ("players", "v")])
            test = f"{item}.{field} {where} {sub()}"
            if self.draw(st.booleans()):
                return f"count({item} in {domain} where {test})"
            return f"sum({item} in {domain} where {test}: {item}.{'n' if domain == 'grid' else 'v'})"
        if kind == "far":
            return f"far({self.choice(rings + ['spot', 's2'])})"
        if kind == "gap":
            return f"gap({sub()}, {sub()})"
        if kind == "max":
            return f"max({sub()}, {sub()})"
        return f"{kind}({sub()})"

    def who(self, scope) -> str:
        return self.choice([n for n, t in scope.items() if t == "player"] + ["seat(0)", "seat(1)"])

    def cond(self, scope, depth=0) -> str:
        if depth < 2 and self.draw(st.integers(0, 3)) == 0:
            op = self.choice(["and", "or", "not"])
            if op == "not":
                return f"not ({self.cond(scope, depth + 1)})"
            return f"({self.cond(scope, depth + 1)} {op} {self.cond(scope, depth + 1)})"
        if self.draw(st.integers(0, 9)) == 0:
            return self.choice(["true", "false"])
        compared = self.choice(['<', '<=', '==', '!=', '>'])
        return f"{self.int_expr(scope, depth + 1)} {compared} {self.int_expr(scope, depth + 1)}"

    def rare(self, scope) -> str:
        """A condition that seldom holds (for what ends a game or a player's part in it)."""
        return f"{self.cond(scope)} and {self.cond(scope)} and {self.cond(scope)}"

    # -------------------------------------------------------------- statements
    def local(self, scope, prefix="x") -> str:
        """A new local's name: often one a block that has ended used (a sibling's, an inner
        one's), never one in scope (E220). A name's first letter tells its type."""
        if self.draw(st.booleans()):
            unseen = [f"{prefix}{i}" for i in range(3) if f"{prefix}{i}" not in scope]
            if unseen:
                return self.choice(unseen)
        return f"{prefix}{next(self.fresh)}"

    def block(self, scope, rule, depth, loops, size=None) -> list:
        """Statements of one block; `scope` is copied, so what it binds ends with it."""
        scope = dict(scope)
        count = size if size is not None else self.draw(st.integers(0 if depth else 1, 4 if depth < 2 else 2))
        lines: list = []
        for _ in range(count):
            lines += self.statement(scope, rule, depth, loops)
        return lines

    def nested(self, head, body, tail="}") -> list:
        return [head + " {", *("  " + line for line in body), tail]

    def statement(self, scope, rule, depth, loops) -> list:
        kinds = ["let", "let", "assign", "assign", "grow", "grow", "say", "if", "if", "choose", "choose", "choose",
                 "call", "call", "call", "call", "roll", "draw", "discard", "mark", "shuffle", "wander", "walk",
                 "return", "end", "eliminate"]
        if depth < 3:
            kinds += ["for", "repeat", "while", "loop", "players", "menu", "may", "cards"]
        if loops:
            kinds += ["break"]
        if self.straight.get(rule):
            kinds = [k for k in kinds if k not in PAUSING]
        kind = self.choice(kinds)
        return getattr(self, "s_" + kind)(scope, rule, depth, loops)

    def s_let(self, scope, rule, depth, loops):
        name = self.local(scope)
        line = f"let {name} = {self.int_expr(scope)}"
        scope[name] = "int"
        return [line]

    def s_assign(self, scope, rule, depth, loops):
        targets = [n for n, t in scope.items() if t == "int" and not n.startswith("w")] + ["a", "a", "a", "b"]
        targets += [f"{p}.v" for p, t in scope.items() if t == "player"]
        rings = [n for n, t in scope.items() if t == "ring"]
        if rings and self.draw(st.integers(0, 3)) == 0:
            return [f"spot = {self.choice(rings)}"]
        return [f"{self.choice(targets)} {self.choice(['=', '+=', '-='])} {self.int_expr(scope)}"]

    def s_grow(self, scope, rule, depth, loops):
        """Brings the end condition (`a` grew) nearer."""
        return [f"a += {self.draw(st.integers(1, 3))}"]

    def s_wander(self, scope, rule, depth, loops):
        """A walk on a graph board: a fork (m1 forward, m0 backward) asks the walker, unless
        the route leaves one way (or none: R008)."""
        who = self.who(scope)
        route = f" via t where t.k != {self.int_expr(scope)}" if self.draw(st.booleans()) else ""
        return [f"move {who}.way by {self.choice(['1', '2', '3', self.int_expr(scope)])} steps "
                f"{self.choice(['forward', 'backward'])}{route} by {who}"]

    def s_draw(self, scope, rule, depth, loops):
        count = self.choice(["1", "2", "all", self.int_expr(scope)])
        if count == "all":
            return [f"draw all from hand[{self.who(scope)}] to {self.choice(['used', 'deck'])}"]
        return [f"draw {count} from deck to {self.choice([f'hand[{self.who(scope)}]', 'used'])}"]

    def s_discard(self, scope, rule, depth, loops):
        who, card = self.who(scope), self.local(scope, "h")
        body = [f"choose {card} from hand[{who}] by {who}", f"{card}.hot += {self.int_expr(scope)}",
                f"move {card} {self.choice(['to used', 'under deck'])}"]
        return self.nested(f"if size(hand[{who}]) > 0", body)

    def s_cards(self, scope, rule, depth, loops):
        card = self.local(scope, "h")
        inner = dict(scope, **{card: "chip"})
        body = [f"{card}.hot += 1", *self.block(inner, rule, depth + 1, True)]
        return self.nested(f"for {card} in {self.choice([f'hand[{self.who(scope)}]', 'used'])}", body)

    def s_mark(self, scope, rule, depth, loops):
        return [f"e{self.draw(st.integers(0, 12))}.mark {self.choice(['=', '+='])} {self.int_expr(scope)}"]

    def s_shuffle(self, scope, rule, depth, loops):
        return [self.choice(["shuffle deck", "shuffle used"])]

    def s_say(self, scope, rule, depth, loops):
        if self.draw(st.integers(0, 3)) == 0:  # a zone told: its cards listed (work charged for each)
            return [f'say "{rule} {{hand[{self.who(scope)}]}} and {{used}}"']
        return [f'say "{rule} {{{self.int_expr(scope)}}} and {{{self.int_expr(scope)}}}"']

    def s_if(self, scope, rule, depth, loops):
        lines = self.nested(f"if {self.cond(scope)}", self.block(scope, rule, depth + 1, loops))
        if self.draw(st.booleans()):
            lines[-1:] = self.nested("} else", self.block(scope, rule, depth + 1, loops))
        return lines

    def s_for(self, scope, rule, depth, loops):
        item = self.local(scope, "i")
        body = self.block(dict(scope, **{item: "int"}), rule, depth + 1, True)
        return self.nested(f"for {item} in {self.draw(st.integers(0, 2))}..{self.draw(st.integers(0, 3))}", body)

    def s_players(self, scope, rule, depth, loops):
        item = self.local(scope, "p")
        return self.nested(f"for {item} in players", self.block(dict(scope, **{item: "player"}), rule, depth + 1, True))

    def s_repeat(self, scope, rule, depth, loops):
        return self.nested(f"repeat {self.draw(st.integers(0, 3))}", self.block(scope, rule, depth + 1, True))

    def s_while(self, scope, rule, depth, loops):
        counter = self.local(scope, "w")  # never assigned but by its loop
        scope[counter] = "int"
        body = [f"{counter} += 1", *self.block(scope, rule, depth + 1, True)]
        return [f"let {counter} = 0", *self.nested(f"while {counter} < {self.draw(st.integers(0, 3))}", body)]

    def s_loop(self, scope, rule, depth, loops):
        body = self.block(scope, rule, depth + 1, True)
        return self.nested("loop", [*body, f"if {self.cond(scope)} {{ break }}", "break"])

    def s_break(self, scope, rule, depth, loops):
        return [f"if {self.cond(scope)} {{ break }}"]

    def s_choose(self, scope, rule, depth, loops):
        name = self.local(scope, "c")
        where = f" where {name} != {self.draw(st.integers(0, 3))}" if self.draw(st.integers(0, 3)) == 0 else ""
        top = self.int_expr(scope) if self.draw(st.integers(0, 2)) == 0 else str(self.draw(st.integers(1, 3)))
        seat = self.choice([n for n, t in scope.items() if t == "player"] + ["seat(0)", "seat(1)"])
        line = f"choose {name} from {self.draw(st.integers(0, 1))}..{top}{where} by {seat}"
        scope[name] = "int"
        return [line]

    def s_menu(self, scope, rule, depth, loops):
        first = self.block(scope, rule, depth + 1, loops)
        second = self.block(scope, rule, depth + 1, loops)
        guard = f" if {self.cond(scope)}" if self.draw(st.booleans()) else ""
        return [f"choose by seat({self.draw(st.integers(0, 1))}) {{",
                *self.nested('  option "one"', ["  " + s for s in first], "  }"),
                *self.nested(f'  option "two"{guard}', ["  " + s for s in second], "  }"), "}"]

    def s_may(self, scope, rule, depth, loops):
        guard = f" if {self.cond(scope)}" if self.draw(st.booleans()) else ""
        body = self.block(scope, rule, depth + 1, loops)
        return self.nested(f'may seat({self.draw(st.integers(0, 1))}) "go"{guard}', body)

    def s_call(self, scope, rule, depth, loops):
        callees = self.rules[self.rules.index(rule) + 1:] if rule in self.rules else self.rules
        if self.straight.get(rule):
            callees = [c for c in callees if self.straight[c]]
        if not callees or rule in TRIGGERS:  # a trigger's call could walk the path again
            return self.s_say(scope, rule, depth, loops)
        callee = self.choice(callees)
        args = [self.argument(scope, t) for t in self.params[callee]]
        call = f"{callee}({', '.join(args)})"
        if self.returns[callee] and self.draw(st.booleans()):
            name = self.local(scope)
            call = f"let {name} = {call}"
            scope[name] = "int"
        told = [a for a in args if a in scope] or ["a"]  # a caller's local passed: what the call left of it
        return [call, f'say "{rule} after {callee}: {{{self.choice(told)}}}"']

    def argument(self, scope, kind) -> str:
        if kind == "ring":
            return self.choice([n for n, t in scope.items() if t == "ring"] + ["spot", "s1"])
        plain = [n for n, t in scope.items() if t == "int"] + ["a", "4"]
        return self.choice(plain) if self.draw(st.booleans()) else self.int_expr(scope)

    def s_roll(self, scope, rule, depth, loops):
        name = self.local(scope, "d")
        scope[name] = "int"
        return [f"let {name} = roll {self.draw(st.integers(1, 2))}d6", f"b += {name} % 3"]  # the faces kept

    def s_walk(self, scope, rule, depth, loops):
        players = [n for n, t in scope.items() if t == "player"]
        if players and rule not in TRIGGERS and self.draw(st.booleans()):  # runs the path's triggers
            return [f"move {self.choice(players)}.at by {self.choice(['1', '4', self.int_expr(scope)])} steps forward"]
        rings = [n for n, t in scope.items() if t == "ring"]
        if rings and self.draw(st.booleans()):
            name = self.choice(rings)
            lines = []
        else:
            name = self.local(scope, "g")
            lines = [f"let {name} = spot"]
            scope[name] = "ring"
        steps = self.choice(["1", "2", self.int_expr(scope)])
        return [*lines, f"move {name} by {steps} steps {self.choice(['forward', 'backward'])}"]

    def s_return(self, scope, rule, depth, loops):
        if rule in TRIGGERS:
            return [f"if {self.cond(scope)} {{ return }}"]
        if rule == "flow":
            return self.s_say(scope, rule, depth, loops)
        value = f" {self.int_expr(scope)}" if self.returns[rule] else ""
        return [f"if {self.cond(scope)} {{ return{value} }}"]

    def s_end(self, scope, rule, depth, loops):
        how = self.choice(["draw", "winner seat(1)", ""])
        return [f'if {self.rare(scope)} {{ end "stopped in {rule}" {how} }}']

    def s_eliminate(self, scope, rule, depth, loops):
        return [f"if {self.rare(scope)} {{ eliminate seat({self.draw(st.integers(0, 2))}) }}"]

    # -------------------------------------------------------------- the program
    def rule(self, name) -> str:
        params = {f"k{i}": kind for i, kind in enumerate(self.params.get(name, []))}
        scope = dict(params)
        body: list = []
        for _ in range(self.draw(st.integers(1, 4))):  # its names stay in scope to the end
            body += self.statement(scope, name, 0, False)
        if params and self.draw(st.integers(0, 2)):  # a parameter changed: the caller's argument must not be
            param = self.choice(sorted(params))
            change = f"move {param} by 1 steps forward" if params[param] == "ring" else \
                f"{param} += {self.int_expr(params)}"
            at = len(body) if self.draw(st.booleans()) else 0
            body[at:at] = [change, f'say "{name} changed {param}: {{{param}}}"']
        if name == "flow":  # rounds of turns: turn boundaries, where the end condition is looked at
            turn = self.block(dict(scope, p="player"), name, 1, True, size=self.draw(st.integers(2, 5)))
            body += self.nested(f"repeat {self.draw(st.integers(2, 4))}", self.nested("for p in players", turn))
        if self.returns.get(name):
            body.append(f"return {self.int_expr(scope)}")
        result = " -> int" if self.returns.get(name) else ""
        signature = ", ".join(f"{p}: {t}" for p, t in params.items())
        return "\n".join(self.nested(f"rule {name}({signature}){result}", body))

    def trigger(self, kind) -> str:
        """`on pass path(s, q)` or `on land path(s, q)`: q is none unless a player's `at` walks."""
        if not self.draw(st.booleans()):
            return ""
        body = self.block({"s": "path"}, kind, 1, False)
        return "\n".join(self.nested(f"on {kind} path(s: path, q: player)", body)) + "\n"

    def program(self) -> str:
        limit = self.draw(st.integers(3, 12))
        flow = self.rule("flow")
        rules = [self.rule(name) for name in self.rules]
        triggers = [self.trigger(kind) for kind in TRIGGERS]
        end = f'end when big "a grew": a > {limit} draw\n'
        return HEAD + end + "".join(triggers) + "\n".join([flow, *rules]) + '\nscore p: p.v\n'


@st.composite
def programs(draw) -> str:
    return Writer(draw, draw(st.integers(0, 3))).program()


# ------------------------------------------------------------------ playing
def played(text: str, mode) -> dict:
    """What a game of `text` does in `mode`: the same choices (an index from the step and
    the menu's size) and dice in every mode."""
    fuse, fast, apart, listening, cloned = mode
    program = load_game("r.game", files={"r.game": text}, fuse=fuse, chance_apart=apart).program
    heard: list = []
    listener = (lambda kind, data: heard.append((kind, data.get("text"), data.get("outcome")))) if listening else None
    asked: list = []
    failure = None
    m = None
    try:
        m = Machine(program, 3, FixedChance(DICE), listener=listener, fast=fast)
        while m.pending is not None and len(asked) < MAX_DECISIONS:
            d = m.pending
            asked.append((d.name, d.seat, list(d.labels)))
            if cloned:
                m = m.clone(listener=listener)
            m.choose_index((len(asked) * 7 + 3) % len(d.labels))
    except GameRuntimeError as err:
        failure = (err.diagnostic.code, str(err))
    out = {"asked": asked, "failure": failure}
    if listening:
        out["heard"] = [h for h in heard if h[0] != "settled"]
    if m is not None:  # the World whole (fields, zones, cards, boards), and what was spent
        out.update(world=m.w.snapshot(), spent=m.spent, steps=m.steps,
                   result=None if m.result is None else (m.result.reason, m.result.winners))
    return out


def differences(text: str) -> list:
    """The modes that did not do what the reference (framed ops) did, with what differed
    (what a mode without a listener heard is not compared)."""
    runs = {name: played(text, mode) for name, mode in MODES.items()}
    reference = runs["framed ops"]
    found = []
    for name, run in runs.items():
        for key in reference.keys() | run.keys():
            if key == "heard" and key not in run:
                continue
            if run.get(key, "missing") != reference.get(key, "missing"):
                found.append((name, key, reference.get(key, "missing"), run.get(key, "missing")))
    return found


def replayed(text: str) -> tuple:
    """A game of `text` recorded as `ruledsl play --record` records it (a fast Machine, the
    same choices and dice as `played`), then replayed from its transcript on op lists
    (replay.py checks each step's state): (the failure when recorded, the failure replaying),
    the same GameRuntimeError text both, or None both."""
    game = load_game("r.game", files={"r.game": text})
    out = io.StringIO()
    writer = TranscriptWriter(out)
    writer.header(game, 3, 0, ["scripted"] * 3)
    failures = []
    try:
        m = Machine(game.program, 3, FixedChance(DICE), listener=writer, fast=True)
        while m.pending is not None and m.steps < MAX_DECISIONS:
            m.choose_index((m.steps * 7 + 10) % len(m.pending.labels))
        if m.result is None:
            m.stop_at_limit(f"step limit: {MAX_DECISIONS} decisions")  # as `ruledsl play --max-steps` stops
        writer.result(m)
        failures.append(None)
    except GameRuntimeError as err:  # the transcript stops at the step that failed
        failures.append(str(err))
    try:
        replay(game, parse_lines(out.getvalue().splitlines()))
        failures.append(None)
    except GameRuntimeError as err:
        failures.append(str(err))
    return tuple(failures)


def through_openspiel(text: str, folder) -> dict:
    """What `played` tells of a game of `text` played through the OpenSpiel adapter (a
    pyspiel state; chance nodes answered as FixedChance answers: the dice in turn, the
    cards in the order listed), with the same choices: what a researcher's loop sees."""
    from ruledsl.openspiel.game import load_game as load_adapted
    path = Path(folder) / "r.game"
    path.write_text(text, encoding="utf-8")
    game = load_adapted(str(path), players=3, max_steps=10 * MAX_DECISIONS)
    dice, asked, failure, state = iter(DICE), [], None, None
    try:
        state = game.new_initial_state()
        while not state.is_terminal():
            play = state.play
            if state.is_chance_node():  # a die a node, a shuffle a card a node (the first left)
                state.apply_action(next(dice, 1) - 1 if play.event[0] == "roll" else 0)
            elif len(asked) < MAX_DECISIONS:
                d = play.machine.pending
                asked.append((d.name, d.seat, list(d.labels)))
                state.apply_action(play.ids[(len(asked) * 7 + 3) % len(d.labels)])
            else:
                break
    except GameRuntimeError as err:
        failure = (err.diagnostic.code, str(err).replace(str(path), "r.game"))
    out = {"asked": asked, "failure": failure}
    if failure is None:
        m = state.play.machine
        out.update(world=m.w.snapshot(), steps=m.steps,
                   result=None if m.result is None else (m.result.reason, m.result.winners))
    return out


SETTINGS = dict(deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@settings(max_examples=60, **SETTINGS)
@given(programs())
def test_random_programs_play_the_same_in_every_mode(text):
    assert differences(text) == [], text


@pytest.mark.slow
@settings(max_examples=600, **SETTINGS)
@given(programs())
def test_many_random_programs_play_the_same_in_every_mode(text):
    assert differences(text) == [], text


@settings(max_examples=15, **SETTINGS)
@given(programs())
def test_a_random_program_plays_the_same_through_the_openspiel_adapter(text):
    """Steps in place, paused where they ask for chance and gone on from that op."""
    pytest.importorskip("pyspiel")
    with tempfile.TemporaryDirectory() as folder:
        adapted = through_openspiel(text, folder)
    reference = played(text, MODES["framed ops"])
    assert {key: reference.get(key) for key in adapted} == adapted, text


@pytest.mark.slow
@settings(max_examples=200, **SETTINGS)
@given(programs())
def test_many_random_programs_play_the_same_through_the_openspiel_adapter(text):
    pytest.importorskip("pyspiel")
    with tempfile.TemporaryDirectory() as folder:
        adapted = through_openspiel(text, folder)
    reference = played(text, MODES["framed ops"])
    assert {key: reference.get(key) for key in adapted} == adapted, text


@settings(max_examples=25, **SETTINGS)
@given(programs())
def test_a_random_program_recorded_fast_replays_without_divergence(text):
    recorded, replaying = replayed(text)
    assert recorded == replaying, text


@pytest.mark.slow
@settings(max_examples=300, **SETTINGS)
@given(programs())
def test_many_random_programs_recorded_fast_replay_without_divergence(text):
    recorded, replaying = replayed(text)
    assert recorded == replaying, text


def main():
    import argparse
    parser = argparse.ArgumentParser(description="Random programs played in every mode; prints those that differ.")
    parser.add_argument("--programs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    found = []
    adapter = importlib.util.find_spec("pyspiel") is not None  # the openspiel extra

    @seed(args.seed)
    @settings(max_examples=args.programs, database=None, phases=[Phase.generate], **dict(SETTINGS, derandomize=False))
    @given(programs())
    def run(text):
        found.extend((text, diff) for diff in differences(text))
        recorded, replaying = replayed(text)
        if recorded != replaying:
            found.append((text, ("recorded", recorded, "replayed", replaying)))
        if adapter:
            with tempfile.TemporaryDirectory() as folder:
                adapted = through_openspiel(text, folder)
            reference = played(text, MODES["framed ops"])
            found.extend((text, ("through OpenSpiel", key, reference.get(key), value))
                         for key, value in adapted.items() if reference.get(key) != value)
    run()
    for text, diff in sorted(found, key=lambda f: len(f[0])):
        print(text, diff, sep="\n", end="\n\n")
    print(f"{args.programs} programs, {len({text for text, _ in found})} playing differently in some mode")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
