"""Hand-written, plain-Python versions of some ruledsl games: the speed baselines of
benchmarks/bench.py (issue 12). Each module has `play(players, rng) -> (decisions,
end reason, winners)`: one game between uniformly random agents, offered the same
options at the same decision points as ruledsl offers them, chance drawn from `rng`.
They play the same rules, not the same games: bench.py checks that the distributions
of game length, end reasons and winners agree before it quotes a speed ratio.
"""


def main(play, doc: str, players: tuple, argv=None):
    """The command line of a module run alone: plays `--games` seeded games and prints
    the speed, the mean length, and the end reasons and winners counted."""
    import argparse
    import random
    import time
    from collections import Counter

    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--players", type=int, choices=players, default=players[len(players) // 2])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    start = time.perf_counter()
    games = [play(args.players, rng) for _ in range(args.games)]
    took = time.perf_counter() - start
    print(f"{args.games / took:.0f} games/s; mean length {sum(g[0] for g in games) / len(games):.1f}")
    print(Counter(g[1] for g in games), Counter(g[2] for g in games))
