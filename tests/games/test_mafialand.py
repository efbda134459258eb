"""Mafialand scenarios, one or more per checklist rule ML-01..ML-13.

Chance is fixed (tests/scenario.py): the deck stays in listed order (A of clubs,
A of diamonds, A of hearts, A of spades, 2 of clubs, ...), so with two players
seat 0 holds the four Aces and the 2s of clubs and diamonds, seat 1 the 2s of
hearts and spades and the four 3s, and the casino cards are the four 4s.
"""
import os

from ruledsl.pipeline import load_game
from ruledsl.runtime.machine import Machine
from support import ROOT, FixedChance, card, drive, give, labels, start

GAME = "games/mafialand.game"
WILD = "games/mafialand/wild_cards.game"


def houses(m, sector):
    return {h: owner for h, owner in m.w.spaces["houses"]["owner"].items() if m.program.boards["houses"].attrs_of_space["sector"][h] == sector}


def hold(m, seat, *names):
    """Puts a seat's bags in these houses (by hand, so the end conditions are told to look again)."""
    for h in names:
        m.w.spaces["houses"]["owner"][h] = seat
    m.w.touch()


def test_ml01_setup_hands_bags_blocks_and_casino_cards():
    m = start(GAME, 3)
    w = m.w
    assert [len(w.zones[("hand", s)]) for s in range(3)] == [6, 6, 6]
    assert [p["stash"] for p in w.players] == [18, 18, 18]
    assert [p["at"] for p in w.players] == ["N", "E", "S"]
    assert [len(w.zones[("casino_card", z)]) for z in ("northeast", "southeast", "southwest", "northwest")] == [1, 1, 1, 1]
    assert len(w.zones[("deck", None)]) == 52 - 18 - 4
    assert w.shared["bank"] == 80 - 3 * 18
    assert m.pending.seat == 0 and m.pending.name == "direction"


def test_ml02_roll_two_dice_and_choose_direction():
    m = start(GAME, 2, rolls=[2, 2])
    assert m.pending.labels == ["forward", "backward"]
    drive(m, ("direction", "backward"))
    assert m.w.players[0]["at"] == "nw6"  # 4 spaces back from N, around the loop


def test_ml03_claim_unclaimed_turf():
    m = start(GAME, 2, rolls=[2, 2])
    drive(m, ("direction", "forward"), ("claim turf", "claim turf"), ("loot house", "ne_house2"))
    assert m.w.players[0]["at"] == "ne4"
    assert houses(m, "northeast")["ne_house2"] == 0
    assert m.w.players[0]["stash"] == 17


def war_at_ne4(rolls, extra_cards=(), extra_houses=()):
    m = start(GAME, 2, rolls=[2, 2] + rolls)
    hold(m, 1, "ne_house1", *extra_houses)
    give(m, 0, *extra_cards)
    m.w.players[1]["stash"] -= 1
    drive(m, ("direction", "forward"))
    assert m.pending.labels == ["no beef", "go to war", "say nothing"]
    drive(m, ("turf response", "go to war"), ("enemy", "seat 1"), ("war house", "ne_house2"))
    return m


def test_ml04_war_lost_sends_lander_home_and_hands_over_house():
    m = war_at_ne4([])
    assert m.pending.secret and m.pending.seat == 0
    drive(m, ("war card", "2 of clubs"), ("war card", "3 of clubs"))
    assert m.w.players[0]["at"] == "N"
    assert houses(m, "northeast") == {"ne_house1": 1, "ne_house2": 1, "ne_house3": None, "ne_house4": None}
    assert labels(m, "used")[:2] == ["3 of clubs", "2 of clubs"]


def test_ml04_ml07_war_won_takes_all_enemy_houses_in_the_sector():
    m = war_at_ne4([], extra_cards=["K of spades"], extra_houses=["ne_house3"])
    drive(m, ("war card", "K of spades"), ("war card", "3 of clubs"))
    assert m.w.players[1]["at"] == "E"
    assert m.w.players[0]["at"] == "ne4"
    # ML-07: the stolen bags now count as the winner's colour
    assert set(houses(m, "northeast").values()) == {0, None}
    assert [h for h, o in houses(m, "northeast").items() if o == 0] == ["ne_house1", "ne_house2", "ne_house3"]


def test_ml04_no_war_in_a_sector_without_an_empty_house():
    """ASSUMPTION (ML-04 "go to war by placing a loot bag in one of the empty loot
    houses"): with every house of the sector held (by two players, so not locked),
    war is not offered; No Beef and saying nothing are."""
    m = start(GAME, 2, rolls=[2, 2])
    hold(m, 1, "ne_house1", "ne_house2", "ne_house3")
    hold(m, 0, "ne_house4")
    drive(m, ("direction", "forward"))
    assert m.pending.name == "turf response" and m.pending.labels == ["no beef", "say nothing"]


def test_ml05_war_tie_is_decided_by_one_die_each():
    m = war_at_ne4([5, 2])
    drive(m, ("war card", "2 of clubs"), ("war card", "2 of hearts"))
    assert m.w.players[1]["at"] == "E"
    assert houses(m, "northeast")["ne_house1"] == 0


def test_ml05_double_tie_both_lose_the_turf_and_take_bags_home():
    m = war_at_ne4([3, 3])
    drive(m, ("war card", "2 of clubs"), ("war card", "2 of hearts"))
    assert set(houses(m, "northeast").values()) == {None}
    assert [p["stash"] for p in m.w.players] == [18, 18]
    assert [p["at"] for p in m.w.players] == ["N", "E"]


def test_ml06_saying_nothing_lets_the_holder_call_my_turf():
    m = start(GAME, 2, rolls=[2, 2])
    hold(m, 1, "ne_house1")
    drive(m, ("direction", "forward"), ("turf response", "say nothing"), ("my turf", "my turf"))
    assert m.pending.seat == 1  # the caller picks a card first
    drive(m, ("war card", "3 of clubs"), ("war card", "A of clubs"),
          ("place the bag", "place the bag"), ("loot house", "ne_house4"))
    assert m.w.players[0]["stash"] == 17
    assert houses(m, "northeast")["ne_house4"] == 1
    assert m.w.players[0]["at"] == "ne4"  # ASSUMPTION: no block goes home after My Turf


def test_ml06_no_beef_means_no_war():
    m = start(GAME, 2, rolls=[2, 2])
    hold(m, 1, "ne_house1")
    drive(m, ("direction", "forward"), ("turf response", "no beef"))
    assert m.pending.seat == 1 and m.pending.name == "direction"


def test_ml08_casino_loss_costs_bags_and_sends_home():
    m = start(GAME, 2, rolls=[3, 4])
    drive(m, ("direction", "forward"))
    assert m.w.players[0]["at"] == "ne7"
    assert m.pending.labels == ["1", "2", "3"]
    bank = m.w.shared["bank"]
    drive(m, ("bags to gamble", "2"), ("casino card", "A of clubs"))
    assert m.w.players[0]["stash"] == 16
    assert m.w.shared["bank"] == bank + 2
    assert m.w.players[0]["at"] == "N"
    assert labels(m, "casino_card", "northeast") == ["5 of clubs"]  # replaced from the deck


def test_ml08_casino_win_pays_from_the_bank():
    m = start(GAME, 2, rolls=[3, 4])
    give(m, 0, "K of hearts")
    drive(m, ("direction", "forward"), ("bags to gamble", "3"), ("casino card", "K of hearts"))
    assert m.w.players[0]["stash"] == 21
    assert m.w.players[0]["at"] == "ne7"


def test_ml09_locked_sector_charges_one_bag():
    m = start(GAME, 2, rolls=[2, 2])
    hold(m, 1, "ne_house1", "ne_house2", "ne_house3", "ne_house4")
    drive(m, ("direction", "forward"))
    assert [p["stash"] for p in m.w.players] == [17, 19]
    assert m.pending.seat == 1 and m.pending.name == "direction"


def test_ml10_an_empty_hand_draws_six_more():
    m = start(GAME, 2, rolls=[3, 4])
    for lab in labels(m, "hand", 0)[1:]:
        m.w.put(card(m, lab), ("used", None))
    assert len(m.w.zones[("hand", 0)]) == 1
    drive(m, ("direction", "forward"), ("bags to gamble", "1"), ("casino card", labels(m, "hand", 0)[0]))
    assert len(m.w.zones[("hand", 0)]) == 6


def test_ml11_player_without_bags_is_eliminated_and_ml12_last_one_wins():
    m = start(GAME, 2, rolls=[3, 4])
    m.w.players[0]["stash"] = 1
    drive(m, ("direction", "forward"), ("bags to gamble", "1"), ("casino card", "A of clubs"))
    assert m.w.alive == [False, True]
    assert m.result.reason == "eliminated every opponent"
    assert m.result.winners == [1]


def test_ml12_locking_three_sectors_wins():
    m = start(GAME, 2, rolls=[2, 2])
    hold(m, 0, *[f"{z}_house{i}" for z in ("ne", "se", "sw") for i in (1, 2, 3, 4)])
    m.w.players[0]["stash"] = 6
    drive(m, ("direction", "forward"))
    assert m.result is not None
    assert m.result.reason == "locked down three sectors"
    assert m.result.winners == [0]


def test_ml13_joker_turns_a_lost_war_into_a_win():
    m = start(WILD, 2, rolls=[2, 2])
    hold(m, 1, "ne_house1")
    give(m, 0, "Joker")
    drive(m, ("direction", "forward"), ("turf response", "go to war"), ("enemy", "seat 1"),
          ("war house", "ne_house2"), ("war card", "A of clubs"), ("war card", "3 of clubs"),
          ("play a joker", "play a joker"), ("joker", "Joker"))
    assert m.w.players[1]["at"] == "E"
    assert houses(m, "northeast")["ne_house1"] == 0


def test_ml13_jokers_are_never_ordinary_war_cards():
    m = start(WILD, 2, rolls=[2, 2])
    hold(m, 1, "ne_house1")
    give(m, 0, "Joker")
    drive(m, ("direction", "forward"), ("turf response", "go to war"), ("enemy", "seat 1"), ("war house", "ne_house2"))
    assert "Joker" not in m.pending.labels
    assert len(m.program.cards) == 54


def test_ml13_joker_after_a_lost_my_turf_war_sends_the_opponent_home():
    # "the automatic win including ... sending the opponent back to their starting
    # Safe Zone": also when the Joker saves a My Turf war, which by itself sends no
    # block home.
    m = start(WILD, 2, rolls=[2, 2])
    hold(m, 1, "ne_house1")
    give(m, 0, "K of spades")
    give(m, 1, "Joker")
    drive(m, ("direction", "forward"), ("turf response", "say nothing"), ("my turf", "my turf"),
          ("war card", "2 of hearts"), ("war card", "K of spades"),
          ("play a joker", "play a joker"), ("joker", "Joker"), ("place the bag", "pass"))
    assert m.w.players[0]["at"] == "N"
    assert m.w.players[0]["stash"] == 17 and m.w.players[1]["stash"] == 19


def test_ml13_a_joker_as_the_casino_card_is_beaten_by_any_card():
    # ASSUMPTION (wild_cards.game): a Joker drawn as a sector's casino card has rank 0.
    m = start(WILD, 2, rolls=[3, 4])
    m.w.put(card(m, "Joker"), ("casino_card", "northeast"))
    drive(m, ("direction", "forward"), ("bags to gamble", "1"), ("casino card", "A of clubs"))
    assert m.w.players[0]["stash"] == 19 and m.w.players[0]["at"] == "ne7"


def test_ml09_no_charge_on_an_h_space_of_a_locked_sector():
    m = start(GAME, 2, rolls=[3, 4])
    hold(m, 1, "ne_house1", "ne_house2", "ne_house3", "ne_house4")
    drive(m, ("direction", "forward"))
    assert m.w.players[0]["at"] == "ne7"
    assert m.pending.seat == 0 and m.pending.name == "bags to gamble"
    assert [p["stash"] for p in m.w.players] == [18, 18]


def test_ml10_used_cards_are_reshuffled_when_the_deck_runs_out():
    m = start(GAME, 2, rolls=[3, 4])
    for c in list(m.w.zones[("deck", None)]):
        m.w.put(c, ("used", None))
    used = len(m.w.zones[("used", None)])
    drive(m, ("direction", "forward"), ("bags to gamble", "1"), ("casino card", "A of clubs"))
    # the replacement casino card comes from the used pile, now the deck again
    assert len(m.w.zones[("casino_card", "northeast")]) == 1
    assert len(m.w.zones[("used", None)]) == 0
    assert len(m.w.zones[("deck", None)]) == used + 2 - 1


# ---------------------------------------------------------------- rounds, turns and knobs
def test_ml02_rounds_and_turns_are_counted():
    """`round` is the round being played (one turn of every player still in, seat 0
    first) and `turn` the turns begun so far; 10 pips take each block to the next corner."""
    m = start(GAME, 3, rolls=[5, 5] * 4)
    seen = []
    for _ in range(4):
        seen.append((m.pending.seat, m.w.shared["round"], m.w.shared["turn"]))
        drive(m, ("direction", "forward"))
    assert seen == [(0, 1, 1), (1, 1, 2), (2, 1, 3), (0, 2, 4)]


def variant(tmp_path, *lines):
    """A house rule extending the base game, written beside the test's files."""
    path = tmp_path / "house.game"
    base = os.path.relpath(ROOT / GAME, tmp_path)
    path.write_text(f'extends "{base}"\n' + "\n".join(lines) + "\n")
    return load_game(str(path)).program


def test_ml09_ml12_knobs_a_house_rule_can_override(tmp_path):
    """LOCK_CHARGE and SECTORS_TO_WIN are constants a variant overrides."""
    program = variant(tmp_path, "override const LOCK_CHARGE = 2", "override const SECTORS_TO_WIN = 2")
    m = Machine(program, 2, FixedChance([2, 2]))
    hold(m, 1, *[f"ne_house{i}" for i in (1, 2, 3, 4)])
    drive(m, ("direction", "forward"))
    assert [p["stash"] for p in m.w.players] == [16, 20]  # two bags for the locked sector
    hold(m, 1, *[f"se_house{i}" for i in (1, 2, 3, 4)])
    m.choose_index(0)
    assert m.result is not None and m.result.reason == "locked down three sectors"
    assert m.result.winners == [1]  # two locked sectors are enough now


def test_ml08_casino_knobs_a_house_rule_can_override(tmp_path):
    """MAX_GAMBLE and the casino_payout def: gamble up to 2 bags, win double."""
    program = variant(tmp_path, "override const MAX_GAMBLE = 2", "override def casino_payout(n: int) = 2 * n")
    m = Machine(program, 2, FixedChance([3, 4]))
    give(m, 0, "K of hearts")
    drive(m, ("direction", "forward"))
    assert m.pending.labels == ["1", "2"]
    drive(m, ("bags to gamble", "2"), ("casino card", "K of hearts"))
    assert m.w.players[0]["stash"] == 18 + 4
