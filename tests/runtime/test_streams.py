"""Keyed random streams (runtime/streams.py) give the very numbers they always gave:
seeded games, stored transcripts and snapshots depend on every draw, pick, order and
roll. The engine writes SplitMix64 out inline for speed; `Plain` here is the plain
reading of streams.py's docstring (SplitMix64 as a function, each step as written there),
and the two must agree on any input."""
from __future__ import annotations

import random

from ruledsl.runtime.streams import GAMMA, MANY, MASK, KeyedStreams, key_number, splitmix64, text_number


class Plain:
    """A key's stream is SplitMix64's sequence started at hash(seed) ^ hash(key)."""

    def __init__(self, seed_text: str):
        self.base, self.state = text_number(seed_text), {}

    def draw(self, key):
        s = self.state.setdefault(key, [self.base ^ text_number(key), 0])
        s[1] += 1
        return splitmix64(s[0] + s[1] * GAMMA)

    def below(self, key, bound):
        return (self.draw(key) * bound) >> 64

    def dice(self, key, count, sides):
        x = self.draw(key)
        if count == 1:
            return [1 + ((x * sides) >> 64)]
        return [1 + ((splitmix64(x + i) * sides) >> 64) for i in range(count)]

    def pick(self, key, names):
        x = self.draw(key)
        hashes = [splitmix64(x ^ text_number(name)) for name in names]
        return hashes.index(min(hashes))

    def order(self, key, items, names):
        x = self.draw(key)
        seen, keyed = {}, []
        for item, name in zip(items, names):
            rank = seen[name] = seen.get(name, -1) + 1
            keyed.append((splitmix64(x ^ text_number(name) ^ splitmix64(rank)), item))
        return [item for _, item in sorted(keyed, key=lambda pair: pair[0])]


WORDS = ["pass", "bet", "seat 1", "seat 2", "queen", "king", "jack", "ace", ""] + [f"card {i}" for i in range(120)]


def test_the_streams_give_what_the_plain_reading_gives():
    rng = random.Random(12)
    for _ in range(600):
        seed = f"agent:{rng.randrange(10 ** 6)}:{rng.randrange(4)}"
        fast, plain = KeyedStreams(seed), Plain(seed)
        for _ in range(10):
            key, what = rng.choice(["bid", "roll 2d6", "deck", "open"]), rng.randrange(5)
            if what == 0:
                assert fast.draw(key) == plain.draw(key)
            elif what == 1:  # short menus, and long ones (hashed with numpy from MANY names on)
                names = rng.sample(WORDS, rng.choice([rng.randrange(1, 14), rng.randrange(MANY - 2, len(WORDS))]))
                assert fast.pick(key, names) == plain.pick(key, names)
            elif what == 2:  # few names, many copies of each: ranks up to about 80
                names = [rng.choice(WORDS[:6]) for _ in range(rng.randrange(0, 400))]
                items = list(range(len(names)))
                assert fast.order(key, items, names) == plain.order(key, items, names)
            elif what == 3:
                count, sides = rng.randrange(1, 5), rng.choice([2, 6, 20])
                assert fast.dice(key, count, sides) == plain.dice(key, count, sides)
            else:
                bound = rng.randrange(1, 100)
                assert fast.below(key, bound) == plain.below(key, bound)


def test_a_few_numbers_stay_as_they_were():
    """Stored games rest on these (worked out on 2026-11-26 before the streams were written
    out inline): the same on every machine and Python version."""
    streams = KeyedStreams("agent:7:1")
    assert streams.draw("open") == 12336607234993239204
    assert streams.pick("open", ["pass", "bet"]) == 0
    assert streams.dice("roll 2d6", 2, 6) == [4, 2]
    assert streams.order("deck", list(range(6)), ["a", "b", "a", "c", "b", "a"]) == [1, 0, 5, 4, 3, 2]
    assert streams.below("x", 10) == 6
    spaces, streams = [f"space {i}" for i in range(150)], KeyedStreams("agent:7:1")
    assert [streams.pick("move", spaces) for _ in range(6)] == [142, 109, 100, 30, 57, 91]


def test_splitmix64_stays_within_64_bits():
    for x in (0, 1, MASK, MASK + 1, 2 ** 70 + 3, key_number("deck")):
        assert 0 <= splitmix64(x) <= MASK
