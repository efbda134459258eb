"""Runtime, part 2: the Machine steps a compiled program.

The control state is a stack of Frames (rule, pc, locals); the data state is a
World. Running stops at a decision point (a `Decision` for one seat) or at the
end of the game (a `Result`). Refusals of illegal choices are results with
codes, never crashes.
"""
from __future__ import annotations

import msgspec

from ..budget import GAME_WORK, SHUFFLE_COST, STEP_WORK, charge
from ..errors import RUNTIME_FAILURES, GameRuntimeError, Span, failure_message
from .chance import ChancePause, RandomChance  # noqa: F401 - imported from here by most callers
from .cloning import Copies

MAX_DEPTH = 200
PUSHED = "pushed"  # what an op returns after pushing a frame (calling a rule)


class Frame(msgspec.Struct):
    code: object  # compile.Code
    pc: int
    env: dict
    result: str | None = None  # the caller's local that takes what this rule gives (`let x = r(...)`)
    sealed: dict | None = None  # local -> (seat, the options) of a `choose secret` that bound it
    depth: int = 1  # how deep the rules called each other to reach this frame, calls run in place included
    it: object = None  # in a fast Machine: the rule's generator under way (compile/whole.py), else None
    got: object = None  # the option chosen at the last menu or may a generator offered (a Decision's bind None)

    def copy(self) -> "Frame":
        """A copy for a cloned game: locals copied as copy_value says."""
        env = self.env.copy()
        for k, v in env.items():
            if v.__class__ in MUTABLE:
                env[k] = v.copy()
        return Frame(self.code, self.pc, env, self.result, self.sealed.copy() if self.sealed else None, self.depth)


class Decision(msgspec.Struct):
    """A seat's choice among `values`, each shown by its label (`labels`). Where the
    values' labels are all different, they may be made only when first read (`shown`
    None, `labeller(values)` makes them): a random or search agent counting the options
    (`len(values)`) never makes them."""
    seat: int
    name: str
    shown: list | None  # the labels, or None until `labels` is first read
    values: list
    span: Span
    secret: bool
    kind: str  # choose | menu | may
    bind: object  # bind(machine, frame, value); None: the frame's `got` takes it (a rule's generator reads it)
    labeller: object = None  # labeller(values) -> their labels, for `shown` None

    @property
    def labels(self) -> list:
        shown = self.shown
        if shown is None:
            shown = self.shown = self.labeller(self.values)
        return shown

    def index_of(self, label: str) -> int | None:
        try:
            return self.labels.index(label)
        except ValueError:
            return None


class Result(msgspec.Struct):
    """How a game ended. Its `ranking` is sorted when read: simulations read the winners
    and the scores alone."""
    reason: str
    winners: list
    scores: list
    order: tuple  # what ranks the seats: (their keys by seat, the seats in play, those out, the winner or None)
    by_rule: bool = True  # False when a step limit stopped the game
    draw: bool = False  # ended by `end ... draw`: nobody wins

    @property
    def ranking(self) -> list:
        """Every seat, best first: those in play by their keys (the score, then the
        tiebreaks), ties in seat order, then those out, the last one out first; a winner
        named by the rules comes first."""
        keys, playing, out, winner = self.order
        ranking = sorted(playing, key=keys.__getitem__, reverse=True) + out
        if winner is not None and ranking[0] != winner:
            ranking = [winner] + [s for s in ranking if s != winner]
        return ranking


class Refusal(msgspec.Struct):
    code: str
    message: str
    legal: list


def _deaf(kind, data):
    """The listener of a machine nobody listens to."""


MUTABLE = (list, set, dict)


def _failed(fr: Frame, err: Exception) -> GameRuntimeError:
    """What a Python error raised while frame `fr` ran is reported as."""
    if isinstance(err, RecursionError):
        return GameRuntimeError(fr.code.spans[fr.pc], "R004", "defs call each other too deep")
    return GameRuntimeError(fr.code.spans[fr.pc], "R000", failure_message(err))


def copy_value(value):
    """A frame local as a clone needs it: a container copied, its items shared. Loop state
    is a list the ops change in place (the index, a walk's steps left); what it holds, like
    every value of the language, nothing changes in place once made (lists have no `+=`)."""
    if value.__class__ in MUTABLE:
        return value.copy()
    return value


class Machine(Copies):
    def __init__(self, program, n_players: int, chance, listener=None, fast: bool = False,
                 game_work: int = GAME_WORK, start: bool = True):
        """With `fast`, each rule that has a generator (compile/whole.py) runs as one, a
        whole rule at a time; its clones go on in generators resumed where it waits
        (compile/resume.py). Such a game keeps the choices made (`log`) for a rule that
        has none: a clone() while it is under way first replays them on op lists (as_op_lists).
        `game_work`: the work units the whole game may spend (budget.py). With
        `start=False` set-up waits for a call of `run()` (a chance source may pause it,
        ChancePause, and the machine is there to `resume()`)."""
        if not program.min_players <= n_players <= program.max_players:
            raise ValueError(f"{program.title} takes {program.min_players} to {program.max_players} players, "
                             f"not {n_players}")
        if fast and program.make_whole is not None:
            program.make_whole()  # before the first World: what they compile is what the op lists did
        self.program = program
        self.chance = chance
        self.listener = listener
        self.w = program.new_world(n_players)
        self.pending: Decision | None = None
        self.result: Result | None = None
        self.steps = 0
        self.game_work = game_work
        self.fast = fast
        self.log: list | None = [] if fast else None  # the choices made, by index (as_op_lists replays them)
        self.wholes = False  # whether a rule ran as a generator (a fast Machine's, compile/whole.py)
        self.spent = 0  # work units spent by the steps so far (budget.py), against game_work
        self.ends_false_at = -1  # the World version at which every end condition was false
        setup = program.rules.get("setup")
        self.frames: list = [Frame(program.rules["flow"], 0, {})] if setup is None else \
            [Frame(program.rules["flow"], 0, {}), Frame(setup, 0, {}, None, None, 2)]
        attach = getattr(chance, "attach", None)
        if attach is not None:
            attach(self)  # e.g. a replay source that names the rule asking for chance
        if start:
            self.run()

    # ------------------------------------------------------------ events
    def emit(self, kind, **data):
        self._listener(kind, data)

    @property
    def listener(self):
        return self._listener

    @listener.setter
    def listener(self, listener):
        """Reports (chance, say, reveal, ...) are built only while somebody listens."""
        self._listener = listener or _deaf
        self.listening = listener is not None

    def roll(self, count, sides, what, span):
        """`count` dice of `sides` faces, named `what` ("2d6") for the chance source."""
        out = self.chance.roll(count, sides, what)
        if self.listening:
            self.emit("chance", what=f"roll {what}", outcome=out, line=span.where())
        return out

    def shuffle_zone(self, key, span=None):
        """Shuffles zone `key`; a `shuffle` statement (`span`) costs SHUFFLE_COST units of
        work a card, charged once chance has given the order (a step paused for it charges
        once). A deck's refill (span None) is paid for by the moves that filled its pile."""
        w = self.w
        cards = w.zones[key]
        if len(cards) < 2:
            return
        label = self.program.zone_label(key)
        order = self.chance.shuffle(cards, label)
        if span is not None:
            charge(w, SHUFFLE_COST * len(cards), span)
        w.zones[key] = list(order)
        w.zone_changed(key[0])
        if self.listening:
            self.emit("chance", what=f"shuffle {label}", outcome=list(order))

    # ------------------------------------------------------------ stepping
    def call(self, code, env, result=None, inlined=0):
        """Pushes a frame for rule `code`, called from the top frame's ops; `inlined`: how
        many calls compiled into those ops (compile/inline.py) the call is inside."""
        depth = self.frames[-1].depth + inlined + 1
        if depth > MAX_DEPTH:
            raise GameRuntimeError(code.span, "R004", f"rules call each other more than {MAX_DEPTH} deep")
        self.frames.append(Frame(code, 0, env, result, None, depth))
        return PUSHED

    def run(self, fresh: bool = True):
        """Runs until a decision is pending or the game is over; a step starts afresh,
        with the work budget of a step, unless it goes on after a ChancePause.

        The inner loop runs one frame's ops while that frame stays on top. An op
        returns None to go on, PUSHED after calling a rule, and True to pause (a
        decision) or stop (the end of the game). Nothing is counted here: what can
        repeat (a loop's turn, a walk's step, a call) costs work where it runs, the same
        on a fast Machine as on op lists (budget.py).
        """
        frames = self.frames
        w = self.w
        if fresh:
            if self.spent > self.game_work:
                self.finish("step limit: too much work in one game", by_rule=False)
                return
            w.work = STEP_WORK  # each step has its own work budget (budget.py)
        start = w.work
        try:
            while self.result is None:
                if not frames:
                    self.finish("the flow of play ended")
                    return
                fr = frames[-1]
                it = fr.it
                if it is None and fr.code.whole is not None and self.fast and fr.pc == 0:  # a rule just called
                    it = fr.it = fr.code.whole(self, fr)
                    self.wholes = True
                if it is not None:  # a whole rule: it goes on to its next decision, call or end
                    if next(it, None) is None:
                        frames.pop()
                    elif frames[-1] is fr:
                        return  # a decision is pending, or the game is over
                    continue
                ops = fr.code.ops
                n = len(ops)
                while fr.pc < n:
                    if ops[fr.pc](self, fr) is not None:
                        if frames[-1] is not fr:
                            break  # the op called a rule (it returned PUSHED)
                        return  # a decision is pending, or the game is over
                else:
                    frames.pop()
        except GameRuntimeError:
            raise
        except (RecursionError, *RUNTIME_FAILURES) as err:
            raise _failed(fr, err) from None
        finally:
            self.spent += start - w.work

    def decide(self, decision: Decision):
        """Called by a decision op: first the end conditions (if the game has any), then a pause."""
        if self.w.version != self.ends_false_at and self.program.ends and self.check_ends():
            return True
        self.pending = decision
        return True

    def check_ends(self) -> bool:
        """Evaluates the end conditions, unless the World is unchanged since they were false
        (callers on hot paths test that first: `w.version != ends_false_at`)."""
        w = self.w
        if w.version == self.ends_false_at:
            return False
        self.ends_false_at = w.version
        for end in self.program.ends:
            if end.cond(self.w, {}):
                winner = end.winner(self.w, {}) if end.winner else None
                self.finish(end.reason, winner=winner, draw=end.draw)
                return True
        return False

    def choose(self, label: str):
        """Applies a choice by label; returns a Refusal for an illegal one."""
        d = self.pending
        if d is None:
            return Refusal("R100", "no decision is pending: the game is over", [])
        i = d.index_of(label)
        if i is None:
            return Refusal("R101", f"'{label}' is not a legal choice for {d.name}", list(d.labels))
        return self.choose_index(i)

    def choose_index(self, i: int):
        """Applies option i. A listener hears "chosen" (the decision and label) before the
        choice's consequences and "settled" (this machine) once the step is over, also
        when a rule failed in it.

        Where nobody listens and a rule's generator offered the decision (a fast
        Machine's), its generator goes on here: run()'s first turn written out, which
        saves a tenth of what a decision costs the Machine (benchmarks/HISTORY.md, "Stop
        41"); anything else that step does (a call, the generator's end) run() goes on with.
        A decision with a bind of its own (a secret choice, a walk's fork) is bound first,
        as before run()."""
        d = self.pending
        self.pending = None
        self.steps += 1
        if self.log is not None:
            self.log.append(i)
        fr = self.frames[-1]
        if self.listening:
            return self._choose_told(d, i, fr)
        if d.bind is None:
            fr.got = d.values[i]
        else:
            d.bind(self, fr, d.values[i])
        if fr.it is None or self.spent > self.game_work:
            return self.run()
        w = self.w
        w.work = STEP_WORK  # a fresh step, as run() starts it
        try:
            if next(fr.it, None) is None:
                self.frames.pop()
                if self.result is not None:
                    return None  # the game is over
            elif self.frames[-1] is fr:
                return None  # a decision is pending, or the game is over
        except GameRuntimeError:
            raise
        except (RecursionError, *RUNTIME_FAILURES) as err:
            raise _failed(fr, err) from None
        finally:
            self.spent += STEP_WORK - w.work
        return self.run(fresh=False)

    def _choose_told(self, d: Decision, i: int, fr: Frame):
        """choose_index where somebody listens (its listener may stop listening meanwhile)."""
        self.emit("chosen", decision=d, label=d.labels[i])
        try:
            if d.bind is None:
                fr.got = d.values[i]
            else:
                d.bind(self, fr, d.values[i])
            self.run()
        finally:
            if self.listening:
                self.emit("settled", machine=self)
        return None

    def resume(self):
        """Goes on with the step a ChancePause stopped: the op that asked for chance runs
        again, now that its source knows the outcome (ChancePause). Only a program
        compiled with chance_apart pauses where an op can run again: elsewhere a roll may
        be half-way through a stretch of statements, or a rule's generator."""
        if not self.program.chance_apart:
            raise RuntimeError("a step paused for chance goes on only in a game compiled with chance apart: "
                               "load it with chance_apart=True")
        try:
            self.run(fresh=False)
        finally:
            if self.listening:
                self.emit("settled", machine=self)

    def stop_at_limit(self, reason: str):
        if self.result is None:
            self.pending = None
            self.finish(reason, by_rule=False)

    # ------------------------------------------------------------ the end
    def finish(self, reason, winner=None, by_rule=True, draw=False):
        """Ends the game: `winner` wins; else, unless a draw (or not by a rule), the best score wins."""
        p, w = self.program, self.w
        scores = p.scores_fn(w, None) if p.scores_fn is not None else [0] * w.n  # every seat's, in one call
        keys = scores  # without tiebreaks, the score alone orders
        if p.tiebreaks:
            keys = [tuple([scores[s]] + [tb(w, {p.score_var: s}) for tb in p.tiebreaks]) for s in range(w.n)]
        alive = w.playing  # the seats in play, in seat order (never changed in place: World.put_out)
        if winner is not None:
            winners = [winner]
        elif alive and by_rule and not draw:
            best = max(keys) if len(alive) == w.n else max([keys[s] for s in alive])
            winners = [s for s in alive if keys[s] == best]
        else:
            winners = []
        self.pending = None
        self.result = Result(reason, winners, scores, (keys, alive, w.out_order[::-1], winner), by_rule, draw)
        if self.wholes:
            for f in self.frames:  # a generator refers to its Machine: free both without the cyclic GC
                f.it = None
        if self.listening:
            self.emit("end", reason=reason, winners=winners)
