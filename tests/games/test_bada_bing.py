"""Bada Bing scenarios, one or more per checklist rule BB-01..BB-21 (BB-22: the variants).

Chance is fixed (tests/scenario.py): dice come from a queue, shuffles keep the
listed order, so the Offer pile starts Whack Card (gone with 2 Bosses), Bada Boost,
Gain-A-Goomba, Street Tax, ... and the Special Investigation pile Take Down Card,
Amnesty, Fly The Coop, WITSEC, ... Money is in 500K units (1M = 2).

`begin(n)` makes seat 0 roll 12 and everyone else 2 for the start, so seat 0 starts.
"""
import pytest

from support import ROOT, card, drive, start

GAME = "games/bada_bing.game"
TABLE = {2: 300, 3: 200, 4: 150, 5: 120, 6: 100, 7: 90, 8: 80}  # BB-01, in 500K


def begin(n=2, rolls=(), game=GAME):
    return start(game, n, rolls=[6, 6] + [1, 1] * (n - 1) + list(rolls))


def variant(name):
    return f"games/bada_bing/{name}.game"


def pl(m, seat):
    return m.w.players[seat]


def sq(m, name):
    return m.w.space_fields("square", name)


def place(m, seat, where):
    pl(m, seat)["at"] = where
    m.w.touch()


def own(m, seat, *names, policy=False):
    for n in names:
        m.w.spaces["square"]["owner"][n] = seat
        if policy:
            m.w.spaces["square"]["policy"][n] = True
            pl(m, seat)["soldiers"] -= 1
            pl(m, seat)["posted"] += 1
    m.w.touch()


def to_top(m, label, deck):
    """Puts the first card with this label on top of its pile."""
    m.w.put(card(m, label), ("pile", deck))


def give_pass(m, seat, label):
    m.w.put(card(m, label), ("passes", seat))


def passes(m, seat):
    return [m.program.cards[c].label for c in m.w.zones[("passes", seat)]]


def roll(m):
    drive(m, ("turn", "roll the dice"))


def deal(m, what):
    drive(m, ("turn", "make a deal"), ("deal", what))


def offer(m, seat, what):
    """Opens the dealings between Bosses; seats before `seat` pass, `seat` makes an offer."""
    deal(m, "deal with the bosses")
    while m.pending.seat != seat:
        drive(m, ("make an offer", "pass"))
    drive(m, ("make an offer", "make an offer"), ("offer", what))


def close_window(m):
    """Every Boss passes: the dealings between Bosses close."""
    while m.pending.name == "make an offer":
        drive(m, ("make an offer", "pass"))


# ---------------------------------------------------------------- BB-01 / BB-02
@pytest.mark.parametrize("n", range(2, 9))
def test_bb01_starting_money_by_player_count(n):
    m = begin(n)
    assert m.program.min_players == 2 and m.program.max_players == 8
    # seat 0 is the Treasurer (+5M), seat 1 the Title Manager (+1M)
    assert [p["money"] for p in m.w.players] == [TABLE[n] + 10, TABLE[n] + 2] + [TABLE[n]] * (n - 2)


def test_bb02_soldiers_markers_stash_and_roles():
    m = begin(3)
    assert [(p["soldiers"], p["at"]) for p in m.w.players] == [(5, "old_neighborhood")] * 3
    assert m.w.shared["stash_money"] == 20
    assert (m.w.shared["treasurer"], m.w.shared["title_manager"]) == (0, 1)


def test_bb02_highest_roller_starts_and_ties_roll_again():
    # seats 0 and 1 both roll 12, seat 2 rolls 2; then seat 0 rolls 4 and seat 1 rolls 6
    m = start(GAME, 3, rolls=[6, 6, 6, 6, 1, 1, 2, 2, 3, 3])
    assert m.w.shared["starter"] == 1
    assert m.pending.seat == 1 and m.pending.name == "turn"


# ---------------------------------------------------------------- BB-03
def test_bb03_roll_two_dice_and_move_clockwise():
    m = begin(2, rolls=[2, 3])
    roll(m)
    assert pl(m, 0)["at"] == "florist"  # 5 squares clockwise
    assert m.pending.name == "uncontrolled business"


def test_bb03_landing_on_the_old_neighborhood_pays_5m():
    m = begin(2, rolls=[1, 1])
    place(m, 0, "meat_packing")
    before = pl(m, 0)["money"]
    roll(m)
    assert pl(m, 0)["at"] == "old_neighborhood"
    assert pl(m, 0)["money"] == before + 10


# ---------------------------------------------------------------- BB-04
def test_bb04_buy_an_uncontrolled_business():
    m = begin(2, rolls=[1, 1])
    roll(m)
    assert m.pending.labels == ["buy at the Street Price", "decline: auction"]
    drive(m, ("uncontrolled business", "buy at the Street Price"))
    assert sq(m, "shoe_shine")["owner"] == 0
    assert pl(m, 0)["money"] == 310 - 8
    assert m.w.shared["stash_money"] == 22  # 1M to the Cash Stash


def test_bb04_cannot_buy_without_the_money_only_auction():
    m = begin(2, rolls=[1, 1])
    pl(m, 0)["money"] = 7
    roll(m)
    assert m.pending.labels == ["decline: auction"]


# ---------------------------------------------------------------- BB-05
def test_bb05_auction_clockwise_from_the_next_boss_lander_included():
    m = begin(3, rolls=[1, 1])
    roll(m)
    drive(m, ("uncontrolled business", "decline: auction"))
    assert m.pending.seat == 1 and m.pending.name == "bid"
    drive(m, ("bid", "bid +500K"))          # seat 1 opens at half the price: 4 (2M)
    assert m.w.shared["high"] == 4
    drive(m, ("bid", "pass"))               # seat 2 drops out
    assert m.pending.seat == 0              # the lander bids too
    drive(m, ("bid", "bid +1M"), ("bid", "pass"))
    assert sq(m, "shoe_shine")["owner"] == 0
    assert pl(m, 0)["money"] == 210 - 6
    assert m.w.shared["stash_money"] == 22


def test_bb05_no_bid_closes_the_auction():
    m = begin(2, rolls=[1, 1])
    roll(m)
    drive(m, ("uncontrolled business", "decline: auction"), ("bid", "pass"), ("bid", "pass"))
    assert sq(m, "shoe_shine")["owner"] is None
    assert m.w.shared["stash_money"] == 20


def test_bb05_an_uncovered_bid_goes_to_money_trouble():
    m = begin(2, rolls=[1, 1])
    pl(m, 1)["money"] = 5
    roll(m)
    drive(m, ("uncontrolled business", "decline: auction"),
          ("bid", "bid +500K"),   # seat 1: 4
          ("bid", "bid +500K"),   # seat 0: 5
          ("bid", "bid +5M"),     # seat 1: 15, more than seat 1 has
          ("bid", "pass"))
    assert m.pending.seat == 1 and m.pending.name == "money trouble"
    # "dealt with as described in 'Money Trouble'": no way to just give the bid up
    assert m.pending.labels == ["surrender a soldier", "sell to a boss"]
    drive(m, ("money trouble", "surrender a soldier"), ("money trouble", "surrender a soldier"))
    assert sq(m, "shoe_shine")["owner"] == 1
    assert pl(m, 1)["money"] == 0 and pl(m, 1)["soldiers"] == 3


def test_bb05_an_uncovered_winner_is_forced_out_then_the_second_highest_bid_wins():
    # Money Trouble: "Should a Boss perform all the above options and the debt remains
    # uncovered, they are financially ruined and forced out"; "If the bid cannot be
    # covered, the second highest bid wins."
    m = begin(3, rolls=[1, 1])
    pl(m, 1)["money"], pl(m, 1)["soldiers"] = 5, 1
    roll(m)
    drive(m, ("uncontrolled business", "decline: auction"),
          ("bid", "bid +500K"),   # seat 1: 4
          ("bid", "pass"),        # seat 2
          ("bid", "bid +500K"),   # seat 0: 5
          ("bid", "bid +5M"),     # seat 1: 15, more than seat 1 can raise
          ("bid", "pass"))
    assert m.pending.seat == 1 and m.pending.labels == ["financially ruined"]
    drive(m, ("money trouble", "financially ruined"))
    assert not m.w.alive[1]
    assert sq(m, "shoe_shine")["owner"] == 0
    assert pl(m, 0)["money"] == 210 + 2 - 5   # a share of seat 1's 2.5M, then the second bid


# ---------------------------------------------------------------- BB-06 / BB-15 taxes
def test_bb06_street_tax_paid_to_the_owner():
    m = begin(2, rolls=[1, 1])
    own(m, 1, "shoe_shine")
    roll(m)
    assert (pl(m, 0)["money"], pl(m, 1)["money"]) == (310 - 1, 302 + 1)


def test_bb06_a_policy_raises_the_tax_to_half_the_street_price():
    m = begin(2, rolls=[1, 1])
    own(m, 1, "shoe_shine", policy=True)
    roll(m)
    assert (pl(m, 0)["money"], pl(m, 1)["money"]) == (310 - 4, 302 + 4)


def test_bb15_no_taxes_for_a_boss_in_the_slammer():
    m = begin(2, rolls=[1, 1])
    own(m, 1, "shoe_shine", policy=True)
    pl(m, 1)["in_slammer"] = True
    roll(m)
    assert (pl(m, 0)["money"], pl(m, 1)["money"]) == (310, 302)


def test_bb06_bb12_street_tax_pass_saves_the_tax_and_returns_under_its_deck():
    m = begin(2, rolls=[1, 1])
    own(m, 1, "shoe_shine")
    give_pass(m, 0, "Street Tax Pass")
    roll(m)
    drive(m, ("play the Street Tax Pass", "play the Street Tax Pass"))
    assert pl(m, 0)["money"] == 310 and passes(m, 0) == []
    assert m.program.cards[m.w.zones[("pile", "offer_deck")][-1]].label == "Street Tax Pass"


# ---------------------------------------------------------------- BB-07
def test_bb07_buy_a_policy_on_your_turn_with_a_soldier():
    m = begin(2)
    own(m, 0, "shoe_shine")
    deal(m, "buy a protection policy")
    drive(m, ("business to protect", "shoe_shine"))
    p = pl(m, 0)
    assert sq(m, "shoe_shine")["policy"] and (p["soldiers"], p["posted"]) == (4, 1)
    assert p["money"] == 310 - 4 and m.w.shared["stash_money"] == 22
    # one policy per business: nothing left to protect
    drive(m, ("turn", "make a deal"))
    assert "buy a protection policy" not in m.pending.labels


def test_bb07_removing_the_soldier_ends_the_policy():
    m = begin(2)
    own(m, 0, "shoe_shine", policy=True)
    deal(m, "remove a soldier from a business")
    drive(m, ("business", "shoe_shine"))
    assert not sq(m, "shoe_shine")["policy"]
    assert (pl(m, 0)["soldiers"], pl(m, 0)["posted"]) == (5, 0)


def test_bb07_no_policy_without_a_free_soldier():
    m = begin(2)
    own(m, 0, "shoe_shine")
    pl(m, 0)["soldiers"], pl(m, 0)["posted"] = 0, 1
    drive(m, ("turn", "make a deal"))
    assert "buy a protection policy" not in m.pending.labels


def test_bb07_a_business_bought_this_turn_can_be_protected_after_the_move():
    m = begin(2, rolls=[1, 1])
    roll(m)
    drive(m, ("uncontrolled business", "buy at the Street Price"))
    assert m.pending.seat == 0 and m.pending.name == "buy a protection policy"
    drive(m, ("buy a protection policy", "buy a protection policy"), ("business to protect", "shoe_shine"))
    p = pl(m, 0)
    assert sq(m, "shoe_shine")["policy"] and (p["soldiers"], p["posted"]) == (4, 1)
    assert p["money"] == 310 - 8 - 4 and m.w.shared["stash_money"] == 20 + 2 + 2
    assert m.pending.seat == 1 and m.pending.name == "turn"   # nothing else to protect


def test_bb07_after_the_move_the_boss_may_decline_and_is_asked_only_when_a_policy_is_possible():
    m = begin(2, rolls=[1, 1, 2, 2])
    roll(m)
    drive(m, ("uncontrolled business", "buy at the Street Price"), ("buy a protection policy", "pass"))
    assert m.pending.seat == 1 and not sq(m, "shoe_shine")["policy"]
    pl(m, 1)["soldiers"], pl(m, 1)["posted"] = 0, 1   # no free Soldier: not asked
    drive(m, ("turn", "roll the dice"), ("uncontrolled business", "buy at the Street Price"))
    assert sq(m, "candy_store")["owner"] == 1
    assert m.pending.seat == 0 and m.pending.name == "turn"


# ---------------------------------------------------------------- BB-08
def test_bb08_selling_a_business_ends_the_policy_returns_the_soldier_moves_the_title():
    m = begin(2)
    own(m, 0, "shoe_shine", policy=True)
    offer(m, 0, "sell a business")
    drive(m, ("business to sell", "shoe_shine"), ("buyer", "seat 1"))
    prices = m.pending.labels
    assert (prices[0], prices[-1], len(prices)) == ("8", "302", 302 - 8 + 1)  # the Street Price or more, up to all the buyer has
    drive(m, ("price", "11"), ("answer the offer", "accept"))
    assert sq(m, "shoe_shine")["owner"] == 1 and not sq(m, "shoe_shine")["policy"]
    assert (pl(m, 0)["soldiers"], pl(m, 0)["posted"]) == (5, 0)
    assert (pl(m, 0)["money"], pl(m, 1)["money"]) == (321, 291)
    # the window stays open: seat 1 is asked next
    assert m.pending.seat == 1 and m.pending.name == "make an offer"


def test_bb08_a_boss_asks_to_buy_a_business_at_an_agreed_price():
    m = begin(3)
    own(m, 2, "casino", policy=True)   # Street Price 20M
    offer(m, 0, "buy a business")
    drive(m, ("seller", "seat 2"), ("business to buy", "casino"))
    assert m.pending.labels[0] == "40" and m.pending.labels[-1] == str(pl(m, 0)["money"])
    drive(m, ("price", "85"), ("answer the offer", "accept"))
    assert sq(m, "casino")["owner"] == 0 and not sq(m, "casino")["policy"]
    assert (pl(m, 2)["soldiers"], pl(m, 2)["posted"]) == (5, 0)   # the seller's Soldier returns
    assert (pl(m, 0)["money"], pl(m, 2)["money"]) == (210 - 85, 200 + 85)


def test_bb08_a_refused_offer_changes_nothing():
    m = begin(2)
    own(m, 1, "shoe_shine")
    offer(m, 0, "buy a business")
    drive(m, ("seller", "seat 1"), ("business to buy", "shoe_shine"), ("price", "8"))
    assert m.pending.seat == 1 and m.pending.labels == ["accept", "refuse", "counter"]
    drive(m, ("answer the offer", "refuse"))
    assert sq(m, "shoe_shine")["owner"] == 1
    assert (pl(m, 0)["money"], pl(m, 1)["money"]) == (310, 302)


def test_bb08_a_counter_price_accepted_or_refused_by_the_offerer():
    m = begin(2)
    own(m, 1, "shoe_shine")
    offer(m, 0, "buy a business")
    drive(m, ("seller", "seat 1"), ("business to buy", "shoe_shine"), ("price", "8"),
          ("answer the offer", "counter"))
    assert "8" not in m.pending.labels and m.pending.labels[0] == "9"   # another price
    drive(m, ("counter price", "12"))
    assert m.pending.seat == 0 and m.pending.labels == ["accept", "refuse"]   # one round only
    drive(m, ("answer the counter", "accept"))
    assert sq(m, "shoe_shine")["owner"] == 0
    assert (pl(m, 0)["money"], pl(m, 1)["money"]) == (310 - 12, 302 + 12)
    # refused counter: no deal (the window goes on in seat order: seat 1, then seat 0)
    drive(m, ("make an offer", "pass"), ("make an offer", "make an offer"), ("offer", "sell a business"),
          ("business to sell", "shoe_shine"), ("buyer", "seat 1"), ("price", "20"),
          ("answer the offer", "counter"), ("counter price", "9"), ("answer the counter", "refuse"))
    assert sq(m, "shoe_shine")["owner"] == 0 and pl(m, 0)["money"] == 298


def test_bb08_the_other_bosses_may_make_offers_and_the_offers_are_bounded():
    m = begin(3)
    own(m, 0, "shoe_shine")
    deal(m, "deal with the bosses")
    drive(m, ("make an offer", "pass"))
    assert m.pending.seat == 1 and m.pending.name == "make an offer"   # seat order
    for seat in (1, 2, 0, 1):   # seat 0 passes once: the others are asked again
        assert m.pending.seat == seat
        if seat == 0:
            drive(m, ("make an offer", "pass"))
            continue
        drive(m, ("make an offer", "make an offer"), ("offer", "buy a business"), ("seller", "seat 0"),
              ("business to buy", "shoe_shine"), ("price", "8"), ("answer the offer", "refuse"))
    # MAX_OFFERS (3) made
    # no offer left this turn: the window closes, and the dealings menu no longer offers it
    assert m.pending.seat == 0 and m.pending.name == "turn"
    drive(m, ("turn", "make a deal"))
    assert "deal with the bosses" not in m.pending.labels


# ---------------------------------------------------------------- BB-09
def test_bb09_shut_down_refunds_half_and_frees_the_business():
    m = begin(2)
    own(m, 0, "casino", policy=True)
    deal(m, "shut down a business")
    drive(m, ("business to shut down", "casino"))
    assert sq(m, "casino")["owner"] is None and not sq(m, "casino")["policy"]
    assert pl(m, 0)["money"] == 310 + 20 and pl(m, 0)["soldiers"] == 5


# ---------------------------------------------------------------- BB-10
def test_bb10_selling_a_soldier_for_at_least_5m():
    m = begin(2)
    offer(m, 0, "sell a soldier")
    drive(m, ("buyer", "seat 1"))
    assert m.pending.labels[0] == "10" and m.pending.labels[-1] == "302"
    drive(m, ("price", "13"), ("answer the offer", "accept"))
    assert (pl(m, 0)["soldiers"], pl(m, 1)["soldiers"], pl(m, 1)["bought"]) == (4, 6, 1)
    assert (pl(m, 0)["money"], pl(m, 1)["money"]) == (323, 289)


def test_bb10_a_boss_asks_to_buy_a_soldier_at_an_agreed_price():
    m = begin(3)
    offer(m, 1, "buy a soldier")
    drive(m, ("seller", "seat 2"), ("price", "10"), ("answer the offer", "counter"),
          ("counter price", "16"), ("answer the counter", "accept"))
    assert (pl(m, 1)["soldiers"], pl(m, 1)["bought"], pl(m, 2)["soldiers"]) == (6, 1, 4)
    assert (pl(m, 1)["money"], pl(m, 2)["money"]) == (202 - 16, 200 + 16)


def test_bb10_a_soldier_in_equal_trade_for_a_pass():
    m = begin(2)
    give_pass(m, 0, "Amnesty Pass")
    offer(m, 0, "a pass for a soldier")
    drive(m, ("seller", "seat 1"), ("pass to give", "Amnesty Pass"))
    assert m.pending.seat == 1 and m.pending.labels == ["accept", "refuse"]   # no price
    drive(m, ("answer the trade", "accept"))
    assert (pl(m, 0)["soldiers"], pl(m, 0)["bought"], pl(m, 1)["soldiers"]) == (6, 1, 4)
    assert passes(m, 0) == [] and passes(m, 1) == ["Amnesty Pass"]
    assert (pl(m, 0)["money"], pl(m, 1)["money"]) == (310, 302)


def test_bb10_at_most_two_bought_and_seven_in_all():
    m = begin(2)
    pl(m, 1)["bought"] = 2
    offer(m, 0, "buy a soldier")   # seat 0 may still buy
    m = begin(2)
    pl(m, 1)["bought"] = 2
    deal(m, "deal with the bosses")
    drive(m, ("make an offer", "make an offer"))
    assert "sell a soldier" not in m.pending.labels   # seat 1 may buy no more
    m = begin(2)
    pl(m, 1)["soldiers"] = 7
    deal(m, "deal with the bosses")
    drive(m, ("make an offer", "make an offer"))
    assert "sell a soldier" not in m.pending.labels and "buy a soldier" in m.pending.labels
    m = begin(2)
    pl(m, 1)["soldiers"] = 6
    deal(m, "deal with the bosses")
    drive(m, ("make an offer", "make an offer"))
    assert "sell a soldier" in m.pending.labels


def test_bb10_surrender_pays_2_5m_and_the_last_soldier_is_kept():
    m = begin(2)
    deal(m, "surrender a soldier")
    assert (pl(m, 0)["soldiers"], pl(m, 0)["money"]) == (4, 315)
    pl(m, 0)["soldiers"] = 1
    drive(m, ("turn", "make a deal"))
    assert "surrender a soldier" not in m.pending.labels


def test_bb10_losing_the_last_soldier_whacks_the_boss():
    m = begin(2, rolls=[1, 1, 6, 6])   # to Roll For Survival, then a 12
    place(m, 0, "butcher")
    pl(m, 0)["soldiers"] = 1
    roll(m)
    drive(m, ("use the Overpass", "pass"))
    assert not m.w.alive[0]
    assert m.result.reason == "last Boss standing" and m.result.winners == [1]


# ---------------------------------------------------------------- BB-11
def test_bb11_money_trouble_offers_sales_then_shut_downs():
    m = begin(3, rolls=[1, 1])
    to_top(m, "fined 5M", "special_deck")
    place(m, 0, "barber_shop")
    own(m, 0, "newsstand", "shoe_shine")
    own(m, 2, "casino")
    pl(m, 0)["money"] = 3
    pl(m, 0)["soldiers"] = 1
    roll(m)
    drive(m, ("use the Overpass", "pass"))
    assert m.pending.name == "money trouble" and m.pending.labels == ["shut down a business", "sell to a boss"]
    drive(m, ("money trouble", "sell to a boss"), ("sell to a Boss", "a business"),
          ("business to sell", "newsstand"), ("buyer", "seat 1"), ("price", "8"),
          ("answer the offer", "refuse"))
    drive(m, ("money trouble", "shut down a business"), ("business to shut down", "newsstand"))
    assert pl(m, 0)["money"] == 3 + 4          # the 5M fine is paid once covered
    drive(m, ("money trouble", "sell to a boss"), ("sell to a Boss", "a business"),
          ("business to sell", "shoe_shine"), ("buyer", "seat 2"), ("price", "8"),
          ("answer the offer", "refuse"))
    drive(m, ("money trouble", "sell to a boss"), ("sell to a Boss", "a business"),
          ("business to sell", "shoe_shine"), ("buyer", "seat 2"), ("price", "8"),
          ("answer the offer", "refuse"))
    # MAX_OFFERS offers used, one soldier, one business: only a shut down is left
    assert m.pending.labels == ["shut down a business"]
    drive(m, ("money trouble", "shut down a business"), ("business to shut down", "shoe_shine"))
    assert pl(m, 0)["money"] == 1 and m.w.alive[0]


def test_bb11_leaving_returns_everything_and_splits_the_money():
    m = begin(3)
    own(m, 0, "casino", "deli", policy=True)
    give_pass(m, 0, "Amnesty Pass")
    pl(m, 0)["money"] = 101
    deal(m, "buckle under")
    assert not m.w.alive[0]
    assert sq(m, "casino")["owner"] is None and not sq(m, "deli")["policy"]
    assert passes(m, 0) == []
    assert (pl(m, 1)["money"], pl(m, 2)["money"]) == (202 + 50, 200 + 50)  # rounded down to 500K
    assert pl(m, 0)["soldiers"] == 0 and pl(m, 0)["posted"] == 0


def test_bb11_forced_out_when_the_debt_stays_uncovered():
    m = begin(3, rolls=[1, 1])
    to_top(m, "fined 5M", "special_deck")
    place(m, 0, "barber_shop")
    pl(m, 0)["money"] = 3
    pl(m, 0)["soldiers"] = 1
    for s in (1, 2):
        pl(m, s)["money"] = 1   # nobody can buy anything
    roll(m)
    drive(m, ("use the Overpass", "pass"))
    assert m.pending.labels == ["financially ruined"]
    drive(m, ("money trouble", "financially ruined"))
    assert not m.w.alive[0]


def test_bb11_a_soldier_on_a_business_can_be_sold_in_money_trouble():
    m = begin(3, rolls=[1, 1])
    to_top(m, "fined 5M", "special_deck")
    place(m, 0, "barber_shop")
    own(m, 0, "newsstand", "shoe_shine", policy=True)
    pl(m, 0)["money"], pl(m, 0)["soldiers"] = 3, 0     # both Soldiers are on Businesses
    roll(m)
    drive(m, ("use the Overpass", "pass"), ("money trouble", "sell to a boss"))
    assert "a soldier" in m.pending.labels
    drive(m, ("sell to a Boss", "a soldier"), ("buyer", "seat 1"), ("price", "10"),
          ("answer the offer", "accept"), ("which soldier", "one on a business"),
          ("business", "newsstand"))
    assert not sq(m, "newsstand")["policy"] and sq(m, "shoe_shine")["policy"]
    assert (pl(m, 0)["soldiers"], pl(m, 0)["posted"]) == (0, 1)
    assert (pl(m, 1)["soldiers"], pl(m, 1)["bought"]) == (6, 1)
    assert pl(m, 0)["money"] == 3 + 10 - 10 and m.w.alive[0]


def test_bb11_a_held_bada_boost_pass_is_played_before_ruin():
    m = begin(3, rolls=[1, 1])
    to_top(m, "fined 5M", "special_deck")
    place(m, 0, "barber_shop")
    give_pass(m, 0, "Bada Boost Pass")
    pl(m, 0)["money"], pl(m, 0)["soldiers"] = 3, 1
    for s in (1, 2):
        pl(m, s)["money"] = 0   # nobody can buy the pass (500K at least)
    roll(m)
    drive(m, ("use the Overpass", "pass"))
    assert m.pending.labels == ["play the Bada Boost Pass"]   # not yet "financially ruined"
    drive(m, ("money trouble", "play the Bada Boost Pass"), ("bada boost", "grab the Cash Stash"))
    assert pl(m, 0)["money"] == 3 + 20 - 10 and m.w.alive[0]
    assert passes(m, 0) == [] and m.w.shared["stash_money"] == 20


def test_bb06_bb11_a_ruined_boss_pays_the_creditor_what_they_could_raise():
    m = begin(3, rolls=[1, 1])
    own(m, 1, "shoe_shine", policy=True)            # the tax is 2M
    pl(m, 0)["money"], pl(m, 0)["soldiers"] = 3, 1  # 1.5M and nothing to sell
    on_table = sum(p["money"] for p in m.w.players) + m.w.shared["stash_money"]
    before = pl(m, 1)["money"]
    roll(m)
    assert m.pending.seat == 0 and m.pending.labels == ["financially ruined"]
    drive(m, ("money trouble", "financially ruined"))
    assert not m.w.alive[0]
    assert pl(m, 1)["money"] == before + 3 and pl(m, 2)["money"] == 200   # nothing left to divide
    # no money from nowhere: what is on the table did not grow
    assert sum(p["money"] for p in m.w.players) + m.w.shared["stash_money"] == on_table


def test_bb11_a_boss_who_can_cover_a_debt_pays_it_in_full():
    m = begin(3, rolls=[1, 1])
    own(m, 1, "shoe_shine", policy=True)
    own(m, 0, "casino")
    pl(m, 0)["money"] = 3
    roll(m)
    drive(m, ("money trouble", "shut down a business"), ("business to shut down", "casino"))
    assert pl(m, 0)["money"] == 3 + 20 - 4 and pl(m, 1)["money"] == 202 + 4


# ---------------------------------------------------------------- BB-12
def test_bb12_passes_are_kept_and_can_be_sold():
    m = begin(2, rolls=[1, 2])
    roll(m)                                   # old_neighborhood -> offer_1
    assert passes(m, 0) == ["Bada Boost Pass"]
    drive(m, ("turn", "roll the dice"))       # seat 1's turn (dice: 1s) ... back to seat 0 later
    m = begin(2)
    give_pass(m, 0, "Fly The Coop Pass")
    offer(m, 0, "sell a pass")
    drive(m, ("pass to sell", "Fly The Coop Pass"), ("buyer", "seat 1"))
    assert m.pending.labels[0] == "1" and m.pending.labels[-1] == "302"   # an agreed upon price
    drive(m, ("price", "3"), ("answer the offer", "accept"))
    assert passes(m, 1) == ["Fly The Coop Pass"] and pl(m, 1)["money"] == 302 - 3


def test_bb12_a_boss_asks_to_buy_a_pass_at_an_agreed_price():
    m = begin(3)
    give_pass(m, 2, "Street Tax Pass")
    offer(m, 0, "buy a pass")
    drive(m, ("seller", "seat 2"), ("pass to buy", "Street Tax Pass"), ("price", "4"),
          ("answer the offer", "counter"), ("counter price", "7"), ("answer the counter", "accept"))
    assert passes(m, 0) == ["Street Tax Pass"] and passes(m, 2) == []
    assert (pl(m, 0)["money"], pl(m, 2)["money"]) == (210 - 7, 200 + 7)


def test_bb12_a_card_is_followed_and_returned_under_its_deck():
    m = begin(2, rolls=[1, 2])
    to_top(m, "collect 5M from the Treasury", "offer_deck")
    roll(m)
    assert pl(m, 0)["money"] == 320
    pile = m.w.zones[("pile", "offer_deck")]
    assert m.program.cards[pile[-1]].label == "collect 5M from the Treasury"


def test_bb12_whack_card_vote_and_its_removal_with_two_bosses():
    m2 = begin(2)
    assert [m2.program.cards[c].label for c in m2.w.zones[("box", None)]] == ["Whack Card"]
    m = begin(3, rolls=[1, 2])
    roll(m)
    assert m.pending.name == "whack vote" and m.pending.seat == 0
    drive(m, ("whack vote", "spare"), ("whack vote", "whack"), ("whack vote", "whack"))
    assert not m.w.alive[0]


def test_bb12_whack_vote_without_a_majority_spares():
    m = begin(3, rolls=[1, 2])
    roll(m)
    drive(m, ("whack vote", "spare"), ("whack vote", "whack"), ("whack vote", "spare"))
    assert m.w.alive[0]


def test_bb12_amnesty_forgives_a_special_investigation_fine():
    m = begin(2, rolls=[1, 1])
    to_top(m, "fined 5M", "special_deck")
    give_pass(m, 0, "Amnesty Pass")
    place(m, 0, "barber_shop")
    roll(m)
    drive(m, ("use the Overpass", "pass"), ("play the Amnesty Pass", "play the Amnesty Pass"))
    assert pl(m, 0)["money"] == 310 and passes(m, 0) == []


def test_bb12_take_down_card_is_played_when_drawn():
    m = begin(2, rolls=[1, 1])
    own(m, 0, "casino", "deli")
    give_pass(m, 0, "Amnesty Pass")
    place(m, 0, "barber_shop")
    roll(m)
    drive(m, ("use the Overpass", "pass"))
    assert m.pending.name == "take down"      # no Amnesty offered for an exclusive card
    drive(m, ("take down", "shut down every business"))
    assert sq(m, "casino")["owner"] is None and sq(m, "deli")["owner"] is None
    assert pl(m, 0)["money"] == 310 + 20 + 6


def test_bb12_bada_boost_gives_a_free_business_with_a_policy():
    m = begin(2)
    give_pass(m, 0, "Bada Boost Pass")
    deal(m, "play the Bada Boost Pass")
    drive(m, ("bada boost", "a free business"), ("free business", "casino"))
    assert sq(m, "casino")["owner"] == 0 and sq(m, "casino")["policy"]
    assert pl(m, 0)["posted"] == 1 and pl(m, 0)["money"] == 310


def test_bb12_gain_a_goomba_replaces_a_whacked_soldier():
    m = begin(2)
    give_pass(m, 0, "Gain-A-Goomba Pass")
    pl(m, 0)["soldiers"], pl(m, 0)["whacked"] = 4, 1
    deal(m, "play the Gain-A-Goomba Pass")
    assert (pl(m, 0)["soldiers"], pl(m, 0)["whacked"]) == (5, 0)


# ---------------------------------------------------------------- BB-13
def test_bb13_overpass_announced_in_the_stone_pathway_bypasses_the_cash_stash():
    m = begin(2, rolls=[2, 2])
    place(m, 0, "deli")
    roll(m)
    assert m.pending.name == "use the Overpass"
    drive(m, ("use the Overpass", "use the Overpass"))
    # deli -> fish_market -> butcher -> overpass_a -> dry_cleaner: the Overpass counts as a square
    assert pl(m, 0)["at"] == "dry_cleaner" and pl(m, 0)["money"] == 310


def test_bb13_without_the_overpass_the_ring_passes_the_cash_stash():
    m = begin(2, rolls=[2, 2, 3, 3])
    place(m, 0, "deli")
    roll(m)
    drive(m, ("use the Overpass", "pass"))
    assert pl(m, 0)["at"] == "roll_for_survival" and pl(m, 0)["money"] == 312


def test_bb13_landing_on_an_overpass_rolls_again():
    m = begin(2, rolls=[1, 2, 1, 1])
    place(m, 0, "deli")
    roll(m)
    drive(m, ("use the Overpass", "use the Overpass"))
    assert pl(m, 0)["at"] == "slammer"   # overpass_a, then 2 more: dry_cleaner, slammer


def test_bb13_no_announcement_outside_the_pathway():
    m = begin(2, rolls=[1, 1])
    roll(m)
    assert m.pending.name == "uncontrolled business"


# ---------------------------------------------------------------- BB-14
def test_bb14_landing_on_the_cash_stash_takes_it_and_it_is_refilled():
    m = begin(2, rolls=[1, 1])
    place(m, 0, "fish_market")
    m.w.shared["stash_money"] = 26
    roll(m)
    drive(m, ("use the Overpass", "pass"))
    assert pl(m, 0)["money"] == 310 + 26 and m.w.shared["stash_money"] == 20


def test_bb14_a_card_move_does_not_pay_for_passing():
    m = begin(2, rolls=[1, 2])
    to_top(m, "go to social_club", "offer_deck")
    roll(m)   # old_neighborhood -> offer_1 -> social_club by the card (past the Cash Stash)
    assert pl(m, 0)["at"] == "social_club"
    assert pl(m, 0)["money"] == 310 + 4   # the Social Club paid 1M x (1 + 1); no passing money


# ---------------------------------------------------------------- BB-15
def test_bb15_landing_in_the_slammer_pay_5m_then_roll_and_move():
    m = begin(2, rolls=[1, 1, 1, 1])
    place(m, 0, "social_club")
    roll(m)
    assert m.pending.name == "slammer"
    drive(m, ("slammer", "pay 5M"))
    assert pl(m, 0)["at"] == "car_wash" and not pl(m, 0)["in_slammer"] and pl(m, 0)["money"] == 300


def test_bb15_an_odd_roll_waits_for_the_next_turn():
    m = begin(2, rolls=[1, 1, 1, 2, 1, 1, 2, 2, 1, 1])
    place(m, 0, "social_club")
    roll(m)
    drive(m, ("slammer", "roll for an even number"))
    assert pl(m, 0)["in_slammer"] and pl(m, 0)["at"] == "slammer"
    roll(m)                                   # seat 1
    drive(m, ("uncontrolled business", "decline: auction"), ("bid", "pass"), ("bid", "pass"))
    drive(m, ("turn", "roll the dice"), ("slammer", "roll for an even number"))
    assert not pl(m, 0)["in_slammer"] and pl(m, 0)["at"] == "car_wash"


def test_bb15_fly_the_coop_pass():
    m = begin(2, rolls=[1, 1, 1, 1])
    place(m, 0, "social_club")
    give_pass(m, 0, "Fly The Coop Pass")
    roll(m)
    drive(m, ("slammer", "play the Fly The Coop Pass"))
    assert pl(m, 0)["at"] == "car_wash" and passes(m, 0) == []


# ---------------------------------------------------------------- BB-16
def test_bb16_witness_protection_and_the_witsec_pass():
    m = begin(2, rolls=[1, 2])
    place(m, 0, "pawn_shop")
    roll(m)
    drive(m, ("use the Overpass", "pass"))
    assert (pl(m, 0)["soldiers"], pl(m, 0)["whacked"], pl(m, 0)["in_witsec"]) == (4, 1, 1)
    m = begin(2)
    give_pass(m, 0, "WITSEC Pass")
    pl(m, 0)["soldiers"], pl(m, 0)["whacked"], pl(m, 0)["in_witsec"] = 4, 1, 1
    deal(m, "play the WITSEC Pass")
    # released from Witness Protection: no whacked Soldier is left for a Gain-A-Goomba
    assert (pl(m, 0)["soldiers"], pl(m, 0)["whacked"], pl(m, 0)["in_witsec"]) == (5, 0, 0)


def test_bb16_a_soldier_on_a_business_may_be_the_one_lost():
    m = begin(2, rolls=[1, 2])
    own(m, 0, "casino", policy=True)
    place(m, 0, "pawn_shop")
    roll(m)
    drive(m, ("use the Overpass", "pass"), ("which soldier", "one on a business"), ("business", "casino"))
    assert not sq(m, "casino")["policy"] and (pl(m, 0)["soldiers"], pl(m, 0)["posted"]) == (4, 0)


# ---------------------------------------------------------------- BB-17 / BB-18
def test_bb17_social_club_pays_1m_times_the_roll():
    m = begin(2, rolls=[1, 1, 3, 4])
    place(m, 0, "roll_for_survival")
    roll(m)
    assert pl(m, 0)["at"] == "social_club" and pl(m, 0)["money"] == 310 + 14


def test_bb18_snake_eyes_whacks_the_boss():
    m = begin(3, rolls=[1, 1, 1, 1])
    place(m, 0, "butcher")
    roll(m)
    drive(m, ("use the Overpass", "pass"))
    assert not m.w.alive[0] and m.result is None


def test_bb18_twelve_loses_a_soldier():
    m = begin(2, rolls=[1, 1, 6, 6])
    place(m, 0, "butcher")
    roll(m)
    drive(m, ("use the Overpass", "pass"))
    assert m.w.alive[0] and (pl(m, 0)["soldiers"], pl(m, 0)["whacked"]) == (4, 1)


# ---------------------------------------------------------------- BB-19 / BB-20
def test_bb19_interrogation_shut_down_or_surrender():
    m = begin(2, rolls=[1, 1])
    own(m, 0, "casino")
    place(m, 0, "witness_protection")
    roll(m)
    assert m.pending.labels == ["shut down a business", "surrender a soldier"]
    drive(m, ("interrogation", "surrender a soldier"))
    assert pl(m, 0)["soldiers"] == 4 and pl(m, 0)["money"] == 315


def test_bb20_court_pay_1m_or_draw():
    m = begin(2, rolls=[3, 3])
    roll(m)
    assert m.pending.labels == ["pay 1M", "draw a Special Investigation card"]
    drive(m, ("court", "pay 1M"))
    assert pl(m, 0)["money"] == 308
    m = begin(2, rolls=[3, 3])
    roll(m)
    drive(m, ("court", "draw a Special Investigation card"))
    assert m.pending.name == "take down"


# ---------------------------------------------------------------- BB-21
def test_bb21_last_boss_standing_wins():
    m = begin(2)
    deal(m, "buckle under")
    assert m.result.reason == "last Boss standing" and m.result.winners == [1]


def test_bb21_a_unanimous_declaration_names_the_boss_of_bosses():
    m = begin(3)
    deal(m, "propose a Boss of Bosses")
    drive(m, ("Boss of Bosses", "seat 2"), ("declare", "agree"))
    assert m.result.reason == "declared the Boss of Bosses" and m.result.winners == [2]


def test_bb21_a_refusal_goes_on_playing():
    m = begin(3)
    deal(m, "propose a Boss of Bosses")
    drive(m, ("Boss of Bosses", "seat 0"), ("declare", "agree"), ("declare", "refuse"))
    assert m.result is None and m.pending.name == "turn"
    drive(m, ("turn", "make a deal"))
    assert "propose a Boss of Bosses" not in m.pending.labels   # once per turn


# ---------------------------------------------------------------- BB-22 play options
def test_bb22a_game_time_limit_names_the_richest_boss():
    m = begin(3, game=variant("game_time_limit"))
    own(m, 2, "casino", policy=True)        # 2 x 20M + 5 soldiers x 5M ...
    m.w.shared["round"] = 25                # the last round: it is played
    m.w.touch()
    drive(m, ("turn", "make a deal"))
    assert m.result is None
    m.w.shared["round"] = 26                # as when round 26 would begin
    m.w.touch()
    drive(m, ("deal", "back"))              # the next question finds the limit reached
    assert m.result.reason == "the time limit is reached" and m.result.winners == [2]


def test_bb22a_the_limit_is_reached_when_the_round_after_the_last_begins():
    m = begin(2, rolls=[1, 1, 1, 1], game=variant("game_time_limit"))
    m.w.shared["round"] = 25
    m.w.touch()
    roll(m)
    drive(m, ("uncontrolled business", "decline: auction"), ("bid", "pass"), ("bid", "pass"))
    assert m.result is None and m.pending.seat == 1
    drive(m, ("turn", "roll the dice"))
    drive(m, ("uncontrolled business", "decline: auction"), ("bid", "pass"))
    assert m.pending.seat == 1
    drive(m, ("bid", "pass"))
    assert m.result is not None and m.result.reason == "the time limit is reached"


def test_round_and_turn_are_counted():
    # `round`: the round being played, 1 during the first; `turn`: turns begun by all Bosses
    m = begin(2, rolls=[1, 1, 1, 1])
    assert (m.w.shared["round"], m.w.shared["turn"]) == (1, 1)
    roll(m)
    drive(m, ("uncontrolled business", "decline: auction"), ("bid", "pass"), ("bid", "pass"))
    assert m.pending.seat == 1 and (m.w.shared["round"], m.w.shared["turn"]) == (1, 2)
    drive(m, ("turn", "roll the dice"))
    drive(m, ("uncontrolled business", "decline: auction"), ("bid", "pass"), ("bid", "pass"))
    assert m.pending.seat == 0 and (m.w.shared["round"], m.w.shared["turn"]) == (2, 3)


def test_bb22b_up_the_ante_doubles_taxes_and_policy_fees():
    m = begin(2, rolls=[1, 1], game=variant("up_the_ante"))
    own(m, 1, "shoe_shine", policy=True)
    roll(m)
    assert pl(m, 0)["money"] == 310 - 8


def test_bb22c_ganging_up_the_owner_picks_the_charge_and_sales_go_below_the_price():
    m = begin(2, rolls=[1, 1], game=variant("ganging_up"))
    own(m, 1, "shoe_shine")
    roll(m)
    assert m.pending.seat == 1 and m.pending.labels == ["0", "1", "4"]
    drive(m, ("charge", "4"))
    assert pl(m, 0)["money"] == 306
    m = begin(2, game=variant("ganging_up"))
    own(m, 0, "shoe_shine")
    offer(m, 0, "sell a business")
    drive(m, ("business to sell", "shoe_shine"), ("buyer", "seat 1"))
    assert m.pending.labels[0] == "1"          # any price: from 500K, below the Street Price (8)
    drive(m, ("price", "2"), ("answer the offer", "accept"))
    assert sq(m, "shoe_shine")["owner"] == 1 and pl(m, 0)["money"] == 312
    drive(m, ("make an offer", "make an offer"), ("offer", "buy a soldier"), ("seller", "seat 0"))
    assert m.pending.labels[0] == "1"          # a Soldier for any price too


def test_bb22d_powerplay_when_richer_than_everyone_else_together():
    m = begin(3, game=variant("powerplay"))
    assert m.pending.name == "turn"          # not offered at an even table
    deal(m, "back")
    pl(m, 0)["money"] = 1000
    m.w.touch()
    drive(m, ("turn", "roll the dice"))      # seat 0's dice (1s) ... to seat 1
    drive(m, ("uncontrolled business", "decline: auction"), ("bid", "pass"), ("bid", "pass"), ("bid", "pass"))
    drive(m, ("turn", "roll the dice"))      # seat 1
    drive(m, ("uncontrolled business", "decline: auction"), ("bid", "pass"), ("bid", "pass"), ("bid", "pass"))
    drive(m, ("turn", "roll the dice"))      # seat 2
    drive(m, ("uncontrolled business", "decline: auction"), ("bid", "pass"), ("bid", "pass"), ("bid", "pass"))
    assert m.pending.seat == 0 and m.pending.name == "force a Powerplay"
    drive(m, ("force a Powerplay", "force a Powerplay"))
    assert m.result.reason == "Powerplay" and m.result.winners == [0]


def test_bb22e_exclusive_cards_removed():
    m = begin(3, game=variant("no_exclusives"))
    assert sorted(m.program.cards[c].label for c in m.w.zones[("box", None)]) == ["Take Down Card", "Whack Card"]


def test_bb22f_roll_for_survival_fines_instead_of_whacking():
    m = begin(2, rolls=[1, 1, 1, 1], game=variant("survival_fines"))
    place(m, 0, "butcher")
    roll(m)
    drive(m, ("use the Overpass", "pass"))
    assert m.w.alive[0] and pl(m, 0)["money"] == 310 + 2 - 20   # passed the Cash Stash, fined 10M
    assert m.w.shared["stash_money"] == 40 and pl(m, 0)["soldiers"] == 5


# ---------------------------------------------------------------- review fixes
def test_bb16_a_soldier_lost_to_witness_protection_is_whacked_so_gain_a_goomba_replaces_it():
    # "Soldiers can be whacked by the 'Role For Survival' and 'Witness Protection' board
    # squares" and "Gain-A-Goomba Pass replaces a Boss's whacked Soldier."
    m = begin(2, rolls=[1, 2])
    place(m, 0, "pawn_shop")
    pl(m, 0)["soldiers"] = 1
    give_pass(m, 0, "Gain-A-Goomba Pass")
    roll(m)
    drive(m, ("use the Overpass", "pass"))
    assert m.pending.name == "play the Gain-A-Goomba Pass"
    drive(m, ("play the Gain-A-Goomba Pass", "play the Gain-A-Goomba Pass"))
    assert m.w.alive[0] and passes(m, 0) == []
    # the replaced Soldier was the one in Witness Protection: nothing is left to release
    assert (pl(m, 0)["soldiers"], pl(m, 0)["whacked"], pl(m, 0)["in_witsec"]) == (1, 0, 0)


def test_bb12_the_decks_hold_6_passes_and_2_exclusive_cards():
    # "Within the decks are 6 passes and 2 exclusive cards": one card of each pass
    m = begin(3)
    labels = [c.label for c in m.program.cards]
    names = ["Amnesty Pass", "Bada Boost Pass", "Fly The Coop Pass", "Gain-A-Goomba Pass",
             "Street Tax Pass", "WITSEC Pass", "Whack Card", "Take Down Card"]
    assert [labels.count(n) for n in names] == [1] * 8
    assert [len(m.w.zones[("pile", d)]) for d in ("offer_deck", "special_deck")] == [30, 30]


# ---------------------------------------------------------------- knobs for house rules
def test_house_rules_override_the_named_amounts(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEDSL_ALLOW_ABSOLUTE_EXTENDS", "1")
    house = tmp_path / "house.game"
    house.write_text(f'extends "{ROOT / GAME}"\n'
                     "override const CLUB_PAY = 4\n"                          # 2M x the dice
                     "override def policy_price(s: square) = s.price\n")      # the full price
    m = begin(2, rolls=[1, 1, 3, 3], game=str(house))
    own(m, 0, "shoe_shine")
    place(m, 0, "roll_for_survival")
    deal(m, "buy a protection policy")
    drive(m, ("business to protect", "shoe_shine"))
    assert pl(m, 0)["money"] == 310 - 8
    roll(m)                                   # 2 squares: the Social Club, then a roll of 6
    assert pl(m, 0)["at"] == "social_club" and pl(m, 0)["money"] == 310 - 8 + 4 * 6
