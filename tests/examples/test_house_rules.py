"""The house rules of examples/house_rules/ (issue 10): each is a small file that extends
one of the five games, and each test below plays the situation the house rule changes
under the base game and under the house rule, so it fails if the house rule does nothing.

Chance is fixed where a scenario is driven (support.FixedChance: shuffles keep the
listed order, dice come from a queue); the rest are seeded playouts with a fixed policy.
The last tests hold every file to the measure of the issue (`check` passes, at most six
lines that are neither comments nor blank) and README.md's table to the files.
"""
import random
import re

import pytest

from support import ROOT, drive, give, run_cli, start
from ruledsl.pipeline import load_game
from ruledsl.runtime.machine import Machine, RandomChance

HOUSE = ROOT / "examples" / "house_rules"
MAX_LINES = 6


def house(name: str) -> str:
    return f"examples/house_rules/{name}.game"


def game(name: str) -> str:
    return f"games/{name}.game"


def seated(m, seat: int) -> dict:
    return m.w.players[seat]


def playout(path: str, players: int, seed: int, policy: dict, watch, max_steps=3000) -> Machine:
    """A seeded game: a decision named in `policy` takes that label, any other a random
    legal one; `watch(m)` runs before every decision."""
    m = Machine(load_game(str(ROOT / path)).program, players, RandomChance(seed))
    rng = random.Random(seed)
    while m.pending is not None and m.steps < max_steps:
        watch(m)
        label = policy.get(m.pending.name)
        if label in m.pending.labels:
            assert m.choose(label) is None
        else:
            m.choose_index(rng.randrange(len(m.pending.labels)))
    return m


# ---------------------------------------------------------------- 1. one expression changed
# Mafialand with two players (tests/games/test_mafialand.py): a roll of 3 + 4 takes seat 0
# from N to ne7, a casino space, whose face-down card is the 4 of clubs.
@pytest.mark.parametrize("path,stash", [(game("mafialand"), 18 + 3), (house("casino_pays_double"), 18 + 6)])
def test_casino_pays_double_the_bags_gambled(path, stash):
    m = start(path, 2, rolls=[3, 4])
    give(m, 0, "K of hearts")
    drive(m, ("direction", "forward"), ("bags to gamble", "3"), ("casino card", "K of hearts"))
    assert seated(m, 0)["stash"] == stash
    assert m.w.shared["bank"] == 80 - 2 * 18 - (stash - 18)


def test_casino_pays_double_but_no_more_than_the_bank_holds():
    m = start(house("casino_pays_double"), 2, rolls=[3, 4])
    m.w.shared["bank"] = 4
    give(m, 0, "K of hearts")
    drive(m, ("direction", "forward"), ("bags to gamble", "3"), ("casino card", "K of hearts"))
    assert seated(m, 0)["stash"] == 18 + 4 and m.w.shared["bank"] == 0


# ---------------------------------------------------------------- 2. one guard added
# Bada Bing with three Bosses, seat 0 starting (tests/games/test_bada_bing.py): from the
# Butcher a roll of 1 + 1 passes the Cash Stash and lands on Roll For Survival; the next
# 1 + 1 is snake eyes.
def on_roll_for_survival(path: str, soldiers: int) -> Machine:
    m = start(path, 3, rolls=[6, 6, 1, 1, 1, 1] + [1, 1, 1, 1])
    seated(m, 0).update(at="butcher", soldiers=soldiers, posted=0)
    m.w.touch()
    drive(m, ("turn", "roll the dice"), ("use the Overpass", "pass"))
    return m


@pytest.mark.parametrize("path,soldiers,survives", [
    (game("bada_bing"), 1, False),                 # the base: snake eyes whacks him
    (house("last_soldier_spared"), 1, True),       # the house rule: no roll at all
    (house("last_soldier_spared"), 2, False),      # two Soldiers: he rolls as before
])
def test_last_soldier_spared_the_roll_for_survival(path, soldiers, survives):
    m = on_roll_for_survival(path, soldiers)
    assert m.w.alive[0] == survives
    assert seated(m, 0)["at"] == "roll_for_survival" or not survives


# ---------------------------------------------------------------- 3. an option forbidden for the first rounds
# MafiaDollar with two players: seat 0 has a gangster on the street and seat 1 loot in its
# warehouse, so the base offers seat 0 the gangster action "burglary".
def gangster_actions(path: str, round_no: int) -> list:
    m = start(path, 2)
    m.w.shared["round"] = round_no
    free = [c.id for c in m.program.cards if m.w.loc.get(c.id, (None,))[0] in ("deck", "lower", "aside", "hand")]

    def put(label, zone, key):
        m.w.put(next(c for c in free if m.program.cards[c].label == label), (zone, key))
    put("Gangster 0/3 [3 first aid kit]", "street", 0)
    put("Gambling $25,000", "stock", m.w.zones[("yard", 1)][0])
    while m.pending.name != "gangster action":
        name = m.pending.name
        label = "discard a card" if name == "play a card" else m.pending.labels[0] if name == "card to discard" else "pass"
        drive(m, (name, label))
    return m.pending.labels


@pytest.mark.parametrize("path,round_no,offered", [
    (game("mafia_dollar"), 1, True),
    (house("no_early_burglary"), 1, False),
    (house("no_early_burglary"), 2, False),
    (house("no_early_burglary"), 3, True),        # after the grace rounds, as in the base
])
def test_no_burglary_in_the_first_two_rounds(path, round_no, offered):
    labels = gangster_actions(path, round_no)
    assert "bring a gangster home" in labels   # the gangster is on the street, ready
    assert ("burglary" in labels) == offered


# ---------------------------------------------------------------- 4. a changed end condition
@pytest.mark.parametrize("path,ends", [(game("mafialand"), False), (house("hoarder_wins"), True)])
def test_hoarding_30_loot_bags_wins(path, ends):
    m = start(path, 2, rolls=[3, 4])
    seated(m, 0)["stash"] = 28
    give(m, 0, "K of hearts")
    drive(m, ("direction", "forward"), ("bags to gamble", "2"), ("casino card", "K of hearts"))
    assert seated(m, 0)["stash"] == 30
    if ends:
        assert m.result.reason == "hoarded the loot bags to win" and m.result.winners == [0]
    else:
        assert m.result is None and m.pending.seat == 1


def test_hoarding_counts_the_bags_in_loot_houses_too():
    m = start(house("hoarder_wins"), 2, rolls=[3, 4])
    seated(m, 0)["stash"] = 24
    for h in ("se_house1", "se_house2", "se_house3", "se_house4"):
        m.w.spaces["houses"]["owner"][h] = 0
    give(m, 0, "K of hearts")
    drive(m, ("direction", "forward"), ("bags to gamble", "2"), ("casino card", "K of hearts"))
    assert m.result.reason == "hoarded the loot bags to win" and m.result.winners == [0]


# ---------------------------------------------------------------- 5. a changed setup amount
@pytest.mark.parametrize("path,each", [(game("road_to_infamy"), 1), (house("double_contraband"), 2)])
def test_gangs_start_with_two_tokens_of_each_type(path, each):
    m = start(path, 2)
    drive(m, ("gang", "booze"), ("gang", "jewels"))
    for seat in (0, 1):
        types = [m.program.cards[t].attrs["type"] for t in m.w.zones[("gang", seat)]]
        assert sorted(types) == sorted(["booze", "jewels", "cigars", "guns"] * each)
    assert len(m.w.zones[("bag", None)]) == 52 - 2 * 4 * each - 2   # two more are the prize


# ---------------------------------------------------------------- 6. a changed turn order
def round_starters(path: str, seed: int) -> dict:
    """The seat asked first in each round of a 3-Boss game where every Boss just rolls."""
    first = {}

    def watch(m):
        if m.pending.name == "turn":
            first.setdefault(m.w.shared["round"], m.pending.seat)
    playout(path, 3, seed, {"turn": "roll the dice", "declare": "refuse"}, watch, max_steps=400)
    return first


@pytest.mark.parametrize("seed", [1, 2])
def test_the_first_turn_passes_clockwise_each_round(seed):
    base, rotating = round_starters(game("bada_bing"), seed), round_starters(house("rotating_start"), seed)
    s = base[1]
    assert rotating[1] == s
    assert [base[r] for r in (1, 2, 3, 4)] == [s, s, s, s]
    assert [rotating[r] for r in (1, 2, 3, 4)] == [s, (s + 1) % 3, (s + 2) % 3, s]


# ---------------------------------------------------------------- 7. one guard added, The Boss
def police_by_round(path: str, seed: int) -> dict:
    """How many police cards lie face up at the end of each round (the most seen in it)."""
    up = {}

    def watch(m):
        r = m.w.shared["round"]
        up[r] = max(up.get(r, 0), len(m.w.zones[("police_up", None)]))
    playout(path, 2, seed, {}, watch)
    return up


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_police_card_in_the_first_round(seed):
    base, house_up = police_by_round(game("the_boss"), seed), police_by_round(house("police_need_a_round"), seed)
    assert base[1] == 1 and base[2] == 2
    assert house_up[1] == 0 and house_up[2] == 1
    assert max(house_up) >= 3   # the third badge can't show before round 3 now


# ---------------------------------------------------------------- the measure
def house_rule_files() -> list:
    return sorted(HOUSE.glob("*.game"))


def code_lines(path) -> list:
    """The lines that are neither blank nor comments."""
    return [line for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.strip().startswith("#")]


def test_there_are_at_least_six_house_rules_over_at_least_four_games():
    files = house_rule_files()
    bases = {re.match(r'extends "\.\./\.\./games/(\w+)\.game"', code_lines(p)[0]).group(1) for p in files}
    assert len(files) >= 6 and len(bases) >= 4


@pytest.mark.parametrize("path", house_rule_files(), ids=lambda p: p.name)
def test_each_house_rule_checks_and_has_at_most_six_lines(path):
    result = run_cli("check", path)
    assert result.exit_code == 0, result.output
    lines = code_lines(path)
    assert lines[0].startswith('extends "../../games/')
    assert len(lines) <= MAX_LINES, lines


def test_the_readme_table_gives_every_file_its_true_size():
    rows = {}
    for line in (HOUSE / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and cells[0].endswith(".game"):
            rows[cells[0]] = int(cells[3])
    assert rows == {p.name: len(code_lines(p)) for p in house_rule_files()}
