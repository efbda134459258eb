"""The Boss (games/the_boss.game, TB-01..TB-09) by hand, in plain Python.

The same rules and the same ASSUMPTIONs as the game file (docs/games/the_boss.md);
each function names the rule of the game file it mirrors. Random agents pick
uniformly among the options ruledsl offers at the same decision points, so the
game length (decisions), end reasons and winners have the same distribution.
Every decision counts one, also one with a single option; a `may` whose guard is
false asks nothing. The game has no `end when`, so nothing is checked before a
decision.

Representation: bosses 0..6 are New York (1) .. Philadelphia (7), 7 is Chicago;
cubes are counts (big and small per player in the reserve, per player on each
boss; penalised cubes are always big); a city card is (boss, value, effect).
Every city card has its own label, so a choice among cards is a choice among
positions in the hand.

    python3 benchmarks/handwritten/the_boss.py --players 3 --games 1000 --seed 1
"""
from __future__ import annotations

import random

PLAYERS = (2, 3, 4)  # the player counts of the game file
BIG_EACH = 6  # 7 big cubes, one of them the score marker (ASSUMPTION in the game file)
SMALL_EACH = 3
MAX_OVERTIME = 3  # the game file's knobs, with their values there
CHICAGO_START = 1
BADGES_TO_END = 3
CHICAGO_DIVISOR = 2
CINCINNATI, CHICAGO = 4, 7
BAGS, REVOLVER, PRISON, HOSPITAL, BANISHED = range(5)
POLICE = [(1, 0), (1, 0), (0, 1), (0, 1), (1, 1)]  # (blue, red) badges
LINEUPS = {2: [(3, 4, 6), (1, 2, 4, 5), (3, 5, 7)],  # boss numbers in play, as `cards lineup`
           3: [(1, 3, 4, 5, 6), (2, 3, 4, 6, 7)],
           4: [(1, 2, 3, 4, 5, 6, 7), (3, 4, 5, 6, 7)]}
CARDS = [[(2, BAGS), (3, BAGS), (0, PRISON)],                    # New York
         [(1, BAGS), (2, BAGS), (0, HOSPITAL)],                  # Boston
         [(1, BAGS), (2, BAGS), (3, BAGS), (4, BAGS), (0, REVOLVER)],  # Detroit
         [(2, BAGS), (3, BAGS), (4, BAGS), (0, REVOLVER)],       # Kansas City
         [(1, BAGS), (3, BAGS), (5, BAGS), (0, BANISHED)],       # Cincinnati
         [(2, BAGS), (3, BAGS), (4, BAGS), (0, HOSPITAL)],       # Memphis
         [(3, BAGS), (5, BAGS), (0, PRISON), (0, REVOLVER)]]     # Philadelphia
BADGES = "the third matching police badge ended the game"
OVERTIME = "the game ended after overtime"


class TheBoss:
    __slots__ = ("n", "rng", "steps", "big", "small", "hospital", "prison1", "prison2", "points",
                 "round_points", "elsewhere", "barred", "on", "on_big", "bosses", "locals",
                 "police", "blue", "red", "dealer", "chicago_pos", "last_round", "hands",
                 "reward", "shown")

    def __init__(self, players: int, rng: random.Random):
        n = self.n = players
        self.rng = rng
        self.steps = 0
        self.big, self.small = [BIG_EACH] * n, [SMALL_EACH] * n  # the reserve
        self.hospital, self.prison1, self.prison2 = [0] * n, [0] * n, [0] * n
        self.points, self.round_points = [0] * n, [0] * n
        self.elsewhere, self.barred = [False] * n, [False] * n
        self.on = [[0] * n for _ in range(8)]  # cubes of each player on each boss
        self.on_big = [[0] * n for _ in range(8)]  # of which big
        # rule setup: shuffle the police deck; the dealer (seat 0) picks the boss cards
        self.police = list(POLICE)
        rng.shuffle(self.police)
        self.blue = self.red = 0
        lineups = LINEUPS[n]
        numbers = lineups[self.ask(len(lineups))]
        self.locals = [b for b in range(7) if b + 1 in numbers]  # in numerical order: rank(b) is the index
        self.bosses = self.locals + [CHICAGO]  # the bosses in play, in board order
        self.dealer = 0
        self.chicago_pos = CHICAGO_START
        self.last_round = False
        self.hands: list = []
        self.reward: list = [None] * 7
        self.shown: list = [0] * 7  # value of the last card shown under each boss this round (0: none)

    def ask(self, options: int) -> int:
        self.steps += 1
        return self.rng.randrange(options)

    # ---------------------------------------------------------- flow
    def play(self) -> tuple:
        """rule flow: rounds until the police end it, then overtime while the leaders tie."""
        while not self.last_round:
            self.play_round()
        overtime = 0
        while self.leaders()[1] > 1 and overtime < MAX_OVERTIME:
            overtime += 1
            self.play_round()
        best, _ = self.leaders()
        winners = tuple(p for p in range(self.n) if self.key(p) == best)
        return self.steps, OVERTIME if overtime else BADGES, winners

    def key(self, p: int) -> tuple:
        """score p.points, then the tiebreaks: points this round, cubes in reserve."""
        return self.points[p], self.round_points[p], self.big[p] + self.small[p]

    def leaders(self) -> tuple:
        """(the best key, how many players have it): leaders_tied() is a count above 1."""
        keys = [self.key(p) for p in range(self.n)]
        best = max(keys)
        return best, keys.count(best)

    def play_round(self):
        n = self.n
        self.start_round()
        clockwise = [(self.dealer + i) % n for i in range(n)]
        hands, turn = self.hands, self.turn
        while any(len(hand) > 1 for hand in hands):
            for p in clockwise:
                turn(p)
        self.flip_police()
        reserve = [self.big[p] + self.small[p] for p in range(n)]
        for p in sorted(clockwise, key=reserve.__getitem__, reverse=True):  # stable: ties clockwise
            turn(p)
        self.end_round()

    def start_round(self):
        """rule start_round: a random card of each boss in play is its face-down reward;
        the rest, shuffled, are dealt evenly."""
        n, rng = self.n, self.rng
        self.round_points = [0] * n
        self.elsewhere = [False] * n
        deck = []
        for b in self.locals:
            cards = [(b, value, what) for value, what in CARDS[b]]
            self.reward[b] = cards.pop(rng.randrange(len(cards)))
            deck += cards
        rng.shuffle(deck)
        each = len(deck) // n
        self.hands = [deck[i * each:(i + 1) * each] for i in range(n)]
        self.shown = [0] * 7

    def flip_police(self):
        if self.last_round:
            return
        blue, red = self.police.pop()
        self.blue += blue
        self.red += red
        if self.blue >= BADGES_TO_END or self.red >= BADGES_TO_END:
            self.last_round = True

    # ---------------------------------------------------------- a turn
    def best_other(self, on: list, p: int) -> int:
        """The most cubes another player has on a boss (`on`: cubes per player there)."""
        mine = on[p]
        on[p] = 0
        most = max(on)
        on[p] = mine
        return most

    def takeable(self, p: int, reserve: int) -> list:
        """The bosses where can_take(p, b) holds, in board order."""
        elsewhere, barred, best_other = self.elsewhere[p], self.barred[p], self.best_other
        return [b for b in self.bosses
                if (b != CHICAGO or elsewhere) and (b != CINCINNATI or not barred)
                and self.on[b][p] + reserve > best_other(self.on[b], p)]

    def turn(self, p: int):
        if self.big[p] > 0:  # may "place gangsters" if bigs(p) > 0 and any(b in boss: can_take(p, b))
            reserve = self.big[p] + self.small[p]
            options = self.takeable(p, reserve)
            if options and self.ask(2) == 0:
                self.place(p, reserve, options)
        hand = self.hands[p]  # "card to reveal"
        i = self.ask(len(hand))
        b, value, _ = hand[i]
        hand[i] = hand[-1]
        hand.pop()
        self.shown[b] = value

    def place(self, p: int, reserve: int, options: list):
        b = options[self.ask(len(options))]  # "boss"
        on = self.on[b]
        least = max(1, self.best_other(on, p) - on[p] + 1)
        n = least + self.ask(reserve - least + 1)  # "cubes to add": least..reserve
        bigs, smalls = self.big[p], self.small[p]
        lo, hi = max(0, n - bigs), min(smalls, n - 1)
        s = lo + self.ask(hi - lo + 1) if hi > lo else lo  # "small cubes among them"
        self.big[p] -= n - s
        self.small[p] -= s
        on[p] += n
        self.on_big[b][p] += n - s
        if b != CHICAGO:
            self.elsewhere[p] = True

    # ---------------------------------------------------------- round end
    def end_round(self):
        n = self.n
        for p in range(n):  # rule release
            self.big[p] += self.prison2[p] + self.hospital[p]
            self.prison2[p] = self.prison1[p]
            self.prison1[p] = 0
            self.hospital[p] = 0
        # rule resolve, boss by boss (the game file goes by position in line; no reward
        # reads what another boss's reward changes, so the order changes nothing)
        for b in self.locals:
            self.resolve(b)
        h = self.holder(CHICAGO)
        if h >= 0:
            take = sum(self.shown[b] for b in self.locals[:self.chicago_pos]) // CHICAGO_DIVISOR
            self.points[h] += take
            self.round_points[h] += take
        for b in range(8):  # rule cleanup: big cubes go back, small ones leave the game
            on_big = self.on_big[b]
            for p in range(n):
                self.big[p] += on_big[p]
            self.on[b] = [0] * n
            self.on_big[b] = [0] * n
        if self.chicago_pos < len(self.locals):
            self.chicago_pos += 1
        self.dealer = (self.dealer + 1) % n

    def holder(self, b: int) -> int:
        on = self.on[b]
        most = max(on)
        return on.index(most) if most > 0 else -1

    def resolve(self, b: int):
        h = self.holder(b)
        if h < 0:
            return  # nobody claims the reward
        _, value, what = self.reward[b]
        if what == BAGS:
            self.points[h] += value
            self.round_points[h] += value
            return
        if what == BANISHED:
            self.barred[h] = True
            return
        self.on[b][h] -= 1  # one of the holder's big cubes on this boss
        self.on_big[b][h] -= 1
        if what == PRISON:
            self.prison1[h] += 1
        elif what == HOSPITAL:
            self.hospital[h] += 1
        # REVOLVER: killed for good


def play(players: int, rng: random.Random) -> tuple:
    """One game between random agents: (decisions, end reason, winners)."""
    return TheBoss(players, rng).play()


if __name__ == "__main__":
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from handwritten import main
    main(play, __doc__, PLAYERS)
