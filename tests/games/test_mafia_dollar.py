"""MafiaDollar scenarios, one or more per checklist rule MD-01..MD-14.

Chance is fixed (tests/scenario.py): shuffles keep the listed order, so the deck is
the card rows top to bottom: gangsters, weapons, burglary tools, vehicles, blocks,
warehouses, guard dogs, loot, birthdays, police. Setup gives each seat a warehouse
(the first ones listed), deals 5 cards each and seat 0 draws one; the game then
waits for seat 1's first trade offer. Scenarios set the hands, gangsters, items,
blocks and loot they need by moving cards (`World.put`): items, blocks, guard dogs
and loot into the zone of the card they lie on or under (`gear`, `blocks`, `guard`,
`stock`, one zone per card).
"""

from ruledsl.pipeline import load_game
from ruledsl.runtime.machine import Machine
from support import ROOT, FixedChance, drive, labels, start

GAME = "games/mafia_dollar.game"
POOLS = ("deck", "discard", "lower", "aside", "hand")


# ---------------------------------------------------------------- helpers
def new_game(players=2, game=GAME):
    """A game at its first decision: seat 1 may offer seat 0 a trade."""
    m = start(game, players)
    m.events = []
    m.listener = lambda kind, data: m.events.append(data.get("text", data.get("value", "")))
    return m


def said(m, fragment):
    return any(fragment in str(e) for e in m.events)


def cid(m, label, pools=POOLS):
    """A card with this label lying in one of the pool zones (not in play or in a hand)."""
    for c in m.program.cards:
        if c.label == label and m.w.loc.get(c.id, (None,))[0] in pools:
            return c.id
    raise AssertionError(f"no free {label!r}")


def lab(m, c):
    return m.program.cards[c].label


def put(m, label, zone, key=None):
    c = cid(m, label)
    m.w.put(c, (zone, key))
    return c


def hand_of(m, seat, *card_labels):
    """Replaces a seat's hand (the old hand goes to the bottom of the deck)."""
    for c in list(m.w.zones[("hand", seat)]):
        m.w.put(c, ("deck", None), bottom=True)
    for label in reversed(card_labels):
        m.w.put(cid(m, label), ("hand", seat))


def stack(m, *card_labels):
    """Puts the named cards on top of the deck, the first on top."""
    for label in reversed(card_labels):
        m.w.put(cid(m, label), ("deck", None))


def warehouse(m, seat):
    return m.w.zones[("yard", seat)][0]


def hire(m, seat, label, where="hideout"):
    return put(m, label, where, seat)


def equip(m, g, label):
    return put(m, label, "gear", g)


def block(m, g, label):
    """A block on gangster g, on top of those already there."""
    return put(m, label, "blocks", g)


def dog(m, w, label="Guard dog [4 key]"):
    return put(m, label, "guard", w)


def stash(m, seat, label, wh=None):
    return put(m, label, "stock", wh if wh is not None else warehouse(m, seat))


def loot(m, seat):
    """The labels of the loot under all of a seat's warehouses."""
    return [lab(m, c) for w in ids(m, "yard", seat) for c in ids(m, "stock", w)]


def pass_offers(m):
    """Nobody offers a trade, and the phasing player asks for none at his turn's end."""
    while m.pending is not None and m.pending.name in ("offer a trade", "ask for trades"):
        drive(m, (m.pending.name, "pass"))


def to_actions(m, play=None):
    """Seat to move: no trades, plays `play` (or discards its first card), no trades."""
    pass_offers(m)
    if play is None:
        discard_first(m)
    else:
        drive(m, ("play a card", "play a card"), ("card to play", play))
    pass_offers(m)


def discard_first(m):
    drive(m, ("play a card", "discard a card"))
    drive(m, ("card to discard", m.pending.labels[0]))


def next_turn(m):
    """Seat 0's turn has ended (it asks for no trades at its end) and seat 1's has
    begun (two players): seat 0 may offer it a trade."""
    if m.pending.seat == 0 and m.pending.name == "ask for trades":
        drive(m, ("ask for trades", "pass"))
    return m.pending.seat == 0 and m.pending.name == "offer a trade"


def ids(m, zone, key=None):
    return list(m.w.zones[(zone, key)])


# ---------------------------------------------------------------- MD-01
def test_md01_the_173_cards_and_the_player_range():
    m = new_game(2)
    kinds = {}
    for c in m.program.cards:
        kinds[c.attrs["kind"]] = kinds.get(c.attrs["kind"], 0) + 1
    assert len(m.program.cards) == 173
    assert kinds == {"gangster": 30, "weapon": 9, "tool": 9, "vehicle": 8, "block": 32, "warehouse": 18,
                     "dog": 6, "loot": 44, "birthday": 3, "police": 13, "prohibition_end": 1}
    blocks = [c.attrs["t"] for c in m.program.cards if c.attrs["kind"] == "block"]
    assert {t: blocks.count(t) for t in set(blocks)} == {"jail": 8, "at_home": 8, "beat_up": 8, "girlfriend": 8}
    loot = [c.attrs["goods"] for c in m.program.cards if c.attrs["kind"] == "loot"]
    assert sorted(set(loot)) == ["alcohol", "gambling", "red_light", "tobacco"] and loot.count("tobacco") == 11
    bonuses = {c.attrs["atk"] + c.attrs["burg"] + c.attrs["extra"] for c in m.program.cards
               if c.attrs["kind"] in ("weapon", "tool", "vehicle")}
    assert bonuses == {1, 2, 3}  # "+1 up to +3"
    dice = {c.attrs["dice"] for c in m.program.cards if c.attrs["dice"]}
    assert dice == set(range(1, 9))  # "The dice icon (ranging from 1 to 8)"
    game = load_game(str(ROOT / GAME))
    for n in (2, 6):
        assert Machine(game.program, n, FixedChance()).pending is not None
    assert (game.program.min_players, game.program.max_players) == (2, 6)


# ---------------------------------------------------------------- MD-02
def test_md02_setup_warehouse_hand_and_the_end_card_in_the_bottom_pile():
    for n in (2, 6):
        m = new_game(n)
        for s in range(n):
            assert len(ids(m, "yard", s)) == 1 and lab(m, warehouse(m, s)).startswith("Warehouse")
            assert len(ids(m, "hand", s)) == (6 if s == 0 else 5)  # seat 0 has drawn
        deck = labels(m, "deck")
        end = deck.index("End of the prohibition")
        assert len(deck) - end <= 31  # shuffled into the 31-card bottom pile
        assert len(deck) == 173 - 6 * n - 1  # 1 warehouse + 5 cards each, seat 0's draw


class LootFirst(FixedChance):
    """The second shuffle (before the deal) puts the loot cards on top."""

    def __init__(self):
        super().__init__()
        self.shuffles = 0

    def shuffle(self, cards, what):
        self.shuffles += 1
        if self.shuffles != 2:
            return list(cards)
        prog = self.program
        loot = [c for c in cards if prog.cards[c].attrs["kind"] == "loot"]
        return loot + [c for c in cards if c not in loot]


def test_md02_loot_in_starting_hands_goes_to_the_piles_and_hands_refill_repeatedly():
    game = load_game(str(ROOT / GAME))
    chance = LootFirst()
    chance.program = game.program
    m = Machine(game.program, 2, chance)
    for s in range(2):
        hand = [m.program.cards[c].attrs["kind"] for c in m.w.zones[("hand", s)]]
        assert "loot" not in hand
    assert len(ids(m, "hand", 1)) == 5 and len(ids(m, "hand", 0)) == 6
    piles = {g: labels(m, "loot_pile", g) for g in ("alcohol", "tobacco", "gambling", "red_light")}
    # the deal gives 10 loot cards; 30 more go to the bottom pile; the refill draws the
    # last 4, which go to the piles on a second pass
    assert sum(len(p) for p in piles.values()) == 14
    assert labels(m, "deck")[-31:].count("End of the prohibition") == 1
    assert all(lab_.startswith("Alcohol") for lab_ in piles["alcohol"])
    # each pile's top is visible to everyone, the rest is not
    view = m.w.snapshot(1)["zones"]
    assert view["loot_pile/alcohol"]["count"] == 10 and view["loot_pile/alcohol"]["top"] == piles["alcohol"][0]


# ---------------------------------------------------------------- MD-03
def test_md03_drawing_loot_goes_to_its_pile_and_the_player_draws_again():
    m = new_game(2)
    stack(m, "Tobacco $5,000", "Alcohol $30,000", "Weapon +3 [3 hat]")
    to_actions(m)  # seat 0 ends its turn (no gangsters: no actions); seat 1 draws
    assert m.pending.seat == 1 and m.pending.name == "play a card"
    assert labels(m, "hand", 1)[0] == "Weapon +3 [3 hat]"
    assert labels(m, "loot_pile", "tobacco") == ["Tobacco $5,000"]
    assert labels(m, "loot_pile", "alcohol") == ["Alcohol $30,000"]
    assert said(m, "seat 1 draws Tobacco $5,000")


def test_md03_the_end_of_the_prohibition_drawn_ends_the_game():
    m = new_game(3)
    m.w.put(cid(m, "End of the prohibition"), ("deck", None))
    stack(m, "Gambling $10,000")
    to_actions(m)
    assert m.pending is None and m.result.reason == "End of the prohibition" and m.result.by_rule
    assert labels(m, "aside") == ["End of the prohibition"]
    assert labels(m, "loot_pile", "gambling") == ["Gambling $10,000"]


def test_md03_play_one_card_or_discard_one_police_cannot_be_discarded():
    m = new_game(2)
    hand_of(m, 0, "Security guard (1 star)", "Gangster 1/1 [8 key]")
    pass_offers(m)
    assert m.pending.name == "play a card" and m.pending.seat == 0
    assert m.pending.labels == ["play a card", "discard a card"]
    drive(m, ("play a card", "discard a card"))
    assert m.pending.labels == ["Gangster 1/1 [8 key]"]  # never the police card
    drive(m, ("card to discard", "Gangster 1/1 [8 key]"))
    assert labels(m, "discard") == ["Gangster 1/1 [8 key]"]
    assert labels(m, "hand", 0) == ["Security guard (1 star)"]


def test_md03_a_hand_of_police_cards_may_be_kept():
    m = new_game(2)
    hand_of(m, 0, "Security guard (1 star)", "Police patrol (2 star)")
    pass_offers(m)
    assert m.pending.labels == ["play a card", "keep the police cards"]
    drive(m, ("play a card", "keep the police cards"))
    assert len(ids(m, "hand", 0)) == 2


def test_md03_phases_in_order_draw_play_actions():
    m = new_game(2)
    g = hire(m, 0, "Gangster 3/0 [1 key]")
    hire(m, 0, "Gangster 1/1 [8 key]")
    hand_of(m, 0, "Warehouse [5 key]")
    pass_offers(m)
    drive(m, ("play a card", "play a card"), ("card to play", "Warehouse [5 key]"))
    pass_offers(m)
    # the warehouse played in phase 2 already counts in phase 3: two actions
    drive(m, ("gangster action", "send a gangster out"), ("gangster", lab(m, g)))
    assert m.pending.seat == 0 and m.pending.name == "gangster action"  # the second action
    assert ids(m, "street", 0) == [g]


def test_md03_rounds_and_turns_are_counted():
    """The shared counters house rules are written against: `round` is the round being
    played (1 in the first), `turn` the turns begun by all players together."""
    m = new_game(3)
    assert (m.w.shared["round"], m.w.shared["turn"]) == (1, 1)
    to_actions(m)  # seat 0's turn, then the offers at the start of seat 1's
    assert m.pending.seat == 1 and (m.w.shared["round"], m.w.shared["turn"]) == (1, 2)
    to_actions(m)
    assert m.pending.seat == 2 and (m.w.shared["round"], m.w.shared["turn"]) == (1, 3)
    to_actions(m)
    assert m.pending.seat == 0 and (m.w.shared["round"], m.w.shared["turn"]) == (2, 4)


def test_knobs_a_house_rule_can_override(tmp_path, monkeypatch):
    """Issue 10: the amounts are constants a variant overrides in one line each."""
    monkeypatch.setenv("RULEDSL_ALLOW_ABSOLUTE_EXTENDS", "1")
    house = tmp_path / "house.game"
    house.write_text(f'extends "{ROOT / GAME}"\n'
                     "override const START_WAREHOUSES = 2\n"
                     "override const HAND_SIZE = 7\n"
                     "override const ACTIONS_PER_WAREHOUSE = 2\n"
                     "override const WAREHOUSE_PENALTY = 3\n")
    m = start(str(house), 2)
    assert [len(ids(m, "yard", s)) for s in (0, 1)] == [2, 2]
    assert [len(ids(m, "hand", s)) for s in (0, 1)] == [8, 7]  # seat 0 has drawn
    assert m.program.score(m.w, 1) == -2 * 3
    gangsters = [hire(m, 0, label) for label in ("Gangster 3/0 [1 key]", "Gangster 1/1 [8 key]", "Gangster 2/2 [5 newspaper]")]
    to_actions(m)
    # two warehouses, two actions each: more than the base game's two
    for g in gangsters:
        drive(m, ("gangster action", "send a gangster out"), ("gangster", lab(m, g)))
    assert sorted(ids(m, "street", 0)) == sorted(gangsters)


# ---------------------------------------------------------------- MD-04
def test_md04_a_trade_offer_accepted_swaps_one_card_each():
    m = new_game(3)
    hand_of(m, 0, "Gangster 1/1 [8 key]", "Vehicle +3 [7 hat]")
    hand_of(m, 1, "Weapon +3 [3 hat]", "Guard dog [3 hat]")
    assert m.pending.seat == 1 and m.pending.name == "offer a trade"
    drive(m, ("offer a trade", "offer a trade"))
    assert m.pending.name == "card to offer" and m.pending.secret
    drive(m, ("card to offer", "Weapon +3 [3 hat]"))
    assert labels(m, "offer", 0) == ["Weapon +3 [3 hat]"]
    # only the phasing player sees the offered card
    assert m.w.snapshot(0)["zones"]["offer/seat 0"] == ["Weapon +3 [3 hat]"]
    assert m.w.snapshot(2)["zones"]["offer/seat 0"] == {"count": 1}
    assert m.pending.seat == 0 and m.pending.name == "accept the trade"
    drive(m, ("accept the trade", "accept the trade"), ("card in return", "Vehicle +3 [7 hat]"))
    # the offering player sees the card he would get back (nobody else does) and agrees
    assert m.pending.seat == 1 and m.pending.name == "agree to the card in return"
    assert m.w.snapshot(1)["zones"]["counter/seat 1"] == ["Vehicle +3 [7 hat]"]
    assert m.w.snapshot(2)["zones"]["counter/seat 1"] == {"count": 1}
    drive(m, ("agree to the card in return", "agree to the card in return"))
    assert sorted(labels(m, "hand", 0)) == ["Gangster 1/1 [8 key]", "Weapon +3 [3 hat]"]
    assert sorted(labels(m, "hand", 1)) == ["Guard dog [3 hat]", "Vehicle +3 [7 hat]"]
    assert m.pending.seat == 2 and m.pending.name == "offer a trade"  # the next player may offer too


def test_md04_the_offering_player_may_refuse_the_card_he_would_get_back():
    """MD-04 1:1 trades need both players' consent: the phasing player can't hand back
    a Police raid unasked."""
    m = new_game(2)
    hand_of(m, 0, "Police raid (3 star)", "Vehicle +3 [7 hat]")
    hand_of(m, 1, "Weapon +3 [3 hat]")
    drive(m, ("offer a trade", "offer a trade"), ("card to offer", "Weapon +3 [3 hat]"),
          ("accept the trade", "accept the trade"), ("card in return", "Police raid (3 star)"),
          ("agree to the card in return", "pass"))
    assert said(m, "seat 1 calls the trade off")
    assert labels(m, "hand", 1) == ["Weapon +3 [3 hat]"]
    assert sorted(labels(m, "hand", 0)) == ["Police raid (3 star)", "Vehicle +3 [7 hat]"]
    assert labels(m, "offer", 0) == [] and labels(m, "counter", 1) == []
    assert m.pending.seat == 0 and m.pending.name == "play a card"


def test_md04_the_phasing_player_may_ask_for_trades_between_actions_and_at_the_end():
    """MD-04 "The phasing player may also ask for trades": a trade round at his request,
    between two gangster actions (costing no action, once between two actions) and at
    the end of his turn."""
    m = new_game(2)
    g = hire(m, 0, "Gangster 3/0 [1 key]")
    hand_of(m, 0, "Gangster 1/1 [8 key]", "Vehicle +3 [7 hat]")
    hand_of(m, 1, "Weapon +3 [3 hat]", "Guard dog [3 hat]")
    to_actions(m)
    assert m.pending.labels == ["send a gangster out", "ask for trades", "end the actions"]
    drive(m, ("gangster action", "ask for trades"))
    assert said(m, "seat 0 asks for trades")
    assert m.pending.seat == 1 and m.pending.name == "offer a trade"
    drive(m, ("offer a trade", "pass"))
    # back to the menu with the action still to use, and no second request before it
    assert m.pending.name == "gangster action"
    assert m.pending.labels == ["send a gangster out", "end the actions"]
    drive(m, ("gangster action", "send a gangster out"), ("gangster", lab(m, g)))
    # the one action is used; at the turn's end he may ask again
    assert m.pending.seat == 0 and m.pending.name == "ask for trades"
    drive(m, ("ask for trades", "ask for trades"))
    assert m.pending.seat == 1 and m.pending.name == "offer a trade"
    drive(m, ("offer a trade", "offer a trade"), ("card to offer", "Guard dog [3 hat]"),
          ("accept the trade", "accept the trade"), ("card in return", "Vehicle +3 [7 hat]"),
          ("agree to the card in return", "agree to the card in return"))
    assert "Guard dog [3 hat]" in labels(m, "hand", 0) and "Vehicle +3 [7 hat]" in labels(m, "hand", 1)
    assert ids(m, "street", 0) == [g]
    # then seat 1's turn: seat 0 may offer it a trade
    assert m.pending.seat == 0 and m.pending.name == "offer a trade"


def test_md04_a_declined_offer_goes_back_and_only_the_phasing_player_trades():
    m = new_game(3)
    hand_of(m, 1, "Weapon +3 [3 hat]")
    hand_of(m, 2, "Guard dog [3 hat]")
    drive(m, ("offer a trade", "offer a trade"), ("card to offer", "Weapon +3 [3 hat]"),
          ("accept the trade", "pass"))
    assert labels(m, "hand", 1) == ["Weapon +3 [3 hat]"] and labels(m, "offer", 0) == []
    # every offer goes to seat 0, the phasing player; nobody else is ever asked to accept
    drive(m, ("offer a trade", "offer a trade"), ("card to offer", "Guard dog [3 hat]"))
    assert m.pending.seat == 0
    drive(m, ("accept the trade", "pass"))
    assert m.pending.name == "play a card"


def test_md04_a_second_offer_round_before_the_gangster_actions():
    m = new_game(2)
    hire(m, 0, "Gangster 3/0 [1 key]")
    pass_offers(m)
    discard_first(m)
    assert m.pending.name == "offer a trade" and m.pending.seat == 1
    drive(m, ("offer a trade", "pass"))
    assert m.pending.name == "gangster action"


# ---------------------------------------------------------------- MD-05
def test_md05_one_action_per_warehouse_and_once_per_gangster():
    m = new_game(2)
    a = hire(m, 0, "Gangster 3/0 [1 key]")
    b = hire(m, 0, "Gangster 2/2 [5 newspaper]")
    c = hire(m, 0, "Gangster 1/1 [8 key]")
    put(m, "Warehouse [5 key]", "yard", 0)  # two warehouses: two actions
    to_actions(m)
    drive(m, ("gangster action", "send a gangster out"), ("gangster", lab(m, a)))
    assert lab(m, a) not in m.pending.labels  # a acted this round
    drive(m, ("gangster action", "send a gangster out"))
    assert m.pending.labels == [lab(m, c), lab(m, b)]
    drive(m, ("gangster", lab(m, b)))
    assert next_turn(m)  # two actions used
    assert set(ids(m, "street", 0)) == {a, b} and ids(m, "hideout", 0) == [c]


def test_md05_take_loot_with_a_vehicle_from_one_pile_and_back_to_the_hideout():
    m = new_game(2)
    g = hire(m, 0, "Gangster 1/1 [8 key]", "street")
    equip(m, g, "Vehicle +2 [4 key]")
    for label in ("Tobacco $5,000", "Tobacco $10,000", "Tobacco $15,000", "Tobacco $20,000"):
        put(m, label, "loot_pile", "tobacco")
    put(m, "Alcohol $30,000", "loot_pile", "alcohol")
    to_actions(m)
    assert m.pending.labels == ["take loot", "bring a gangster home", "ask for trades", "end the actions"]
    drive(m, ("gangster action", "take loot"), ("gangster", lab(m, g)))
    assert m.pending.labels == ["alcohol", "tobacco"]
    drive(m, ("loot pile", "tobacco"))
    # the top card and two more (vehicle +2), all from the tobacco pile
    assert sorted(labels(m, "stock", warehouse(m, 0))) == ["Tobacco $10,000", "Tobacco $15,000", "Tobacco $20,000"]
    assert labels(m, "loot_pile", "tobacco") == ["Tobacco $5,000"]
    assert ids(m, "hideout", 0) == [g]  # after the job, home
    assert m.program.score(m.w, 0) == 45 - 5 - 10


def test_md05_attack_over_8_eliminates_and_the_winner_takes_the_items():
    m = new_game(2)
    g = hire(m, 0, "Gangster 3/0 [1 key]", "street")
    equip(m, g, "Weapon +1 [4 hat]")
    t = hire(m, 1, "Gangster 1/3 [5 hat]", "street")
    block(m, t, "Jail [1]")  # even a blocked gangster can be attacked
    w2 = equip(m, t, "Weapon +2 [1 newspaper]")
    v = equip(m, t, "Vehicle +1 [3 hat]")
    to_actions(m)
    m.w.put(cid(m, "Warehouse [5 key]"), ("deck", None))  # the skill check flips dice 5: 5 + 3 + 1
    drive(m, ("gangster action", "attack a gangster"), ("gangster", lab(m, g)),
          ("gangster to attack", lab(m, t)))
    assert said(m, "5 + 4 = 9, eliminated")
    # the weapon: g has one already, so it can't take it; the vehicle: take it or not
    assert m.pending.name == "take the item"
    drive(m, ("take the item", "take the item"))
    assert v in ids(m, "gear", g)
    assert t in ids(m, "discard") and w2 in ids(m, "discard")
    assert lab(m, cid(m, "Jail [1]", pools=("discard",))) == "Jail [1]"
    assert ids(m, "hideout", 0) == [g] and ids(m, "street", 1) == []


def test_md05_attack_of_8_or_less_fails():
    m = new_game(2)
    g = hire(m, 0, "Gangster 3/0 [1 key]", "street")
    t = hire(m, 1, "Gangster 1/3 [5 hat]", "street")
    to_actions(m)
    m.w.put(cid(m, "Warehouse [5 key]"), ("deck", None))  # dice 5: 5 + 3 = 8
    drive(m, ("gangster action", "attack a gangster"), ("gangster", lab(m, g)),
          ("gangster to attack", lab(m, t)))
    assert said(m, "5 + 3 = 8, the attack fails")
    assert ids(m, "street", 1) == [t] and ids(m, "hideout", 0) == [g]


def test_md05_burglary_sees_the_warehouse_and_takes_one_loot_minus_the_guard_dog():
    m = new_game(2)
    g = hire(m, 0, "Gangster 0/3 [3 first aid kit]", "street")
    equip(m, g, "Burglary tool +1 [6 newspaper]")
    w1 = warehouse(m, 1)
    w1b = put(m, "Warehouse [5 key]", "yard", 1)
    dog(m, w1)
    stash(m, 1, "Gambling $25,000", w1)
    stash(m, 1, "Alcohol $5,000", w1)
    stash(m, 1, "Red light district $30,000", w1b)
    to_actions(m)
    m.w.put(cid(m, "Warehouse [6 newspaper]"), ("deck", None))  # dice 6: 6 + 4 - 1 = 9
    drive(m, ("gangster action", "burglary"), ("gangster", lab(m, g)))
    assert sorted(m.pending.labels) == sorted([lab(m, w1), lab(m, w1b)])
    drive(m, ("warehouse to rob", lab(m, w1)))
    assert said(m, "6 + 4 - 1 = 9, success")
    # the burglar sees the loot of that warehouse only; his pick is sealed for the others
    assert sorted(m.pending.labels) == ["Alcohol $5,000", "Gambling $25,000"] and m.pending.secret
    seen = []
    m.listener = lambda kind, data: seen.append((kind, data.get("text"), data.get("to")))
    drive(m, ("loot to steal", "Gambling $25,000"))
    assert any("steals a loot card" in str(t) for k, t, to in seen)
    assert not any("steals Gambling" in str(t) for k, t, to in seen)
    assert ("reveal", "Gambling $25,000", 1) in seen  # the robbed player knows what he lost
    assert labels(m, "stock", warehouse(m, 0)) == ["Gambling $25,000"]
    assert ids(m, "hideout", 0) == [g]


def test_md05_burglary_of_8_or_less_fails_with_the_guard_dog():
    m = new_game(2)
    g = hire(m, 0, "Gangster 0/3 [3 first aid kit]", "street")
    equip(m, g, "Burglary tool +1 [6 newspaper]")
    w1 = warehouse(m, 1)
    dog(m, w1)
    stash(m, 1, "Gambling $25,000", w1)
    to_actions(m)
    m.w.put(cid(m, "Warehouse [5 key]"), ("deck", None))  # 5 + 4 - 1 = 8
    drive(m, ("gangster action", "burglary"), ("gangster", lab(m, g)), ("warehouse to rob", lab(m, w1)))
    assert said(m, "5 + 4 - 1 = 8, the burglary fails")
    assert loot(m, 1) == ["Gambling $25,000"] and ids(m, "hideout", 0) == [g]


def test_md05_a_successful_burglar_sees_every_loot_card_of_the_warehouse():
    m = new_game(2)
    seen = []
    m.listener = lambda kind, data: seen.append((kind, data.get("text"), data.get("to")))
    g = hire(m, 0, "Gangster 0/3 [3 first aid kit]", "street")
    equip(m, g, "Burglary tool +3 [5 newspaper]")
    w1 = warehouse(m, 1)
    w1b = put(m, "Warehouse [5 key]", "yard", 1)
    stash(m, 1, "Alcohol $5,000", w1)
    stash(m, 1, "Alcohol $5,000", w1)  # two equal cards: both seen, both offered
    stash(m, 1, "Gambling $25,000", w1)
    stash(m, 1, "Red light district $30,000", w1b)
    to_actions(m)
    m.w.put(cid(m, "Warehouse [6 newspaper]"), ("deck", None))
    drive(m, ("gangster action", "burglary"), ("gangster", lab(m, g)), ("warehouse to rob", lab(m, w1)))
    # 4.3.3 "the player is allowed to see all the loot cards in the warehouse": shown
    # to the burglar alone, the other warehouse's loot not at all
    shown = sorted(t for k, t, to in seen if k == "reveal" and to == 0)
    assert shown == ["Alcohol $5,000", "Alcohol $5,000", "Gambling $25,000"]
    assert not any(k == "reveal" and to != 0 for k, t, to in seen)
    # equal cards are told apart by the warehouse zones' unique labels (#2)
    assert sorted(m.pending.labels) == ["Alcohol $5,000", "Alcohol $5,000 #2", "Gambling $25,000"]
    drive(m, ("loot to steal", "Alcohol $5,000"))
    assert sorted(loot(m, 1)) == ["Alcohol $5,000", "Gambling $25,000", "Red light district $30,000"]


def test_md05_a_burglar_with_a_vehicle_steals_more_from_the_same_warehouse():
    m = new_game(2)
    g = hire(m, 0, "Gangster 0/3 [3 first aid kit]", "street")
    equip(m, g, "Burglary tool +3 [5 newspaper]")
    equip(m, g, "Vehicle +1 [8 hat]")  # 7.4 "from the street or during a burglary"
    w1 = warehouse(m, 1)
    w1b = put(m, "Warehouse [5 key]", "yard", 1)
    stash(m, 1, "Gambling $25,000", w1)
    stash(m, 1, "Alcohol $5,000", w1)
    stash(m, 1, "Tobacco $10,000", w1)
    stash(m, 1, "Red light district $30,000", w1b)
    to_actions(m)
    m.w.put(cid(m, "Warehouse [6 newspaper]"), ("deck", None))  # 6 + 3 + 3 = 12
    drive(m, ("gangster action", "burglary"), ("gangster", lab(m, g)), ("warehouse to rob", lab(m, w1)))
    assert sorted(m.pending.labels) == ["Alcohol $5,000", "Gambling $25,000", "Tobacco $10,000"]
    drive(m, ("loot to steal", "Gambling $25,000"))
    # the second card (vehicle +1) comes from the same warehouse, never from the other
    assert sorted(m.pending.labels) == ["Alcohol $5,000", "Tobacco $10,000"]
    drive(m, ("loot to steal", "Tobacco $10,000"))
    assert sorted(labels(m, "stock", warehouse(m, 0))) == ["Gambling $25,000", "Tobacco $10,000"]
    assert labels(m, "stock", w1) == ["Alcohol $5,000"] and labels(m, "stock", w1b) == ["Red light district $30,000"]
    assert ids(m, "hideout", 0) == [g] and next_turn(m)


def test_md05_going_home_without_a_job_costs_an_action():
    m = new_game(2)
    g = hire(m, 0, "Gangster 1/1 [8 key]", "street")
    hire(m, 0, "Gangster 2/2 [5 newspaper]")
    to_actions(m)
    drive(m, ("gangster action", "bring a gangster home"), ("gangster", lab(m, g)))
    assert next_turn(m)  # the one action (one warehouse) is used
    assert g in ids(m, "hideout", 0)


# ---------------------------------------------------------------- MD-06
def test_md06_a_skill_check_sends_flipped_loot_to_its_pile_and_flips_again():
    m = new_game(2)
    g = hire(m, 0, "Gangster 3/3 [6 key]", "street")
    t = hire(m, 1, "Gangster 1/3 [5 hat]", "street")
    to_actions(m)
    stack(m, "Alcohol $10,000", "Security guard (1 star)", "Weapon +3 [3 hat]")
    drive(m, ("gangster action", "attack a gangster"), ("gangster", lab(m, g)),
          ("gangster to attack", lab(m, t)))
    assert labels(m, "loot_pile", "alcohol") == ["Alcohol $10,000"]
    assert said(m, "has no dice: flip again")  # ASSUMPTION: police has no dice icon
    assert said(m, "3 + 3 = 6, the attack fails")
    assert labels(m, "discard")[:2] == ["Weapon +3 [3 hat]", "Security guard (1 star)"]


def test_md06_the_end_of_the_prohibition_flipped_in_a_skill_check_ends_the_game():
    m = new_game(2)
    g = hire(m, 0, "Gangster 3/3 [6 key]", "street")
    t = hire(m, 1, "Gangster 1/3 [5 hat]", "street")
    to_actions(m)
    m.w.put(cid(m, "End of the prohibition"), ("deck", None))
    drive(m, ("gangster action", "attack a gangster"), ("gangster", lab(m, g)),
          ("gangster to attack", lab(m, t)))
    assert m.result.reason == "End of the prohibition" and m.pending is None
    assert ids(m, "street", 1) == [t]


# ---------------------------------------------------------------- MD-07
def test_md07_loot_is_face_down_and_stays_under_its_warehouse():
    m = new_game(2)
    w1 = warehouse(m, 1)
    w1b = put(m, "Warehouse [5 key]", "yard", 1)
    stash(m, 1, "Gambling $25,000", w1)
    stash(m, 1, "Alcohol $5,000", w1)
    stash(m, 1, "Tobacco $10,000", w1b)
    # face down: every seat, the owner's too, sees how many lie under each warehouse
    for seat in (0, 1):
        view = m.w.snapshot(seat)["zones"]
        assert view[f"stock/{lab(m, w1)}"] == {"count": 2}
        assert view[f"stock/{lab(m, w1b)}"] == {"count": 1}
    assert sorted(labels(m, "stock", w1)) == ["Alcohol $5,000", "Gambling $25,000"]


def test_md07_one_guard_dog_per_warehouse():
    m = new_game(2)
    hand_of(m, 0, "Guard dog [4 key]", "Guard dog [8 hat]")
    pass_offers(m)
    drive(m, ("play a card", "play a card"))
    assert m.pending.labels == ["Guard dog [4 key]", "Guard dog [8 hat]"]
    drive(m, ("card to play", "Guard dog [4 key]"), ("warehouse to guard", lab(m, warehouse(m, 0))))
    assert labels(m, "guard", warehouse(m, 0)) == ["Guard dog [4 key]"]


def test_md07_a_guarded_warehouse_takes_no_second_dog():
    m = new_game(2)
    dog(m, warehouse(m, 0))
    hand_of(m, 0, "Guard dog [8 hat]")
    pass_offers(m)
    assert m.pending.labels == ["discard a card"]  # the dog can't be played
    m = new_game(2)
    dog(m, warehouse(m, 0))
    w2 = put(m, "Warehouse [8 key]", "yard", 0)
    hand_of(m, 0, "Guard dog [8 hat]")
    pass_offers(m)
    drive(m, ("play a card", "play a card"), ("card to play", "Guard dog [8 hat]"))
    assert m.pending.labels == [lab(m, w2)]  # only the unguarded warehouse


# ---------------------------------------------------------------- MD-08
def test_md08_gangsters_go_to_the_hideout_without_limit():
    m = new_game(2)
    hire(m, 0, "Gangster 3/0 [1 key]")
    hire(m, 0, "Gangster 3/0 [2 newspaper]")
    hand_of(m, 0, "Gangster 3/3 [6 key]")
    pass_offers(m)
    drive(m, ("play a card", "play a card"), ("card to play", "Gangster 3/3 [6 key]"))
    assert labels(m, "hideout", 0)[0] == "Gangster 3/3 [6 key]" and len(ids(m, "hideout", 0)) == 3
    attrs = m.program.cards[ids(m, "hideout", 0)[0]].attrs
    assert (attrs["atk"], attrs["burg"]) == (3, 3)
    # played this round, it can be sent out at once
    pass_offers(m)
    drive(m, ("gangster action", "send a gangster out"), ("gangster", "Gangster 3/3 [6 key]"))
    assert labels(m, "street", 0) == ["Gangster 3/3 [6 key]"]


# ---------------------------------------------------------------- MD-09
def test_md09_a_block_on_an_opposing_gangster_stops_its_actions():
    m = new_game(2)
    t = hire(m, 1, "Gangster 2/2 [5 newspaper]")
    mine = hire(m, 0, "Gangster 1/1 [8 key]")
    hand_of(m, 0, "Jail [1]")
    pass_offers(m)
    drive(m, ("play a card", "play a card"), ("card to play", "Jail [1]"))
    assert m.pending.labels == [lab(m, t)]  # only opposing gangsters
    drive(m, ("gangster to block", lab(m, t)))
    assert labels(m, "blocks", t) == ["Jail [1]"]
    pass_offers(m)
    drive(m, ("gangster action", "end the actions"))
    # seat 1's turn: its only gangster is blocked, so there are no actions to take
    pass_offers(m)
    discard_first(m)
    pass_offers(m)
    # no "gangster action" for seat 1: the offers run on into seat 0's next turn
    assert m.pending.seat == 0 and m.pending.name == "play a card"
    assert ids(m, "hideout", 1) == [t] and mine in ids(m, "hideout", 0)
    assert said(m, "seat 1 discards") and not said(m, "seat 1 sends")


def test_md09_stacked_blocks_are_freed_top_to_bottom_with_the_matching_symbol():
    m = new_game(2)
    g = hire(m, 0, "Gangster 2/2 [5 newspaper]")
    jail = block(m, g, "Jail [1]")
    home = block(m, g, "At home [2]")  # the later block lies on top
    hand_of(m, 0, "Gangster 1/1 [8 key]", "Gangster 1/1 [4 newspaper]")
    pass_offers(m)
    drive(m, ("play a card", "free a gangster"), ("gangster to free", lab(m, g)))
    # At home is on top: only a newspaper counters it, not the key for the Jail
    assert m.pending.labels == ["Gangster 1/1 [4 newspaper]"]
    drive(m, ("counter card", "Gangster 1/1 [4 newspaper]"))
    assert home in ids(m, "discard") and ids(m, "blocks", g) == [jail]
    assert said(m, "plays Gangster 1/1 [4 newspaper] against At home [2]")


def test_md09_freeing_needs_the_counter_of_the_top_block():
    m = new_game(2)
    g = hire(m, 0, "Gangster 2/2 [5 newspaper]")
    block(m, g, "Jail [1]")
    block(m, g, "Girlfriend [3]")
    hand_of(m, 0, "Gangster 1/1 [8 key]")  # a key, but the hat is needed first
    pass_offers(m)
    assert "free a gangster" not in m.pending.labels


def test_md09_a_player_frees_only_his_own_gangsters():
    m = new_game(2)
    t = hire(m, 1, "Gangster 2/2 [5 newspaper]")
    block(m, t, "Jail [1]")
    hand_of(m, 0, "Gangster 1/1 [8 key]")  # the key would counter the Jail
    pass_offers(m)
    assert "free a gangster" not in m.pending.labels  # ASSUMPTION: own gangsters only


# ---------------------------------------------------------------- MD-10
def test_md10_items_attach_in_the_hideout_one_of_each_type_even_when_blocked():
    m = new_game(2)
    a = hire(m, 0, "Gangster 3/0 [1 key]")
    b = hire(m, 0, "Gangster 1/1 [8 key]")
    hire(m, 0, "Gangster 2/2 [5 newspaper]", "street")  # on the street: can't be equipped
    block(m, b, "Jail [1]")
    equip(m, a, "Weapon +1 [4 hat]")
    hand_of(m, 0, "Weapon +3 [3 hat]")
    pass_offers(m)
    drive(m, ("play a card", "play a card"), ("card to play", "Weapon +3 [3 hat]"))
    assert m.pending.labels == [lab(m, b)]  # a has a weapon; the street gangster is out
    drive(m, ("gangster to equip", lab(m, b)))
    assert labels(m, "gear", b) == ["Weapon +3 [3 hat]"]


def test_md10_item_bonuses_add_to_the_skill_check():
    m = new_game(2)
    g = hire(m, 0, "Gangster 1/1 [8 key]", "street")
    equip(m, g, "Weapon +3 [3 hat]")
    t = hire(m, 1, "Gangster 1/3 [5 hat]", "street")
    to_actions(m)
    m.w.put(cid(m, "Warehouse [5 key]"), ("deck", None))
    drive(m, ("gangster action", "attack a gangster"), ("gangster", lab(m, g)), ("gangster to attack", lab(m, t)))
    assert said(m, "5 + 4 = 9, eliminated")


# ---------------------------------------------------------------- MD-11
def police_turn(m, card, *seat_passes):
    """Seat 0 plays a police card; everyone's pass to the left (seat order)."""
    pass_offers(m)
    drive(m, ("play a card", "play a card"), ("card to play", card))
    for label in seat_passes:
        assert m.pending.name == "card to pass left" and m.pending.secret
        drive(m, ("card to pass left", label))


def test_md11_security_guard_passes_left_discards_a_loot_and_no_actions():
    m = new_game(3)
    hire(m, 0, "Gangster 3/0 [1 key]")
    hand_of(m, 0, "Security guard (1 star)", "Weapon +1 [4 hat]")
    hand_of(m, 1, "Guard dog [3 hat]")
    hand_of(m, 2, "Vehicle +3 [7 hat]")
    stash(m, 0, "Gambling $25,000")
    stash(m, 0, "Alcohol $5,000")
    police_turn(m, "Security guard (1 star)", "Weapon +1 [4 hat]", "Guard dog [3 hat]", "Vehicle +3 [7 hat]")
    assert labels(m, "hand", 1) == ["Weapon +1 [4 hat]"]
    assert labels(m, "hand", 2) == ["Guard dog [3 hat]"]
    assert labels(m, "hand", 0) == ["Vehicle +3 [7 hat]"]
    assert sorted(m.pending.labels) == ["Alcohol $5,000", "Gambling $25,000"]  # any one loot
    drive(m, ("loot to lose", "Alcohol $5,000"))
    assert loot(m, 0) == ["Gambling $25,000"]
    # the second offer round, then no gangster actions although a gangster is ready
    drive(m, ("offer a trade", "pass"), ("offer a trade", "pass"))
    assert said(m, "no gangster actions this turn")
    # he may still ask for trades at the end of the turn
    assert m.pending.seat == 0 and m.pending.name == "ask for trades"
    drive(m, ("ask for trades", "pass"))
    assert m.pending.seat == 2 and m.pending.name == "offer a trade"  # seat 1's turn has begun
    assert "Security guard (1 star)" in labels(m, "discard")


def test_md11_police_patrol_discards_the_most_valuable_loot():
    m = new_game(2)
    hand_of(m, 0, "Police patrol (2 star)", "Weapon +1 [4 hat]")
    stash(m, 0, "Gambling $25,000")
    stash(m, 0, "Alcohol $30,000")
    stash(m, 0, "Tobacco $30,000")
    police_turn(m, "Police patrol (2 star)", "Weapon +1 [4 hat]", labels(m, "hand", 1)[0])
    assert sorted(m.pending.labels) == ["Alcohol $30,000", "Tobacco $30,000"]  # the most valuable
    drive(m, ("loot to lose", "Tobacco $30,000"))
    assert sorted(loot(m, 0)) == ["Alcohol $30,000", "Gambling $25,000"]


def test_md11_a_police_card_without_loot_costs_no_loot_if_unable():
    for card in ("Security guard (1 star)", "Police patrol (2 star)"):
        m = new_game(2)
        hand_of(m, 0, card, "Weapon +1 [4 hat]")
        police_turn(m, card, "Weapon +1 [4 hat]", labels(m, "hand", 1)[0])
        # "if able": nothing to lose, straight on to the second offer round
        assert m.pending.name == "offer a trade" and loot(m, 0) == []
        assert card in labels(m, "discard")


def test_md11_police_raid_discards_every_played_card_but_one_warehouse():
    m = new_game(2)
    w0 = warehouse(m, 0)
    w2 = put(m, "Warehouse [5 key]", "yard", 0)
    dog(m, w2)
    g = hire(m, 0, "Gangster 3/0 [1 key]", "street")
    equip(m, g, "Weapon +1 [4 hat]")
    block(m, g, "Jail [1]")
    hire(m, 0, "Gangster 1/1 [8 key]")
    stash(m, 0, "Gambling $25,000")
    t = hire(m, 1, "Gangster 2/2 [5 newspaper]")
    mine_on_theirs = block(m, t, "Beat up [2]")
    hand_of(m, 0, "Police raid (3 star)", "Vehicle +3 [7 hat]")
    before = len(ids(m, "discard"))
    police_turn(m, "Police raid (3 star)", "Vehicle +3 [7 hat]", labels(m, "hand", 1)[0])
    drive(m, ("warehouse", lab(m, w2)))
    assert ids(m, "yard", 0) == [w2]
    for zone in ("hideout", "street"):
        assert ids(m, zone, 0) == []
    assert ids(m, "gear", g) == [] and ids(m, "blocks", g) == []
    assert ids(m, "guard", w2) == [] and ids(m, "stock", w0) == [] and ids(m, "stock", w2) == []
    assert ids(m, "blocks", t) == [mine_on_theirs]  # blocks on others' gangsters stay
    assert w0 in ids(m, "discard")
    # raid + warehouse + dog + 2 gangsters + weapon + jail + loot
    assert len(ids(m, "discard")) == before + 8


def test_md11_police_kept_in_hand_cost_at_the_end():
    m = new_game(2)
    hand_of(m, 1, "Security guard (1 star)", "Police patrol (2 star)", "Police raid (3 star)", "Jail [1]")
    assert m.program.score(m.w, 1) == -10 - 25 - 50 - 100


# ---------------------------------------------------------------- MD-12
def test_md12_the_dons_birthday_frees_and_collects_one_loot_from_each_other_player():
    m = new_game(3)
    g = hire(m, 0, "Gangster 2/2 [5 newspaper]")
    block(m, g, "Jail [1]")
    block(m, g, "At home [2]")
    t = hire(m, 1, "Gangster 1/1 [8 key]")
    theirs = block(m, t, "Girlfriend [3]")
    w2 = put(m, "Warehouse [8 key]", "yard", 0)
    stash(m, 1, "Gambling $25,000")
    stash(m, 1, "Alcohol $5,000")
    hand_of(m, 0, "The Don's birthday")
    pass_offers(m)
    drive(m, ("play a card", "play a card"), ("card to play", "The Don's birthday"))
    assert ids(m, "blocks", g) == [] and ids(m, "blocks", t) == [theirs]  # only his own gangsters are freed
    drive(m, ("warehouse", lab(m, w2)))
    assert m.pending.seat == 1 and sorted(m.pending.labels) == ["Alcohol $5,000", "Gambling $25,000"]
    assert m.pending.secret  # the loot stays face down: sealed for the others
    seen = []
    m.listener = lambda kind, data: seen.append((kind, data.get("text"), data.get("to")))
    drive(m, ("birthday present", "Alcohol $5,000"))
    assert ("reveal", "Alcohol $5,000", 0) in seen  # the present is shown to him alone
    # seat 2 has no loot: nothing to give
    assert labels(m, "stock", w2) == ["Alcohol $5,000"] and loot(m, 0) == ["Alcohol $5,000"]
    assert loot(m, 1) == ["Gambling $25,000"]


# ---------------------------------------------------------------- MD-13
def test_md13_score_is_loot_minus_penalties():
    m = new_game(2)
    stash(m, 0, "Gambling $25,000")
    stash(m, 0, "Alcohol $30,000")
    hire(m, 0, "Gangster 3/0 [1 key]")
    hire(m, 0, "Gangster 1/1 [8 key]", "street")
    put(m, "Warehouse [5 key]", "yard", 0)
    hand_of(m, 0, "Security guard (1 star)", "Weapon +1 [4 hat]")
    assert m.program.score(m.w, 0) == 55 - 2 * 5 - 2 * 10 - 25


def test_md13_ties_go_to_most_gangsters_then_warehouses_then_shared():
    m = new_game(3)
    for s in range(3):
        hand_of(m, s, "Weapon +1 [4 hat]" if s == 0 else "Weapon +1 [5 key]" if s == 1 else "Weapon +1 [6 newspaper]")
    stash(m, 0, "Alcohol $15,000")
    hire(m, 0, "Gangster 3/0 [1 key]")     # 15 - 5 - 10 = 0
    stash(m, 1, "Alcohol $10,000")         # 10 - 10 = 0
    m.w.put(cid(m, "End of the prohibition"), ("deck", None))
    stack(m, "Alcohol $5,000")
    to_actions(m)
    drive(m, ("gangster action", "end the actions"))
    assert m.result.reason == "End of the prohibition"
    assert m.result.scores[:2] == [0, 0] and m.result.winners == [0]  # more gangsters


def test_md13_equal_keys_share_the_victory():
    m = new_game(2)
    m.w.put(cid(m, "End of the prohibition"), ("deck", None))
    to_actions(m)
    assert m.result.scores == [-10, -10] and m.result.winners == [0, 1]


# ---------------------------------------------------------------- MD-14
def test_md14_optional_6_1_an_item_handed_over_in_the_hideout_costs_an_action():
    m = start("games/mafia_dollar/hideout_gifts.game", 2)
    a = hire(m, 0, "Gangster 3/0 [1 key]")
    b = hire(m, 0, "Gangster 1/1 [8 key]")
    w = equip(m, a, "Weapon +3 [3 hat]")
    to_actions(m)
    assert "give an item" in m.pending.labels
    drive(m, ("gangster action", "give an item"), ("item to give", "Weapon +3 [3 hat]"),
          ("gangster to receive", lab(m, b)))
    assert ids(m, "gear", b) == [w] and ids(m, "gear", a) == []
    assert next_turn(m)  # it was the one action


def test_md14_the_base_game_has_no_item_handover():
    m = new_game(2)
    a = hire(m, 0, "Gangster 3/0 [1 key]")
    hire(m, 0, "Gangster 1/1 [8 key]")
    equip(m, a, "Weapon +3 [3 hat]")
    to_actions(m)
    assert "give an item" not in m.pending.labels


TARGET_GAME = "games/mafia_dollar/dollar_target.game"


def test_md14_optional_6_2_the_banked_amount_ends_the_game_at_the_end_of_the_round():
    """6.2 ASSUMPTION: the banked loot (before penalties) is checked at the end of each
    round, so the player who reaches it mid-round does not end the game there."""
    m = new_game(2, TARGET_GAME)
    assert m.w.shared["round"] == 1 and m.w.shared["turn"] == 1
    for goods in ("Alcohol", "Tobacco", "Gambling", "Red light district"):
        for v in ("30", "25", "20"):
            stash(m, 0, f"{goods} ${v},000")
    hire(m, 0, "Gangster 3/0 [1 key]")
    hand_of(m, 0, "Security guard (1 star)", "Police patrol (2 star)", "Police raid (3 star)", "Jail [1]")
    # banked 4 * 75 = 300 >= 250 (his dollars after penalties: 300 - 5 - 10 - 175 = 110)
    to_actions(m)
    drive(m, ("gangster action", "end the actions"))
    assert next_turn(m)  # seat 1 still has its turn in this round
    assert m.w.shared["round"] == 1 and m.w.shared["turn"] == 2
    to_actions(m)
    pass_offers(m)  # seat 1's turn ends: the round ends
    assert m.result.reason == "a clan reached the declared amount of dollars" and m.result.by_rule
    assert said(m, "seat 0 has banked the declared amount of dollars")
    # the winner as at any end: the most dollars after the penalties
    assert m.result.scores == [300 - 5 - 10 - 175, -10] and m.result.winners == [0]


def test_md14_optional_6_2_below_the_amount_the_game_goes_on_into_the_next_round():
    m = new_game(2, TARGET_GAME)
    for goods in ("Alcohol", "Tobacco", "Gambling"):
        for v in ("30", "25", "20"):
            stash(m, 1, f"{goods} ${v},000")
    stash(m, 1, "Red light district $30,000")  # 225 + 30 = 255 banked, 250 the target
    to_actions(m)  # seat 0's turn, and the offers at the start of seat 1's
    assert m.pending.seat == 1 and m.pending.name == "play a card"
    # seat 1 loses a loot card before the round ends: 225 < 250, the game goes on
    discard_first(m)
    m.w.put(cid(m, "Red light district $30,000", pools=("stock",)), ("discard", None))
    pass_offers(m)
    assert m.result is None and m.w.shared["round"] == 2 and m.w.shared["turn"] == 3
    assert m.pending.seat == 0 and m.pending.name == "play a card"


def test_md14_optional_6_2_the_end_card_is_set_aside_and_the_deck_refilled():
    """6.2 ASSUMPTION: with a declared amount the End of the prohibition ends nothing;
    an empty deck is refilled from the discard pile."""
    m = new_game(2, TARGET_GAME)
    m.w.put(cid(m, "End of the prohibition"), ("deck", None))
    to_actions(m)  # seat 0's turn; seat 1 draws the End card, and on
    assert m.result is None and labels(m, "aside") == ["End of the prohibition"]
    assert said(m, "turns up the End of the prohibition: with a declared amount it ends nothing")
    assert m.pending.seat == 1 and m.pending.name == "play a card" and len(ids(m, "hand", 1)) == 6
    # the deck runs out: the discard pile becomes the new deck for seat 0's draw
    for c in list(ids(m, "deck")):
        m.w.put(c, ("discard", None))
    discard_first(m)
    pass_offers(m)
    assert said(m, "the discard pile is shuffled into a new deck")
    assert m.result is None and m.pending.seat == 0 and len(ids(m, "hand", 0)) == 6


def test_md14_optional_6_2_the_long_game_outlasts_the_short_one(tmp_path, monkeypatch):
    """Both lengths make sense: the End card no longer cuts the long game short."""
    monkeypatch.setenv("RULEDSL_ALLOW_ABSOLUTE_EXTENDS", "1")
    from ruledsl.pipeline import load_game as load
    from support import random_playout

    long_game = tmp_path / "long.game"
    long_game.write_text(f'extends "{ROOT / TARGET_GAME}"\noverride const TARGET = 500\n')
    base, short, longer = (load(str(path)).program for path in (ROOT / GAME, ROOT / TARGET_GAME, long_game))
    steps = {}
    for name, program in (("base", base), ("short", short), ("long", longer)):
        games = [random_playout(program, 2, seed, 200_000) for seed in range(3)]
        assert all(g.result is not None and g.result.by_rule for g in games)
        steps[name] = sum(g.steps for g in games)
    assert steps["base"] < steps["short"] < steps["long"]
