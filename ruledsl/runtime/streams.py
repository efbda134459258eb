"""Keyed random streams: every random draw is a function of what it is for.

A draw is fixed by (seed, key, n): the key names what the draw is for (a roll of
2d6, a shuffle of the deck, seat 1's decision "bid") and n counts the earlier
draws of that key. So a rule change that adds, removes or reorders a decision or
a roll leaves every other key's draws as they were: the 5th roll of 2d6 is the
same number whatever happened in between. This keeps seeded games (and their
snapshots) close to the old ones after a small rule change, instead of
reshuffling everything after the first difference.

The numbers come from SplitMix64 over a BLAKE2b hash of the key: fast, the same
on every machine and Python version, and independent of PYTHONHASHSEED.
"""
from __future__ import annotations

import functools
import hashlib
import operator
import random

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def splitmix64(x: int) -> int:
    x = (x + GAMMA) & MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


RANKS = 64
_RANKS = tuple(splitmix64(k) for k in range(RANKS))  # order() tells copies of a name apart by these
_first = operator.itemgetter(0)
MANY = 32  # from this many names on, pick hashes them all at once with numpy (a game's longer menus)

_NUMBERS: dict = {}  # text -> key_number: keys and option labels repeat all game long
MAX_NUMBERS = 100_000


def text_number(text: str) -> int:
    """A text's 64-bit hash (BLAKE2b), the same on every machine."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def key_number(text: str) -> int:
    """text_number, kept: keys and labels come back all game long."""
    number = _NUMBERS.get(text)
    if number is None:
        if len(_NUMBERS) > MAX_NUMBERS:
            _NUMBERS.clear()  # a game with endless distinct labels: keep memory bounded
        number = _NUMBERS[text] = text_number(text)
    return number


class KeyedStreams:
    """One seed's streams: `draw(key)` gives the next 64-bit number of that key's stream.

    A key's stream is SplitMix64's own sequence started at hash(seed) ^ hash(key). The
    seed's hash is taken at the first draw (a game without dice never draws a roll) and
    not kept with the keys': every game has seeds of its own."""

    def __init__(self, seed_text: str):
        self.seed_text = seed_text
        self.base = None  # text_number(seed_text), once drawn from
        self.state: dict = {}  # key -> [start, draws so far]

    def clone(self) -> "KeyedStreams":
        other = KeyedStreams.__new__(KeyedStreams)
        other.seed_text, other.base = self.seed_text, self.base
        other.state = {k: list(v) for k, v in self.state.items()}
        return other

    def draw(self, key: str) -> int:
        """splitmix64(start + n * GAMMA) for the key's n-th draw, SplitMix64 written out
        (here, in pick and in order): agents and dice draw hundreds of times a game, and a
        function call costs about as much as its arithmetic."""
        s = self.state.get(key)
        if s is None:
            s = self.start(key)
        n = s[1] = s[1] + 1
        x = (s[0] + (n + 1) * GAMMA) & MASK
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
        return x ^ (x >> 31)

    def start(self, key: str) -> list:
        """A key's stream, at its first draw: [start, draws so far]."""
        if self.base is None:
            self.base = text_number(self.seed_text)
        s = self.state[key] = [self.base ^ key_number(key), 0]
        return s

    def below(self, key: str, bound: int) -> int:
        """A number in 0..bound-1, uniform (to within 2**-64)."""
        return (self.draw(key) * bound) >> 64

    def dice(self, key: str, count: int, sides: int) -> list:
        """One die: from the draw itself; more: die i from splitmix64(draw + i), written
        out (1,222 -> 1,033 ns for 2d6)."""
        x = self.draw(key)
        if count == 1:
            return [1 + ((x * sides) >> 64)]
        out = []
        for i in range(count):
            h = (x + i + GAMMA) & MASK  # splitmix64(x + i), as in draw
            h = ((h ^ (h >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            h = ((h ^ (h >> 27)) * 0x94D049BB133111EB) & MASK
            out.append(1 + (((h ^ (h >> 31)) * sides) >> 64))
        return out

    def shuffled(self, key: str, items) -> list:
        items = list(items)
        random.Random(self.draw(key)).shuffle(items)
        return items

    def pick(self, key: str, names) -> int:
        """The index of one of `names`, uniformly: the one whose hash under this draw is least.

        Consistent: if the rules add or remove other names, the same one is picked
        as long as it is still there (and no added one hashes lower)."""
        x = self.draw(key)
        if len(names) >= MANY:
            return _least_of_many(x, names)
        numbers = _NUMBERS
        best, best_i, i = 0x10000000000000000, 0, 0
        for name in names:
            k = numbers.get(name) or key_number(name)  # the dict first: this loop is hot
            h = ((x ^ k) + GAMMA) & MASK  # splitmix64, as in draw
            h = ((h ^ (h >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            h = ((h ^ (h >> 27)) * 0x94D049BB133111EB) & MASK
            h ^= h >> 31
            if h < best:
                best, best_i = h, i
            i += 1
        return best_i

    def order(self, key: str, items, names) -> list:
        """`items` in a uniformly random order: sorted by the hash of each one's name under
        this draw (copies of one name told apart by their rank), so cards added to or
        taken from a deck leave the others' order alone."""
        x = self.draw(key)
        numbers, seen, keyed = _NUMBERS, {}, []
        for item, name in zip(items, names):
            k = seen[name] = seen.get(name, -1) + 1
            h = x ^ (numbers.get(name) or key_number(name)) ^ (_RANKS[k] if k < RANKS else splitmix64(k))
            h = (h + GAMMA) & MASK  # splitmix64, as in draw
            h = ((h ^ (h >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            h = ((h ^ (h >> 27)) * 0x94D049BB133111EB) & MASK
            keyed.append((h ^ (h >> 31), item))
        keyed.sort(key=_first)
        return [item for _, item in keyed]


def _least_of_many(x: int, names) -> int:
    """pick's index for a long list of names: splitmix64(x ^ key_number(name)) of every name
    as an array of 64-bit unsigned numbers, whose arithmetic wraps as MASK cuts it (about 4x
    faster than the loop for 160 names). argmin gives the first least, as pick does."""
    np, gamma, c1, c2, s30, s27, s31 = _numpy_constants()
    numbers = _NUMBERS
    h = np.array([numbers.get(name) or key_number(name) for name in names], dtype=np.uint64)
    h ^= np.uint64(x)
    h += gamma
    h ^= h >> s30
    h *= c1
    h ^= h >> s27
    h *= c2
    h ^= h >> s31
    return int(h.argmin())


@functools.cache
def _numpy_constants() -> tuple:
    """numpy and SplitMix64's constants as its 64-bit numbers; imported at the first long
    pick only (numpy comes with scipy): checking a game or playing short menus never pays
    for its import."""
    import numpy as np
    u = np.uint64
    return np, u(GAMMA), u(0xBF58476D1CE4E5B9), u(0x94D049BB133111EB), u(30), u(27), u(31)
