"""The `mcts` agent: UCT search with random rollouts, for every game without game code.

`--agent 1=mcts` (200 simulations per decision), `mcts:SIMS` or `mcts:SIMS:DEPTH`
(DEPTH: decisions per random rollout, 100 by default). Each simulation:

1. determinizes: copies the game (`Machine.clone`) and reshuffles the cards the
   seat cannot see among the places it cannot see them, within each card set and
   keeping every zone's count (the game's own zone visibility: what
   `World.snapshot(seat)` shows as a list, a top card, or shown attributes stays;
   counts-only places are shuffled); other seats' `secret` player fields are set
   to their declared start values (what the seat knows of them without the rules'
   history: a value the seat could infer is not inferred); future chance gets a
   fresh seeded source, so the search never knows the real dice or deck order;
2. walks one tree, keyed by the labels chosen from the root, with UCB1 (each
   node's value is that of the seat that chose it; labels not offered in this
   determinization are passed over), and adds one node;
3. plays random choices for at most DEPTH decisions, and scores the end: the
   winners share +1 and the others -1 (0 to all when nobody or everybody wins);
   a rollout cut at DEPTH is scored the same way with the seats that lead on the
   game's score as winners.

The most visited label is chosen. Seeded and deterministic: the random numbers
come from the game seed and the seat (and the decision count), never from the
clock. Known limits: what a seat saw earlier but cannot see now is forgotten
(redrawn as if never seen); a rule's local variable holding another seat's
sealed choice keeps its true value (the rule text, not the World, holds it).
"""
from __future__ import annotations

import math
import random

from ..errors import GameRuntimeError
from ..runtime.machine import RandomChance, copy_value

DEFAULT_SIMULATIONS = 200
DEFAULT_DEPTH = 100
EXPLORE = 1.4  # UCB1's exploration constant, for values in -1..1


class BudgetError(ValueError):
    pass


def parse_budget(arg: str | None) -> tuple:
    """'200' or '200:50' -> (simulations, depth); None -> the defaults."""
    if arg is None or arg == "":
        return DEFAULT_SIMULATIONS, DEFAULT_DEPTH
    parts = arg.split(":")
    if len(parts) > 2 or not all(p.isdigit() and int(p) > 0 for p in parts):
        raise BudgetError(f"mcts:{arg}: write mcts:SIMULATIONS or mcts:SIMULATIONS:DEPTH, "
                          "with whole numbers above 0 (e.g. mcts:200 or mcts:200:50)")
    sims = int(parts[0])
    depth = int(parts[1]) if len(parts) == 2 else DEFAULT_DEPTH
    return sims, depth


class Node:
    __slots__ = ("visits", "value", "children")

    def __init__(self):
        self.visits = 0
        self.value = 0.0  # summed value for the seat whose choice led here
        self.children: dict = {}  # label -> Node


class MctsAgent:
    """Searches from the game itself (`needs_machine`), seeing hidden cards only as a
    determinization redraws them."""

    needs_view = False
    needs_machine = True

    def __init__(self, seat: int, seed, arg: str | None = None):
        self.seat = seat
        self.seed = seed
        self.simulations, self.depth = parse_budget(arg)
        self.asked = 0

    def choose(self, view, decision, machine=None) -> int:
        if len(decision.values) == 1 or machine is None:
            return 0
        self.asked += 1
        rng = random.Random(f"mcts:{self.seed}:{self.seat}:{self.asked}")
        root = Node()
        for k in range(self.simulations):
            self.simulate(root, determinize(machine, self.seat, rng, f"{self.seed}:{self.seat}:{self.asked}:{k}"),
                          rng)
        best = max(range(len(decision.labels)),
                   key=lambda i: (root.children[decision.labels[i]].visits
                                  if decision.labels[i] in root.children else -1, -i))
        return best

    def simulate(self, root: Node, machine, rng: random.Random):
        path = []
        try:
            values = self.descend(root, machine, rng, path)
        except GameRuntimeError:  # a rule failed in this determinization: it tells nothing
            values = [0.0] * machine.w.n
        root.visits += 1
        for child, seat in path:
            child.visits += 1
            child.value += values[seat]

    def descend(self, root: Node, machine, rng: random.Random, path: list) -> list:
        """Down the tree (adding one node), then a rollout; each seat's value."""
        node = root
        while machine.pending is not None:
            d = machine.pending
            label, fresh = pick(node, d.labels, rng)
            child = node.children.get(label)
            if child is None:
                child = node.children[label] = Node()
            path.append((child, d.seat))
            machine.choose_index(d.labels.index(label))
            node = child
            if fresh:
                break
        return rollout(machine, self.depth, rng)


def pick(node: Node, labels: list, rng: random.Random) -> tuple:
    """(label, whether it is new here): an untried offered label at random, else UCB1's best."""
    untried = [label for label in labels if label not in node.children]
    if untried:
        return untried[rng.randrange(len(untried))], True
    log_n = math.log(max(node.visits, 1))
    children = node.children

    def ucb(label):
        c = children[label]
        return c.value / c.visits + EXPLORE * math.sqrt(log_n / c.visits)
    return max(labels, key=ucb), False


def rollout(machine, depth: int, rng: random.Random) -> list:
    """Random choices for at most `depth` decisions; each seat's value in -1..1."""
    for _ in range(depth):
        d = machine.pending
        if d is None:
            break
        machine.choose_index(rng.randrange(len(d.values)))  # counted, never labelled
    if machine.result is not None and machine.result.by_rule:
        return shares(machine.result.winners, machine.w.n)
    return shares(leaders(machine), machine.w.n)


def leaders(machine) -> list:
    """The live seats with the best score now (the game's `score`)."""
    p, w = machine.program, machine.w
    scores = {s: p.score(w, s) for s in range(w.n) if w.alive[s]}
    if not scores:
        return []
    top = max(scores.values())
    return [s for s, v in scores.items() if v == top]


def shares(winners, n: int) -> list:
    winners = set(winners)
    if not winners or len(winners) == n:
        return [0.0] * n
    win, lose = 1.0 / len(winners), -1.0 / (n - len(winners))
    return [win if s in winners else lose for s in range(n)]


RETURNS = ("win", "score")  # the modes of seat_returns


def check_returns(mode: str) -> str:
    """`mode` if seat_returns knows it; else ValueError, naming the modes."""
    if mode not in RETURNS:
        raise ValueError(f"returns={mode!r}: use 'win' or 'score'")
    return mode


def seat_returns(result, players: int, mode: str) -> list:
    """What a finished game (`result`) is worth to each seat, as the RL adapters pay it:
    "win", the winners share +1 and the others -1 (0 for all without a winner, or with
    everyone winning); "score", each score minus the mean score. Both sum to 0."""
    if mode == "score":
        mean = sum(result.scores) / players
        return [float(s - mean) for s in result.scores]
    return shares(result.winners, players)


def determinize(machine, seat: int, rng: random.Random, chance_seed: str):
    """A copy of the game in which the cards `seat` cannot see are reshuffled among
    the places it cannot see, card set by card set (a place whose card shows some
    attributes gets a card showing the same), other seats' secret player fields
    are at their start values, locals their sealed choices bound are drawn again, and
    chance from here on is fresh."""
    m = machine.clone()
    w, p = m.w, m.program
    places: dict = {}  # card set -> [(zone key, position, shown attributes or None)]
    for key, cards in w.zones.filled():  # most zones are empty (e.g. a zone per card)
        zone = p.zones[key[0]]
        vis = zone.visibility  # as World.show_zone: all, else top card, else shown attributes, else a count
        if vis == "public" or (vis == "owner" and key[1] == seat):
            continue
        show = zone.show if vis != "top" else None
        for i in range(1 if vis == "top" else 0, len(cards)):
            card = p.cards[cards[i]]
            shown = tuple(card.attrs[a] for a in show) if show else None
            places.setdefault(card.set, []).append((key, i, shown))
    for spots in places.values():
        redeal(w, p, spots, rng)
    hide_secret_fields(w, seat, start_fields(p, w.n))
    redraw_sealed_choices(m, seat, rng)
    w.touch()
    m.chance = RandomChance(f"mcts:{chance_seed}")
    m.chance.attach(m)
    return m


def redraw_sealed_choices(m, seat: int, rng: random.Random):
    """Locals that other seats' sealed choices (`choose secret`) bound, still held by the
    rules (e.g. bids not yet revealed), are drawn again from the options they had."""
    for frame in m.frames:
        for var, (who, options) in (frame.sealed or {}).items():
            if who != seat and var in frame.env:
                frame.env[var] = rng.choice(options)


def redeal(w, p, spots: list, rng: random.Random):
    """The cards at `spots` dealt to them again at random; a spot showing attributes
    takes a card with those attributes (uniform over the deals that show the same)."""
    pool = [w.zones[key][i] for key, i, _ in spots]
    rng.shuffle(pool)
    if any(shown is not None for _, _, shown in spots):
        dealt = {}
        for n, (key, i, shown) in enumerate(spots):
            if shown is not None:  # the first card left in the shuffled pool that shows the same
                j = next(j for j, c in enumerate(pool) if tuple(p.cards[c].attrs[a] for a in
                                                             p.zones[key[0]].show) == shown)
                dealt[n] = pool.pop(j)
        rest = iter(pool)
        pool = [dealt[n] if n in dealt else next(rest) for n in range(len(spots))]
    for (key, i, _), card in zip(spots, pool):
        w.zones[key][i] = card
        w.loc[card] = key


def start_fields(program, n: int) -> list:
    """Every seat's player fields as the game starts (the declared start values, before
    set-up); read only."""
    return program.start_world(n).players


def hide_secret_fields(w, seat: int, start: list):
    """Other seats' `secret` player fields, which `seat` sees as "?", set to their start values."""
    secret = w.program.secret_player_fields
    if not secret:
        return
    for other, fields in enumerate(w.players):
        if other == seat:
            continue
        for name in fields:
            if secret.get(name):
                fields[name] = copy_value(start[other][name])
