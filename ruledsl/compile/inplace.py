"""Compile stage: a stretch of simple statements as one generated Python function.

A stretch (OpEmitter.is_simple: straight statements, calls of straight rules, and ifs
and loops made only of those) runs as plain Python: its ifs and loops become Python's
own, each straight statement is a call of its effect (from the statement compilers'
`s_K` methods), each condition a call of its generated expression, each call of a
straight rule a call of that rule's own stretch. As in the expression code, nothing of
the game file reaches the generated text: it holds only names and numbers made here,
and every value it needs is passed in its namespace.

What the ops would have done, the stretch does too:
- a Python failure is a runtime error at the statement or condition that failed;
- each turn of a loop and each call of a straight rule costs one unit of work (after
  its arguments, as a call compiled in place or with a frame of its own does);
- a loop over players looks at the end conditions before each turn and after the last
  (turn boundaries); the end of the game there, or at an `end`, stops the stretch
  (GameOver) and the op pauses the Machine for good;
- the World is marked changed right after each statement that changes what the end
  conditions read, so that the end conditions see it at the next turn boundary. An op's
  own stretch with no turn boundary in it marks it once, at its end, if a statement at
  its top level changed it.
"""
from __future__ import annotations

from .. import budget
from ..check.types import PLAYER, Binding
from ..errors import RUNTIME_FAILURES, Diagnostic, GameRuntimeError, RuleError, failure_message
from ..runtime.machine import MAX_DEPTH
from ..syntax import ast
from . import deferred
from .expr import FAILURES, _Checked, _Gen, may_be_big, record_text, stored_text

MAX_NESTING = 12  # ifs and loops inside each other in one stretch (Python allows 20 nested loops)


class GameOver(Exception):
    """Raised in a stretch when the game ended (an `end`, or end conditions that hold at a
    turn boundary); the op running the stretch pauses the Machine for good."""


OP_TEMPLATE = """\
def _op(vm, fr):
    env = fr.env
    w = vm.w
    try:
{body}
    except _FAILED as err:
        raise _failed(_spans[_at], err) from None
    except _Over:
        return True
{mark}    fr.pc = _next[0]
"""

RUN_TEMPLATE = """\
def _run(vm, env):
    w = vm.w
    try:
{body}
    except _FAILED as err:
        raise _failed(_spans[_at], err) from None
"""


def over_players(loop) -> bool:
    """Whether a for loop goes over players: each turn of it is a turn boundary (the end
    conditions are looked at before it, and after the last)."""
    return loop.source.note.type.elem == PLAYER


def every_seat_in_turn(loop) -> bool:
    """Whether a for loop goes over `players` as they are, in seat order: then it may go
    over every seat, as the players still in are those of them not out yet (the loop skips
    a player out at its turn, and nobody comes back into the game)."""
    src = loop.source
    return (isinstance(src, ast.Name) and src.note.binding is Binding.PLAYERS and loop.order is None
            and loop.start is None)


def looks_at_ends(loop, model) -> bool:
    """Whether a loop's turn boundaries look at the end conditions: it goes over players,
    and the game has some (`end when`; without, there is nothing to look at)."""
    return over_players(loop) and bool(model.ends)


def _failed(span, err) -> GameRuntimeError:
    return GameRuntimeError(span, "R000", failure_message(err))


def no_card(span):
    """A `move` of none (its card expression gave none)."""
    raise GameRuntimeError(span, "R005", "there is no card to move (none)")


def nobody_to_reveal_to(span):
    """A `reveal ... to P` whose P is none."""
    raise GameRuntimeError(span, "R006", "nobody to reveal to (the player is none)")


def stretch_op(emitter, code, stmts, next_pc):
    """`op(vm, fr)`: the stretch, then on to `next_pc[0]` (a cell: it may be patched)."""
    def make(gen):
        body = gen.block(stmts, 2, mark=any(emitter.checks_ends(s) for s in stmts))
        mark = "    w.version += 1\n" if gen.changes else ""  # the stretch's top level changed the World
        return gen.build(OP_TEMPLATE.format(body=body, mark=mark), "_op", stmts[0].span, _next=next_pc)
    return _made(emitter, code, make)


def stretch_run(emitter, code, stmts, span):
    """`run(vm, env)`: the stretch of a straight rule's body, marking as it goes."""
    return _made(emitter, code, lambda gen: gen.build(RUN_TEMPLATE.format(body=gen.block(stmts, 2, mark=True)),
                                                      "_run", span))


def _made(emitter, code, make):
    """A stretch made by `make(gen)` with its statements written as text where they can be;
    where that text nests too deeply for Python, made again of calls of the statements'
    own functions (which then name an expression too deep for Python, E403)."""
    try:
        return make(_Stretch(emitter, code))
    except _TooDeep:
        return make(_Stretch(emitter, code, as_text=False))


class _TooDeep(Exception):
    """Python could not compile a stretch written as text."""


UNFAILING = (ast.Int, ast.Bool, ast.NoneLit)
UNFAILING_NAMES = (Binding.LOCAL, Binding.CONST, Binding.SHARED_FIELD, Binding.ENUM_VALUE, Binding.SPACE,
                   Binding.PLAYER_COUNT)  # a local is always bound where it is named (the checker's scopes)


def unfailing(e) -> bool:
    """Whether evaluating `e` can neither fail nor charge work: a literal, or a name of a value."""
    if isinstance(e, ast.Name):
        return e.note.binding in UNFAILING_NAMES
    return isinstance(e, UNFAILING)


def ticked(k) -> list:
    """The text of one unit of work charged at `_spans[k]` (budget.charge, written out:
    a loop's turn is the hottest line of a stretch)."""
    return ["w.work -= 1", "if w.work < 0:", f"    _charge(w, 0, _spans[{k}])"]


class _Stretch:
    """Generates the text of one stretch. A block made with `mark` marks the World changed
    right after each statement that changes it; one made without (an op's top level with
    no turn boundary) leaves that to the op, and `changes` says whether one did."""

    def __init__(self, emitter, code, as_text: bool = True):
        self.e, self.code = emitter, code
        self.as_text = as_text  # lets, assignments and conditions as text (else calls of their functions)
        self.ns: dict = {"_FAILED": RUNTIME_FAILURES, "_failed": _failed, "_Over": GameOver,
                         "_charge": budget.charge, "_WORK": budget.WorkLimit, "_XFAIL": FAILURES}
        self.spans: list = []
        self.changes = False

    def const(self, value) -> str:
        name = f"_k{len(self.ns)}"
        self.ns[name] = value
        return name

    def at(self, span) -> int:
        self.spans.append(span)
        return len(self.spans) - 1

    def block(self, stmts, depth: int, mark: bool) -> str:
        lines: list = []
        for s in stmts:
            gen = getattr(self, "g_" + type(s).__name__, None)
            if gen is None:
                self.leaf(lines, s, depth, mark)
            else:
                gen(lines, s, depth)
        return "\n".join(lines) if lines else "    " * depth + "pass"

    def build(self, source, name, span, **ns):
        self.ns.update(ns, _spans=self.spans)
        try:
            return deferred.function(source, f"<ruledsl code at {span.where()}>", self.e.p.path, self.ns, name)
        except (SyntaxError, RecursionError, MemoryError):
            if self.as_text:
                raise _TooDeep from None
            raise RuleError([Diagnostic(span, "E403", "these statements are nested too deeply to compile; "
                                                      "split them into rules")]) from None

    # ------------------------------------------------------------ statements
    def leaf(self, lines, s, depth, mark):
        """A straight statement: a call of its effect."""
        pad = "    " * depth
        lines.append(f"{pad}_at = {self.at(s.span)}")
        self.effect(lines, s, pad)
        if self.e.changes_world(s):
            if mark:
                lines.append(f"{pad}w.version += 1")
            else:
                self.changes = True

    def effect(self, lines, s, pad):
        """A statement's effect: lets, parameters bound, assignments and the depth check of
        a call in place as the text of their generated code (with the same fallback as
        their own functions: a failing fast expression hands over to its checked version,
        a failing store to the reference assignment); the others as calls."""
        text = getattr(self, "t_" + type(s).__name__, None) if self.as_text else None
        try:
            written = text(s) if text is not None else None
        except RecursionError:  # an expression too deep to write out
            raise _TooDeep from None
        if written is None:
            lines.append(f"{pad}{self.const(self.e.leaf(self.code, s))}(vm, env)")
        else:
            lines.extend(pad + line for line in written)

    def text_gen(self) -> _Gen:
        """An expression generator whose values go to this stretch's namespace."""
        gen = _Gen(self.e.x)
        gen.consts = self.ns
        return gen

    def written(self, make) -> list:
        """The lines `make(gen)` gives with a text generator, after the lines reading the
        columns it names (_Gen.prologue)."""
        gen = self.text_gen()
        lines = gen.settled(make(gen)).split("\n")
        return [*gen.prologue(), *lines]

    def evaluated(self, e) -> list:
        """`_val = e`, as an expression's own function evaluates it (expr.TEMPLATE)."""
        body = self.written(lambda gen: f"_val = {gen.expr(e)}")
        return ["try:", *("    " + line for line in body), "except _WORK:", "    raise", "except _XFAIL:",
                f"    _val = {self.const(_Checked(self.e.x, e))}(w, env)"]

    def t_Let(self, s):
        lines = [*self.evaluated(s.value), f"env[{s.name!r}] = _val"]
        if not may_be_big(s.value):
            return lines
        number, span = self.const(budget.number), self.const(s.span)
        return [*lines, f"if _val.__class__ is int and not -{budget.MAX_NUMBER} < _val < {budget.MAX_NUMBER}:",
                f"    {number}(_val, {span})"]

    def t_Bind(self, s):
        return [*self.evaluated(s.value), f"env[{s.name!r}] = _val"]

    def t_Assign(self, s):
        body = self.written(lambda gen: stored_text(gen, s.target, s.op, s.value, "\n"))
        reference = self.const(self.e.assign_reference(s))
        return ["try:", *("    " + line for line in body), "except _WORK:", "    raise", "except _XFAIL:",
                f"    {reference}(vm, env)"]

    def t_MoveCard(self, s):
        """`move C to Z`: the card, then (unless it is none: R005) the zone, each evaluated
        as its own function would, then World.put (CardCompiler.s_MoveCard's effect)."""
        return [*self.evaluated(s.card), "_c = _val", "if _c is None:",
                f"    {self.const(no_card)}({self.const(s.span)})",
                *self.evaluated(s.dest), f"w.put(_c, _val, {bool(s.bottom)})"]

    def t_Draw(self, s):
        """`draw N from A to B` (CardCompiler.s_Draw's effect): the zones, then the count
        (else all of A), then a card at a time off A's top, A refilled when it runs out
        (CardCompiler.refill), each card DRAW_COST units of work. Compiled with chance
        apart, a draw that refills is undone when its shuffle pauses: its effect does that."""
        if self.e.chance_apart:
            return None
        lines = [*self.evaluated(s.source), "_a = _val", *self.evaluated(s.dest), "_b = _val"]
        refill, span = self.const(self.e.refill), self.const(s.span)
        draw = [f"w.work -= {budget.DRAW_COST}", "if w.work < 0:", f"    _charge(w, 0, {span})", "w.draw_top(_a, _b)"]
        if isinstance(s.count, ast.Int) and s.count.value == 1:  # one card: no loop
            return [*lines, f"if w.zones[_a] or {refill}(vm, _a):", *("    " + line for line in draw)]
        if s.count is None:
            lines.append("_n = len(w.zones[_a])")
        else:
            lines += [*self.evaluated(s.count), "_n = _val"]
        return [*lines, "for _ in range(_n):", f"    if not w.zones[_a] and not {refill}(vm, _a):", "        break",
                *("    " + line for line in draw)]

    def t_Shuffle(self, s):
        """`shuffle Z` (CardCompiler.s_Shuffle's effect): the zone, then Machine.shuffle_zone."""
        return [*self.evaluated(s.zone), "vm.shuffle_zone(_val)"]

    def t_Walk(self, s):
        """`move X.f by N steps D` with no trigger to run (FlowCompiler.walk_in_place): the
        count, the direction, then the field set to where the track leads
        (Program.walk_to); where that store fails, the walk's effect runs to raise the
        precise error (R001 for a none)."""
        walk_to, effect = self.const(self.e.p.walk_to), self.const(self.e.leaf(self.code, s))
        store = self.written(lambda gen: f"{gen.expr(s.target)} = {walk_to}({gen.expr(s.target)}, _val, _n)")
        return [*self.evaluated(s.count), "_n = _val", *self.evaluated(s.direction), "if _n > 0:", "    try:",
                *("        " + line for line in store), "    except _WORK:", "        raise", "    except _XFAIL:",
                f"        {effect}(vm, env)"]

    def t_Say(self, s):
        """`say "..."` (TellingCompiler.told): its parts evaluated in order, then told
        (told_values) only to a listener or where R013 may fail: a text of parts whose
        labels are bounded needs no test; a number part is tested to be within R012's
        bound (so at most NUMBER_CHARS long) and the text parts for their length, here.
        A part that is a name of a bounded label (a player, say) isn't evaluated for
        nobody: evaluating a name can neither fail nor charge work (`unfailing`)."""
        parts = [p for p in s.text.parts if not isinstance(p, str)]
        shape = self.e.shape(parts, sum(len(p) for p in s.text.parts if isinstance(p, str))) if parts else None
        if shape is None:
            return None  # a constant text tests vm.listening alone; else only building tells
        numbers, texts, room = shape
        lines, values = [], []
        for i, part in enumerate(parts):
            if unfailing(part) and i not in numbers and i not in texts:
                values.append(self.written(lambda gen, part=part: gen.expr(part))[0])
                continue
            lines += [*self.evaluated(part), f"_s{i} = _val"]
            values.append(f"_s{i}")
        tests = [f"_s{i}.__class__ is int and -{budget.MAX_NUMBER} < _s{i} < {budget.MAX_NUMBER}" for i in numbers]
        if texts:
            tests += [f"_s{i}.__class__ is str" for i in texts]
            tests.append(f"{' + '.join(f'len(_s{i})' for i in texts)} <= {room}")
        heard = "vm.listening" + (f" or not ({' and '.join(tests)})" if tests else "")
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
        numbers, texts, room = shape
        test = f"_val.__class__ is int and -{budget.MAX_NUMBER} < _val < {budget.MAX_NUMBER}" if numbers else \
            f"_val.__class__ is str and len(_val) <= {room}" if texts else None
        heard = "vm.listening" + (f" or not ({test})" if test else "")
        revealed = self.const(self.e.revealed(s))
        return [*lines, f"if {heard}:", f"    {revealed}(vm, _val, {'_t' if s.to is not None else 'None'})"]

    def t_Enter(self, s):
        """The call's unit of work (its site is the statement's span), then the depth limit
        (R004): past it, the statement's own effect raises the error."""
        return [*ticked("_at"),
                f"if vm.frames[-1].depth > {MAX_DEPTH - s.level}:",
                f"    {self.const(self.e.leaf(self.code, s))}(vm, env)"]

    def test(self, lines, e, pad):
        """`_val` = the value of condition `e`."""
        if not self.as_text:
            lines.append(f"{pad}_val = {self.const(self.e.x(e))}(w, env)")
            return
        try:
            lines.extend(pad + line for line in self.evaluated(e))
        except RecursionError:
            raise _TooDeep from None

    def tick(self, lines, k, depth):
        """One unit of work, charged against the step's budget (budget.charge)."""
        pad = "    " * depth
        lines.extend(pad + line for line in ticked(k))

    def g_CallStmt(self, lines, s, depth):
        """A call of a straight rule: its own stretch, on the arguments' env (as text, with
        the checked record behind it as an expression's: evaluated)."""
        run = self.const(self.e.straight_run(self.code, s.call.name))
        k = self.at(s.span)
        pad = "    " * depth
        lines.append(f"{pad}_at = {k}")
        if self.as_text:
            names, args = [p.name for p in self.e.m.rules[s.call.name].params], s.call.args
            body = self.written(lambda gen: f"_args = {record_text(gen, names, args)}")
            checked = self.const(self.e.x.record_checked(names, args))
            lines += [f"{pad}try:", *(f"{pad}    {line}" for line in body), f"{pad}except _WORK:", f"{pad}    raise",
                      f"{pad}except _XFAIL:", f"{pad}    _args = {checked}(w, env)"]
        else:
            lines.append(f"{pad}_args = {self.const(self.e.arguments(s.call, s.span))}(w, env)")
        self.tick(lines, k, depth)  # as every call: its arguments, then its unit of work (budget.py)
        lines.append(f"{pad}{run}(vm, _args)")

    def g_If(self, lines, s, depth):
        """Each condition is tested in turn (an `elif` is an `else:` holding an `if`)."""
        self.branches(lines, s.branches, s.other, depth)

    def branches(self, lines, branches, other, depth):
        pad = "    " * depth
        (cond, body), rest = branches[0], branches[1:]
        lines.append(f"{pad}_at = {self.at(cond.span)}")
        self.test(lines, cond, pad)
        lines += [f"{pad}if _val:", self.block(body, depth + 1, True)]
        if rest:
            lines.append(f"{pad}else:")
            self.branches(lines, rest, other, depth + 1)
        elif other is not None:
            lines += [f"{pad}else:", self.block(other, depth + 1, True)]

    def g_For(self, lines, s, depth):
        """Over players, each turn is a turn boundary; knocked-out players miss theirs."""
        pad, inner = "    " * depth, "    " * (depth + 1)
        var, k = self.const(s.var), self.at(s.span)
        turns, boundaries = over_players(s), looks_at_ends(s, self.e.m)
        item = f"_i{depth}"
        lines.append(f"{pad}_at = {k}")
        items = "range(w.n)" if every_seat_in_turn(s) else f"{self.const(self.e.order_fn(s))}(w, env)"
        lines.append(f"{pad}for {item} in {items}:")
        if turns:
            lines += [f"{inner}if not w.alive[{item}]:", f"{inner}    continue"]
        if boundaries:
            self.turn_boundary(lines, k, depth + 1)
        self.tick(lines, k, depth + 1)
        lines.append(f"{inner}env[{var}] = {item}")
        lines.append(self.block(s.body, depth + 1, True))
        if boundaries:  # after the last turn, unless a `break` (in a whole rule, whole.py) left the loop
            lines.append(f"{pad}else:")
            self.turn_boundary(lines, k, depth + 1)

    def turn_boundary(self, lines, k, depth):
        """The end conditions are looked at; the game may end here (GameOver)."""
        pad = "    " * depth
        lines += [f"{pad}_at = {k}", f"{pad}if w.version != vm.ends_false_at and vm.check_ends():",
                  f"{pad}    raise _Over"]

    def g_While(self, lines, s, depth):
        pad, inner = "    " * depth, "    " * (depth + 1)
        k = self.at(s.span)
        lines += [f"{pad}while True:", f"{inner}_at = {k}"]
        self.test(lines, s.cond, inner)
        lines += [f"{inner}if not _val:", f"{inner}    break"]
        self.tick(lines, k, depth + 1)
        lines.append(self.block(s.body, depth + 1, True))

    def g_Repeat(self, lines, s, depth):
        pad = "    " * depth
        count, k = self.const(self.e.x(s.count)), self.at(s.span)
        lines += [f"{pad}_at = {k}", f"{pad}for _ in range({count}(w, env)):"]
        self.tick(lines, k, depth + 1)
        lines.append(self.block(s.body, depth + 1, True))
