"""Compile stage: straight statements written as the text of their generated code, in
a stretch or a whole rule (a mixin of inplace._Stretch).

A statement with a `t_K` method here is written out where it runs: its expressions as
their generated text, each with its checked version behind it (`evaluated`: a failing
fast expression hands over to its checked code, which names the failure), then what its
effect would do, written out (a store, `World.put`, a draw's loop, a walk's new space).
A `t_K` may decline (None) and leave the statement to a call of its effect (the `s_K`
compilers'): the two must do the same, in the same order, charging the same work
(tests/compile/test_stretches.py and test_telling.py run both). A say or reveal nobody
listens to is told only where R013 or a label may fail, tested in the text.
"""
from __future__ import annotations

from .. import budget
from ..check.types import Binding
from ..errors import GameRuntimeError
from ..runtime.machine import MAX_DEPTH
from ..syntax import ast
from .aggregates import unfailing
from .bounds import beyond
from .checked_calls import number_given
from .expr import _Gen
from .made import Checked
from .stores import set_text, stored_text


def no_card(span):
    """A `move` of none (its card expression gave none)."""
    raise GameRuntimeError(span, "R005", "there is no card to move (none)")


def nobody_to_reveal_to(span):
    """A `reveal ... to P` whose P is none."""
    raise GameRuntimeError(span, "R006", "nobody to reveal to (the player is none)")


def guarded(body, fallback) -> list:
    """`body`'s lines tried, a work limit let through, and on any other failure of the
    fast code the line `fallback` (a checked version, or the statement's own effect)."""
    return ["try:", *("    " + line for line in body), "except _WORK:", "    raise", "except _XFAIL:",
            "    " + fallback]


def fits_test(shape, value) -> str | None:
    """The text of a test that values told are sure to pass R013 without building the text
    (TellingCompiler.fits, written out): `value(i)` names the i-th part's value, whose
    `shape` is TellingCompiler.shape's; None when the types alone tell."""
    numbers, texts, room = shape
    tests = [f"{value(i)}.__class__ is int and -{budget.MAX_NUMBER} < {value(i)} < {budget.MAX_NUMBER}"
             for i in numbers]
    if texts:
        tests += [f"{value(i)}.__class__ is str" for i in texts]
        tests.append(f"{' + '.join(f'len({value(i)})' for i in texts)} <= {room}")
    return " and ".join(tests) if tests else None


def zone_named(e) -> str | None:
    """The zone the expression `e` names (`deck`, `hand[p]`), or None (a zone kept in a
    local, say)."""
    if isinstance(e, ast.Index):
        e = e.obj
    return e.name if isinstance(e, ast.Name) and e.note.binding is Binding.ZONE else None


LOOPED_DEPTH = 10  # blocks deep from which a statement's aggregate stays a comprehension (evaluated)


def ticked(k) -> list:
    """The text of one unit of work charged at `_spans[k]` (budget.charge, written out:
    a loop's turn is the hottest line of a stretch)."""
    return ["w.work -= 1", "if w.work < 0:", f"    _charge(w, 0, _spans[{k}])"]


class KeptLocals:
    """A rule's locals in its generator (whole.py), each kept in a Python local too (`_L3`),
    which the text reads instead of `env` (a dict lookup a read). `env` stays whole: each
    local the text binds is written through to it, so what reads a local by name (a
    checked fallback, an effect or op called, a framed call's arguments, a clone) finds it
    there. What binds a local behind the text's back is read again after it (`reread`): a
    framed call's result, a secret choice, a walk's step moving a local, a store's or a
    walk's reference where its fast code failed, an effect called for a `let` or a `roll`.
    A copy's resumed generator starts by reading every local it keeps from `env`
    (`prologue`), so a copy's frame changed before it goes on is what it reads; the rule's
    own generator, started with its frame, reads its parameters alone (whole.whole_text)."""

    def __init__(self):
        self.names: dict = {}  # a local's name -> its Python local

    def read(self, name: str) -> str:
        local = self.names.get(name)
        if local is None:
            local = self.names[name] = f"_L{len(self.names)}"
        return local

    def holds(self, text: str) -> bool:
        """Whether `text` is the Python local of one of the rule's locals."""
        return text in self.names.values()

    def bound(self, name: str, key: str | None = None) -> str:
        """The target of local `name` bound, written through: its Python local and `env`
        (`key`: the text of its name there, else its literal)."""
        return f"{self.read(name)} = env[{key or repr(name)}]"

    def prologue(self, params=None) -> list:
        """Each kept local read from `env`; with `params` (a generator started afresh:
        whole_text), those not among them set to None in one line."""
        kept = self.names.items()
        read = [f"{local} = env.get({name!r})" for name, local in kept if params is None or name in params]
        unset = [local for name, local in kept if params is not None and name not in params]
        return [*read, f"{' = '.join(unset)} = None"] if unset else read


class StatementTexts:
    """The `t_K` texts of `_Stretch`, which has `e` (the statement compiler), `code`, `ns`,
    `const`, `writes_out`, `gens` and `kept_locals` (a rule's generator's KeptLocals, else None)."""

    def text_gen(self) -> _Gen:
        """An expression generator whose values go to this stretch's namespace; it writes
        small defs into the text where this one writes out (a whole rule's, or a stretch's
        made on its first call: not by `ruledsl check`), else calls them."""
        gen = _Gen(self.e.x, inlining=self.writes_out)
        self.gens.append(gen)
        gen.consts = self.ns
        gen.kept_locals = self.kept_locals
        return gen

    def binding(self, name: str, key: str | None = None) -> str:
        """The target of local `name` bound (`key`: the text of its name in `env`, else its
        literal): `env[...]`, in a rule's generator written through to its Python local."""
        return f"env[{key or repr(name)}]" if self.kept_locals is None else self.kept_locals.bound(name, key)

    def rebound(self, s) -> list:
        """reread of the local that statement `s`'s effect, op or reference may have bound
        in `env`: a `let`'s or a `roll`'s, or the target of a store or a walk if a local."""
        if isinstance(s, (ast.Let, ast.Roll)):
            return self.reread(s.name)
        if isinstance(s, (ast.Assign, ast.Walk)) and isinstance(s.target, ast.Name) \
                and s.target.note.binding is Binding.LOCAL:
            return self.reread(s.target.name)
        return []

    def reread(self, name) -> list:
        """In a rule's generator, the line that reads local `name` again from `env`, after
        something that may have bound it there (KeptLocals); else none."""
        if self.kept_locals is None or name is None:
            return []
        return [f"{self.kept_locals.read(name)} = env[{name!r}]"]

    def written(self, make) -> list:
        """The lines `make(gen)` gives with a text generator, after the lines reading the
        columns it names (_Gen.prologue)."""
        gen = self.text_gen()
        lines = gen.settled(make(gen)).split("\n")
        return [*gen.prologue(), *lines]

    def evaluated(self, e, kept: bool = False) -> list:
        """`_val = e`, as an expression's own function evaluates it (made.TEMPLATE); `kept`,
        as a value kept (a parameter bound: ExprCompiler.kept). An aggregate that stops at
        an item or counts them is a loop of the statement's own (looped.StatementLoops),
        also as a part of an `and` or `or` (each part one block deeper), but not from
        LOOPED_DEPTH blocks deep, where its lines could bring the text near what Python
        refuses (deferred.py)."""
        room = self.loops_room()
        if kept:
            make = lambda gen: f"_val = {gen.kept(e)}"  # noqa: E731
        elif room is not None:
            make = lambda gen: gen.statement(e, "_val", room)  # noqa: E731
        else:
            make = lambda gen: f"_val = {gen.expr(e)}"  # noqa: E731
        checked = self.e.x.kept_checked(e) if kept else Checked(self.e.x, e)
        return guarded(self.written(make), f"_val = {self.const(checked)}(w, env)")

    def counted(self, e, what: str) -> list:
        """`_val = e`, the number a statement (`what`) needs, as `evaluated` makes it; where
        it may be none (bounds.Nones), R000 at `e` if it is (ExprCompiler.counted)."""
        lines = self.evaluated(e)
        if not self.e.x.nones.may_be_none(e):
            return lines
        return [*lines, "if _val is None:", f"    {self.const(number_given)}(_val, {self.const(e.span)}, {what!r})"]

    def loops_room(self) -> int | None:
        """How many blocks deep a statement here may write its expression's loops
        (looped.py), or None from LOOPED_DEPTH blocks deep on (evaluated)."""
        return LOOPED_DEPTH - 1 - self.depth if self.depth < LOOPED_DEPTH else None

    def t_Let(self, s):
        lines = [*self.evaluated(s.value), f"{self.binding(s.name)} = _val"]
        if not self.e.x.bounds.may_be_big(s.value):
            return lines
        number, span = self.const(budget.number), self.const(s.span)
        return [*lines, f"if {beyond('_val')}:", f"    {number}(_val, {span})"]

    def t_Bind(self, s):
        return [*self.evaluated(s.value, kept=True), f"{self.binding(s.name)} = _val"]

    def t_Assign(self, s):
        reference = f"{self.const(self.e.assign_reference(s))}(vm, env)"  # (it stores a local in env)
        room = self.loops_room()
        return guarded(self.written(lambda gen: stored_text(gen, s.target, s.op, s.value, "\n", room)),
                       "; ".join([reference, *self.rebound(s)]))

    def t_MoveCard(self, s):
        """`move C to Z`: the card, then (unless it is none: R005) the zone, each evaluated
        as its own function would, then World.put (CardCompiler.s_MoveCard's effect)."""
        return [*self.evaluated(s.card), "_c = _val", "if _c is None:",
                f"    {self.const(no_card)}({self.const(s.span)})",
                *self.evaluated(s.dest), *self.card_put(s)]

    def card_put(self, s) -> list:
        """World.put(_c, _val) written out where the text names the zone it goes to: whether
        the move counts as a change for the end conditions is known here for that zone,
        and looked up for the one the card leaves (Program.zones_watched)."""
        dest = zone_named(s.dest)
        if dest is None:
            return [f"w.put(_c, _val, {bool(s.bottom)})"]
        lines = ["_was = w.loc.get(_c)", "if _was is not None:", "    w.zones[_was].remove(_c)",
                 "w.zones[_val].append(_c)" if s.bottom else "w.zones[_val].insert(0, _c)", "w.loc[_c] = _val"]
        watched = self.e.p.zones_watched
        if watched is None or dest in watched:
            return [*lines, "w.version += 1"]
        if not watched:
            return lines
        left = f"_was is not None and _was[0] != {dest!r} and _was[0] in {self.const(watched)}"
        return [*lines, f"if {left}:", "    w.version += 1"]

    def t_Draw(self, s):
        """`draw N from A to B` (CardCompiler.s_Draw's effect): the zones, then the count
        (else all of A), then a card at a time off A's top, A refilled when it runs out
        (CardCompiler.refill), each card DRAW_COST units of work. Compiled with chance
        apart, a draw that refills is undone when its shuffle pauses: its effect does that."""
        if self.e.chance_apart:
            return None
        lines = [*self.evaluated(s.source), "_a = _val", *self.evaluated(s.dest), "_b = _val"]
        refill, span = self.const(self.e.refill), self.const(s.span)
        draw = [f"w.work -= {budget.DRAW_COST}", "if w.work < 0:", f"    _charge(w, 0, {span})",
                *self.card_drawn(s)]
        if isinstance(s.count, ast.Int) and s.count.value == 1:  # one card: no loop
            return [*lines, f"if w.zones[_a] or {refill}(vm, _a):", *("    " + line for line in draw)]
        if s.count is None:
            lines.append("_n = len(w.zones[_a])")
        else:
            lines += [*self.counted(s.count, "draw"), "_n = _val"]
        return [*lines, "for _ in range(_n):", f"    if not w.zones[_a] and not {refill}(vm, _a):", "        break",
                *("    " + line for line in draw)]

    def card_drawn(self, s) -> list:
        """World.draw_top(_a, _b) written out where the text names both zones (`deck`,
        `hand[p]`): whether the draw counts as a change for the end conditions (their
        version bumped) is known here (Program.zones_watched)."""
        names = {zone_named(s.source), zone_named(s.dest)}
        if None in names:
            return ["w.draw_top(_a, _b)"]
        watched = self.e.p.zones_watched
        bump = ["w.version += 1"] if watched is None or names & watched else []
        return ["_c = w.zones[_a].pop(0)", "w.zones[_b].insert(0, _c)", "w.loc[_c] = _b", *bump]

    def t_Roll(self, s):
        """`let x = roll NdS` (CardCompiler.s_Roll's effect): the dice from the Machine's
        chance source, summed; through Machine.roll, which tells the roll, only for a
        listener. Compiled with chance apart, a roll is an op of its own (it may pause)."""
        if self.e.chance_apart:
            return None
        dice = f"{s.count}, {s.sides}, {f'{s.count}d{s.sides}'!r}"
        return [f"{self.binding(s.name)} = sum(vm.roll({dice}, {self.const(s.span)}) if vm.listening "
                f"else vm.chance.roll({dice}))"]

    def t_Shuffle(self, s):
        """`shuffle Z` (CardCompiler.s_Shuffle's effect): the zone, then Machine.shuffle_zone."""
        return [*self.evaluated(s.zone), f"vm.shuffle_zone(_val, {self.const(s.span)})"]

    def t_Walk(self, s):
        """`move X.f by N steps D` with no trigger to run (FlowCompiler.walk_in_place): the
        count, the direction, then the field set to where the track leads
        (Program.walk_to); where that store fails, the walk's effect runs to raise the
        precise error (R001 for a none)."""
        walk_to, effect = self.const(self.e.p.walk_to), self.const(self.e.leaf(self.code, s))
        store = self.written(lambda gen: set_text(gen, s.target, gen.expr(s.target), "=",
                                                  f"{walk_to}({gen.expr(s.target)}, _val, _n)"))
        effected = "; ".join([f"{effect}(vm, env)", *self.rebound(s)])  # (it stores a local in env)
        return [*self.counted(s.count, "move"), "_n = _val", *self.evaluated(s.direction), "if _n > 0:",
                *("    " + line for line in guarded(store, effected))]

    def t_Say(self, s):
        """`say "..."` (TellingCompiler.told): its parts evaluated in order, then told
        (told_values) only to a listener or where R013 may fail: a text of parts whose
        labels are bounded needs no test; a number part is tested to be within R012's
        bound (so at most NUMBER_CHARS long) and the text parts for their length, here.
        A part that is a name of a bounded label (a player, say) isn't evaluated for
        nobody: evaluating a name can neither fail nor charge work (`unfailing`)."""
        parts = [p for p in s.text.parts if not isinstance(p, str)]
        shape = self.e.text_shape(s.text) if parts else None
        if shape is None:
            return None  # a constant text tests vm.listening alone; else only building tells
        tested = {*shape[0], *shape[1]}  # the numbers and texts: their values are tested
        lines, values = [], []
        for i, part in enumerate(parts):
            if unfailing(part) and i not in tested:
                values.append(self.written(lambda gen, part=part: gen.expr(part))[0])
                continue
            lines += [*self.evaluated(part), f"_s{i} = _val"]
            values.append(f"_s{i}")
        test = fits_test(shape, lambda i: f"_s{i}")
        heard = "vm.listening" + (f" or not ({test})" if test else "")
        told = self.const(self.e.told_values(s.text, "say"))
        return [*lines, f"if {heard}:", f"    {told}(vm, ({', '.join(values)},))"]

    def t_Reveal(self, s):
        """`reveal V [to P]` (TellingCompiler.s_Reveal): the seat (R006 if none), then the
        value, told (TellingCompiler.revealed) only to a listener or where R013 may fail."""
        shape = self.e.shape([s.value], 0)
        if shape is None:
            return None  # only labelling tells
        lines = []
        if s.to is not None:
            lines += [*self.evaluated(s.to), "_t = _val", "if _t is None:",
                      f"    {self.const(nobody_to_reveal_to)}({self.const(s.span)})"]
        lines += self.evaluated(s.value)
        test = fits_test(shape, lambda i: "_val")
        heard = "vm.listening" + (f" or not ({test})" if test else "")
        revealed = self.const(self.e.revealed(s))
        return [*lines, f"if {heard}:", f"    {revealed}(vm, _val, {'_t' if s.to is not None else 'None'})"]

    def t_Enter(self, s):
        """The call's unit of work (its site is the statement's span), then the depth limit
        (R004): past it, the statement's own effect raises the error."""
        return [*ticked("_at"),
                f"if vm.frames[-1].depth > {MAX_DEPTH - s.level}:",
                f"    {self.const(self.e.leaf(self.code, s))}(vm, env)"]
