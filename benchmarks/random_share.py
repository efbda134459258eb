"""How much of a random game's time is its random numbers, and what a speed target then
asks of the rules.

bench.py races ruledsl against hand-written Python in one loop: both draw their dice,
shuffles and random choices from the same `random.Random`, call for call. Those calls
cost the same on both sides, so a ratio of whole games hides how far apart the rules
themselves are. This records the calls of a few hundred games of each side, makes them
again alone (timed, less the cost of the loop that makes them), and splits each game's
CPU time into its random calls and the rest: the rules, and for ruledsl its machinery.
Then it prints how much faster the rest would have to run for ruledsl to reach
`--target` times the hand-written speed.

    python3 benchmarks/random_share.py [--only mafialand] [--target 0.8] [--rounds 5]

With OpenSpiel installed, a classic (tic-tac-toe) is also held against OpenSpiel's C++
game in bench.py's loop, whose random calls are of the same kind (a choice a move).

CPU time (process_time), the best of `--rounds` rounds. It reports; nothing asserts.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402

GAMES = {"tic_tac_toe": 20000, "mafialand": 300, "the_boss": 600}  # games a round


class Recording(random.Random):
    """A random.Random that notes each call the games make (randint as itself, not as the
    randrange it makes)."""

    def __init__(self, seed):
        super().__init__(seed)
        self.calls: list = []

    def randrange(self, *args):
        self.calls.append(("randrange", args))
        return super().randrange(*args)

    def randint(self, a, b):
        self.calls.append(("randint", (a, b)))
        return random.Random.randrange(self, a, b + 1)

    def shuffle(self, x):
        self.calls.append(("shuffle", (len(x),)))
        return super().shuffle(x)

    def choice(self, seq):
        self.calls.append(("choice", (len(seq),)))
        return super().choice(seq)


def replay(calls: list, rng, dry: bool = False) -> float:
    """CPU seconds to make `calls` again on `rng` (with `dry`, the loop alone)."""
    lists: dict = {}  # a list of n items to shuffle or choose from, made once per n
    made = {"randrange": rng.randrange, "randint": rng.randint,
            "shuffle": lambda n: rng.shuffle(lists.setdefault(n, list(range(n)))),
            "choice": lambda n: rng.choice(lists.setdefault(n, list(range(n))))}
    if dry:
        made = dict.fromkeys(made, lambda *args: None)
    start = time.process_time()
    for kind, args in calls:
        made[kind](*args)
    return time.process_time() - start


def split(play, games: int, rounds: int) -> tuple:
    """(CPU seconds a game, of which its random calls), the best of `rounds`."""
    recording = Recording(1)
    for _ in range(games):
        play(recording)
    calls = recording.calls
    whole = drawn = dry = float("inf")
    for _ in range(rounds):
        rng = random.Random(1)
        start = time.process_time()
        for _ in range(games):
            play(rng)
        whole = min(whole, time.process_time() - start)
        drawn = min(drawn, replay(calls, random.Random(1)))
        dry = min(dry, replay(calls, random.Random(1), dry=True))
    return whole / games, max(drawn - dry, 0.0) / games, len(calls) / games


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", choices=sorted(GAMES))
    ap.add_argument("--target", type=float, default=0.8, help="ruledsl's speed as a fraction of hand-written's")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    pyspiel = bench.load_openspiel()
    for name in args.only or sorted(GAMES):
        path, players, module = bench.BASELINES[name]
        program = bench.load_game(str(bench.ROOT / path)).program
        games = GAMES[name]
        sides = {"hand-written": split(lambda rng: bench.handwritten_game(module, players, rng), games, args.rounds),
                 "ruledsl": split(lambda rng: bench.ruledsl_game(program, players, rng), games // 5, args.rounds)}
        print(f"\n{name}, {players} players")
        for side, (whole, drawn, calls) in sides.items():
            print(f"  {side:13} {whole * 1e6:9.1f} us a game: random calls {drawn * 1e6:8.1f} us "
                  f"({drawn / whole:.0%}, {calls:.0f} calls), the rest {(whole - drawn) * 1e6:9.1f} us")
        (hw, hw_drawn, _), (ours, drawn, _) = sides["hand-written"], sides["ruledsl"]
        budget = hw / args.target - drawn  # what ruledsl's rest may cost to run at the target
        print(f"  ruledsl/hand-written {hw / ours:.3f}x of whole games; the rest alone {(hw - hw_drawn) / (ours - drawn):.3f}x")
        if budget > 0:
            print(f"  {args.target}x hand-written needs ruledsl's rest at {budget * 1e6:.1f} us a game: "
                  f"{(ours - drawn) / budget:.1f}x faster than now")
        else:
            print(f"  {args.target}x hand-written is out of reach: ruledsl's random calls alone take longer")
        if name in bench.CLASSICS and pyspiel is not None:  # the classic's target: OpenSpiel's C++ game
            game = pyspiel.load_game(bench.CLASSICS[name][0])
            spiel = split(lambda rng: bench.openspiel_playout(game, rng), games, args.rounds)[0]
            print(f"  OpenSpiel C++ {spiel * 1e6:9.1f} us a game (its loop included): 1.0x needs ruledsl's rest at "
                  f"{(spiel - drawn) * 1e6:.1f} us a game, {(ours - drawn) / (spiel - drawn):.1f}x faster than now")


if __name__ == "__main__":
    main()
