"""Bada Bing: money created when a Boss is financially ruined (BB-06/BB-11).

Plays "stubborn" random games (random choices that never buckle under, propose or
agree, so Bosses end by ruin or whacking) through the Python API (docs/api.md) and,
at every "financially ruined" choice, compares the money on the table (every Boss's
money plus the Cash Stash) just before that choice with the money at the next
decision (or at the end). The Treasury has no limit of notes, so money only ever
leaves the table towards it; a rise across a ruin is money created from nothing.

A ruin after which a Business changed hands (an uncovered auction bid: the second
bidder buys) is counted apart, since that purchase pays the Treasury. A fall is the
rest of a ruined Boss's money split among the others, rounded down to 500K (the
rest goes to the Treasury).

    python3 benchmarks/bada_bing_ruin_money.py [GAMES] [GAME_FILE]
"""
import random
import sys

import ruledsl

STUBBORN = {"buckle under", "propose a Boss of Bosses", "agree"}


def table_money(view):
    return sum(p["money"] for p in view["players"]) + view["shared"]["stash_money"]


def owners(view):
    return {name: f["owner"] for name, f in view["boards"]["square"].items()}


def ruins(game, players, seed, max_steps=20_000):
    """Yields (money on the table before, after, ruined Boss's money before, a Business changed hands)."""
    match = game.start(players=players, seed=seed)
    rng = random.Random(seed)
    while not match.over and match.steps < max_steps:
        d = match.decision
        allowed = [lab for lab in d.labels if lab not in STUBBORN] or list(d.labels)
        label = rng.choice(allowed)
        if label == "financially ruined":
            before = match.view()
            match.choose(label)
            after = match.view()
            yield (table_money(before), table_money(after), before["players"][d.seat]["money"],
                   owners(before) != owners(after))
        else:
            match.choose(label)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    path = sys.argv[2] if len(sys.argv) > 2 else "games/bada_bing.game"
    game = ruledsl.load(path)
    for players in (2, 4, 6, 8):
        counted, sales, rises, created, lost = 0, 0, 0, 0, 0
        for seed in range(n):
            for before, after, _, sold in ruins(game, players, seed):
                if sold:
                    sales += 1
                    continue
                counted += 1
                if after > before:
                    rises += 1
                    created += after - before
                else:
                    lost += before - after
        per_ruin = created / counted / 2 if counted else 0.0
        per_rise = created / rises / 2 if rises else 0.0
        print(f"{players}p, {n} games: {counted} ruins (+{sales} followed by a sale); money created "
              f"{created / 2:.1f}M ({per_ruin:.2f}M per ruin; {rises} ruins created money, "
              f"{per_rise:.2f}M each); {lost / 2:.1f}M went to the Treasury (shares rounded down)")


if __name__ == "__main__":
    main()
