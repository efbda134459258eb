"""Compile stage: cards and dice, the statements that move cards or ask for chance
(move, draw with a deck's refill, shuffle, roll).

With `chance_apart` (compile_game), each roll, shuffle and draw is an op of its own
(OpEmitter.block) that asks for chance before it changes anything, so a chance source
may pause the step there (runtime.chance.ChancePause) and the op run again with the
outcome: a roll and a shuffle ask first; a draw whose deck runs out half-way asks for
the refill's shuffle after it moved cards, so it puts them back and gives back the
outcomes it took before it lets the pause through.
"""
from __future__ import annotations

from .. import budget
from ..runtime.chance import ChancePause
from .texts import no_card
from .ops import OpEmitter


class CardCompiler(OpEmitter):
    """move, draw, shuffle and roll."""

    def s_Roll(self, code, s):
        name, count, sides, span = s.name, s.count, s.sides, s.span
        what = f"{count}d{sides}"

        def roll(vm, env):
            env[name] = sum(vm.roll(count, sides, what, span))
        self.simple(code, s, roll)

    def s_MoveCard(self, code, s):
        card, dest, bottom, span = self.x(s.card), self.x(s.dest), s.bottom, s.span

        def move(vm, env):  # in a stretch, written as text (inplace.py, t_MoveCard)
            c = card(vm.w, env)
            if c is None:
                no_card(span)
            vm.w.put(c, dest(vm.w, env), bottom)
        self.simple(code, s, move)

    def s_Draw(self, code, s):
        count = self.x.counted(s.count, "draw") if s.count is not None else None
        src, dst = self.x(s.source), self.x(s.dest)

        span, apart = s.span, self.chance_apart

        def draw(vm, env):
            w = vm.w
            a, b = src(w, env), dst(w, env)
            n = count(w, env) if count else len(w.zones[a])
            if apart and self.p.zones[a[0]].refill is not None and getattr(vm.chance, "mark", None) is not None:
                undoable(vm, a, b, n)
            else:
                move(vm, a, b, n)

        def undoable(vm, a, b, n):
            """A refill's shuffle may pause the Machine half-way (ChancePause): the cards
            moved go back and the outcomes taken are given back, so the op runs again whole.
            What a listener is told (a refill's shuffle) waits for the draw's end, so that
            a draw run again tells it once."""
            w, chance, listener = vm.w, vm.chance, vm.listener if vm.listening else None
            keys = {a, b, (self.p.zones[a[0]].refill, None)}
            saved = {k: w.zones[k][:] for k in keys}
            version, work, mark = w.version, w.work, chance.mark()
            told: list = []
            if listener is not None:
                vm.listener = lambda kind, data: told.append((kind, data))
            try:
                move(vm, a, b, n)
            except ChancePause:
                for k, cards in saved.items():
                    w.zones[k] = cards
                    for c in cards:
                        w.loc[c] = k
                w.version, w.work = version, work
                chance.rewind(mark)
                raise
            finally:
                if listener is not None:
                    vm.listener = listener
            for kind, data in told:
                listener(kind, data)

        def move(vm, a, b, n):
            w = vm.w
            zones = w.zones
            for _ in range(n):
                if not zones[a] and not self.refill(vm, a):
                    break
                w.work -= budget.DRAW_COST
                if w.work < 0:
                    budget.charge(w, 0, span)
                w.draw_top(a, b)
        self.simple(code, s, draw)

    def refill(self, vm, key) -> bool:
        source = self.p.zones[key[0]].refill
        w = vm.w
        if source is None or not w.zone((source, None)):
            return False
        w.put_all((source, None), key)
        vm.shuffle_zone(key)
        return True

    def s_Shuffle(self, code, s):
        zone, span = self.x(s.zone), s.span
        self.simple(code, s, lambda vm, env: vm.shuffle_zone(zone(vm.w, env), span))
