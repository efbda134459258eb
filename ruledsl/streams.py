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
import random

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def splitmix64(x: int) -> int:
    x = (x + GAMMA) & MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


@functools.lru_cache(maxsize=4096)
def key_number(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


class KeyedStreams:
    """One seed's streams: `draw(key)` gives the next 64-bit number of that key's stream.

    A key's stream is SplitMix64's own sequence started at hash(seed) ^ hash(key)."""

    def __init__(self, seed_text: str):
        self.base = key_number(seed_text)
        self.state: dict = {}  # key -> [start, draws so far]

    def draw(self, key: str) -> int:
        s = self.state.get(key)
        if s is None:
            s = self.state[key] = [self.base ^ key_number(key), 0]
        s[1] += 1
        return splitmix64(s[0] + s[1] * GAMMA)

    def below(self, key: str, bound: int) -> int:
        """A number in 0..bound-1, uniform (to within 2**-64)."""
        return (self.draw(key) * bound) >> 64

    def dice(self, key: str, count: int, sides: int) -> list:
        x = self.draw(key)
        if count == 1:
            return [1 + ((x * sides) >> 64)]
        return [1 + ((splitmix64(x + i) * sides) >> 64) for i in range(count)]

    def shuffled(self, key: str, items) -> list:
        items = list(items)
        random.Random(self.draw(key)).shuffle(items)
        return items
