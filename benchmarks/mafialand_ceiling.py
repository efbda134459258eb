"""A ceiling for issue 12: Mafialand by the best back end that still plays the rules as written.

Issue 12 asks ruledsl to play games/mafialand.game (3 players, random agents) at 0.8x the
speed of benchmarks/handwritten/mafialand.py. `mafialand_flat` is the game's setup and flow
as one Python generator in the shape a back end specialised to the game could emit: Python
locals; players' fields as lists by seat; the houses' owners as a list, with the tallies
ruledsl keeps of a stored board field; spaces, houses and cards as numbers with their fixed
attributes in lists (`Layout`); zones as lists; a decision as a `yield` (whole_rule_ceiling.py).
It still evaluates each def where and as the game file says, offers the same decisions with
the same options in the same order, and looks at the end conditions where ruledsl does; it
leaves out `say`, chance reports and clone(). So its speed bounds what any compiler of the
rules as written could reach.

    python3 benchmarks/mafialand_ceiling.py [--games 600] [--parts]

The engine, the flat game and the hand-written game play interleaved blocks of 100 games,
each the same seeds; `--parts` adds the flat game with less and less of what ruledsl does:
without the labels (the values offered as labels), then without the work budget's units
charged, then without the pauses (one call a game, choosing from the game's Random where it
would yield). A flat variant must play the engine's very game seed by seed (the same calls
of one Random in the same order), and agree in distribution (bench.distributions_agree) with
the engine and with the hand-written game.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench  # noqa: E402
from ruledsl import budget  # noqa: E402
from ruledsl.pipeline import load_game  # noqa: E402
from whole_rule_ceiling import Pending  # noqa: E402

PLAYERS = 3
LOCKED, LAST = "locked down three sectors", "eliminated every opponent"  # the `end when` reasons, in order
DIRECTIONS = ["forward", "backward"]  # enum direction: forward is the board's declared order
YES_NO = [True, False]  # a `may`: option 0 does it, option 1 passes
TURF = ["no beef", "go to war", "say nothing"]  # street's "turf response" menu


class Layout:
    """mafialand.game's boards, cards and knobs as a back end specialised to it could lay them
    out, made once per program: the city's spaces as numbers (N = 0, forward) with their kind
    and sector, the houses as numbers with their sector and each sector's houses (for a filter
    `h.sector == z` on that fixed attribute), the cards as numbers with rank, wild and label."""

    def __init__(self, program):
        city, houses = program.boards["city"], program.boards["houses"]
        sectors, kinds = program.enums["sector"], program.enums["kind"]
        self.spaces, self.casino, self.blank = len(city.spaces), kinds.index("casino"), kinds.index("blank")
        self.kind = [kinds.index(city.attrs_of_space["kind"][s]) for s in city.spaces]
        self.sector = [None if z is None else sectors.index(z) for z in map(city.attrs_of_space["sector"].get,
                                                                             city.spaces)]
        self.corners = [city.spaces.index(s) for s in ("N", "E", "S", "W")]  # def corner(p) = [N, E, S, W][p.seat]
        self.house_names = list(houses.spaces)
        self.house_sector = [sectors.index(houses.attrs_of_space["sector"][h]) for h in houses.spaces]
        self.sector_houses = [[h for h, s in enumerate(self.house_sector) if s == z] for z in range(len(sectors))]
        self.rank = [c.attrs["rank"] for c in program.cards]
        self.wild = [c.attrs["wild"] for c in program.cards]
        self.card_labels = [c.label for c in program.cards]
        self.consts = program.new_world(PLAYERS).consts


class Over(Exception):
    """An end condition holds (game.result says which): the game stops where it was looked at."""


def mafialand_flat(program, players=PLAYERS, labels=True, charges=True, pauses=True):
    """The game's flow on the Layout, as one generator: each rule written in place and named,
    but `fight`, called from two rules, a generator of its own (ruledsl frames it too). The end
    conditions are looked at (`ended`) at each turn of a loop over players and before each
    decision, if houses or players changed since they were last false (`dirty`), as ruledsl
    does; the test is left out before the decisions no such change can precede. Each flag off
    drops a part: the labels; the units of work, charged about as ruledsl charges them (one a
    loop turn, a rule call, an item an aggregate visits or a choose labels, DRAW_COST a card
    drawn, SHUFFLE_COST one shuffled: budget.py), to a local never checked; the pauses."""
    g = Layout(program)
    HAND, BAGS, MAX_GAMBLE, LOCK_CHARGE, TO_WIN, FOUR = (g.consts[k] for k in (
        "HAND_SIZE", "BAGS_EACH", "MAX_GAMBLE", "LOCK_CHARGE", "SECTORS_TO_WIN", "HOUSES_PER_SECTOR"))
    n, seats, houses, sectors = players, range(players), range(len(g.house_sector)), range(len(g.sector_houses))
    H, DRAW = len(houses), budget.DRAW_COST
    seat_labels = [f"seat {p}" for p in seats]
    number_labels = [str(v) for v in range(MAX_GAMBLE + 1)]
    # the decisions whose options are constants, made once a seat (as ruledsl makes a `may`'s)
    directions = [Pending(p, DIRECTIONS, DIRECTIONS) for p in seats]
    may = {what: [Pending(p, [what, "pass"], YES_NO) for p in seats]
           for what in ("claim turf", "my turf", "place the bag")}
    turf_menus = [(options, [Pending(p, [TURF[o] for o in options], options) for p in seats])
                  for options in ([0, 1, 2], [0, 2])]  # with "go to war" allowed, without

    def flow(game):
        kind, sector_of, house_sector, sector_houses = g.kind, g.sector, g.house_sector, g.sector_houses
        rank, wild, card_labels, house_names = g.rank, g.wild, g.card_labels, g.house_names
        randint, randrange, shuffle = game.rng.randint, game.rng.randrange, game.rng.shuffle
        stash, home, at, alive = [BAGS] * n, [None] * n, [None] * n, [True] * n  # player { stash home at }, seats in
        owner = [None] * H  # board houses { field owner: player? = none }
        held = [[0] * n + [len(sector_houses[z])] for z in sectors]  # its tally: held[z][seat]; [z][-1]: owner none
        owned = [0] * n + [H]  # its tally by owner alone
        bank = g.consts["BAGS_IN_BOX"] - BAGS * n  # shared { bank } (round and turn: read by nothing, left out)
        deck, used, table = list(range(len(rank))), [], []  # the zones, each one's top at index 0
        hand, casino_card = [[] for _ in seats], [[] for _ in sectors]
        dirty, steps, work = True, 0, budget.GAME_WORK  # dirty: houses or players changed since the ends were false

        def offer(seat, values, names):  # a decision among values, each labelled by its name (the labels part)
            return Pending(seat, [names[v] for v in values] if labels else values, values)

        def set_owner(h, new):  # `h.owner = new`, its tallies kept on every write (ruledsl's `tallies`)
            nonlocal dirty
            old, z = owner[h], house_sector[h]
            held[z][-1 if old is None else old] -= 1
            owned[-1 if old is None else old] -= 1
            held[z][-1 if new is None else new] += 1
            owned[-1 if new is None else new] += 1
            owner[h], dirty = new, True

        def draw(count, to):  # draw count from deck to `to`: deck refills from used, shuffled, when empty
            nonlocal work
            for _ in range(count):
                if not deck:
                    if not used:
                        return
                    deck.extend(used)  # (a refill is paid for by the moves that filled used)
                    used.clear()
                    shuffle(deck)
                charges and (work := work - DRAW)  # (`charges and ...`: the units charged, if charged)
                to.insert(0, deck.pop(0))

        def locked_count(p):  # count(z in sector where holds_all(p, z)), holds_all read from the tally
            return [held[z][p] for z in sectors].count(FOUR)

        def ended():  # the `end when` conditions in declared order; raises Over when one holds
            nonlocal dirty
            dirty = False
            for p in seats:  # three_sectors: any(p in players: locked_count(p) >= SECTORS_TO_WIN) winner first(...)
                if alive[p] and locked_count(p) >= TO_WIN:
                    winner, reason = next(q for q in seats if alive[q] and locked_count(q) >= TO_WIN), LOCKED
                    break
            else:
                if alive.count(True) != 1:  # last_standing: count(p in players) == 1 winner first(p in players)
                    return
                winner, reason = alive.index(True), LAST
            game.result = (steps, reason, bench.outcome_of([1 if s == winner else 0 for s in seats]))
            raise Over

        def refill_hand(p):  # rule refill_hand(p): if playable(p) == 0 { draw HAND_SIZE from deck to hand[p] }
            nonlocal work
            charges and (work := work - (1 + len(hand[p])))
            if not [c for c in hand[p] if not wild[c]]:
                draw(HAND, hand[p])

        def stalemate(a, b, z):  # rule stalemate(a, b, z)
            nonlocal work
            charges and (work := work - (1 + H))
            for h in houses:
                if house_sector[h] == z and (owner[h] == a or owner[h] == b):
                    stash[owner[h]] += 1
                    set_owner(h, None)
            at[a], at[b] = home[a], home[b]

        def fight(a, b):  # rule fight(a, b) -> player?: the victor, none after a second tie
            nonlocal steps, work
            picked = []
            for x in (a, b):  # choose secret ca from hand[a] where not ca.wild by a as "war card"; then cb
                cards = [c for c in hand[x] if not wild[c]]
                charges and (work := work - ((x == a) + len(hand[x]) + 2 * len(cards)))
                if dirty:  # (after go_to_war's "war house")
                    ended()
                steps += 1
                picked.append(cards[(yield offer(x, cards, card_labels)) if pauses else randrange(len(cards))])
            ca, cb = picked
            hand[a].remove(ca)  # move ca to table; move cb to table (onto the top)
            table.insert(0, ca)
            hand[b].remove(cb)
            table.insert(0, cb)
            victor = a if rank[ca] > rank[cb] else b if rank[cb] > rank[ca] else None
            if victor is None:  # ML-05: one die each; a second tie decides nothing
                ra, rb = randint(1, 6), randint(1, 6)
                victor = a if ra > rb else b if rb > ra else None
            table.remove(ca)  # move ca to used; move cb to used
            used.insert(0, ca)
            table.remove(cb)
            used.insert(0, cb)
            refill_hand(a)
            refill_hand(b)
            charges and victor is not None and (work := work - 1)  # after_war_lost(victor, other(...)): the victor
            return victor

        # rule setup()
        charges and (work := work - (budget.SHUFFLE_COST * len(deck) + n + len(sectors)))
        shuffle(deck)
        for p in seats:
            draw(HAND, hand[p])
            home[p] = g.corners[p]
            at[p] = home[p]
        for z in sectors:
            draw(1, casino_card[z])
        while True:  # rule flow(): loop { round += 1; for p in players from seat(0) { play_turn(p) } }
            charges and (work := work - 1)
            for p in seats:
                if not alive[p]:
                    continue
                if dirty:
                    ended()
                # rule play_turn(p); the loop's turn, play_turn's, arrive's, knock_out's calls, 2 directions labelled
                charges and (work := work - 6)
                pips = randint(1, 6) + randint(1, 6)  # roll 2d6
                steps += 1  # choose d from direction by p as "direction"
                i = (yield directions[p]) if pauses else randrange(2)
                at[p] = (at[p] + (pips if i == 0 else -pips)) % g.spaces  # move p.at by pips steps d (a loop)
                s = at[p]  # rule arrive(p)
                z = sector_of[s]
                if kind[s] == g.casino and stash[p] > 0:  # rule gamble(p, z): nothing to gamble without a loose bag
                    values = list(range(1, min(MAX_GAMBLE, stash[p]) + 1))  # choose n from 1..min(MAX_GAMBLE, p.stash)
                    charges and (work := work - (1 + 2 * len(values)))
                    steps += 1
                    bet = values[(yield offer(p, values, number_labels)) if pauses else randrange(len(values))]
                    cards = [c for c in hand[p] if not wild[c]]  # choose c from hand[p] where not c.wild
                    charges and (work := work - (len(hand[p]) + 2 * len(cards)))
                    steps += 1
                    card = cards[(yield offer(p, cards, card_labels)) if pauses else randrange(len(cards))]
                    dealer = casino_card[z][0]  # let dealer = top(casino_card[z])
                    hand[p].remove(card)  # move c to table; move dealer to table
                    table.insert(0, card)
                    casino_card[z].remove(dealer)
                    table.insert(0, dealer)
                    if rank[card] > rank[dealer]:
                        won = min(bet, bank)  # min(casino_payout(n), bank); casino_payout(n) = n
                        bank -= won
                        stash[p] += won
                    else:
                        stash[p] -= bet
                        bank += bet
                        at[p] = home[p]
                    table.remove(card)  # move c to used; move dealer to used
                    used.insert(0, card)
                    table.remove(dealer)
                    used.insert(0, dealer)
                    draw(1, casino_card[z])
                    refill_hand(p)
                elif kind[s] == g.casino:
                    charges and (work := work - 1)
                elif kind[s] == g.blank:  # rule street(p, z)
                    zh = held[z]
                    holder = None  # let holder = lock_holder(z): first(p in seats where holds_all(p, z))
                    for q in seats:
                        charges and (work := work - (1 + FOUR))
                        if zh[q] == FOUR:
                            holder = q
                            break
                    claimed = False  # claimed_by_other(p, z), looked at without a holder only (`else if` below)
                    for h in sector_houses[z] if holder is None else ():
                        if owner[h] is not None and owner[h] != p:  # any(h in houses where ... h.owner != p)
                            claimed = True
                            break
                    if holder is not None:
                        for _ in range(LOCK_CHARGE if holder != p else 0):  # repeat LOCK_CHARGE (`paid`: for a say)
                            charges and (work := work - (2 + H))  # its turn, bags(p) visiting the houses, pay_one_bag
                            if stash[p] + owned[p] > 0:  # bags(p) > 0: p.stash + count(h in houses where h.owner == p)
                                if stash[p] > 0:  # rule pay_one_bag(p)
                                    stash[p] -= 1
                                else:
                                    hs = [h for h in houses if owner[h] == p]  # choose h from houses where h.owner == p
                                    charges and (work := work - (H + len(hs)))
                                    if dirty:  # (after an earlier turn of the repeat)
                                        ended()
                                    steps += 1
                                    i = (yield offer(p, hs, house_names)) if pauses else randrange(len(hs))
                                    set_owner(hs[i], None)
                                stash[holder] += 1
                    elif not claimed:
                        charges and (work := work - 2 * FOUR)
                        if stash[p] > 0 and zh[-1] > 0:  # may p "claim turf" if p.stash > 0 and has_empty_house(z)
                            steps += 1
                            if ((yield may["claim turf"][p]) if pauses else randrange(2)) == 0:
                                hs = [h for h in sector_houses[z] if owner[h] is None]  # as "loot house"
                                charges and (work := work - (FOUR + len(hs)))
                                steps += 1
                                set_owner(hs[(yield offer(p, hs, house_names)) if pauses else randrange(len(hs))], p)
                                stash[p] -= 1
                    else:  # choose by p as "turf response": "go to war" if p.stash > 0 and has_empty_house(z)
                        options, menus = turf_menus[0 if stash[p] > 0 and zh[-1] > 0 else 1]
                        charges and (work := work - (2 * FOUR + len(options)))
                        steps += 1
                        o = options[(yield menus[p]) if pauses else randrange(len(options))]
                        if o == 1:  # rule go_to_war(p, z): choose enemy from players where enemy != p and ...
                            rivals = [q for q in seats if alive[q] and q != p and zh[q] > 0]  # houses_of(enemy, z) > 0
                            charges and (work := work - (2 + (1 + FOUR) * sum(alive) + len(rivals)))
                            steps += 1
                            enemy = rivals[(yield offer(p, rivals, seat_labels)) if pauses else randrange(len(rivals))]
                            hs = [h for h in sector_houses[z] if owner[h] is None]  # as "war house"
                            charges and (work := work - (FOUR + len(hs)))
                            steps += 1
                            set_owner(hs[(yield offer(p, hs, house_names)) if pauses else randrange(len(hs))], p)
                            stash[p] -= 1
                            victor = yield from fight(p, enemy)
                            if victor is None:
                                stalemate(p, enemy, z)
                            else:  # the loser goes home, and the victor takes the loser's houses in z
                                loser = enemy if victor == p else p  # other(victor, p, enemy)
                                at[loser] = home[loser]
                                charges and (work := work - H)
                                for h in houses:
                                    if house_sector[h] == z and owner[h] == loser:
                                        set_owner(h, victor)
                        elif o == 2:  # rule my_turf(p, z): for q in players from p { may q "my turf" if ... }
                            called = False
                            for k in range(n):
                                q = (p + k) % n
                                if not alive[q]:
                                    continue
                                if dirty:
                                    ended()
                                charges and (work := work - (1 + FOUR + (k == 0)))
                                if called or q == p or zh[q] == 0:  # not called and q != p and houses_of(q, z) > 0
                                    continue
                                steps += 1
                                if ((yield may["my turf"][q]) if pauses else randrange(2)) == 1:
                                    continue
                                called = True
                                victor = yield from fight(q, p)
                                if victor is None:
                                    stalemate(q, p, z)
                                    continue
                                # rule hand_over_bag(other(victor, q, p), victor, z), first rule pay_one_bag(from_p)
                                from_p = p if victor == q else q
                                charges and (work := work - (2 + FOUR))
                                if stash[from_p] > 0:
                                    stash[from_p] -= 1
                                else:
                                    hs = [h for h in houses if owner[h] == from_p]  # as "bag to hand over"
                                    charges and (work := work - (H + len(hs)))
                                    steps += 1
                                    i = (yield offer(from_p, hs, house_names)) if pauses else randrange(len(hs))
                                    set_owner(hs[i], None)
                                if zh[-1] > 0:  # may to_p "place the bag" if has_empty_house(z) { ...; return }
                                    if dirty:  # (after pay_one_bag)
                                        ended()
                                    steps += 1
                                    if ((yield may["place the bag"][victor]) if pauses else randrange(2)) == 0:
                                        hs = [h for h in sector_houses[z] if owner[h] is None]  # as "loot house"
                                        charges and (work := work - (FOUR + len(hs)))
                                        steps += 1
                                        i = (yield offer(victor, hs, house_names)) if pauses else randrange(len(hs))
                                        set_owner(hs[i], victor)
                                        continue
                                stash[victor] += 1  # to_p.stash += 1
                            if dirty:  # the end of my_turf's loop over players
                                ended()
                for q in seats:  # rule knock_out_broke_players(): for q in players { if bags(q) == 0 { eliminate q } }
                    if not alive[q]:
                        continue
                    if dirty:
                        ended()
                    charges and (work := work - (1 + H))
                    if stash[q] + owned[q] == 0:  # bags(q) == 0
                        alive[q], dirty = False, True
                if dirty:  # the end of knock_out_broke_players' loop over players
                    ended()
            if dirty:  # the end of flow's loop over players
                ended()
    return flow


class Game:
    """A flat game under way: its Random, the decision pending, and once over its result,
    (decisions, end reason, outcome) as bench.ruledsl_game gives them."""

    def __init__(self, flow, rng):
        self.rng, self.result = rng, None
        self.run = flow(self)
        self.choose_index(None)

    def choose_index(self, i):
        try:
            self.pending = self.run.send(i)
        except (StopIteration, Over):
            self.pending = None


def flat_game(flow, rng) -> tuple:
    """One random game of a flat variant, chosen as bench.ruledsl_game chooses."""
    game = Game(flow, rng)
    while game.pending is not None:
        game.choose_index(rng.randrange(len(game.pending.labels)))
    return game.result


# the flat game, then less and less of what ruledsl does (--parts)
PARTS = {"flat": {}, "flat, no labels": {"labels": False},
         "flat, no labels, no work charged": {"labels": False, "charges": False},
         "flat, ... and no pauses": {"labels": False, "charges": False, "pauses": False}}


def race(argv, game: str, laid_out, doc: str):
    """The command line of a ceiling: the baseline `game` (bench.BASELINES: its file, players
    and hand-written module) in ruledsl, on the layout `laid_out(program, players, **flags)`
    makes (each part with `--parts`) and by hand, raced in interleaved blocks of the same
    seeds; then, for each flat variant, whether it played the engine's very games and
    agrees in distribution with both."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--games", type=int, default=600, help="games per engine, in interleaved blocks of 100")
    ap.add_argument("--parts", action="store_true", help="the flat game with less and less of what ruledsl does")
    args = ap.parse_args(argv)
    path, players, module = bench.BASELINES[game]
    program = load_game(str(ROOT / path)).program
    engines = {"engine": partial(bench.ruledsl_game, program, players)}
    for name, flags in (PARTS.items() if args.parts else [("flat", {})]):
        engines[name] = partial(flat_game, laid_out(program, players, **flags))
    engines["hand-written"] = partial(bench.handwritten_game, module, players)
    flats = [name for name in engines if name.startswith("flat")]
    spent, records = Counter(), {name: [] for name in engines}
    for block in range(0, max(1, args.games // 100) * 100, 100):  # interleaved blocks: load changes favour none
        for name, playout in engines.items():  # each engine the same seeds: the engine and a flat game, the same games
            rngs = [random.Random(seed) for seed in range(block, block + 100)]
            start = time.perf_counter()
            records[name] += [playout(rng) for rng in rngs]
            spent[name] += time.perf_counter() - start
    games = {name: Counter(records[name]) for name in engines}
    rate = {name: len(records[name]) / spent[name] for name in engines}
    per_decision = {name: sum(r[0] for r in records[name]) / spent[name] for name in engines}
    for name in engines:
        print(f"{name:33} {rate[name]:7.1f} games/s {rate[name] / rate['hand-written']:6.3f}x hand-written "
              f"({per_decision[name] / per_decision['hand-written']:.3f}x a decision) "
              f"{rate[name] / rate['engine']:5.2f}x engine   {bench.summary(games[name], players)}")
    for name in flats:  # the same calls of the same Random as the engine's: the same game, seed by seed
        same = sum(ours == theirs for ours, theirs in zip(records[name], records["engine"]))
        print(f"{name}: the engine's very game in {same} of {len(records[name])} seeds")
        for other in ("hand-written", "engine"):
            checks = bench.distributions_agree(games[name], games[other])
            print(f"  against {other}: " + "; ".join(f"{what} {'agree' if ok else 'DISAGREE'} ({text})"
                                                     for what, text, ok in checks))


def main(argv=None):
    race(argv, "mafialand", mafialand_flat, __doc__)


if __name__ == "__main__":
    main()
