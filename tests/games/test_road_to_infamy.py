"""Road to Infamy scenarios: the rulebook's EXAMPLE HAND, one scenario per bid action,
and scenarios for the checklist rules RI-01..RI-10.

Chance is fixed (tests/scenario.py): shuffles keep the listed order, so the gangster
deck is the Bookie, the Fence, ... with Pistol Jim (the first starred card) moved to
the bottom, the brawl deck is brawl 4, 3, 2, 1 from the top, and the bag and the bid
deck are in listed order. Each scenario sets the hands it needs with `hand_of`.
"""
import pytest

from ruledsl.runtime.machine import Machine, RandomChance
from support import ROOT, drive, labels, random_playout, start
from ruledsl.pipeline import load_game

GAME = "games/road_to_infamy.game"
POOLS = ("bids", "bid_discard")  # where hand_of takes cards from


# ---------------------------------------------------------------- helpers
def new_game(players=2, gangs=("booze", "cigars", "jewels", "guns")):
    """A game after the gang choices, at the first launder decision of hand 1."""
    m = start(GAME, players)
    drive(m, *[("gang", g) for g in gangs[:players]])
    assert m.pending.name == "launder"
    for seat in range(players):  # scenarios deal the hands they need with hand_of
        for c in list(m.w.zones[("hand", seat)]):
            m.w.put(c, ("bids", None), bottom=True)
    m.events = []
    m.listener = lambda kind, data: m.events.append(data.get("text", ""))
    return m


def cid(m, label, pools=POOLS):
    """A card with this label lying in one of the pool zones."""
    for c in m.program.cards:
        if c.label == label and m.w.loc.get(c.id, (None,))[0] in pools:
            return c.id
    raise AssertionError(f"no free {label!r}")


def hand_of(m, seat, *bid_labels):
    """Replaces a seat's hand with the named bids (the old hand goes under the deck)."""
    for c in list(m.w.zones[("hand", seat)]):
        m.w.put(c, ("bids", None), bottom=True)
    for lab in bid_labels:
        m.w.put(cid(m, lab), ("hand", seat))


def on_top_of_deck(m, label):
    m.w.put(cid(m, label), ("bids", None))


def recruit(m, seat, name, active=True):
    """Gives a seat a gangster (from wherever it is), active or not yet."""
    g = next(c.id for c in m.program.cards if c.label == name)
    m.w.put(g, ("crew", seat))
    m.w.cardf["active"][g] = active
    return g


def for_hire(m, name):
    """Puts the named gangster up for grabs instead of the one flipped."""
    for g in list(m.w.zones[("for_hire", None)]):
        m.w.put(g, ("gdeck", None))
    m.w.put(next(c.id for c in m.program.cards if c.label == name), ("for_hire", None))


def set_brawl_deck(m, *values):
    """The brawl deck from the top (identity shuffles keep this order)."""
    m.w.zones[("brawl_deck", None)] = [
        next(c.id for c in m.program.cards if c.label == f"brawl {v}") for v in values]


def deal_and_bid(m, *hands, turns=None):
    """Deals each seat its hand, everyone passes the launder, then the first `turns`
    bids of each hand are played, one turn at a time (all of them by default)."""
    for seat, hand in enumerate(hands):
        hand_of(m, seat, *hand)
    pass_launder(m)
    for t in range(len(hands[0]) if turns is None else turns):
        bids(m, *[hand[t] for hand in hands])


def pass_launder(m):
    for _ in range(m.w.n):
        drive(m, ("launder", "pass"))


def bids(m, *per_seat):
    """One bidding turn: each seat's sealed bid, in seat order."""
    for lab in per_seat:
        assert m.pending.secret, "bids are sealed"
        drive(m, ("bid", lab))


def played(m, seat):
    return labels(m, "played", seat)


def gang(m, seat):
    return sorted(labels(m, "gang", seat))


def total(m, seat, colour):
    prog = m.program
    return sum(prog.cards[c].attrs["value"] for c in m.w.zones[("played", seat)]
               if m.w.cardf["on"][c] == colour)


def said(m, fragment):
    return any(fragment in e for e in m.events)


# ---------------------------------------------------------------- the EXAMPLE HAND
def test_example_hand_from_the_rulebook():
    """TURN 1: both reveal. TURN 2: your Sabotage has no effect (opponent bid blue).
    TURN 3: your Bust; opponent's second blue 4 makes his Cop total 8. You win the Cop
    (he is disqualified) and he loses a Jewel; you win the Contraband 5 to 0; he wins
    the Gangster 3 to 2 and takes the Mob Boss."""
    m = new_game(2)
    m.w.shared["cop"] = "jewels"  # not the first hand: the Cop marker is on Jewels
    for_hire(m, "Pistol Jim (Mob Boss)")
    hand_of(m, 0, "green 5", "Sabotage (red 2)", "Bust (blue 1)")
    hand_of(m, 1, "red 3", "blue 4", "blue 4")
    prize = labels(m, "prize")
    pass_launder(m)
    bids(m, "green 5", "red 3")
    bids(m, "Sabotage (red 2)", "blue 4")
    assert played(m, 1) == ["blue 4", "red 3"]  # the Sabotage discarded nothing
    assert said(m, "Sabotage has no effect")
    bids(m, "Bust (blue 1)", "blue 4")
    # determine winners: the Cop first
    assert m.pending.name == "cop marker" and m.pending.seat == 0  # you won the Cop
    assert total(m, 1, "blue") == 8 and m.w.players[1]["busted"]
    assert not m.w.players[0]["busted"]
    assert gang(m, 1) == ["booze", "cigars", "guns"]   # the Jewel is confiscated
    assert gang(m, 0) == ["booze", "cigars", "guns", "jewels"]  # you are safe
    assert total(m, 0, "green") == 5 and total(m, 1, "green") == 0
    assert total(m, 0, "red") == 2 and total(m, 1, "red") == 3
    drive(m, ("cop marker", "cigars"))
    assert m.w.shared["cop"] == "cigars"
    assert sorted(gang(m, 0)) == sorted(["booze", "cigars", "guns", "jewels"] + prize)
    assert labels(m, "crew", 1) == ["Pistol Jim (Mob Boss)"]


# ---------------------------------------------------------------- RI-01 setup
def test_ri01_setup_components_and_deal():
    m = start(GAME, 4)
    assert m.pending.name == "gang" and m.pending.labels == ["booze", "jewels", "cigars", "guns"]
    drive(m, ("gang", "guns"))
    assert m.pending.labels == ["booze", "jewels", "cigars"]  # a gang is chosen once
    drive(m, ("gang", "booze"), ("gang", "jewels"), ("gang", "cigars"))
    prog = m.program
    assert sum(1 for c in prog.cards if c.set == "bid") == 57
    assert sum(1 for c in prog.cards if c.set == "token") == 52
    assert sum(1 for c in prog.cards if c.set == "gangster") == 12
    assert sum(1 for c in prog.cards if c.set == "brawl_card") == 4
    values = sorted({c.attrs["value"] for c in prog.cards if c.set == "bid"})
    assert values == [1, 2, 3, 4, 5]
    for seat in range(4):
        assert gang(m, seat) == ["booze", "cigars", "guns", "jewels"]
        # six dealt; nobody has laundered yet (seat 0 is being asked now)
        assert len(labels(m, "hand", seat)) == 6
    assert [p["favoured"] for p in m.w.players] == ["guns", "booze", "jewels", "cigars"]
    # 52 - 16 held - 2 on the Contraband spaces
    assert len(m.w.zones[("bag", None)]) == 52 - 16 - 2
    # one of the three starred gangsters is at the bottom of the deck
    bottom = m.w.zones[("gdeck", None)][-1]
    assert prog.cards[bottom].attrs["starred"]


def test_ri01_a_random_starred_gangster_goes_to_the_bottom():
    game = load_game(str(ROOT / GAME))
    bottoms = set()
    for seed in range(12):
        m = Machine(game.program, 2, RandomChance(seed))
        m.choose_index(0)
        m.choose_index(0)
        bottom = m.w.zones[("gdeck", None)][-1]
        assert game.program.cards[bottom].attrs["starred"]
        bottoms.add(game.program.cards[bottom].label)
    assert len(bottoms) == 3


def test_ri01_favoured_contraband_counts_double():
    m = new_game(2)
    assert m.program.score(m.w, 0) == 5  # one of each type, booze counts 2
    m.w.put(cid(m, "booze", pools=("bag",)), ("gang", 0))
    m.w.put(cid(m, "guns", pools=("bag",)), ("gang", 0))
    assert m.program.score(m.w, 0) == 5 + 2 + 1


# ---------------------------------------------------------------- RI-02 prepare
def test_ri02_each_hand_draws_two_tokens_and_flips_a_gangster():
    m = new_game(2)
    assert labels(m, "prize") == ["booze", "booze"]  # the top two of the bag
    assert labels(m, "for_hire") == ["the Bookie"]
    assert len(m.w.zones[("gdeck", None)]) == 11
    deal_and_bid(m, ["red 1", "red 2", "red 3"], ["green 1", "green 2", "green 3"])
    drive(m, ("cop marker", "guns"))  # a 0-0 Cop tie, brawled: seat 0 flips brawl 4
    assert m.w.shared["round"] == 2
    assert labels(m, "for_hire") == ["the Fence"]
    assert len(labels(m, "prize")) == 2
    assert len(m.w.zones[("gdeck", None)]) == 10


# ---------------------------------------------------------------- RI-03 launder
def test_ri03_launder_discards_one_then_draws_one():
    m = new_game(2)
    hand_of(m, 0, "red 1", "red 2", "red 3")
    on_top_of_deck(m, "blue 5")
    drive(m, ("launder", "launder"))
    assert m.pending.name == "launder bid" and sorted(m.pending.labels) == ["red 1", "red 2", "red 3"]
    drive(m, ("launder bid", "red 1"))
    assert labels(m, "bid_discard") == ["red 1"]
    assert sorted(labels(m, "hand", 0)) == ["blue 5", "red 2", "red 3"]


def test_ri03_laundering_is_a_swap_and_not_laundering_draws_nothing():
    """STEP 2: "players may optionally discard one Bid ... Then draw one new Bid." A swap:
    seat 0 discards one and draws one (its hand keeps 3 bids), seat 1 passes and draws
    nothing (its hand keeps 3 bids too, and the deck loses only seat 0's draw)."""
    m = new_game(2)
    hand_of(m, 0, "red 1", "red 2", "red 3")
    hand_of(m, 1, "green 1", "green 2", "green 3")
    deck = len(m.w.zones[("bids", None)])
    drive(m, ("launder", "launder"), ("launder bid", "red 1"), ("launder", "pass"))
    assert m.pending.name == "bid"  # the bidding turn follows the launder
    assert len(labels(m, "hand", 0)) == 3
    assert sorted(labels(m, "hand", 1)) == ["green 1", "green 2", "green 3"]
    assert labels(m, "bid_discard") == ["red 1"]
    assert len(m.w.zones[("bids", None)]) == deck - 1


def test_ri03_hands_keep_their_size_from_hand_to_hand():
    """Six bids at the start of every hand: laundering swaps one for one, three are
    played and three are drawn at the reset (no Fraud, no Bookie here)."""
    m = new_game(2)
    hand_of(m, 0, "red 1", "red 2", "red 3", "red 4", "red 5", "green 4")
    hand_of(m, 1, "green 1", "green 2", "green 3", "blue 2", "blue 3", "blue 4")
    drive(m, ("launder", "launder"), ("launder bid", "green 4"), ("launder", "pass"))
    bids(m, "red 1", "green 1")
    bids(m, "red 2", "green 2")
    bids(m, "red 3", "green 3")
    drive(m, ("cop marker", "guns"))
    assert m.w.shared["round"] == 2 and m.pending.name == "launder"
    assert len(labels(m, "hand", 0)) == 6 and len(labels(m, "hand", 1)) == 6


# ---------------------------------------------------------------- RI-04 sealed bids
def test_ri04_bids_are_sealed_until_all_are_revealed_together():
    m = new_game(2)
    deal_and_bid(m, ["red 5", "green 1"], ["blue 3", "green 2"], turns=0)
    assert m.pending.secret and m.pending.seat == 0
    drive(m, ("bid", "red 5"))
    # seat 1 decides now: its view shows seat 0's pick only as a face-down count
    view = m.w.snapshot(1)
    assert view["zones"]["ready/seat 0"] == {"count": 1}
    assert view["zones"]["played/seat 0"] == []
    assert "red 5" not in str({k: v for k, v in view["zones"].items() if k != "bid_discard"})
    assert m.pending.secret and m.pending.seat == 1
    drive(m, ("bid", "blue 3"))
    # revealed together, each on its colour's space
    assert played(m, 0) == ["red 5"] and played(m, 1) == ["blue 3"]
    assert m.w.snapshot(1)["zones"]["played/seat 0"] == ["red 5"]
    assert total(m, 0, "red") == 5 and total(m, 1, "blue") == 3
    assert labels(m, "ready", 0) == [] and labels(m, "ready", 1) == []


def test_ri04_three_bidding_turns_per_hand():
    m = new_game(2)
    deal_and_bid(m, ["red 1", "red 2", "red 3", "red 4"],
                 ["green 1", "green 2", "green 3", "green 4"], turns=0)
    for _ in range(3):
        assert m.pending.name == "bid"
        bids(m, labels(m, "hand", 0)[0], labels(m, "hand", 1)[0])
    assert m.pending.name == "cop marker"  # then the winners, not a fourth bid


# ---------------------------------------------------------------- RI-05 winners
def play_hand(m, seat0, seat1, marker="guns"):
    deal_and_bid(m, seat0, seat1)
    if m.pending and m.pending.name == "cop marker":
        drive(m, ("cop marker", marker))


def test_ri05_first_hand_cop_is_neutral():
    m = new_game(2)
    play_hand(m, ["blue 5", "red 1", "red 2"], ["green 1", "green 2", "green 3"], marker="booze")
    assert gang(m, 0) == ["booze", "cigars", "guns", "jewels"]
    assert len(labels(m, "gang", 1)) == 4 + 2  # nobody lost anything; seat 1 took the prize
    assert m.w.shared["cop"] == "booze"  # the cop winner chose next hand's type
    assert said(m, "the Cop is neutral")


def test_ri05_cop_confiscates_from_everyone_but_the_highest_cop_bid():
    m = new_game(3)
    m.w.shared["cop"] = "guns"
    deal_and_bid(m, ["blue 5", "red 1", "red 2"],
                 ["blue 4", "green 1", "green 2"],
                 ["green 3", "green 4", "green 5"])
    assert m.pending.name == "cop marker" and m.pending.seat == 0
    assert gang(m, 0) == ["booze", "cigars", "guns", "jewels"]
    assert gang(m, 1) == ["booze", "cigars", "jewels"]
    assert gang(m, 2) == ["booze", "cigars", "jewels"]
    assert labels(m, "box") == ["guns", "guns"]
    drive(m, ("cop marker", "jewels"))
    assert m.w.shared["cop"] == "jewels"


def test_ri05_contraband_just_won_is_safe_from_the_cop():
    m = new_game(2)
    m.w.shared["cop"] = "booze"
    for t in list(m.w.zones[("gang", 1)]):
        if m.program.cards[t].attrs["type"] == "booze":
            m.w.put(t, ("box", None))  # seat 1 has no booze left
    assert labels(m, "prize") == ["booze", "booze"]
    play_hand(m, ["blue 5", "red 1", "red 2"], ["green 1", "green 2", "green 3"])
    # seat 1 lost the Cop but keeps the two booze it just won
    assert gang(m, 1) == ["booze", "booze", "cigars", "guns", "jewels"]


def test_ri05_gangster_goes_to_the_highest_red_total_and_is_active_next_hand():
    m = new_game(2)
    for_hire(m, "the Enforcer")
    play_hand(m, ["red 4", "red 1", "blue 1"], ["red 3", "green 1", "green 2"])
    assert labels(m, "crew", 0) == ["the Enforcer"]
    g = m.w.zones[("crew", 0)][0]
    # hand 2 has started (prepare ran): the ability is active from now on
    assert m.w.shared["round"] == 2 and m.w.cardf["active"][g]


# ---------------------------------------------------------------- RI-06 ties
def test_ri06_tie_is_settled_by_a_brawl():
    m = new_game(2)
    set_brawl_deck(m, 1, 4, 2, 3)  # seat 0 flips brawl 1, seat 1 flips brawl 4
    play_hand(m, ["green 3", "red 1", "blue 1"], ["green 3", "red 2", "blue 2"])
    # green tied 3-3: seat 1 wins the brawl and the contraband
    assert len(labels(m, "gang", 1)) == 6 and len(labels(m, "gang", 0)) == 4
    assert said(m, "seat 0 flips brawl 1") and said(m, "seat 1 flips brawl 4")
    assert said(m, "a tie on green at 3: brawl!")
    assert not said(m, "a tie on red")
    assert len(m.w.zones[("brawl_deck", None)]) == 4  # the cards come back


def test_ri06_brawl_with_the_other_order_goes_the_other_way():
    m = new_game(2)
    set_brawl_deck(m, 4, 1, 2, 3)
    play_hand(m, ["green 3", "red 1", "blue 1"], ["green 3", "red 2", "blue 2"])
    assert len(labels(m, "gang", 0)) == 6 and len(labels(m, "gang", 1)) == 4


def test_ri06_three_way_tie_brawls_among_the_tied_players_only():
    m = new_game(3)
    set_brawl_deck(m, 2, 3, 4, 1)  # seats 1 and 2 are tied: they flip 2 and 3
    deal_and_bid(m, ["green 1", "red 5", "blue 5"],
                 ["green 4", "red 1", "blue 1"],
                 ["green 4", "red 2", "blue 2"])
    drive(m, ("cop marker", "guns"))
    assert not said(m, "seat 0 flips")
    assert said(m, "seat 1 flips brawl 2") and said(m, "seat 2 flips brawl 3")
    assert len(labels(m, "gang", 2)) == 6


# ---------------------------------------------------------------- RI-07 reset
def test_ri07_reset_discards_played_bids_and_everyone_draws_three():
    m = new_game(2)
    deal_and_bid(m, ["red 1", "red 2", "blue 1", "blue 2"],
                 ["green 1", "green 2", "green 3", "green 4"], turns=3)
    drive(m, ("cop marker", "guns"))
    # 4 - 3 played + 3 drawn (nobody laundered)
    assert len(labels(m, "hand", 0)) == 4 and len(labels(m, "hand", 1)) == 4
    assert sorted(labels(m, "bid_discard")) == ["blue 1", "green 1", "green 2", "green 3", "red 1", "red 2"]
    assert all(len(m.w.zones[("played", s)]) == 0 for s in (0, 1))
    # fields are back to their start values, so equal bids stay one choice
    assert all(m.w.card_fields(c) == {"on": "red", "turn": 0, "extra": False}
               for c in m.w.zones[("bid_discard", None)])


def test_ri07_the_discard_pile_is_reshuffled_when_the_deck_runs_out():
    m = new_game(2)
    hand_of(m, 0, "red 1", "red 2", "red 3")
    hand_of(m, 1, "green 1", "green 2", "green 3")
    for c in list(m.w.zones[("bids", None)])[:-1]:
        m.w.put(c, ("bid_discard", None))
    assert len(m.w.zones[("bids", None)]) == 1
    drive(m, ("launder", "launder"), ("launder bid", "red 1"))  # seat 0 takes the last bid
    assert len(m.w.zones[("bids", None)]) == 0 and len(labels(m, "hand", 0)) == 3
    drive(m, ("launder", "launder"), ("launder bid", "green 1"))  # seat 1's draw refills the deck
    assert len(labels(m, "hand", 1)) == 3
    assert labels(m, "bid_discard") == []  # the reshuffle took both laundered bids too
    assert len(m.w.zones[("bids", None)]) == 57 - 6


def test_ri07_every_played_bid_is_discarded_before_anyone_draws():
    """STEP 5: "Discard all Bids that have been played. ... All players draw 3 Bids.
    When the Bid deck runs out, shuffle the discard pile." Every seat's played bids are
    in the discard pile before the first draw, so when the deck is empty at the reset,
    seat 0's draw reshuffles all six played bids, not only its own three."""
    m = new_game(2)
    deal_and_bid(m, ["blue 1", "red 1", "red 2", "blue 2"],
                 ["green 1", "green 2", "green 3", "green 4"], turns=2)
    # seat 0 keeps its blue 2 and plays its red 2 now
    kept = [c for c in m.w.zones[("hand", 0)] if m.program.cards[c].label == "blue 2"]
    assert len(kept) == 1
    for c in list(m.w.zones[("bids", None)]):  # the deck is empty at the reset
        m.w.put(c, ("hand", 1))
    assert labels(m, "bid_discard") == []
    bids(m, "red 2", "green 3")
    drive(m, ("cop marker", "guns"))
    assert m.w.shared["round"] == 2 and m.pending.name == "launder"
    drawn = [c for c in m.w.zones[("hand", 0)] if c not in kept]
    # identity shuffles: the pile holds seat 0's bids under seat 1's, so seat 0 draws
    # seat 1's three (had seat 0 drawn before seat 1 discarded, it would get back its own)
    assert sorted(m.program.cards[c].label for c in drawn) == ["green 1", "green 2", "green 3"]
    assert len(m.w.zones[("bids", None)]) == 0 and labels(m, "bid_discard") == []

# ---------------------------------------------------------------- RI-08 the end
def test_ri08_the_game_ends_when_the_gangster_deck_runs_out():
    m = new_game(2)
    for g in list(m.w.zones[("gdeck", None)]):
        m.w.put(g, ("morgue", None))
    m.w.put(cid(m, "booze", pools=("bag",)), ("gang", 0))
    play_hand(m, ["red 1", "red 2", "blue 1"], ["green 1", "green 2", "green 3"])
    assert m.result is not None and m.result.reason == "the gangster deck ran out"
    # seat 0 (booze gang): two booze at 2 + three others = 7; the Bookie scores nothing.
    # seat 1 (cigars gang): cigars at 2 + three others + the prize's two booze = 7.
    # Equal scores share the victory (the rulebook names no tie-break).
    assert m.result.scores == [7, 7]
    assert m.result.winners == [0, 1]


def test_ri08_most_infamy_points_wins():
    m = new_game(2)
    for g in list(m.w.zones[("gdeck", None)]):
        m.w.put(g, ("morgue", None))
    play_hand(m, ["green 5", "red 2", "blue 1"], ["green 1", "red 1", "blue 2"])
    # seat 0 (booze gang) won the two booze: 5 + 4
    assert m.result.scores == [9, 5] and m.result.winners == [0]


# ---------------------------------------------------------------- RI-09 bid actions
def test_ri09_sabotage_discards_three_four_and_five_of_its_colour_this_turn():
    m = new_game(3)
    deal_and_bid(m, ["green 1", "Sabotage (red 2)", "green 2"],
                 ["red 5", "red 4", "green 3"],
                 ["green 4", "red 2", "green 5"], turns=2)
    assert "red 4" in labels(m, "bid_discard")
    assert played(m, 1) == ["red 5"]
    assert played(m, 2) == ["red 2", "green 4"]  # a red 2 is too small to sabotage
    assert played(m, 0) == ["Sabotage (red 2)", "green 1"]


def test_ri09_sabotage_spares_bids_moved_by_deceive():
    m = new_game(2)
    deal_and_bid(m, ["green 1", "Sabotage (red 2)", "blue 1"],
                 ["green 4", "Deceive (red 1)", "blue 2"], turns=2)
    drive(m, ("deceive", "deceive"), ("deceive from", "green"), ("deceive to", "red"))
    assert played(m, 1) == ["Deceive (red 1)", "green 4"]  # nothing was discarded
    assert total(m, 1, "red") == 5 and total(m, 1, "green") == 0


def test_ri09_bust_disqualifies_only_cop_totals_of_eight_or_more():
    m = new_game(3)
    m.w.shared["cop"] = "jewels"
    deal_and_bid(m, ["Bust (blue 1)", "red 1", "red 2"],
                 ["blue 4", "blue 4", "green 1"],
                 ["blue 5", "blue 2", "green 2"])
    # seat 1 (8) is disqualified; seat 2 (7) wins the Cop; bids are not discarded
    assert m.pending.name == "cop marker" and m.pending.seat == 2
    assert [p["busted"] for p in m.w.players] == [False, True, False]
    assert played(m, 1) == ["green 1", "blue 4", "blue 4"]
    assert gang(m, 0) == ["booze", "cigars", "guns"] and gang(m, 1) == ["booze", "cigars", "guns"]


def test_ri09_deceive_can_move_bids_away_from_a_bust():
    m = new_game(2)
    m.w.shared["cop"] = "jewels"
    deal_and_bid(m, ["Bust (blue 1)", "red 1", "red 2"], ["blue 4", "blue 4", "Deceive (green 1)"])
    drive(m, ("deceive", "deceive"), ("deceive from", "blue"), ("deceive to", "green"))
    assert total(m, 1, "blue") == 0 and total(m, 1, "green") == 9
    assert m.pending.name == "cop marker" and m.pending.seat == 0
    assert not m.w.players[1]["busted"]


def test_ri09_deceive_into_eight_or_more_can_be_busted():
    m = new_game(2)
    m.w.shared["cop"] = "jewels"
    deal_and_bid(m, ["Bust (blue 1)", "red 1", "red 2"], ["green 4", "green 5", "Deceive (blue 1)"])
    drive(m, ("deceive", "deceive"), ("deceive from", "green"), ("deceive to", "blue"))
    assert total(m, 1, "blue") == 10
    assert m.w.players[1]["busted"]
    assert m.pending.name == "cop marker" and m.pending.seat == 0


def test_ri09_deceive_may_be_declined():
    m = new_game(2)
    deal_and_bid(m, ["green 4", "Deceive (blue 1)", "red 1"], ["red 2", "red 3", "red 4"], turns=2)
    drive(m, ("deceive", "pass"))
    assert total(m, 0, "green") == 4 and total(m, 0, "blue") == 1


def gamble_drawing(drawn, other_bid):
    """Seat 0 plays Gamble (red 1) and draws `drawn`; seat 1 plays `other_bid`."""
    m = new_game(2)
    deal_and_bid(m, ["Gamble (red 1)", "red 2"], [other_bid, "green 2"], turns=0)
    on_top_of_deck(m, drawn)
    bids(m, "Gamble (red 1)", other_bid)
    return m


def test_ri09_gamble_draws_a_bid_that_plays_on_its_own_colour():
    m = gamble_drawing("blue 5", "green 1")
    assert played(m, 0) == ["blue 5", "Gamble (red 1)"]
    assert total(m, 0, "blue") == 5 and total(m, 0, "red") == 1


def test_ri09_gambled_bid_can_be_sabotaged():
    m = gamble_drawing("green 4", "Sabotage (green 2)")
    assert played(m, 0) == ["Gamble (red 1)"]
    assert labels(m, "bid_discard") == ["green 4"]


def test_ri09_gamble_does_not_use_the_drawn_bids_action():
    m = gamble_drawing("Sabotage (green 2)", "green 4")
    assert played(m, 1) == ["green 4"]  # the drawn Sabotage only adds 2 on green
    assert total(m, 0, "green") == 2 and total(m, 0, "red") == 1


def test_ri09_fraud_adds_an_extra_bid_from_hand():
    m = new_game(2)
    deal_and_bid(m, ["Fraud (blue 1)", "green 5", "red 2"],
                 ["green 1", "green 2", "green 3"], turns=1)
    assert m.pending.name == "fraud bid" and not m.pending.secret and m.pending.seat == 0
    drive(m, ("fraud bid", "green 5"))
    assert total(m, 0, "green") == 5 and total(m, 0, "blue") == 1
    assert labels(m, "hand", 0) == ["red 2"]  # the green 5 left the hand


def test_ri09_fraud_extra_bid_can_be_sabotaged():
    m = new_game(2)
    deal_and_bid(m, ["Fraud (blue 1)", "red 5", "red 2"],
                 ["Sabotage (red 2)", "green 2", "green 3"], turns=1)
    drive(m, ("fraud bid", "red 5"))
    assert played(m, 0) == ["Fraud (blue 1)"]
    assert labels(m, "bid_discard") == ["red 5"]


def test_ri09_assassinate_puts_aside_an_opponents_gangster():
    m = new_game(2)
    recruit(m, 1, "the Fence")
    recruit(m, 1, "the Muscle")
    deal_and_bid(m, ["Assassinate (red 1)", "red 2", "red 3"],
                 ["green 1", "green 2", "green 3"], turns=1)
    assert m.pending.name == "assassinate" and sorted(m.pending.labels) == ["the Fence", "the Muscle"]
    drive(m, ("assassinate", "the Fence"))
    assert labels(m, "morgue") == ["the Fence"] and labels(m, "crew", 1) == ["the Muscle"]


def test_ri09_assassinate_without_a_target_does_nothing():
    m = new_game(2)
    recruit(m, 0, "the Fence")  # your own gangster is never a target
    deal_and_bid(m, ["Assassinate (red 1)", "red 2", "red 3"],
                 ["green 1", "green 2", "green 3"], turns=1)
    assert m.pending.name == "bid" and said(m, "finds no target")


def two_assassins(brawl_order):
    m = new_game(3)
    set_brawl_deck(m, *brawl_order)
    recruit(m, 0, "the Bookie")
    recruit(m, 2, "the Fence")
    deal_and_bid(m, ["Assassinate (red 1)", "red 2", "red 3"],
                 ["Assassinate (red 1)", "green 2", "green 3"],
                 ["blue 1", "blue 2", "blue 3"], turns=1)
    return m


def test_ri09_simultaneous_assassinates_are_ordered_by_a_brawl():
    m = two_assassins((1, 4, 2, 3))  # seat 0 flips 1, seat 1 flips 4: seat 1 goes first
    assert m.pending.name == "assassinate" and m.pending.seat == 1
    drive(m, ("assassinate", "the Bookie"))
    assert m.pending.name == "assassinate" and m.pending.seat == 0
    assert m.pending.labels == ["the Fence"]
    drive(m, ("assassinate", "the Fence"))
    assert sorted(labels(m, "morgue")) == ["the Bookie", "the Fence"]


def test_ri09_simultaneous_assassinates_other_brawl_other_order():
    m = two_assassins((4, 1, 2, 3))
    assert m.pending.name == "assassinate" and m.pending.seat == 0
    assert m.pending.labels == ["the Fence"]


def test_ri09_mug_takes_a_token_from_an_opponent():
    m = new_game(3)
    deal_and_bid(m, ["Mug (green 1)", "red 2", "red 3"],
                 ["green 1", "green 2", "green 3"],
                 ["green 4", "green 5", "blue 3"], turns=1)
    assert m.pending.name == "mug whom" and m.pending.labels == ["seat 1", "seat 2"]
    drive(m, ("mug whom", "seat 2"), ("mug what", "jewels"))
    assert gang(m, 0) == ["booze", "cigars", "guns", "jewels", "jewels"]
    assert gang(m, 2) == ["booze", "cigars", "guns"]


def test_ri09_simultaneous_mugs_are_ordered_by_a_brawl():
    m = new_game(2)
    set_brawl_deck(m, 2, 3, 1, 4)  # seat 1 flips 3 and mugs first
    deal_and_bid(m, ["Mug (green 1)", "red 2", "red 3"],
                 ["Mug (green 1)", "green 2", "green 3"], turns=1)
    assert m.pending.name == "mug whom" and m.pending.seat == 1
    drive(m, ("mug whom", "seat 0"), ("mug what", "booze"))
    assert m.pending.seat == 0
    drive(m, ("mug whom", "seat 1"), ("mug what", "booze"))  # takes its booze back
    assert gang(m, 0) == gang(m, 1) == ["booze", "cigars", "guns", "jewels"]


def test_ri09_getaway_keeps_your_contraband_from_the_cop():
    m = new_game(3)
    m.w.shared["cop"] = "guns"
    deal_and_bid(m, ["Getaway (blue 1)", "red 1", "red 2"],
                 ["blue 5", "green 1", "green 2"],
                 ["green 3", "green 4", "red 5"])
    assert m.pending.seat == 1  # seat 1 won the Cop
    assert gang(m, 0) == ["booze", "cigars", "guns", "jewels"]  # the Getaway
    assert gang(m, 2) == ["booze", "cigars", "jewels"]


# ---------------------------------------------------------------- RI-10 abilities
@pytest.mark.parametrize("ability,colour", [
    ("the Enforcer", "red"), ("the Smuggler", "green"), ("the Bagman", "blue")])
def test_ri10_colour_boosters_add_one_to_a_colour_you_bid(ability, colour):
    """enforcer/smuggler/bagman: +1 on their colour, so 2-2 is no tie but 3-2."""
    m = new_game(2)
    recruit(m, 0, ability)
    others = [c for c in ("red", "green", "blue") if c != colour]
    mine = [f"{colour} 2", f"{others[0]} 1", f"{others[1]} 1"]
    theirs = [f"{colour} 2", f"{others[0]} 3", f"{others[1]} 3"]
    hand_of(m, 0, *mine)
    hand_of(m, 1, *theirs)
    pass_launder(m)
    for a, b in zip(mine, theirs):
        bids(m, a, b)
    expected = {colour: 3, others[0]: 1, others[1]: 1}
    assert said(m, "seat 0 totals: red {red}, green {green}, blue {blue}".format(**expected))
    assert not said(m, f"a tie on {colour}")
    assert not said(m, "flips")


def test_ri10_booster_needs_a_bid_on_its_colour():
    m = new_game(2)
    recruit(m, 0, "the Enforcer")
    set_brawl_deck(m, 1, 4, 2, 3)
    play_hand(m, ["green 1", "green 2", "blue 1"], ["green 1", "green 3", "blue 2"])
    assert said(m, "seat 0 totals: red 0,")
    assert said(m, "a tie on red at 0: brawl!")
    assert labels(m, "crew", 1) == ["the Bookie"]  # seat 1 flipped the 4


def test_ri10_booster_is_inactive_in_the_hand_it_was_won():
    m = new_game(2)
    recruit(m, 0, "the Enforcer", active=False)
    set_brawl_deck(m, 1, 4, 2, 3)
    play_hand(m, ["red 2", "green 1", "blue 1"], ["red 2", "green 3", "blue 3"])
    assert labels(m, "crew", 1) == ["the Bookie"]  # a 2-2 tie, lost in the brawl


def test_ri10_bookie_draws_two_when_laundering():
    m = new_game(2)
    recruit(m, 0, "the Bookie")
    hand_of(m, 0, "red 1", "red 2", "red 3")
    drive(m, ("launder", "launder"), ("launder bid", "red 1"))
    assert len(labels(m, "hand", 0)) == 4  # one out, two in
    assert labels(m, "bid_discard") == ["red 1"]


def test_ri10_bookie_who_does_not_launder_draws_nothing():
    m = new_game(2)
    recruit(m, 0, "the Bookie")
    hand_of(m, 0, "red 1", "red 2", "red 3")
    drive(m, ("launder", "pass"))
    assert sorted(labels(m, "hand", 0)) == ["red 1", "red 2", "red 3"]


def test_ri10_fence_takes_an_extra_token_with_the_contraband():
    m = new_game(2)
    recruit(m, 0, "the Fence")
    play_hand(m, ["green 5", "red 1", "blue 1"], ["green 1", "red 2", "blue 2"])
    assert len(labels(m, "gang", 0)) == 4 + 2 + 1


def test_ri10_lawyer_is_never_busted():
    m = new_game(2)
    recruit(m, 1, "the Lawyer")
    deal_and_bid(m, ["Bust (blue 1)", "red 1", "red 2"], ["blue 4", "blue 4", "green 1"])
    assert m.pending.name == "cop marker" and m.pending.seat == 1
    assert not m.w.players[1]["busted"]


def test_ri10_cardshark_wins_every_brawl():
    m = new_game(2)
    recruit(m, 1, "the Cardshark")
    set_brawl_deck(m, 4, 1, 2, 3)  # seat 0 flips the 4, seat 1 the 1
    play_hand(m, ["green 3", "red 1", "blue 1"], ["green 3", "red 1", "blue 1"])
    # the Cop, the Contraband and the Gangster were all tied and brawled
    assert m.pending.seat == 1 or len(labels(m, "gang", 1)) == 6
    assert len(labels(m, "gang", 1)) == 6 and sorted(labels(m, "crew", 1)) == ["the Bookie", "the Cardshark"]


def test_ri10_bodyguard_protects_your_gangsters_from_assassination():
    m = new_game(2)
    recruit(m, 1, "the Bodyguard")
    recruit(m, 1, "the Fence")
    deal_and_bid(m, ["Assassinate (red 1)", "red 2", "red 3"],
                 ["green 1", "green 2", "green 3"], turns=1)
    assert m.pending.name == "bid" and said(m, "finds no target")


def test_ri10_muscle_cannot_be_mugged():
    m = new_game(3)
    recruit(m, 1, "the Muscle")
    deal_and_bid(m, ["Mug (green 1)", "red 2", "red 3"],
                 ["green 1", "green 2", "green 3"],
                 ["green 4", "green 5", "blue 3"], turns=1)
    assert m.pending.name == "mug whom" and m.pending.labels == ["seat 2"]


def test_ri10_mob_bosses_score_at_the_end():
    m = new_game(2)
    base = m.program.score(m.w, 0)
    recruit(m, 0, "the Fence")
    assert m.program.score(m.w, 0) == base
    recruit(m, 0, "Pistol Jim (Mob Boss)", active=False)
    assert m.program.score(m.w, 0) == base + 2  # one per gangster, himself included
    recruit(m, 0, "Blades (Mob Boss)", active=False)
    assert m.program.score(m.w, 0) == base + 3 + 3
    recruit(m, 0, "The Suit (Mob Boss)", active=False)
    assert m.program.score(m.w, 0) == base + 4 + 3 + 4  # four types held


# ---------------------------------------------------------------- RI-03 in random games
@pytest.mark.parametrize("players", [2, 3, 4])
def test_ri03_hands_stay_bounded_in_random_games(players):
    """Laundering is a swap, so no hand ever holds more than the six bids dealt, except
    the hand of a player who held the Bookie (laundering draws two): at most one more
    per hand played. The bid deck and the discard pile never run dry together."""
    program = load_game(str(ROOT / GAME)).program
    bookie = next(c.id for c in program.cards if c.label == "the Bookie")
    for seed in range(15):
        bookie_held = set()

        def check(m):
            bookie_held.update(s for s in range(players) if bookie in m.w.zones[("crew", s)])
            for s in range(players):
                limit = 6 + (m.w.shared["round"] if s in bookie_held else 0)
                assert len(m.w.zones[("hand", s)]) <= limit, (seed, s, m.w.shared["round"])
            assert len(m.w.zones[("bids", None)]) + len(m.w.zones[("bid_discard", None)]) > 0

        m = random_playout(program, players, seed, 5_000, check)
        assert m.result is not None and m.result.reason == "the gangster deck ran out"
