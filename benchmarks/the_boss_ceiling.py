"""A ceiling for issue 12: The Boss by the best back end that still plays the rules as written.

mafialand_ceiling.py measured it for Mafialand; this is the same measurement for a second,
different game: games/the_boss.game (3 players, random agents), against
benchmarks/handwritten/the_boss.py. `the_boss_flat` is the game's setup and flow as one
Python generator in the shape a back end specialised to the game could emit: Python locals;
players' fields and the board's `in_play` as lists; bosses, city cards, police cards and cubes
as numbers with their fixed attributes in lists (`Layout`); zones as lists, each one's top at
index 0, and the zone each city card lies in (the engine's `loc`); a decision as a `yield`
(whole_rule_ceiling.py). It still evaluates each def where and as the game file says (`mine`
counts the cubes on a boss each time it is asked, `bigs` the reserve, `rank` the bosses),
offers the same decisions with the same options in the same order, and draws from the game's
one Random where ruledsl does; it leaves out `say`, reveals, chance reports and clone(). So
its speed bounds what any compiler of the rules as written could reach. The game has no
`end when`: nothing is looked at before a decision or at a turn boundary, in ruledsl either.

    python3 benchmarks/the_boss_ceiling.py [--games 600] [--parts]

The race, its `--parts` and its checks are mafialand_ceiling.py's (`race`): each flat
variant must play the engine's very game seed by seed.
"""
from __future__ import annotations

import sys
from operator import countOf
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench  # noqa: E402
from mafialand_ceiling import YES_NO, race  # noqa: E402
from ruledsl import budget  # noqa: E402
from whole_rule_ceiling import Pending  # noqa: E402

PLAYERS = 3
BADGES, OVERTIME = "the third matching police badge ended the game", "the game ended after overtime"  # the `end`s


class Layout:
    """the_boss.game's board, cards and knobs as a back end specialised to it could lay them
    out, made once per program: the bosses as numbers in the board's order (Chicago last)
    with their number; the city cards (0..26) with their boss, value, effect and label; the
    lineups with their player count, code and label; the police cards with their badges; the
    cubes with their owner and whether they are big (`def big(c) = c.n <= BIG_EACH`, on fixed
    attributes only)."""

    def __init__(self, program, players):
        board, cards, ids = program.boards["boss"], program.cards, program.cardset_ids
        self.boss_names = list(board.spaces)  # a boss's label is its name (a space offered is its own label)
        self.number = [board.attrs_of_space["number"][b] for b in board.spaces]
        self.chicago, self.cincinnati = self.boss_names.index("chicago"), self.boss_names.index("cincinnati")
        effects = program.enums["effect"]
        self.bags, self.revolver, self.prison, self.hospital, self.banished = map(effects.index, (
            "bags", "revolver", "prison", "hospital", "banished"))
        city = [cards[c] for c in ids["city"]]
        self.city_boss = [self.boss_names.index(c.attrs["boss"]) for c in city]
        self.value = [c.attrs["value"] for c in city]
        self.what = [effects.index(c.attrs["what"]) for c in city]
        self.city_labels = [c.label for c in city]  # no two alike: a hand is offered whole (decide.py's _dedupe)
        lineup = [cards[c] for c in ids["lineup"]]
        self.lineup_players = [c.attrs["players"] for c in lineup]
        self.code = [c.attrs["code"] for c in lineup]
        self.lineup_labels = [c.label for c in lineup]
        police = [cards[c] for c in ids["police"]]
        self.blue, self.red = [c.attrs["blue"] for c in police], [c.attrs["red"] for c in police]
        self.consts = consts = program.new_world(players).consts
        cubes = [cards[c] for c in ids["cube"]]
        self.cube_owner = [c.attrs["owner"] for c in cubes]
        self.cube_n = [c.attrs["n"] for c in cubes]
        self.big = [n <= consts["BIG_EACH"] for n in self.cube_n]


def the_boss_flat(program, players=PLAYERS, labels=True, charges=True, pauses=True):
    """The game's flow on the Layout, as one generator, each rule written in place and named.
    `flow` and `play_round` are one loop (a round while another_round(), then overtime rounds
    while the leaders tie), and so are play_round's two loops of turns (clockwise while
    somebody holds two cards, then flip_police and the last turn by reserve): play_turn and
    place are written once. Nobody is ever eliminated in this game (it has no `eliminate`), so
    every seat plays every turn. Each flag off drops a part: the labels; the units of work,
    charged about as ruledsl charges them (one a loop turn, a rule or def call, an item an
    aggregate visits, a choose labels or a range holds, DRAW_COST a card drawn, SHUFFLE_COST
    one shuffled: budget.py), to a local never checked; the pauses."""
    g = Layout(program, players)
    SCORE_MARKER, CHICAGO_START, BADGES_TO_END, DIVISOR, MAX_OVERTIME = (g.consts[k] for k in (
        "SCORE_MARKER", "CHICAGO_START", "BADGES_TO_END", "CHICAGO_DIVISOR", "MAX_OVERTIME"))
    n, seats, bosses, B = players, range(players), range(len(g.number)), len(g.number)
    CHICAGO, CINCINNATI, DRAW, SHUFFLE = g.chicago, g.cincinnati, budget.DRAW_COST, budget.SHUFFLE_COST
    number_labels = [str(v) for v in range(len(g.cube_owner) + 1)]
    lineups = [c for c, k in enumerate(g.lineup_players) if k == n]  # `where l.players == player_count`: fixed
    place_may = [Pending(p, ["place gangsters", "pass"], YES_NO) for p in seats]  # made once, as ruledsl's

    def flow(game):
        randrange, shuffle = game.rng.randrange, game.rng.shuffle
        number, city_boss, value, what, city_labels = g.number, g.city_boss, g.value, g.what, g.city_labels
        cube_owner, big, boss_names, blue, red = g.cube_owner, g.big, g.boss_names, g.blue, g.red
        owner_of, big_of = cube_owner.__getitem__, big.__getitem__
        # player { points round_points placed_elsewhere token barred } (token: read by nothing, left out)
        points, round_points, elsewhere, barred = [0] * n, [0] * n, [False] * n, [False] * n
        in_play = [False] * B  # board boss { field in_play }
        # shared { dealer chicago_pos last_round overtime } (round and turn: read by nothing, left out)
        dealer, chicago_pos, last_round, overtime = 0, CHICAGO_START, False, 0
        # the zones, each one's top at index 0; every card starts in its set's first zone
        box, deck, claimed = list(range(len(city_boss))), [], []
        reward, shown = [[] for _ in bosses], [[] for _ in bosses]
        hand = [[] for _ in seats]
        where = [box] * len(city_boss)  # the zone each city card lies in (ruledsl's loc): `move` takes it from there
        police_deck, police_up = list(range(len(g.blue))), []
        unused, dead, gone = list(range(len(cube_owner))), [], []
        reserve, track, hospital_bed, prison_first, prison_second = ([[] for _ in seats] for _ in range(5))
        gang = [[] for _ in bosses]
        steps, work = 0, budget.GAME_WORK

        def offer(seat, values, names):  # a decision among values, each labelled by its name (the labels part)
            return Pending(seat, [names[v] for v in values] if labels else values, values)

        def has_digit(code, d):  # def has_digit(code, d): recursing on code / 10
            nonlocal work
            charges and (work := work - 1)
            return False if code == 0 else True if code % 10 == d else has_digit(code // 10, d)

        def beats(p, b, k):  # def beats(p, b, n) = mine(p, b) + n > best_other(p, b)
            nonlocal work
            cubes = gang[b]
            charges and (work := work - n * (1 + len(cubes)))  # the call, mine(p, b), opponents(p), their mine(q, b)
            mine = countOf(map(owner_of, cubes), p) + k  # mine(p, b) = count(c in gang[b] where c.owner == p.seat)
            best = 0  # best_other(p, b) = max(q in opponents(p): mine(q, b)), 0 without opponents
            for q in seats:
                if q != p:
                    m = countOf(map(owner_of, cubes), q)
                    if m > best:
                        best = m
            return mine > best

        def rank(b):  # def rank(b) = count(o in boss where local(o) and o.number < b.number)
            nonlocal work
            charges and (work := work - B)
            k = 0
            for o in bosses:
                if in_play[o] and o != CHICAGO and number[o] < number[b]:
                    k += 1
            return k

        def position(b):  # def position(b)
            nonlocal work
            charges and (work := work - 1)
            return chicago_pos if b == CHICAGO else rank(b) if rank(b) < chicago_pos else rank(b) + 1

        def chicago_take():  # def chicago_take() = sum(b in boss where local(b) and rank(b) < chicago_pos and ...)
            nonlocal work
            charges and (work := work - (1 + B))
            total = 0
            for b in bosses:
                if in_play[b] and b != CHICAGO and rank(b) < chicago_pos and len(shown[b]) > 0:
                    total += value[shown[b][0]]  # top(shown[b]).value
            return total // DIVISOR

        def top_points():  # def top_points() = max(p in players: p.points)
            return max(points)

        def top_round():  # def top_round() = max(p in players where p.points == top_points(): p.round_points)
            return max([round_points[p] for p in seats if points[p] == top_points()], default=0)

        def top_reserve():  # def top_reserve(), as written: top_points() and top_round() for each player
            return max([len(reserve[p]) for p in seats if points[p] == top_points()
                        and round_points[p] == top_round()], default=0)

        def leaders_tied():  # def leaders_tied() = count(p in players where ... ) > 1
            nonlocal work
            charges and (work := work - (1 + n * (1 + 2 * n)))
            return [points[p] == top_points() and round_points[p] == top_round() and len(reserve[p]) == top_reserve()
                    for p in seats].count(True) > 1

        # rule setup(): TB-01 ten cubes per player, cube SCORE_MARKER on the score track
        charges and (work := work - (len(cube_owner) + SHUFFLE * len(police_deck) + 2 * len(lineups) + B + n))
        for c in range(len(cube_owner)):
            if cube_owner[c] < n:
                unused.remove(c)
                (track if g.cube_n[c] == SCORE_MARKER else reserve)[cube_owner[c] % n].insert(0, c)  # seat(c.owner)
        shuffle(police_deck)  # shuffle police_deck
        steps += 1  # choose l from lineup where l.players == player_count by dealer as "boss cards"
        lineup = lineups[(yield offer(dealer, lineups, g.lineup_labels)) if pauses else randrange(len(lineups))]
        for b in bosses:  # b.in_play = b == chicago or has_digit(l.code, b.number)
            in_play[b] = b == CHICAGO or has_digit(g.code[lineup], number[b])
        # (if cincinnati.in_play { p.token = true }: token is read by nothing)

        while True:  # rule flow(): while another_round() { play_round() }, then overtime
            if last_round:  # another_round() = not last_round
                if not (leaders_tied() and overtime < MAX_OVERTIME):  # while leaders_tied() and overtime < ...
                    break
                overtime += 1
            charges and (work := work - 3)  # the loop's turn, play_round's call, start_round's
            # rule start_round()
            for p in seats:
                elsewhere[p] = False
                round_points[p] = 0
            for c in range(len(city_boss)):  # for c in city { if c.boss.in_play { move c to deck } }
                if in_play[city_boss[c]]:
                    where[c].remove(c)
                    deck.insert(0, c)
                    where[c] = deck
            charges and (work := work - (n + len(city_boss) + B + 2 * SHUFFLE * len(deck)))
            shuffle(deck)
            for b in bosses:  # if local(b) { move first(c in deck where c.boss == b) to reward[b] }
                if in_play[b] and b != CHICAGO:
                    charges and (work := work - len(deck))
                    for c in deck:
                        if city_boss[c] == b:
                            break
                    deck.remove(c)
                    reward[b].insert(0, c)
                    where[c] = reward[b]
            shuffle(deck)
            order = [(dealer + 1 + k) % n for k in seats]  # for p in players from next_player(dealer)
            charges and (work := work - (len(deck) // n) * (1 + n * (1 + DRAW)))
            for _ in range(len(deck) // n):  # repeat size(deck) / player_count { ... draw 1 from deck ... }
                for p in order:
                    c = deck.pop(0)
                    hand[p].insert(0, c)
                    where[c] = hand[p]
            # rule play_round(): while any(p in players: size(hand[p]) > 1) { for p in players from dealer },
            # then flip_police() and for p in players by size(reserve[p]) desc from dealer: one loop here
            clockwise = [(dealer + k) % n for k in seats]
            while True:
                charges and (work := work - (1 + n))
                busy = any([len(hand[p]) > 1 for p in seats])
                if not busy:
                    if not last_round:  # rule flip_police(): draw 1 from police_deck to police_up
                        police_up.insert(0, police_deck.pop(0))
                        charges and (work := work - (2 + DRAW + 2 * len(police_up)))  # (both sums charged)
                        # if badges_blue() >= BADGES_TO_END or badges_red() >= BADGES_TO_END
                        if sum([blue[c] for c in police_up]) >= BADGES_TO_END or \
                                sum([red[c] for c in police_up]) >= BADGES_TO_END:  # sum(c in police_up: c.red)
                            last_round = True
                    clockwise = sorted(clockwise, key=lambda p: len(reserve[p]), reverse=True)  # stable: ties clockwise
                for p in clockwise:  # rule play_turn(p)
                    res = reserve[p]
                    charges and (work := work - (2 + len(res) + B))  # the turn, the call, bigs(p), any(b in boss)
                    # may p "place gangsters" if bigs(p) > 0 and any(b in boss: can_take(p, b))
                    offered = False
                    if countOf(map(big_of, res), True) > 0:  # bigs(p) = count(c in reserve[p] where big(c))
                        for b in bosses:  # can_take(p, b) = allowed_at(p, b) and beats(p, b, size(reserve[p]))
                            charges and (work := work - 1)
                            if in_play[b] and not (b == CINCINNATI and barred[p]) and (b != CHICAGO or elsewhere[p]) \
                                    and beats(p, b, len(res)):  # allowed_at(p, b), written in place
                                offered = True
                                break
                    if offered:
                        steps += 1
                        if ((yield place_may[p]) if pauses else randrange(2)) == 0:
                            # rule place(p): choose b from boss where can_take(p, b) by p as "boss"
                            charges and (work := work - (1 + 2 * B))
                            options = [b for b in bosses if in_play[b] and not (b == CINCINNATI and barred[p])
                                       and (b != CHICAGO or elsewhere[p]) and beats(p, b, len(res))]
                            steps += 1
                            b = options[(yield offer(p, options, boss_names)) if pauses else randrange(len(options))]
                            # choose n from 1..size(reserve[p]) where beats(p, b, n) by p as "cubes to add"
                            counts = [k for k in range(1, len(res) + 1) if beats(p, b, k)]
                            charges and (work := work - (2 * len(res) + len(counts)))
                            steps += 1
                            k = counts[(yield offer(p, counts, number_labels)) if pauses else randrange(len(counts))]
                            lo = max(0, k - countOf(map(big_of, res), True))  # let lo = max(0, n - bigs(p))
                            hi = min(countOf(map(big_of, res), False), k - 1)  # let hi = min(smalls(p), n - 1)
                            s = lo
                            charges and (work := work - 2 * len(res))
                            if hi > lo:  # choose k from lo..hi by p as "small cubes among them"
                                smalls = list(range(lo, hi + 1))
                                charges and (work := work - 2 * len(smalls))
                                steps += 1
                                s = smalls[(yield offer(p, smalls, number_labels)) if pauses else
                                           randrange(len(smalls))]
                            to = gang[b]
                            charges and (work := work - k * (1 + len(res)))
                            for _ in range(k - s):  # repeat n - s { move first(c in reserve[p] where big(c)) ... }
                                for c in res:
                                    if big[c]:
                                        break
                                res.remove(c)
                                to.insert(0, c)
                            for _ in range(s):  # repeat s { move first(c in reserve[p] where not big(c)) ... }
                                for c in res:
                                    if not big[c]:
                                        break
                                res.remove(c)
                                to.insert(0, c)
                            if b != CHICAGO:
                                elsewhere[p] = True
                    # choose c from hand[p] by p as "card to reveal"; move c to shown[c.boss]
                    cards = hand[p]  # (answered before the hand changes: offered as it lies, not copied)
                    charges and (work := work - len(cards))
                    steps += 1
                    c = cards[(yield offer(p, cards, city_labels)) if pauses else randrange(len(cards))]
                    cards.remove(c)
                    to = where[c] = shown[city_boss[c]]
                    to.insert(0, c)
                if not busy:
                    break
            # rule end_round(); first rule release(): draw all from prison_second[p] to reserve[p], ...
            charges and (work := work - (3 + n + B))
            for p in seats:
                for src, dst in ((prison_second[p], reserve[p]), (prison_first[p], prison_second[p]),
                                 (hospital_bed[p], reserve[p])):
                    charges and (work := work - DRAW * len(src))
                    for _ in range(len(src)):
                        dst.insert(0, src.pop(0))
            for b in sorted(bosses, key=position):  # for b in boss by position(b) { if b.in_play { resolve(b) } }
                if not in_play[b]:
                    continue
                # rule resolve(b): let h = holder(b) = best(p in players where mine(p, b) > 0: mine(p, b))
                cubes = gang[b]
                charges and (work := work - (2 + n * (1 + len(cubes))))
                h = top = None
                for p in seats:
                    if countOf(map(owner_of, cubes), p) > 0:
                        m = countOf(map(owner_of, cubes), p)
                        if top is None or m > top:
                            h, top = p, m
                if b == CHICAGO:  # TB-07: half the last cards to the left; no card claimed
                    if h is not None:
                        take = chicago_take()  # gain(h, chicago_take())
                        charges and (work := work - 1)
                        points[h] += take
                        round_points[h] += take
                    continue
                if h is None:  # nobody holds the city: the reward stays face down
                    continue
                r = reward[b].pop(0)  # let r = top(reward[b]); move r to claimed
                claimed.insert(0, r)
                where[r] = claimed
                if what[r] == g.bags:
                    charges and (work := work - 1)
                    points[h] += value[r]  # gain(h, r.value)
                    round_points[h] += value[r]
                    continue
                charges and (work := work - len(cubes))
                for victim in cubes:  # let victim = first(c in gang[b] where c.owner == h.seat and big(c))
                    if cube_owner[victim] == h and big[victim]:
                        break
                else:
                    victim = None
                if what[r] == g.revolver:  # move victim to dead
                    cubes.remove(victim)
                    dead.insert(0, victim)
                elif what[r] == g.prison:  # move victim to prison_first[h]
                    cubes.remove(victim)
                    prison_first[h].insert(0, victim)
                elif what[r] == g.hospital:  # move victim to hospital_bed[h]
                    cubes.remove(victim)
                    hospital_bed[h].insert(0, victim)
                elif what[r] == g.banished:  # h.barred = true (h.token = false: read by nothing)
                    barred[h] = True
            # rule cleanup(): for b in boss { for c in gang[b] { big back to the reserve, small to gone } }
            charges and (work := work - (1 + B + sum(map(len, gang))))
            for cubes in gang:
                for c in list(cubes):
                    cubes.remove(c)
                    (reserve[cube_owner[c] % n] if big[c] else gone).insert(0, c)
            charges and (work := work - (1 + B))
            if chicago_pos < [in_play[b] and b != CHICAGO for b in bosses].count(True):  # locals_in_play()
                chicago_pos += 1
            dealer = (dealer + 1) % n  # dealer = next_player(dealer)
        # end "...": the best (points, round_points, size(reserve)) wins, ties shared (score, tiebreaks)
        keys = [(points[p], round_points[p], len(reserve[p])) for p in seats]
        best = max(keys)
        outcome = bench.outcome_of([1 if k == best else 0 for k in keys])
        game.result = (steps, OVERTIME if overtime > 0 else BADGES, outcome)  # end "the game ended after overtime"
    return flow


def main(argv=None):
    race(argv, "the_boss", the_boss_flat, __doc__)


if __name__ == "__main__":
    main()
