"""Mafialand (games/mafialand.game, ML-01..ML-12) by hand, in plain Python.

The same rules and the same ASSUMPTIONs as the game file (docs/games/mafialand.md);
each function names the rule of the game file it mirrors. Random agents pick
uniformly among the options ruledsl offers at the same decision points, so the
game length (decisions), end reasons and winners have the same distribution:

- every decision counts one, also one with a single option (ruledsl asks those too);
- a `may` whose guard is false asks nothing; a menu offers only its allowed options;
- the end conditions are looked at before every decision and at every turn
  boundary. ruledsl also looks at them at each step of the two inner loops over
  players (knock_out_broke_players, my_turf); skipping those changes nothing here,
  because a condition that holds stays true until the next decision (only a
  decision's consequences move houses, and an eliminated player never returns).

Representation: the 40 spaces are 0..39 (N=0, E=10, S=20, W=30, clockwise),
space i is in sector i // 10 (0 northeast .. 3 northwest), its offset i % 10 is
3 or 7 for a casino, 0 for a safe zone; houses 4z..4z+3 belong to sector z;
an owner is a seat or -1; a card is its rank (1=A .. 13=K): no rule reads a suit,
and every card has its own label, so a choice among cards is a choice among
positions in the hand.

    python3 benchmarks/handwritten/mafialand.py --players 3 --games 1000 --seed 1
"""
from __future__ import annotations

import random

PLAYERS = (2, 3, 4)  # the player counts of the game file
HAND_SIZE = 6  # the game file's knobs, with their values there
BAGS_EACH = 18
BAGS_IN_BOX = 80
MAX_GAMBLE = 3
LOCK_CHARGE = 1
SECTORS_TO_WIN = 3
SPACES = 40
LOCKED = "locked down three sectors"
LAST = "eliminated every opponent"


class GameOver(Exception):
    def __init__(self, reason: str, winner: int):
        super().__init__(reason)
        self.reason, self.winner = reason, winner


class Mafialand:
    __slots__ = ("n", "rng", "steps", "alive", "stash", "home", "at", "owner", "bank",
                 "deck", "used", "hands", "casino", "dirty")

    def __init__(self, players: int, rng: random.Random):
        n = self.n = players
        self.rng = rng
        self.steps = 0
        self.alive = [True] * n
        self.stash = [BAGS_EACH] * n
        self.home = [10 * p for p in range(n)]  # corner(p) = [N, E, S, W][p.seat]
        self.at = list(self.home)
        self.owner = [-1] * 16
        self.bank = BAGS_IN_BOX - BAGS_EACH * n
        # rule setup: shuffle, six cards each, one face-down casino card per sector
        deck = [rank for rank in range(1, 14) for _ in range(4)]
        rng.shuffle(deck)
        self.used: list = []
        self.hands = [[deck.pop() for _ in range(HAND_SIZE)] for _ in range(n)]
        self.casino = [deck.pop() for _ in range(4)]
        self.deck = deck
        self.dirty = True  # houses or eliminations changed since the end conditions were false

    # ---------------------------------------------------------- decisions and the end
    def ask(self, options: int) -> int:
        """A decision among `options` (>= 1): the end conditions first, then a uniform pick."""
        if self.dirty:
            self.check_ends()
        self.steps += 1
        return self.rng.randrange(options)

    def check_ends(self):
        """end when three_sectors, then end when last_standing (in declared order)."""
        self.dirty = False
        own, alive = self.owner, self.alive
        locks = [0] * self.n
        for h in (0, 4, 8, 12):
            o = own[h]
            if o >= 0 and own[h + 1] == o and own[h + 2] == o and own[h + 3] == o:
                locks[o] += 1
        for p in range(self.n):
            if alive[p] and locks[p] >= SECTORS_TO_WIN:
                raise GameOver(LOCKED, p)
        if alive.count(True) == 1:
            raise GameOver(LAST, alive.index(True))

    def play(self) -> tuple:
        """rule flow: turns in seat order until an end condition holds."""
        alive, n, turn = self.alive, self.n, self.turn
        try:
            while True:
                for p in range(n):
                    if self.dirty:
                        self.check_ends()
                    if alive[p]:
                        turn(p)
        except GameOver as over:
            return self.steps, over.reason, (over.winner,)

    # ---------------------------------------------------------- cards
    def draw(self, count: int, to: list):
        """draw from deck (refill from used: the used pile, shuffled); stops when both are empty."""
        deck = self.deck
        for _ in range(count):
            if not deck:
                if not self.used:
                    return
                deck = self.deck = self.used
                self.used = []
                self.rng.shuffle(deck)
            to.append(deck.pop())

    def play_card(self, p: int) -> int:
        """choose a card from hand[p] (a decision) and take it out of the hand."""
        hand = self.hands[p]
        i = self.ask(len(hand))
        card = hand[i]
        hand[i] = hand[-1]
        hand.pop()
        return card

    # ---------------------------------------------------------- a turn
    def turn(self, p: int):
        """rule play_turn and rule arrive: roll 2d6, choose a direction, move, act on the space."""
        randint = self.rng.randint
        pips = randint(1, 6) + randint(1, 6)
        at = (self.at[p] + (pips if self.ask(2) == 0 else -pips)) % SPACES  # forward, backward
        self.at[p] = at
        offset = at % 10
        if offset == 3 or offset == 7:
            self.gamble(p, at // 10)
        elif offset:
            self.street(p, at // 10)
        self.knock_out_broke_players()

    def knock_out_broke_players(self):
        own, stash, alive = self.owner, self.stash, self.alive
        for q in range(self.n):
            if alive[q] and stash[q] == 0 and q not in own:
                alive[q] = False
                self.dirty = True

    # ---------------------------------------------------------- blank spaces
    def street(self, p: int, z: int):
        own, stash = self.owner, self.stash
        b = 4 * z
        o = own[b]
        if o >= 0 and own[b + 1] == o and own[b + 2] == o and own[b + 3] == o:
            if o != p:  # ML-09: the lock holder charges one bag (LOCK_CHARGE), while p has any
                for _ in range(LOCK_CHARGE):
                    if stash[p] > 0 or p in own:
                        self.pay_one_bag(p)
                        stash[o] += 1
            return
        empty = [h for h in range(b, b + 4) if own[h] < 0]
        if all(own[h] < 0 or own[h] == p for h in range(b, b + 4)):
            # ML-03 may "claim turf" if p.stash > 0 and has_empty_house(z)
            if stash[p] > 0 and empty and self.ask(2) == 0:
                own[empty[self.ask(len(empty))]] = p
                stash[p] -= 1
                self.dirty = True
            return
        # ML-04 "turf response": no beef / go to war (with a loose bag and an empty house) / say nothing
        if stash[p] > 0 and empty:
            pick = self.ask(3)
            if pick == 1:
                self.go_to_war(p, z, empty)
            elif pick == 2:
                self.my_turf(p, z)
        elif self.ask(2) == 1:
            self.my_turf(p, z)

    def go_to_war(self, p: int, z: int, empty: list):
        own, alive = self.owner, self.alive
        b = 4 * z
        rivals = [q for q in range(self.n) if q != p and alive[q] and q in own[b:b + 4]]
        enemy = rivals[self.ask(len(rivals))]
        own[empty[self.ask(len(empty))]] = p  # the "war house"
        self.stash[p] -= 1
        self.dirty = True
        victor, loser = self.fight(p, enemy)
        if victor < 0:
            self.stalemate(p, enemy, z)
        else:
            self.at[loser] = self.home[loser]
            for h in range(b, b + 4):
                if own[h] == loser:
                    own[h] = victor
            self.dirty = True  # the victor may now hold the whole sector

    def stalemate(self, a: int, b: int, z: int):
        own, stash = self.owner, self.stash
        for h in range(4 * z, 4 * z + 4):
            o = own[h]
            if o == a or o == b:
                stash[o] += 1
                own[h] = -1
        self.at[a] = self.home[a]
        self.at[b] = self.home[b]
        self.dirty = True

    def my_turf(self, p: int, z: int):
        """Rivals, clockwise from the lander, may call "my turf"; the first to call fights."""
        n, alive, own = self.n, self.alive, self.owner
        houses = own[4 * z:4 * z + 4]
        for i in range(1, n):
            q = (p + i) % n
            if alive[q] and q in houses and self.ask(2) == 0:
                victor, loser = self.fight(q, p)
                if victor < 0:
                    self.stalemate(q, p, z)
                else:
                    self.hand_over_bag(loser, victor, z)
                return

    def pay_one_bag(self, p: int):
        if self.stash[p] > 0:
            self.stash[p] -= 1
            return
        own = self.owner
        mine = [h for h in range(16) if own[h] == p]
        own[mine[self.ask(len(mine))]] = -1  # "bag to hand over"
        self.dirty = True

    def hand_over_bag(self, from_p: int, to_p: int, z: int):
        self.pay_one_bag(from_p)
        own = self.owner
        empty = [h for h in range(4 * z, 4 * z + 4) if own[h] < 0]
        if empty and self.ask(2) == 0:  # may "place the bag"
            own[empty[self.ask(len(empty))]] = to_p
            self.dirty = True
            return
        self.stash[to_p] += 1

    def fight(self, a: int, b: int) -> tuple:
        """Sealed cards, high card wins, a tie goes to one die each; (victor, loser) or (-1, -1)."""
        ca = self.play_card(a)
        cb = self.play_card(b)
        if ca == cb:
            randint = self.rng.randint
            ra, rb = randint(1, 6), randint(1, 6)
            result = (a, b) if ra > rb else (b, a) if rb > ra else (-1, -1)
        else:
            result = (a, b) if ca > cb else (b, a)
        self.used += (ca, cb)
        self.refill_hand(a)
        self.refill_hand(b)
        return result

    def refill_hand(self, p: int):
        if not self.hands[p]:
            self.draw(HAND_SIZE, self.hands[p])

    # ---------------------------------------------------------- casino spaces
    def gamble(self, p: int, z: int):
        stash = self.stash
        if stash[p] == 0:
            return
        bet = 1 + self.ask(min(MAX_GAMBLE, stash[p]))  # "bags to gamble": 1..min(MAX_GAMBLE, p.stash)
        card = self.play_card(p)  # "casino card"
        dealer = self.casino[z]
        if card > dealer:  # a tie goes to the house
            won = min(bet, self.bank)
            self.bank -= won
            stash[p] += won
        else:
            stash[p] -= bet
            self.bank += bet
            self.at[p] = self.home[p]
        self.used += (card, dealer)
        drawn: list = []
        self.draw(1, drawn)
        self.casino[z] = drawn[0] if drawn else None
        self.refill_hand(p)


def play(players: int, rng: random.Random) -> tuple:
    """One game between random agents: (decisions, end reason, winners)."""
    return Mafialand(players, rng).play()


if __name__ == "__main__":
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from handwritten import main
    main(play, __doc__, PLAYERS)
