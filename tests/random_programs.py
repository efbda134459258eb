"""Random programs for the tests: a hypothesis strategy (`programs()`) writing small
game files over the statement forms that nest and the data they change, each of which
passes the checker (tests/compile/test_random_programs.py plays them every way the
engine can). The game's head is fixed (HEAD: boards, a graph, cards and zones, fields,
defs); the rules, the triggers and the end condition are drawn."""
from __future__ import annotations

import itertools

from hypothesis import strategies as st

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
# what a straight rule leaves out (a walk: a player's runs the path's triggers)
PAUSING = {"choose", "menu", "may", "walk", "roll", "discard", "wander", "window"}


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
        kinds = ["+", "-", "*", "+", "-", "*", "/", "%", "if", "count", "sum", "twice", "gap", "far", "max", "abs",
                 "held", "stored", "stored", "index", "most", "best"]
        kind = self.choice(kinds if self.in_text else kinds + ["match"])  # (a text's {...} holds no braces)
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
        if kind == "index":  # out of the list now and then (R002)
            return f"[{sub()}, {sub()}, {sub()}][{self.choice(['0', '2', sub()])}]"
        if kind == "match":
            return f"match {sub()} {{ case 1: {sub()} case 2: {sub()} else: {sub()} }}"
        if kind == "most":  # an aggregate giving a value: max and min (0 over nothing)
            item = f"y{next(self.fresh)}"
            return f"{self.choice(['max', 'min'])}({item} in players: {item}.v + {sub()})"
        if kind == "best":  # the first item of the greatest value (none over nothing: R000 in a sum)
            item = f"i{next(self.fresh)}"
            inner = dict(scope, **{item: "int"})
            where = f" where {self.cond(inner, depth + 1)}" if self.draw(st.booleans()) else ""
            return f"best({item} in {self.draw(st.integers(0, 2))}..{self.draw(st.integers(0, 4))}{where}: " \
                   f"{self.int_expr(inner, depth + 1)})"
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
            op = self.choice(["and", "or", "not", "any"])
            if op == "not":
                return f"not ({self.cond(scope, depth + 1)})"
            if op == "any":
                return self.stopping(scope, depth + 1)
            return f"({self.cond(scope, depth + 1)} {op} {self.cond(scope, depth + 1)})"
        if self.draw(st.integers(0, 9)) == 0:
            return self.choice(["true", "false"])
        compared = self.choice(['<', '<=', '==', '!=', '>'])
        return f"{self.int_expr(scope, depth + 1)} {compared} {self.int_expr(scope, depth + 1)}"

    def stopping(self, scope, depth) -> str:
        """An aggregate that stops at an item: any or all over numbers or a stored field,
        with a `where`, a value or both (all with a `where` alone: every item meets it)."""
        func = self.choice(["any", "all"])
        item = f"i{next(self.fresh)}"
        inner = dict(scope, **{item: "int"})
        if self.draw(st.booleans()):
            domain = f"{self.draw(st.integers(0, 2))}..{self.draw(st.integers(0, 4))}"
            where = f" where {self.cond(inner, depth + 1)}" if self.draw(st.booleans()) else ""
            value = f": {self.cond(inner, depth + 1)}" if not where or self.draw(st.booleans()) else ""
            return f"{func}({item} in {domain}{where}{value})"
        item = f"y{next(self.fresh)}"
        domain, field = self.choice([("grid", "mark"), (f"hand[{self.who(scope)}]", "hot"), ("players", "v")])
        test = f"{item}.{field} {self.choice(['==', '!=', '>'])} {self.int_expr(scope, depth + 1)}"
        return f"{func}({item} in {domain} where {test})" if func == "any" else f"all({item} in {domain}: {test})"

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
            kinds += ["for", "repeat", "while", "loop", "players", "menu", "may", "cards", "window"]
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

    in_text = False  # writing a text's {...}

    def s_say(self, scope, rule, depth, loops):
        if self.draw(st.integers(0, 3)) == 0:  # a zone told: its cards listed (work charged for each)
            return [f'say "{rule} {{hand[{self.who(scope)}]}} and {{used}}"']
        self.in_text = True
        told = [self.int_expr(scope), self.int_expr(scope)]
        self.in_text = False
        return [f'say "{rule} {{{told[0]}}} and {{{told[1]}}}"']

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
        """A loop over the players as they are (end conditions looked at before each),
        sorted, or clockwise from one."""
        item = self.local(scope, "p")
        order = self.choice(["", "", f" by {item}.v {self.choice(['desc', 'asc'])}", f" from {self.who(scope)}"])
        body = self.block(dict(scope, **{item: "player"}), rule, depth + 1, True)
        return self.nested(f"for {item} in players{order}", body)

    def s_window(self, scope, rule, depth, loops):
        """A response window (syntax sugar over `while` and `may`): asked in turn until all pass."""
        item = self.local(scope, "p")
        inner = dict(scope, **{item: "player"})
        guard = f" if {item}.v < {self.draw(st.integers(1, 4))}"  # taking it must end: each take adds to v
        body = [f"{item}.v += 1", *self.block(inner, rule, depth + 1, True)]
        return self.nested(f'window {item} in players as "respond"{guard}', body)

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
        secret = self.choice(["", "", "secret "])
        line = f"choose {secret}{name} from {self.draw(st.integers(0, 1))}..{top}{where} by {seat}"
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
