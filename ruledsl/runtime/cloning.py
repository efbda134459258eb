"""Runtime, part 3: a game in progress copied (the Machine's `clone`), a mixin of Machine.

A fast Machine's rule under way is a Python generator, which can't be copied: its copy
goes on in the rule's generator function resumed after the pause it waits at
(compile/resume.py), or, where a rule has none, the game goes on as op lists, its choices
replayed once (`as_op_lists`).
"""
from __future__ import annotations

import copy


class Copies:
    """Machine's copying; Machine has `frames`, `w`, `log`, `chance`, `program`, ..."""

    def clone(self, listener=None, chance=None) -> "Copies":
        """A game in progress, copied: moves on the copy leave this one alone, and the
        copy, given the same choices, plays on exactly as this one would.

        The chance source is copied too (its `clone()`, else a deep copy), so both
        draw the same outcomes from here on, unless `chance` is given: the copy draws
        from that instead. The copy reports to `listener` (none by
        default), never to this machine's listener. The pending decision and the result
        are shared: nothing changes them once made. The copy of a rule under way as a
        generator (a fast Machine's) goes on as a generator resumed after the pause it
        waits at (compile/resume.py); where a rule has none, this machine runs on op
        lists from then on (as_op_lists: its choices replayed once)."""
        resumed = self.resumed() if any(f.it is not None for f in self.frames) else None
        other = object.__new__(self.__class__)  # not copy.copy: search and the OpenSpiel adapter clone at every step
        other.__dict__.update(self.__dict__)
        if self.log is not None:
            other.log = list(self.log)
        other.w = self.w.clone()
        other.frames = [f.copy() for f in self.frames]
        for f, taken in zip(other.frames, resumed or ()):
            if taken is not None:  # (the resumed generator function, the locals it goes on with)
                f.env.update(taken[1])
                f.it = taken[0](other, f)
        if chance is None:
            chance_clone = getattr(self.chance, "clone", None)
            chance = chance_clone() if chance_clone is not None else copy.deepcopy(self.chance)
        other.chance = chance
        other.listener = listener
        attach = getattr(other.chance, "attach", None)
        if attach is not None:
            attach(other)
        return other

    def resumed(self) -> list | None:
        """For each frame, what a copy of it goes on with (None for op lists): the
        generator function resumed where its generator waits, and the locals that one
        takes (Resumes.taken); None, after as_op_lists, when a generator's rule has none."""
        made = []
        for f in self.frames:
            taken = None
            if f.it is not None:
                taken = f.code.resumed.taken(f.it, f.env) if f.code.resumed is not None else None
                if taken is None:
                    self.as_op_lists()
                    return None
            made.append(taken)
        return made

    def as_op_lists(self):
        """Goes on as a Machine of op lists (fast=False), in the same state: a generator
        can't be copied, but a game is fixed by its rules, its chance and its choices
        (every way of running the rules plays the same game: tests/compile/test_whole.py,
        test_random_programs.py). So the choices made so far are played again, silently,
        on a new op-list Machine with the chance source as it was at the start
        (`restart()`), and this one takes its frames and World; its own chance source,
        which drew the same outcomes, goes on. Costs a replay of the game so far, once."""
        restart = getattr(self.chance, "restart", None)
        if restart is None:
            raise RuntimeError("a fast Machine whose chance source has no restart() can't be cloned while a rule "
                               "runs as a generator: make it with fast=False to clone it")
        again = self.__class__(self.program, self.w.n, restart(), fast=False, game_work=self.game_work)
        for i in self.log:
            again.choose_index(i)
        self.frames, self.w, self.ends_false_at = again.frames, again.w, again.ends_false_at
        self.pending, self.spent, self.fast, self.log = again.pending, again.spent, False, None
