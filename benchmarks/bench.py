"""Random playouts per second: ruledsl against OpenSpiel and hand-written Python.

    python3 benchmarks/bench.py [--seconds 3] [--games 4000] [--hw-games 1000] [--only tic_tac_toe]

For each classic in examples/ it measures random playouts per second in ruledsl and,
when `open_spiel` is installed (`pip install -e '.[bench]'`), in OpenSpiel's C++ game
driven from Python, in its pure-Python version where one exists, and, through
ruledsl's OpenSpiel adapter, the same .game file as a pyspiel game (what a researcher
using OpenSpiel's API gets; compared with OpenSpiel's C++ game). Every engine is
driven by the same loop: a uniformly random legal action at each decision, chance
sampled from one seeded `random.Random`. It then checks that outcome frequencies under
random play agree (a two-proportion z test per outcome). Then it races ruledsl against
plain-Python implementations of the same rules (benchmarks/handwritten/: tic-tac-toe,
Mafialand, The Boss), quoting the speed ratio only when game length (two-sample KS),
end reasons and winners (chi-square) agree. Every ratio comes with a 95% interval: the
engines run in interleaved rounds of short slices, and a bootstrap over the rounds (each
round's slices resampled together, so that load both engines met cancels) says how far
the ratio could move on this machine in this hour (`ratio_interval`). Last it reports
playouts per second for every game in games/. Nothing here asserts a time: it reports.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter
from functools import partial
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ruledsl.pipeline import load_game  # noqa: E402
from ruledsl.runtime.machine import Machine, RandomChance  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from handwritten import mafialand, the_boss, tic_tac_toe  # noqa: E402

CLASSICS = {  # example file -> (OpenSpiel C++ name, OpenSpiel pure-Python name or None)
    "tic_tac_toe": ("tic_tac_toe", "python_tic_tac_toe"),
    "kuhn_poker": ("kuhn_poker", "python_kuhn_poker"),
    "goofspiel": ("goofspiel", None),
    "pig": ("pig", None),
}
BASELINES = {  # name -> (game file, players, hand-written module)
    "tic_tac_toe": ("examples/tic_tac_toe.game", 2, tic_tac_toe),
    "mafialand": ("games/mafialand.game", 3, mafialand),
    "the_boss": ("games/the_boss.game", 3, the_boss),
}
SPIEL_ENGINES = ("OpenSpiel C++", "OpenSpiel Python")  # in the order of CLASSICS' names
TARGETS = {  # issue 12's ratio goals: game -> (the anchor it is raced against, the least ratio)
    "mafialand": ("hand-written", 0.8),
    "tic_tac_toe": ("OpenSpiel C++", 1.0),
    "kuhn_poker": ("OpenSpiel Python", 2.0),
}
ADAPTED = "ruledsl via pyspiel"  # the .game file through ruledsl's OpenSpiel adapter (ruledsl.openspiel)
ALPHA = 0.001  # a test of agreement fails below this p-value (three tests a game)


# ------------------------------------------------------------------ the two loops
class SharedChance(RandomChance):
    """ruledsl's chance interface drawing from the loop's one random.Random, like OpenSpiel's."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def roll(self, count, sides, what):
        return [self.rng.randint(1, sides) for _ in range(count)]

    def shuffle(self, cards, what):
        cards = list(cards)
        self.rng.shuffle(cards)
        return cards


def ruledsl_game(program, players: int, rng: random.Random) -> tuple:
    """One random game in ruledsl: (decisions, end reason, outcome as a tuple of signs per seat)."""
    m = Machine(program, players, SharedChance(rng), fast=True)  # as `ruledsl simulate` plays
    while m.pending is not None:
        m.choose_index(rng.randrange(len(m.pending.values)))  # as an agent counting the options
    return m.steps, m.result.reason, outcome_of([1 if s in m.result.winners else 0 for s in range(players)])


def game_of(name: str) -> tuple:
    """(path from the repository's root, players) of a baseline or classic by its name."""
    return BASELINES[name][:2] if name in BASELINES else (f"examples/{name}.game", 2)


def ruledsl_playout(program, players: int, rng: random.Random) -> tuple:
    """One random game in ruledsl; returns the outcome as a tuple of signs per seat."""
    return ruledsl_game(program, players, rng)[2]


def handwritten_game(module, players: int, rng: random.Random) -> tuple:
    """One random game of a hand-written implementation, as ruledsl_game reports it."""
    steps, reason, winners = module.play(players, rng)
    return steps, reason, outcome_of([1 if s in winners else 0 for s in range(players)])


def openspiel_playout(game, rng: random.Random) -> tuple:
    """One random game in OpenSpiel: the same uniform choice, chance sampled the same way."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return outcome_of(state.returns())


def outcome_of(values) -> tuple:
    """Win/draw/loss per seat: +1 above the mean, -1 below, 0 level."""
    mean = sum(values) / len(values)
    return tuple((v > mean) - (v < mean) for v in values)


class Measured(NamedTuple):
    """One engine's measurement: playouts a second over all its slices, the outcomes (or
    game records) counted, and each round's (playouts, seconds) for ratio_interval."""
    rate: float
    outcomes: Counter
    slices: tuple = ()


def measure(playouts: dict, seconds: float, min_games: int, slice_s: float = 0.2) -> dict:
    """Runs each engine's playouts in turn, in short slices, until each has had `seconds`
    and `min_games`; returns {engine: Measured}. Interleaving keeps a change in machine
    load from favouring whichever engine happened to run at a quiet moment; every engine
    has a slice in every round, so the rounds pair up (ratio_interval)."""
    stats = {name: [0, 0.0, Counter(), []] for name in playouts}  # games, time, outcomes, slices
    while any(g < min_games or t < seconds for g, t, _, _ in stats.values()):
        for name, playout in playouts.items():
            st = stats[name]
            start, games = time.perf_counter(), 0
            while time.perf_counter() - start < slice_s:
                st[2][playout()] += 1
                games += 1
            spent = time.perf_counter() - start
            st[0] += games
            st[1] += spent
            st[3].append((games, spent))
    return {name: Measured(g / t, out, tuple(sl)) for name, (g, t, out, sl) in stats.items()}


ROUNDS_FOR_INTERVAL = 4  # fewer paired rounds than this: a ratio is quoted without an interval


def ratio_interval(ours: Measured, theirs: Measured, confidence: float = 0.95):
    """(low, high): a bootstrap interval of ours.rate / theirs.rate, each resample of the
    rounds taking both engines' slices of a round together (scipy.stats.bootstrap,
    paired), so that a busy moment both met moves neither end; None with fewer than
    ROUNDS_FOR_INTERVAL rounds. Rounds are treated as independent draws of the machine's
    state: an hour that is slow throughout moves the interval with it, as it moves the
    ratio. Percentile intervals, from a fixed seed: the same slices give the same text."""
    rounds = min(len(ours.slices), len(theirs.slices))
    if rounds < ROUNDS_FOR_INTERVAL:
        return None
    import numpy as np
    from scipy.stats import bootstrap
    a = np.array(ours.slices[:rounds], dtype=float)
    b = np.array(theirs.slices[:rounds], dtype=float)

    def ratio(ga, ta, gb, tb, axis=-1):
        return (ga.sum(axis) / ta.sum(axis)) / (gb.sum(axis) / tb.sum(axis))
    found = bootstrap((a[:, 0], a[:, 1], b[:, 0], b[:, 1]), ratio, paired=True, vectorized=True,
                      confidence_level=confidence, n_resamples=4000, method="percentile",
                      random_state=np.random.default_rng(0))
    return float(found.confidence_interval.low), float(found.confidence_interval.high)


def median_interval(values, confidence: float = 0.95) -> tuple:
    """(low, high): a bootstrap interval of the median of `values` (scipy.stats.bootstrap,
    percentile, a fixed seed: the same values give the same text)."""
    import numpy as np
    from scipy.stats import bootstrap
    found = bootstrap((np.array(values, dtype=float),), np.median, confidence_level=confidence, n_resamples=4000,
                      method="percentile", random_state=np.random.default_rng(0))
    return float(found.confidence_interval.low), float(found.confidence_interval.high)


def ratio_text(ours: Measured, theirs: Measured, digits: int = 2) -> str:
    """`2.32x (95% 2.25-2.40, 15 rounds)`, or the ratio alone where too few rounds ran."""
    ratio = ours.rate / theirs.rate
    interval = ratio_interval(ours, theirs)
    if interval is None:
        return f"{ratio:.{digits}f}x"
    low, high = interval
    return f"{ratio:.{digits}f}x (95% {low:.{digits}f}-{high:.{digits}f}, {len(ours.slices)} rounds)"


# ------------------------------------------------------------------ agreement
def agreement(a: Counter, b: Counter, z_limit: float = 4.0) -> tuple:
    """Largest |z| over outcomes of a two-proportion test; agree if below z_limit."""
    na, nb = sum(a.values()), sum(b.values())
    worst = 0.0
    for key in set(a) | set(b):
        pa, pb = a[key] / na, b[key] / nb
        pooled = (a[key] + b[key]) / (na + nb)
        se = math.sqrt(max(pooled * (1 - pooled) * (1 / na + 1 / nb), 1e-12))
        worst = max(worst, abs(pa - pb) / se)
    return worst, worst < z_limit


def samples(games: Counter, field: int) -> list:
    """One field of (length, reason, outcome) game records counted in a Counter, as a list."""
    return [record[field] for record, times in games.items() for _ in range(times)]


def chi_square(a: Counter, b: Counter) -> tuple:
    """Chi-square test of homogeneity on two samples of categories: (statistic, dof, p).
    Categories expected fewer than 5 times in the smaller sample are pooled into one,
    and that one into the rarest other category if it is still that rare."""
    from scipy.stats import chi2_contingency
    na, nb = sum(a.values()), sum(b.values())
    rare = lambda x, y: (x + y) * min(na, nb) / (na + nb) < 5  # noqa: E731
    keys = sorted(set(a) | set(b), key=lambda k: -(a[k] + b[k]))
    columns = [(a[k], b[k]) for k in keys if not rare(a[k], b[k])]
    pooled = (sum(a[k] for k in keys) - sum(x for x, _ in columns), sum(b[k] for k in keys) - sum(y for _, y in columns))
    if pooled != (0, 0):
        if rare(*pooled) and columns:
            columns[-1] = (columns[-1][0] + pooled[0], columns[-1][1] + pooled[1])
        else:
            columns.append(pooled)
    if len(columns) < 2:
        return 0.0, 0, 1.0
    stat, p, dof, _ = chi2_contingency([[x for x, _ in columns], [y for _, y in columns]], correction=False)
    return float(stat), int(dof), float(p)


def distributions_agree(a: Counter, b: Counter, alpha: float = ALPHA) -> list:
    """Compares two samples of (length, reason, outcome) game records: game length by a
    two-sample Kolmogorov-Smirnov test, end reasons and winners by chi-square. Returns
    [(what, result text, agrees)]; a test agrees when its p-value is at least alpha."""
    from scipy.stats import ks_2samp
    ks = ks_2samp(samples(a, 0), samples(b, 0), method="asymp")  # "exact" is slow beyond a few thousand games
    checks = [("game length", f"KS D={ks.statistic:.3f}, p={ks.pvalue:.3g}", bool(ks.pvalue >= alpha))]
    for what, field in (("end reasons", 1), ("winners", 2)):
        stat, dof, p = chi_square(Counter(samples(a, field)), Counter(samples(b, field)))
        checks.append((what, f"chi2={stat:.2f}, df={dof}, p={p:.3g}", p >= alpha))
    return checks


def describe(outcomes: Counter) -> str:
    n = sum(outcomes.values())
    names = {(1, -1): "seat 0 wins", (-1, 1): "seat 1 wins", (0, 0): "draw"}
    return ", ".join(f"{names.get(k, k)} {v / n:.3f}" for k, v in sorted(outcomes.items(), reverse=True))


# ------------------------------------------------------------------ the report
def load_openspiel():
    try:
        import pyspiel
        import open_spiel.python.games  # noqa: F401  (registers the python_* games)
    except ImportError:
        return None
    return pyspiel


def bench_classic(name: str, args, pyspiel, engines=(*SPIEL_ENGINES, ADAPTED)) -> tuple:
    """(name, measure's results) of ruledsl and, with pyspiel, each of `engines` that this
    classic has."""
    program = load_game(str(ROOT / "examples" / f"{name}.game")).program
    rng = random.Random(f"bench:{name}")
    playouts = {"ruledsl": lambda: ruledsl_playout(program, 2, rng)}
    if pyspiel is not None:
        for engine, spiel_name in zip(SPIEL_ENGINES, CLASSICS[name]):
            if spiel_name is not None and engine in engines:
                playouts[engine] = partial(openspiel_playout, pyspiel.load_game(spiel_name), rng)
        if ADAPTED in engines:
            from ruledsl.openspiel.game import load_game as load_adapted
            adapted = load_adapted(str(ROOT / "examples" / f"{name}.game"), players=2)
            playouts[ADAPTED] = partial(openspiel_playout, adapted, rng)  # what a pyspiel user gets
    return name, measure(playouts, args.seconds, args.games)


def print_classic(name: str, results: dict):
    ours = results["ruledsl"]
    print(f"\n{name}")
    print(f"  {'ruledsl':24} {ours.rate:10.0f} playouts/s   {describe(ours.outcomes)}")
    for engine, theirs in results.items():
        if engine == "ruledsl":
            continue
        z, ok = agreement(ours.outcomes, theirs.outcomes)
        print(f"  {engine:24} {theirs.rate:10.0f} playouts/s   {describe(theirs.outcomes)}")
        if engine == ADAPTED:  # the same game through pyspiel's API: compared with OpenSpiel's own
            ratio = f"{engine}/OpenSpiel C++ = {ratio_text(theirs, results['OpenSpiel C++'], 3)}"
        else:
            ratio = f"ruledsl/{engine} = {ratio_text(ours, theirs)}"
        print(f"  {'':24} {ratio}; outcomes {'agree' if ok else 'DISAGREE'} (max |z| {z:.2f})")


def bench_baseline(name: str, args) -> dict:
    path, players, module = BASELINES[name]
    program = load_game(str(ROOT / path)).program
    rng = random.Random(f"bench:hand-written:{name}")
    playouts = {"ruledsl": partial(ruledsl_game, program, players, rng),
                "hand-written": partial(handwritten_game, module, players, rng)}
    return measure(playouts, args.seconds, args.hw_games)


def summary(games: Counter, players: int) -> str:
    n = sum(games.values())
    lengths = sorted(samples(games, 0))
    reasons = Counter(samples(games, 1))
    wins = Counter(samples(games, 2))
    seat_wins = "/".join(f"{sum(v for k, v in wins.items() if k[s] == 1) / n:.3f}" for s in range(players))
    return (f"length mean {sum(lengths) / n:.1f} median {lengths[n // 2]}; "
            + ", ".join(f"{reason} {v / n:.3f}" for reason, v in reasons.most_common())
            + f"; wins by seat {seat_wins}")


def print_baseline(name: str, results: dict) -> bool:
    """Prints both engines, the agreement tests, and the speed ratio only if all agree."""
    _, players, _ = BASELINES[name]
    print(f"\n{name}, {players} players: ruledsl against hand-written Python")
    for engine, (rate, games, _) in results.items():
        print(f"  {engine:14} {rate:10.1f} playouts/s ({sum(games.values())} games)   {summary(games, players)}")
    checks = distributions_agree(results["ruledsl"].outcomes, results["hand-written"].outcomes)
    for what, text, ok in checks:
        print(f"  {'':14} {what:12} {text:34} {'agree' if ok else 'DISAGREE'}")
    if all(ok for _, _, ok in checks):
        print(f"  {'':14} ruledsl/hand-written = {ratio_text(results['ruledsl'], results['hand-written'], 3)}")
        return True
    print(f"  {'':14} the two disagree in distribution (p < {ALPHA}): no speed ratio quoted")
    return False


def rate_of(playout, seconds: float) -> tuple:
    """(playouts a second, playouts) of `playout(i)` called with i = 0, 1, ... for `seconds`."""
    start, n = time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        playout(n)
        n += 1
    return n / (time.perf_counter() - start), n


def bench_games(args, pyspiel=None):
    """Each game in this file's loop (one random.Random, as for the classics), as `ruledsl
    simulate` plays it (keyed chance and random agents, play/simulate.py), what a user
    running simulations gets, and, with pyspiel, through the OpenSpiel adapter in the
    classics' OpenSpiel loop, what a pyspiel user gets."""
    from ruledsl.play.simulate import playout as simulate_playout
    adapted = " | through the OpenSpiel adapter" if pyspiel is not None else ""
    print(f"\ngames/ (ruledsl, random agents): this loop | as `ruledsl simulate` plays{adapted}")
    for path in sorted((ROOT / "games").glob("*.game")):
        program = load_game(str(path)).program
        lo, hi = program.min_players, program.max_players
        for players in range(lo, min(hi, 4) + 1):
            rng = random.Random(f"bench:{path.stem}:{players}")
            rate, n = rate_of(lambda _: ruledsl_playout(program, players, rng), args.seconds)
            keyed, k = rate_of(lambda seed: simulate_playout(program, players, seed), args.seconds)
            row = f"  {path.stem:20} {players} players {rate:10.1f} playouts/s ({n} games) | {keyed:10.1f} ({k})"
            if pyspiel is not None:
                from ruledsl.openspiel.game import load_game as load_adapted
                game = load_adapted(str(path), players=players)
                spiel, s = rate_of(lambda _: openspiel_playout(game, rng), args.seconds)
                row += f" | {spiel:10.1f} ({s})"
            print(row)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    ap.add_argument("--games", type=int, default=4000, help="least playouts per measurement (for the outcome test)")
    ap.add_argument("--hw-games", type=int, default=1000,
                    help="least playouts per engine against a hand-written baseline (for the agreement tests)")
    ap.add_argument("--only", action="append", choices=sorted(set(CLASSICS) | set(BASELINES)),
                    help="a classic and/or hand-written baseline to run (repeatable); default all")
    ap.add_argument("--no-baselines", action="store_true", help="skip the hand-written baselines")
    ap.add_argument("--no-games", action="store_true", help="skip the games/ section")
    args = ap.parse_args(argv)
    pyspiel = load_openspiel()
    if pyspiel is None:
        print("open_spiel is not installed: ruledsl figures only (pip install -e '.[bench]')")
    for name in args.only or CLASSICS:
        if name in CLASSICS:
            print_classic(*bench_classic(name, args, pyspiel))
    if not args.no_baselines:
        for name in args.only or BASELINES:
            if name in BASELINES:
                print_baseline(name, bench_baseline(name, args))
    if not args.no_games:
        bench_games(args, pyspiel)


if __name__ == "__main__":
    main()
