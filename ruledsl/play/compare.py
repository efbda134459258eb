"""A variant impact report: two games played on the same seeds, metric by metric.

Both games are played with random agents exactly as `simulate` plays them (the
same blocks, processes and seeds). Every metric gets A's value, B's value, the
difference B - A, a two-sided test and a verdict:

- rates (a seat's wins, shared wins, games without a winner): Fisher's exact
  test on the 2x2 table, with Wilson 95% intervals;
- samples (a seat's final score, the game length in decisions): the
  Mann-Whitney U test;
- the distribution of end reasons: the chi-square test of the 2xK table.

When both games are played on the same seeds (the default), game i of A and game
i of B share their keyed random streams (streams.py) and stay alike until the
rule change makes them differ; the rates and samples are then tested seed by
seed instead: McNemar's exact test on the games where A and B disagree, and the
Wilcoxon signed-rank test of the differences (measured gain in power: docs/simulate.md).

With many metrics tested at once, some would come out below 0.05 by chance, so
the p values are adjusted with Holm's method over all the metrics tested in one
report; a metric is flagged when its adjusted p is below ALPHA.
"""
from __future__ import annotations

import math
import statistics
from collections import Counter

import msgspec

from .simulate import merged, run_blocks, seed_blocks

ALPHA = 0.05  # flag a metric when its Holm-adjusted p is below this
STRONG = 0.01  # and mark it ** when below this
QUANTILES = (10, 25, 50, 75, 90)  # game length percentiles shown


class Metric(msgspec.Struct):
    key: str  # win_rate, shared_wins, no_winner, score, length, end_reasons
    name: str
    seat: int | None
    a: dict  # the values for game A (rate and interval, or mean and median, ...)
    b: dict
    difference: float | None  # B - A of the headline value
    test: str
    p: float | None  # None when there is nothing to test (a game finished no game)
    identical: bool  # A's and B's data are the same: no difference at all
    direction: str = ""  # for a flagged metric: what B does, e.g. "B longer"
    effect: dict = msgspec.field(default_factory=dict)  # test-specific extras (statistic, P(B > A), ...)
    details: list = msgspec.field(default_factory=list)  # (label, A, B, B - A) rows shown under the metric
    p_holm: float | None = None
    flagged: bool = False

    @property
    def stars(self) -> str:
        if not self.flagged:
            return ""
        return "**" if self.p_holm < STRONG else "*"

    @property
    def verdict(self) -> str:
        if self.p is None:
            return "not tested (no finished games)"
        if self.flagged:
            return self.direction
        return "no difference" if self.identical else "no significant difference"

    def as_json(self) -> dict:
        return {"metric": self.key, "name": self.name, "seat": self.seat, "a": self.a, "b": self.b,
                "difference": self.difference, "test": self.test, **self.effect, "p": self.p,
                "p_holm": self.p_holm, "flagged": self.flagged, "verdict": self.verdict}


class Report(msgspec.Struct):
    players: int
    games: int
    a: object  # Summary with records
    b: object
    seed_a: int
    seed_b: int
    metrics: list
    agents: tuple = ()  # `SEAT=KIND` specs; the other seats are random

    @property
    def flagged(self) -> list:
        return [m for m in self.metrics if m.flagged]

    @property
    def errors(self) -> int:
        return self.a.errors + self.b.errors

    def as_json(self) -> dict:
        def side(summary, seed):
            return {"game": summary.path, "seeds": [seed, seed + self.games - 1], "games": summary.games,
                    "errors": summary.errors, "error_list": summary.errors_json(),
                    "errors_not_listed": summary.errors - len(summary.error_list)}
        return {"players": self.players, "games": self.games, "agents": list(self.agents),
                "a": side(self.a, self.seed_a),
                "b": side(self.b, self.seed_b), "alpha": ALPHA, "correction": "holm",
                "tested": sum(m.p is not None for m in self.metrics),
                "flagged": [m.name for m in self.flagged], "metrics": [m.as_json() for m in self.metrics]}

    def agents_text(self) -> str:
        return "agents " + ", ".join(self.agents) + " (others random)" if self.agents else "random agents"

    def text(self) -> list:
        tested = sum(m.p is not None for m in self.metrics)
        lines = [f"A: {self.a.path}, seeds {self.seed_a}..{self.seed_a + self.games - 1} "
                 f"({self.a.games - self.a.errors} games finished, {self.a.errors} errors)",
                 f"B: {self.b.path}, seeds {self.seed_b}..{self.seed_b + self.games - 1} "
                 f"({self.b.games - self.b.errors} games finished, {self.b.errors} errors)",
                 f"{self.players} players, {self.agents_text()}; p two-sided; Holm p adjusted over the {tested} "
                 f"tested metrics; * Holm p < {ALPHA}, ** Holm p < {STRONG}", ""]
        rows = [("metric", "A", "B", "B - A", "test", "p", "Holm p", "verdict")]
        for m in self.metrics:
            rows.append((m.name, m.a["text"], m.b["text"], _signed(m.difference, m.key), m.test,
                         _p(m.p), _p(m.p_holm), f"{m.verdict} {m.stars}".rstrip()))
            rows += [(f"  {label}", a, b, d, "", "", "", "") for label, a, b, d in m.details]
        lines += _table(rows)
        flagged = self.flagged
        lines.append("")
        if flagged:
            lines.append(f"flagged: {len(flagged)} of {tested} metrics: " + ", ".join(m.name for m in flagged))
        else:
            lines.append(f"flagged: none of {tested} metrics differs at the {ALPHA} level after Holm's correction")
        return lines


# ---------------------------------------------------------------- running
def compare_files(path_a: str, path_b: str, players: int, games: int, seed: int, seed_b: int | None = None,
                  max_steps: int | None = None, jobs: int = 1, progress=None, programs=None,
                  agents: tuple = (), backend=None) -> Report:
    """Plays `games` random games of each file (A on seeds seed.., B on seed_b..,
    by default the same seeds) and compares them. `programs` maps paths to programs
    already loaded; `progress(n)` is told of finished games (2 * games in all);
    `agents` (`SEAT=KIND` specs) play the seats they name in both games."""
    seed_b = seed if seed_b is None else seed_b
    blocks_a = seed_blocks(path_a, players, games, seed, max_steps, jobs, keep_records=True, agents=agents)
    blocks_b = seed_blocks(path_b, players, games, seed_b, max_steps, jobs, keep_records=True, agents=agents)
    parts = run_blocks(blocks_a + blocks_b, jobs, progress, programs, backend)
    a = merged(parts[:len(blocks_a)], players, path_a, keep_records=True)
    b = merged(parts[len(blocks_a):], players, path_b, keep_records=True)
    paired = seed == seed_b
    return Report(players, games, a, b, seed, seed_b, metrics(a.records, b.records, players, paired),
                  tuple(agents))


def metrics(a: list, b: list, players: int, paired: bool = False) -> list:
    """Every metric of two lists of GameRecords, with Holm-adjusted p values.

    `paired`: both were played on the same seeds, so game i of A and of B share
    their random streams; the tests then compare the games seed by seed (McNemar,
    Wilcoxon signed-rank), which sees a change the unpaired tests would need many
    more games for."""
    pairs = _pairs(a, b) if paired else None
    out = []
    for seat in range(players):
        out.append(rate_metric("win_rate", f"win rate seat {seat}", seat, a, b,
                               lambda r, s=seat: s in r.winners, f"B: seat {seat} wins more",
                               f"B: seat {seat} wins less", pairs))
    out.append(rate_metric("shared_wins", "shared wins", None, a, b, lambda r: len(r.winners) > 1,
                           "B: more shared wins", "B: fewer shared wins", pairs))
    out.append(rate_metric("no_winner", "no winner (draws included)", None, a, b, lambda r: not r.winners,
                           "B: more games without a winner", "B: fewer games without a winner", pairs))
    for seat in range(players):
        out.append(sample_metric("score", f"score seat {seat}", seat, [r.scores[seat] for r in a],
                                 [r.scores[seat] for r in b], f"B: seat {seat} scores higher",
                                 f"B: seat {seat} scores lower",
                                 _paired_values(pairs, lambda r, s=seat: r.scores[s])))
    length = sample_metric("length", "game length (decisions)", None, [r.steps for r in a], [r.steps for r in b],
                           "B longer", "B shorter", _paired_values(pairs, lambda r: r.steps))
    length.details = _quantile_rows([r.steps for r in a], [r.steps for r in b])
    out.append(length)
    out.append(reasons_metric([r.reason for r in a], [r.reason for r in b]))
    holm(out)
    return out


def _pairs(a: list, b: list) -> list:
    """(A's game, B's game) of every seed both finished."""
    by_seed = {r.seed: r for r in a}
    return [(by_seed[r.seed], r) for r in b if r.seed in by_seed]


def _paired_values(pairs, value):
    return None if pairs is None else [(value(x), value(y)) for x, y in pairs]


def holm(metrics_: list):
    """Holm's step-down adjustment over the metrics that have a p value; flags them."""
    tested = sorted((m for m in metrics_ if m.p is not None), key=lambda m: m.p)
    running = 0.0
    for rank, m in enumerate(tested):
        running = max(running, min(1.0, (len(tested) - rank) * m.p))
        m.p_holm = running
        m.flagged = running < ALPHA


# ---------------------------------------------------------------- the tests
def wilson(k: int, n: int) -> list:
    from scipy.stats import binomtest
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return [float(ci.low), float(ci.high)]


def rate_metric(key, name, seat, a, b, counts, more: str, less: str, pairs=None) -> Metric:
    """A share of games (e.g. won by seat 0): Fisher's exact test, Wilson intervals;
    on paired games McNemar's exact test (the games where A and B disagree)."""
    ka, kb = sum(1 for r in a if counts(r)), sum(1 for r in b if counts(r))
    na, nb = len(a), len(b)
    side_a, side_b = _rate_side(ka, na), _rate_side(kb, nb)
    test = "Fisher exact" if pairs is None else "McNemar exact"
    if not na or not nb:
        return Metric(key, name, seat, side_a, side_b, None, test, None, False)
    if pairs is None:
        from scipy.stats import fisher_exact
        p = float(fisher_exact([[ka, na - ka], [kb, nb - kb]]).pvalue)
    else:
        p = _mcnemar(sum(1 for x, y in pairs if counts(y) and not counts(x)),
                     sum(1 for x, y in pairs if counts(x) and not counts(y)))
    diff = kb / nb - ka / na
    return Metric(key, name, seat, side_a, side_b, diff, test, min(p, 1.0), ka * nb == kb * na,
                  more if diff > 0 else less)


def _mcnemar(b_only: int, a_only: int) -> float:
    if b_only + a_only == 0:
        return 1.0
    from scipy.stats import binomtest
    return float(binomtest(b_only, b_only + a_only, 0.5).pvalue)


def _rate_side(k: int, n: int) -> dict:
    if not n:
        return {"count": k, "games": n, "rate": None, "ci95": None, "text": "-"}
    lo, hi = wilson(k, n)
    return {"count": k, "games": n, "rate": k / n, "ci95": [lo, hi],
            "text": f"{100 * k / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"}


def sample_metric(key, name, seat, a: list, b: list, higher: str, lower: str, pairs=None) -> Metric:
    """A number per game (a score, the length): the Mann-Whitney U test. The
    direction comes from U: B is "higher" when P(B > A) + P(tie)/2 > 1/2. On
    paired games, the Wilcoxon signed-rank test of the differences seed by seed."""
    side_a, side_b = _sample_side(a, key), _sample_side(b, key)
    if not a or not b:
        return Metric(key, name, seat, side_a, side_b, None, "Mann-Whitney U", None, False)
    diff = statistics.fmean(b) - statistics.fmean(a)
    identical = sorted(a) == sorted(b)
    if pairs is not None:
        return _signed_rank_metric(key, name, seat, side_a, side_b, diff, identical, pairs, higher, lower)
    if len(set(a) | set(b)) == 1:  # one value in both: nothing to rank
        return Metric(key, name, seat, side_a, side_b, diff, "Mann-Whitney U", 1.0, True,
                      effect={"u": len(a) * len(b) / 2, "p_b_greater": 0.5})
    from scipy.stats import mannwhitneyu
    result = mannwhitneyu(b, a, alternative="two-sided")
    share = float(result.statistic) / (len(a) * len(b))
    return Metric(key, name, seat, side_a, side_b, diff, "Mann-Whitney U", min(float(result.pvalue), 1.0),
                  identical, higher if share > 0.5 else lower,
                  effect={"u": float(result.statistic), "p_b_greater": share})


def _signed_rank_metric(key, name, seat, side_a, side_b, diff, identical, pairs, higher, lower) -> Metric:
    differences = [y - x for x, y in pairs]
    moved = [d for d in differences if d]
    test = "Wilcoxon signed-rank"
    if not moved:  # every paired game the same: nothing to rank
        return Metric(key, name, seat, side_a, side_b, diff, test, 1.0, identical, effect={"games_differing": 0})
    from scipy.stats import wilcoxon
    p = float(wilcoxon(moved, alternative="two-sided").pvalue) if len(set(moved)) > 1 or len(moved) > 1 else 1.0
    up = sum(1 for d in moved if d > 0)
    return Metric(key, name, seat, side_a, side_b, diff, test, min(p, 1.0), identical,
                  higher if up * 2 > len(moved) or (up * 2 == len(moved) and diff > 0) else lower,
                  effect={"games_differing": len(moved), "b_higher": up})


def _sample_side(values: list, key: str) -> dict:
    if not values:
        return {"n": 0, "mean": None, "median": None, "text": "-"}
    mean, median = statistics.fmean(values), statistics.median(values)
    side = {"n": len(values), "mean": mean, "median": median}
    if key == "length":
        side["quantiles"] = dict(zip((f"p{q}" for q in QUANTILES), _quantiles(values)))
        side["text"] = f"mean {mean:.1f}, median {median:g}"
    else:
        side["text"] = f"mean {mean:.3g}"
    return side


def _quantiles(values: list) -> list:
    """The QUANTILES percentiles (linear interpolation between order statistics)."""
    data = sorted(values)
    out = []
    for q in QUANTILES:
        pos = (len(data) - 1) * q / 100
        lo = math.floor(pos)
        hi = min(lo + 1, len(data) - 1)
        out.append(data[lo] + (data[hi] - data[lo]) * (pos - lo))
    return out


def _quantile_rows(a: list, b: list) -> list:
    if not a or not b:
        return []
    return [(f"length p{q}", f"{x:.1f}", f"{y:.1f}", _signed(y - x, "length"))
            for q, x, y in zip(QUANTILES, _quantiles(a), _quantiles(b))]


def reasons_metric(a: list, b: list) -> Metric:
    """How games ended: the chi-square test of the 2 x (reasons) table. The
    difference is the total variation distance: the share of games that would
    have to end otherwise to turn A's distribution into B's."""
    ca, cb = Counter(a), Counter(b)
    reasons = sorted(set(ca) | set(cb))
    side_a, side_b = _reasons_side(ca, len(a)), _reasons_side(cb, len(b))
    test = "chi-square"
    if not a or not b:
        return Metric("end_reasons", "end reasons", None, side_a, side_b, None, test, None, False)
    shares = [(r, ca[r] / len(a), cb[r] / len(b)) for r in reasons]
    distance = sum(abs(y - x) for _, x, y in shares) / 2
    details = [(f"ended: {r}", f"{100 * x:.1f}%", f"{100 * y:.1f}%", _signed(y - x, "rate")) for r, x, y in shares]
    identical = all(x == y for _, x, y in shares)
    if len(reasons) < 2:  # one reason in both games: nothing can differ
        return Metric("end_reasons", "end reasons", None, side_a, side_b, 0.0, test, 1.0, True,
                      details=details)
    from scipy.stats import chi2_contingency
    result = chi2_contingency([[ca[r] for r in reasons], [cb[r] for r in reasons]])
    changed, x, y = max(shares, key=lambda s: abs(s[2] - s[1]))
    direction = f"B ends otherwise ('{changed}' {100 * x:.1f}% -> {100 * y:.1f}%)"
    return Metric("end_reasons", "end reasons", None, side_a, side_b, distance, test,
                  min(float(result.pvalue), 1.0), identical, direction,
                  effect={"chi2": float(result.statistic), "dof": int(result.dof)}, details=details)


def _reasons_side(counts: Counter, n: int) -> dict:
    return {"counts": dict(sorted(counts.items())), "games": n,
            "rates": {r: c / n for r, c in sorted(counts.items())}, "text": f"{len(counts)} reasons"}


# ---------------------------------------------------------------- text
def _signed(value, key: str) -> str:
    if value is None:
        return "-"
    if key == "end_reasons":  # a distance: no sign
        return f"{100 * value:.1f} pts"
    if key in ("win_rate", "shared_wins", "no_winner", "rate"):
        return f"{100 * value:+.1f} pts"
    return f"{value:+.3g}" if key == "score" else f"{value:+.1f}"


def _p(p) -> str:
    if p is None:
        return "-"
    if p == 1:
        return "1"
    return f"{p:.1e}".replace("e-0", "e-") if p < 0.001 else f"{p:.3f}"


def _table(rows: list) -> list:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
