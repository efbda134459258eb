"""The Boss scenarios, one or more per checklist rule TB-01..TB-09.

Chance is fixed (tests/scenario.py): shuffles keep the order. The police deck is
then blue, blue, red, red, double (the third badge shows in round 5). Each round the
city cards of the bosses in play are stacked card by card (so the last listed card
of a city ends on top), the top card of each colour becomes its reward, and the rest
is dealt one at a time from the seat after the dealer. With two players and bosses
3-4-6 the rewards are Detroit revolver, Kansas City revolver and Memphis hospital;
seat 0 holds Detroit 1, Detroit 3, Kansas City 2, Kansas City 4, Memphis 3 and
seat 1 Detroit 2, Detroit 4, Kansas City 3, Memphis 2, Memphis 4.
"""
import os

from ruledsl.pipeline import load_game
from ruledsl.runtime.machine import Machine, Refusal
from support import ROOT, FixedChance, card, drive, labels, start

GAME = "games/the_boss.game"
LINEUP = {2: "2 players: bosses 346", 3: "3 players: bosses 13456", 4: "4 players: bosses 1234567"}


def begin(players=2, lineup=None):
    m = start(GAME, players)
    drive(m, ("boss cards", lineup or LINEUP[players]))
    return m


def cube_ids(m, zone, key, seat=None, big=None):
    out = []
    for c in m.w.zones[(zone, key)]:
        attrs = m.program.cards[c].attrs
        if seat is not None and attrs["owner"] != seat:
            continue
        if big is not None and (attrs["n"] <= 7) != big:
            continue
        out.append(c)
    return out


def station(m, seat, boss, big=1, small=0):
    """Moves cubes from a seat's reserve onto a boss card, as if placed earlier."""
    for c in cube_ids(m, "reserve", seat, big=True)[:big] + cube_ids(m, "reserve", seat, big=False)[:small]:
        m.w.put(c, ("gang", boss))


def set_reward(m, boss, label):
    """Makes the named card the face-down reward of a boss; the old reward takes its place."""
    new = card(m, label)
    where = m.w.loc[new]
    for c in list(m.w.zones[("reward", boss)]):
        m.w.put(c, where)
    m.w.put(new, ("reward", boss))


def quiet_step(m):
    """Nobody places; each turn reveals the top card of the hand."""
    if m.pending.name == "place gangsters":
        drive(m, ("place gangsters", "pass"))
    else:
        drive(m, ("card to reveal", m.pending.labels[0]))


def finish_round(m):
    here = m.w.shared["round"]
    while m.result is None and m.w.shared["round"] == here:
        quiet_step(m)


def to_last_reveal(m):
    """Plays quietly up to the last reveal of the round (one card left in all hands)."""
    while not (m.pending.name == "card to reveal" and sum(len(m.w.zones[("hand", s)]) for s in range(m.w.n)) == 1):
        quiet_step(m)


def stack_police(m, *names):
    """Puts distinct police cards with these labels on top of the police deck, in order."""
    deck = m.w.zones[("police_deck", None)]
    picked = []
    for lab in names:
        picked.append(next(c for c in deck if m.program.cards[c].label == lab and c not in picked))
    for c in reversed(picked):
        m.w.put(c, ("police_deck", None))
    assert labels(m, "police_deck")[:len(names)] == list(names)


def reserve(m, seat, big=None):
    return len(cube_ids(m, "reserve", seat, big=big))


def turn_order_of_last_turn(m):
    """Seats in the order they reveal their last card."""
    seats = []
    while m.w.shared["round"] == 1 and m.result is None:
        if m.pending.name == "card to reveal" and len(m.w.zones[("hand", m.pending.seat)]) == 1:
            seats.append(m.pending.seat)
        quiet_step(m)
    return seats


# ---------------------------------------------------------------- TB-01
def test_tb01_cubes_score_markers_police_and_dealer():
    for n in (2, 3, 4):
        m = begin(n)
        for s in range(n):
            assert reserve(m, s, big=True) == 6 and reserve(m, s, big=False) == 3
            assert labels(m, "track", s) == [f"big cube of seat {s}"]  # the score marker
        assert len(m.w.zones[("unused", None)]) == 10 * (4 - n)
        assert len(m.w.zones[("police_deck", None)]) == 5
        assert m.w.shared["dealer"] == 0
        assert m.pending.seat == 0  # "beginning with the dealer"


def test_tb01_dealer_button_passes_clockwise_each_round():
    m = begin(3)
    dealers = []
    for _ in range(4):
        dealers.append(m.w.shared["dealer"])
        finish_round(m)
    assert dealers == [0, 1, 2, 0]
    assert m.pending.seat == 1  # round 5 starts with the new dealer


# ---------------------------------------------------------------- TB-02
def test_tb02_boss_cards_for_the_player_count_and_the_deck_they_make():
    m = start(GAME, 2)
    assert m.pending.seat == 0 and m.pending.labels == [
        "2 players: bosses 346", "2 players: bosses 1245", "2 players: bosses 357"]
    drive(m, ("boss cards", "2 players: bosses 346"))
    in_play = [b for b, on in m.w.spaces["boss"]["in_play"].items() if on]
    assert in_play == ["detroit", "kansas_city", "memphis", "chicago"]
    assert m.w.shared["chicago_pos"] == 1  # second in line
    # the deck: exactly the 13 city cards of Detroit, Kansas City and Memphis
    dealt = [m.program.cards[c] for s in range(2) for c in m.w.zones[("hand", s)]]
    dealt += [m.program.cards[c] for b in in_play for c in m.w.zones[("reward", b)]]
    assert len(dealt) == 13 and {c.attrs["boss"] for c in dealt} == {"detroit", "kansas_city", "memphis"}
    assert len(m.w.zones[("box", None)]) == 27 - 13
    assert [p["token"] for p in m.w.players] == [False, False]  # no Cincinnati


def test_tb02_banished_tokens_only_with_cincinnati():
    m = begin(2, "2 players: bosses 1245")
    assert [p["token"] for p in m.w.players] == [True, True]
    assert m.w.spaces["boss"]["in_play"]["cincinnati"]
    four = start(GAME, 4)
    assert four.pending.labels == ["4 players: bosses 1234567", "4 players: bosses 34567"]


# ---------------------------------------------------------------- TB-03
def test_tb03_one_hidden_reward_per_city_and_even_hands():
    m = begin(2)
    assert labels(m, "reward", "detroit") == ["Detroit revolver"]
    assert labels(m, "reward", "kansas_city") == ["Kansas City revolver"]
    assert labels(m, "reward", "memphis") == ["Memphis hospital"]
    assert labels(m, "reward", "chicago") == []  # Chicago has no city cards
    assert labels(m, "hand", 0) == ["Detroit 1", "Detroit 3", "Kansas City 2", "Kansas City 4", "Memphis 3"]
    assert [len(m.w.zones[("hand", s)]) for s in (0, 1)] == [5, 5]
    assert len(m.w.zones[("deck", None)]) == 0


def test_tb03_views_hide_rewards_and_hand_values_but_show_hand_colours():
    m = begin(2)
    view = m.w.snapshot(1)["zones"]
    # another seat's hand: how many cards and their colours, never the values
    assert view["hand/seat 0"] == {"count": 5, "show": ["detroit", "detroit", "kansas_city", "kansas_city", "memphis"]}
    assert view["hand/seat 1"] == labels(m, "hand", 1)  # your own hand in full
    # the rewards: nobody sees them, not even the dealer
    for seat in (0, 1):
        seen = m.w.snapshot(seat)["zones"]
        assert seen["reward/detroit"] == {"count": 1}
        assert "Detroit revolver" not in str(seen)
    assert m.w.snapshot(0)["zones"]["hand/seat 1"]["show"][0] == "detroit"


# ---------------------------------------------------------------- TB-04
def test_tb04_placing_without_beating_the_leader_is_refused():
    m = begin(2)
    station(m, 1, "detroit", big=2)   # seat 1 leads Detroit with 2
    station(m, 0, "detroit", big=1)   # seat 0 has 1 there
    drive(m, ("place gangsters", "place gangsters"), ("boss", "detroit"))
    refusal = m.choose("1")
    assert isinstance(refusal, Refusal) and refusal.code == "R101"
    assert "cubes to add" in refusal.message
    assert refusal.legal == ["2", "3", "4", "5", "6", "7", "8"]  # 1 + 2 > 2 needs at least 2
    drive(m, ("cubes to add", "2"), ("small cubes among them", "1"))
    assert len(cube_ids(m, "gang", "detroit", seat=0)) == 3


def test_tb04_a_boss_you_cannot_beat_is_not_offered():
    m = begin(2)
    station(m, 1, "kansas_city", big=6, small=3)  # 9 there; seat 0 has 9 in reserve
    drive(m, ("place gangsters", "place gangsters"))
    assert "kansas_city" not in m.pending.labels and "detroit" in m.pending.labels


def test_tb04_small_cubes_only_alongside_a_big_one():
    m = begin(2)
    for c in cube_ids(m, "reserve", 1, big=True):
        m.w.put(c, ("dead", None))
    assert reserve(m, 1) == 3  # three small cubes, no big one
    drive(m, ("place gangsters", "pass"), ("card to reveal", "Detroit 1"))
    assert m.pending.seat == 1 and m.pending.name == "card to reveal"  # placing is not even offered
    m = begin(2)
    for c in cube_ids(m, "reserve", 0, big=True)[1:]:
        m.w.put(c, ("dead", None))
    drive(m, ("place gangsters", "place gangsters"), ("boss", "memphis"))
    assert m.pending.labels == ["1", "2", "3", "4"]
    drive(m, ("cubes to add", "4"))  # 1 big + 3 small: no split to choose
    assert m.pending.name == "card to reveal"
    assert len(cube_ids(m, "gang", "memphis", seat=0, big=True)) == 1
    assert len(cube_ids(m, "gang", "memphis", seat=0, big=False)) == 3


def test_tb04_chicago_only_after_another_city_this_round():
    m = begin(2)
    drive(m, ("place gangsters", "place gangsters"))
    assert m.pending.labels == ["detroit", "kansas_city", "memphis"]
    drive(m, ("boss", "detroit"), ("cubes to add", "1"), ("card to reveal", "Detroit 1"),
          ("place gangsters", "pass"), ("card to reveal", "Detroit 2"),
          ("place gangsters", "place gangsters"))
    assert m.pending.labels == ["detroit", "kansas_city", "memphis", "chicago"]
    assert m.w.players[1]["placed_elsewhere"] is False


def test_tb04_chicago_needs_another_city_again_each_round():
    """"... if you have already placed cubes in a different city earlier this round":
    a placement in an earlier round doesn't open Chicago."""
    m = begin(2)
    drive(m, ("place gangsters", "place gangsters"), ("boss", "detroit"), ("cubes to add", "1"))
    assert m.w.players[0]["placed_elsewhere"] is True
    finish_round(m)
    assert m.w.players[0]["placed_elsewhere"] is False
    while not (m.pending.name == "place gangsters" and m.pending.seat == 0):
        quiet_step(m)
    drive(m, ("place gangsters", "place gangsters"))
    assert "chicago" not in m.pending.labels


def test_tb04_banished_player_cannot_place_in_cincinnati():
    m = begin(2, "2 players: bosses 1245")
    m.w.players[0]["barred"] = True
    drive(m, ("place gangsters", "place gangsters"))
    assert "cincinnati" not in m.pending.labels and "new_york" in m.pending.labels


def test_tb04_reveal_is_mandatory_and_goes_under_its_boss():
    m = begin(2)
    drive(m, ("place gangsters", "pass"), ("card to reveal", "Kansas City 2"),
          ("place gangsters", "pass"), ("card to reveal", "Kansas City 3"))
    assert labels(m, "shown", "kansas_city") == ["Kansas City 3", "Kansas City 2"]  # the last on top
    assert m.pending.name == "place gangsters" and m.pending.seat == 0


# ---------------------------------------------------------------- TB-05
def test_tb05_last_turn_in_reserve_order_ties_clockwise_from_dealer():
    m = begin(3)
    for c in cube_ids(m, "reserve", 0)[:4]:  # seat 0 keeps 5, seats 1 and 2 keep 9
        m.w.put(c, ("dead", None))
    assert turn_order_of_last_turn(m) == [1, 2, 0]


def test_tb05_ties_start_from_the_dealer_not_seat_zero():
    m = begin(3)
    finish_round(m)
    assert m.w.shared["dealer"] == 1
    for c in cube_ids(m, "reserve", 1)[:4]:  # seat 1 (the dealer) keeps 5; seats 0 and 2 tie on 9
        m.w.put(c, ("dead", None))
    seats = []
    while m.w.shared["round"] == 2:
        if m.pending.name == "card to reveal" and len(m.w.zones[("hand", m.pending.seat)]) == 1:
            seats.append(m.pending.seat)
        quiet_step(m)
    assert seats == [2, 0, 1]  # clockwise from the dealer (seat 1): seat 2 before seat 0


def test_tb05_police_card_flips_when_everyone_holds_one_card():
    m = begin(2)
    while not all(len(m.w.zones[("hand", s)]) == 1 for s in (0, 1)):
        assert labels(m, "police_up") == []
        quiet_step(m)
    assert labels(m, "police_up") == ["blue badge"]
    assert m.w.shared["last_round"] is False


def test_tb05_third_badge_of_a_colour_makes_the_last_round():
    m = begin(2)
    m.w.players[0]["points"] = 1  # no tie for the lead, so no overtime
    stack_police(m, "double badge", "blue badge", "blue badge")
    assert labels(m, "police_deck")[:3] == ["double badge", "blue badge", "blue badge"]
    finish_round(m)
    finish_round(m)
    assert m.result is None and m.w.shared["last_round"] is False
    finish_round(m)
    assert m.result is not None and m.result.reason == "the third matching police badge ended the game"
    assert m.w.shared["round"] == 3


def test_tb05_with_the_deck_in_listed_order_the_game_lasts_five_rounds():
    m = begin(2)
    m.w.players[0]["points"] = 1  # no tie for the lead, so no overtime
    for _ in range(4):
        finish_round(m)
    assert m.result is None and labels(m, "police_up") == ["red badge", "red badge", "blue badge", "blue badge"]
    finish_round(m)
    assert m.result is not None and m.w.shared["round"] == 5


def test_tb01_rounds_and_turns_are_counted():
    """`round` is the round being played and `turn` the turns begun by all players
    together: with two players and five cards each, round 1 has ten turns (one card
    revealed in each), and round 2 begins with turn 11."""
    m = begin(2)
    reveals = []
    while m.w.shared["round"] == 1:
        if m.pending.name == "card to reveal":
            reveals.append((m.pending.seat, m.w.shared["turn"]))
        quiet_step(m)
    assert reveals == [(0, 1), (1, 2), (0, 3), (1, 4), (0, 5), (1, 6), (0, 7), (1, 8), (0, 9), (1, 10)]
    assert m.w.shared["round"] == 2 and m.w.shared["turn"] == 11 and m.pending.seat == 1  # the new dealer


def test_tb05_tb09_knobs_a_house_rule_can_override(tmp_path):
    """BADGES_TO_END is a constant a variant overrides: with two matching badges the
    second blue badge (round 2) makes the last round."""
    path = tmp_path / "house.game"
    path.write_text(f'extends "{os.path.relpath(ROOT / GAME, tmp_path)}"\noverride const BADGES_TO_END = 2\n')
    m = Machine(load_game(str(path)).program, 2, FixedChance())
    drive(m, ("boss cards", LINEUP[2]))
    m.w.players[0]["points"] = 1  # no tie for the lead, so no overtime
    finish_round(m)
    assert m.result is None
    finish_round(m)
    assert m.result is not None and m.w.shared["round"] == 2
    assert labels(m, "police_up") == ["blue badge", "blue badge"]


# ---------------------------------------------------------------- TB-06
def test_tb06_points_reward_goes_to_the_majority_holder():
    m = begin(2)
    set_reward(m, "memphis", "Memphis 4")
    give_away = card(m, "Memphis 4")
    assert give_away in m.w.zones[("reward", "memphis")]
    station(m, 0, "memphis", big=1)
    station(m, 1, "memphis", big=2)
    finish_round(m)
    assert [p["points"] for p in m.w.players] == [0, 4]
    assert labels(m, "claimed") == []  # gathered back into the deck for round 2
    assert len(m.w.zones[("dead", None)]) == 0


def test_tb06_revolver_kills_a_big_cube_for_good():
    m = begin(2)  # Detroit's reward is the revolver
    station(m, 0, "detroit", big=2, small=1)
    finish_round(m)
    assert [m.program.cards[c].label for c in m.w.zones[("dead", None)]] == ["big cube of seat 0"]
    assert reserve(m, 0, big=True) == 5
    for _ in range(2):
        finish_round(m)
    assert reserve(m, 0, big=True) == 5  # never comes back


def test_tb06_arrested_cube_comes_back_after_two_rounds():
    m = begin(2)
    set_reward(m, "detroit", "Detroit 1")
    set_reward(m, "memphis", "Memphis 4")
    # Philadelphia's prison card stands in as Kansas City's reward this round
    set_reward(m, "kansas_city", "Philadelphia prison")
    station(m, 1, "kansas_city", big=1)
    finish_round(m)                                   # end of round 1: arrested
    assert len(cube_ids(m, "prison_first", 1)) == 1 and reserve(m, 1, big=True) == 5
    finish_round(m)                                   # end of round 2: second prison square
    assert len(cube_ids(m, "prison_second", 1)) == 1 and reserve(m, 1, big=True) == 5
    finish_round(m)                                   # end of round 3: free again
    assert len(cube_ids(m, "prison_second", 1)) == 0 and reserve(m, 1, big=True) == 6


def test_tb06_injured_cube_misses_one_round():
    m = begin(2)  # Memphis's reward is the hospital
    station(m, 0, "memphis", big=3)
    finish_round(m)
    assert len(cube_ids(m, "hospital_bed", 0)) == 1 and reserve(m, 0, big=True) == 5
    finish_round(m)
    assert len(cube_ids(m, "hospital_bed", 0)) == 0 and reserve(m, 0, big=True) == 6


def test_tb06_banished_from_cincinnati_for_the_rest_of_the_game():
    m = begin(2, "2 players: bosses 357")
    set_reward(m, "cincinnati", "Cincinnati banished")
    station(m, 1, "cincinnati", big=1)
    finish_round(m)
    assert m.w.players[1]["barred"] is True and m.w.players[1]["token"] is False
    assert m.w.players[0]["barred"] is False
    while not (m.pending.name == "place gangsters" and m.pending.seat == 1):
        quiet_step(m)
    drive(m, ("place gangsters", "place gangsters"))
    assert "cincinnati" not in m.pending.labels and "detroit" in m.pending.labels


def test_tb06_nobody_in_a_city_means_nobody_takes_its_reward():
    m = begin(2)
    finish_round(m)
    assert [p["points"] for p in m.w.players] == [0, 0]
    assert len(m.w.zones[("dead", None)]) == 0
    assert [len(cube_ids(m, z, s)) for z in ("hospital_bed", "prison_first") for s in (0, 1)] == [0, 0, 0, 0]


def test_tb06_an_unclaimed_reward_stays_face_down():
    """"Do not look at the facedown rewards": only the controller "takes that city's
    facedown card" and applies it. A reward nobody claims is never shown to anyone
    and goes back face down into next round's shuffle."""
    m = begin(2)
    set_reward(m, "detroit", "Detroit 4")
    station(m, 0, "detroit", big=1)  # seat 0 claims Detroit; nobody is in Kansas City or Memphis
    events = []
    m.listener = lambda kind, data: events.append((kind, data.get("text")))
    to_last_reveal(m)
    drive(m, ("card to reveal", m.pending.labels[0]))
    revealed = [text for kind, text in events if kind == "reveal"]
    assert "Detroit 4" in revealed  # the claimed reward is turned up and scored
    assert "Kansas City revolver" not in revealed and "Memphis hospital" not in revealed
    assert m.w.players[0]["points"] == 4


# ---------------------------------------------------------------- TB-07
def test_tb07_chicago_scores_half_the_last_cards_to_its_left_ignoring_penalties():
    m = begin(3)  # New York, Detroit, Kansas City, Cincinnati, Memphis (+ Chicago)
    m.w.shared["chicago_pos"] = 3  # left of Chicago: New York, Detroit, Kansas City
    station(m, 2, "chicago", big=2)
    station(m, 0, "detroit", big=1)  # seat 0 holds Detroit, whose reward is set to points
    set_reward(m, "detroit", "Detroit 1")
    to_last_reveal(m)
    for key in ("new_york", "detroit", "kansas_city", "cincinnati", "memphis"):
        for c in list(m.w.zones[("shown", key)]):
            m.w.put(c, ("box", None))
    for lab, key in (("New York 2", "new_york"), ("New York 3", "new_york"),  # NY 3 played last
                     ("Detroit revolver", "detroit"), ("Kansas City 4", "kansas_city"),
                     ("Cincinnati 5", "cincinnati")):               # right of Chicago: ignored
        m.w.put(card(m, lab), ("shown", key))
    assert m.pending.labels == ["Memphis 3"]  # the last card goes right of Chicago
    points = [p["points"] for p in m.w.players]
    drive(m, ("card to reveal", "Memphis 3"))
    gained = [p["points"] - before for p, before in zip(m.w.players, points)]
    assert gained == [1, 0, 3]  # Chicago: (3 + 0 + 4) / 2 = 3; Detroit's reward 1 to seat 0
    assert reserve(m, 2, big=True) == 6  # the revolver shown in Detroit hurts nobody
    assert len(m.w.zones[("dead", None)]) == 0


def test_tb07_chicago_moves_right_each_round_until_rightmost():
    m = begin(2)  # three local bosses: Chicago can reach index 3
    seen = [m.w.shared["chicago_pos"]]
    for _ in range(4):
        finish_round(m)
        seen.append(m.w.shared["chicago_pos"])
    assert seen == [1, 2, 3, 3, 3]


# ---------------------------------------------------------------- TB-08
def test_tb08_big_cubes_return_small_cubes_leave_the_game():
    m = begin(2)
    set_reward(m, "detroit", "Detroit 4")
    station(m, 0, "detroit", big=2, small=1)
    finish_round(m)
    assert m.w.players[0]["points"] == 4
    assert reserve(m, 0, big=True) == 6 and reserve(m, 0, big=False) == 2
    assert [m.program.cards[c].label for c in m.w.zones[("gone", None)]] == ["small cube of seat 0"]
    assert all(m.w.zones[("gang", b)] == [] for b in m.program.boards["boss"].spaces)


# ---------------------------------------------------------------- TB-09
def end_on_round_three(m):
    """Stacks the police deck so that the third blue badge shows in round 3."""
    stack_police(m, "blue badge", "double badge", "blue badge")
    finish_round(m)
    finish_round(m)
    to_last_reveal(m)


def reveal_last_with(m, *keys):
    """Sets each seat's (points, points this round, cubes to drop from the reserve),
    then plays the last reveal of the round."""
    for seat, (points, last, dropped) in enumerate(keys):
        m.w.players[seat]["points"], m.w.players[seat]["round_points"] = points, last
        for c in cube_ids(m, "reserve", seat)[:dropped]:
            m.w.put(c, ("dead", None))
    drive(m, ("card to reveal", m.pending.labels[0]))


def final_round_with(*keys):
    m = begin(2)
    end_on_round_three(m)
    reveal_last_with(m, *keys)
    return m


def test_tb09_most_points_wins_after_the_last_round():
    m = final_round_with((7, 0, 0), (9, 0, 0))
    assert m.result.reason == "the third matching police badge ended the game"
    assert m.result.winners == [1] and m.result.ranking == [1, 0]


def test_tb09_tie_goes_to_most_points_in_the_last_round():
    assert final_round_with((9, 4, 0), (9, 2, 0)).result.winners == [0]


def test_tb09_then_to_most_cubes_in_reserve():
    assert final_round_with((9, 3, 2), (9, 3, 0)).result.winners == [1]


def test_tb09_a_full_tie_is_decided_by_an_overtime_round():
    m = final_round_with((9, 3, 0), (9, 3, 0))
    assert m.result is None and m.w.shared["overtime"] == 1 and m.w.shared["round"] == 4
    to_last_reveal(m)
    assert labels(m, "police_up")[-1] == "blue badge"  # no police card flips in overtime
    reveal_last_with(m, (9, 0, 0), (11, 2, 0))
    assert m.result.reason == "the game ended after overtime"
    assert m.result.winners == [1]


def test_tb09_still_tied_after_the_overtime_limit_is_a_shared_win():
    m = final_round_with((9, 3, 0), (9, 3, 0))
    while m.result is None:
        quiet_step(m)
    assert m.w.shared["overtime"] == 3  # MAX_OVERTIME (ASSUMPTION)
    assert sorted(m.result.winners) == [0, 1]
