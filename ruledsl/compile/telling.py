"""Compile stage: what the rules tell (say, reveal, eliminate), built only for a listener.

Nobody listens in most games played (simulate, search, the OpenSpiel adapter), so the
text of a `say` or `reveal` is not built then. Its interpolated expressions are still
evaluated, in order, so a game fails where it would fail with a listener (a none where
a value was needed, work). The one thing building decides is R013 (a text over 100,000
characters): a text is built without a listener too unless its length is known to be
within that, from the types of its parts (a player's, card's, space's or value's label
is one of finitely many) and, for numbers and texts, from their values (a number
within 2**63 has at most 20 characters; a text's length is at hand). So a game plays
the same, and fails the same, whether anybody listens or not.
"""
from __future__ import annotations

from .. import budget
from .ops import OpEmitter
from .texts import nobody_to_reveal_to

NUMBER_CHARS = len(str(-budget.MAX_NUMBER))  # a number within R012's bound has at most these


class TellingCompiler(OpEmitter):
    """say, reveal and eliminate: effects whose report is built for a listener only."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.label_bounds: dict = {}  # type -> Program.label_bound of it (a card set's labels measured once)

    def s_Say(self, code, s):
        self.simple(code, s, self.told(s.text, "say"))

    def told(self, text, kind):
        """The effect of telling `text` (an ast.Str): its parts evaluated; the text built
        for a listener, or to check its length (R013) when its parts don't bound it."""
        pieces = text.parts
        exprs = [p for p in pieces if not isinstance(p, str)]
        if not exprs:
            constant = "".join(pieces)

            def tell_constant(vm, env):
                if vm.listening:
                    vm.emit(kind, text=constant)
            return tell_constant
        values, told = self.x.values(exprs, text.span), self.told_values(text, kind)

        def tell(vm, env):
            told(vm, values(vm.w, env))
        return tell

    def builder(self, pieces, span):
        """`build(values)`: the text from its parts' values, as an interpolated string
        expression builds it (expr.c_Str: checked against R013 when it has two parts or
        more)."""
        labels = iter([self.p.labeler(p.note.type) for p in pieces if not isinstance(p, str)])
        parts = [p if isinstance(p, str) else next(labels) for p in pieces]

        def build(vs):
            it = iter(vs)
            text = "".join(p if p.__class__ is str else p(next(it)) for p in parts)
            return budget.text(text, span) if len(parts) > 1 else text
        return build

    def fits(self, shape):
        """Whether a text of this `shape` is sure to be within R013's bound without building
        it: True from the types alone, else `fits(values)` looking at numbers and texts, or
        None when only building tells (lists, zones)."""
        if shape is None:
            return None
        numbers, texts, room = shape
        if not numbers and not texts:
            return True
        low, high = -budget.MAX_NUMBER, budget.MAX_NUMBER

        def fits(vs):
            for i in numbers:
                v = vs[i]
                if v.__class__ is not int or not low < v < high:
                    return False
            n = 0
            for i in texts:
                v = vs[i]
                if v.__class__ is not str:
                    return False
                n += len(v)
            return n <= room
        return fits

    def shape(self, exprs, fixed: int):
        """(the places of the numbers among exprs, those of the texts, the characters
        left for the texts) of a text whose other parts have labels of bounded length
        and whose literal parts have `fixed` characters; None when only building tells."""
        numbers, texts = [], []
        for i, e in enumerate(exprs):
            t = e.note.type
            kind = t.kind
            if t not in self.label_bounds:
                self.label_bounds[t] = self.p.label_bound(t)
            bound = self.label_bounds[t]
            if bound is not None:
                fixed += bound
            elif kind == "int":
                numbers.append(i)
                fixed += NUMBER_CHARS
            elif kind == "str":
                texts.append(i)
            else:
                return None
        if fixed > budget.MAX_TEXT:
            return None
        return numbers, texts, budget.MAX_TEXT - fixed

    def text_shape(self, text):
        """`shape` of an ast.Str: of its interpolated parts, after its literal ones."""
        pieces = text.parts
        literal = sum(len(p) for p in pieces if isinstance(p, str))
        return self.shape([p for p in pieces if not isinstance(p, str)], literal)

    def told_values(self, text, kind):
        """`told(vm, vs)`: tells `text` (an ast.Str with parts) from its parts' values `vs`,
        as `told`'s effect does after evaluating them (texts.t_Say)."""
        build, fits = self.builder(text.parts, text.span), self.fits(self.text_shape(text))

        def told(vm, vs):
            if vm.listening:
                vm.emit(kind, text=build(vs))
            elif fits is not True and not (fits and fits(vs)):
                build(vs)  # for R013 alone: a text too long fails, heard or not
        return told

    def s_Reveal(self, code, s):
        """A reveal's label is made without a listener too when it might fail (a number
        too long to print); a list's items are charged as a text's (_Gen.told)."""
        value, span, revealed = self.x.told(s.value), s.span, self.revealed(s)
        to = self.x(s.to) if s.to is not None else None

        def reveal(vm, env):
            seat = None
            if to is not None:
                seat = to(vm.w, env)
                if seat is None:
                    nobody_to_reveal_to(span)
            revealed(vm, value(vm.w, env), seat)
        self.simple(code, s, reveal)

    def revealed(self, s):
        """`revealed(vm, value, seat)`: tells a reveal's value (to `seat`, or to all when
        None) to a listener, or labels it for R013 alone where its type doesn't bound it
        (texts.t_Reveal calls it only then)."""
        lab, fits = self.p.labeler(s.value.note.type), self.fits(self.shape([s.value], 0))

        def revealed(vm, v, seat):
            if vm.listening:
                if seat is None:
                    vm.emit("reveal", text=lab(v))
                else:
                    vm.emit("reveal", text=lab(v), to=seat)
            elif fits is not True and not (fits and fits((v,))):
                lab(v)
        return revealed

    def s_Eliminate(self, code, s):
        who = self.x(s.player)

        def eliminate(vm, env):
            w = vm.w
            p = who(w, env)
            if p is not None and w.alive[p]:
                w.put_out(p)
                if vm.listening:
                    vm.emit("eliminate", seat=p)
        self.simple(code, s, eliminate)
