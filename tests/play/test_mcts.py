"""The mcts agent (ruledsl/play/mcts.py) and plug-in agents (module:Class, entry points)."""
from __future__ import annotations

import json
import random
import textwrap
from collections import Counter

import pytest

import ruledsl.play.agents as agents_module
from ruledsl.play.agents import AgentError, make_agent, parse_agent_spec
from ruledsl.play.mcts import BudgetError, MctsAgent, determinize, parse_budget
from ruledsl.pipeline import load_game
from ruledsl.runtime.machine import Machine, RandomChance
from ruledsl.play.simulate import simulate_file
from support import ROOT, run_cli

pytestmark = pytest.mark.slow  # agent strength is measured over many games

TIC_TAC_TOE = str(ROOT / "examples" / "tic_tac_toe.game")
KUHN = str(ROOT / "examples" / "kuhn_poker.game")


def test_budgets():
    assert parse_budget(None) == (200, 100)
    assert parse_budget("50") == (50, 100)
    assert parse_budget("50:20") == (50, 20)
    for bad in ("x", "0", "1:2:3", "-4", "5:"):
        with pytest.raises(BudgetError, match="mcts:SIMULATIONS"):
            parse_budget(bad)
    assert isinstance(make_agent("mcts", 1, 3, "40"), MctsAgent)
    assert parse_agent_spec("1=mcts:40:10") == (1, "mcts", "40:10")


@pytest.mark.parametrize("spec,message", [
    ("0=mcts:lots", "error: mcts:lots: write mcts:SIMULATIONS"),
    ("0=robot", "error: unknown agent kind 'robot'"),
    ("0=no_such_module_here:Bot", "error: agent 'no_such_module_here:Bot': cannot import module"),
    ("0=json:NoSuchClass", "error: agent 'json:NoSuchClass': module 'json' has no 'NoSuchClass'"),
    ("0=human", "error: --agent ...=human: simulate and compare play without a terminal"),
])
def test_bad_agents_are_told_without_a_traceback(spec, message):
    result = run_cli("simulate", TIC_TAC_TOE, "--games", "2", "--agent", spec)
    assert result.exit_code == 1
    assert result.stderr.startswith(message), result.stderr
    assert "Traceback" not in result.output + result.stderr


def kuhn_after_setup(seed=1):
    return Machine(load_game(KUHN).program, 2, RandomChance(seed))


def test_determinization_redraws_only_what_the_seat_cannot_see():
    machine = kuhn_after_setup()
    before = machine.w.snapshot()
    other_cards = Counter()
    for k in range(40):
        copy = determinize(machine, 0, random.Random(k), f"t{k}")
        zones = copy.w.snapshot()["zones"]
        assert zones["hand/seat 0"] == before["zones"]["hand/seat 0"]  # its own card stays
        assert sorted(zones["hand/seat 1"] + zones["deck"]) == sorted(before["zones"]["hand/seat 1"]
                                                                     + before["zones"]["deck"])
        assert len(zones["hand/seat 1"]) == 1
        assert all(copy.w.loc[c] == key for key, cards in copy.w.zones.items() for c in cards)
        other_cards[zones["hand/seat 1"][0]] += 1
    assert len(other_cards) == 2  # the rival's card is either of the two unseen ones
    assert machine.w.snapshot() == before  # the game searched from is left alone


def test_mcts_is_deterministic_for_a_seed():
    program = load_game(TIC_TAC_TOE).program
    picks = set()
    for _ in range(2):
        machine = Machine(program, 2, RandomChance(5))
        agent = MctsAgent(0, 5, "30")
        picks.add(agent.choose(None, machine.pending, machine))
    assert len(picks) == 1


def test_mcts_takes_a_win_and_blocks_a_loss():
    program = load_game(TIC_TAC_TOE).program
    machine = Machine(program, 2, RandomChance(0))
    for label in ("a1", "b1", "a2", "b2"):  # X: a1 a2; O: b1 b2; X to move
        machine.choose(label)
    agent = MctsAgent(0, 0, "100")
    assert machine.pending.labels[agent.choose(None, machine.pending, machine)] == "a3"
    machine.choose("c1")  # X elsewhere: now O can win at b3, X must block... it is O's move
    agent_o = MctsAgent(1, 0, "100")
    assert machine.pending.labels[agent_o.choose(None, machine.pending, machine)] == "b3"


def test_mcts_never_loses_tic_tac_toe_to_random():
    for seat in (0, 1):
        summary = simulate_file(TIC_TAC_TOE, 2, 50, 1, agents=(f"{seat}=mcts",))
        assert summary.wins[seat] + summary.draws == 50, summary.as_json()  # won or drawn, never lost


def test_one_mcts_seat_beats_random_seats_in_bada_bing():
    summary = simulate_file(str(ROOT / "games" / "bada_bing.game"), 2, 10, 1, agents=("0=mcts:20:30",))
    assert summary.errors == 0
    assert summary.wins[0] >= 8, summary.as_json()


# ---------------------------------------------------------------- plug-ins
PLUGIN = '''
class Last:
    """Always the last option; ARG, when given, is a label to prefer."""
    needs_view = False

    def __init__(self, seat, seed, arg=None):
        self.seat, self.prefer = seat, arg

    def choose(self, view, decision):
        if self.prefer in decision.labels:
            return decision.labels.index(self.prefer)
        return len(decision.labels) - 1


def broken(seat, seed, arg=None):
    raise RuntimeError("no luck")
'''


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    (tmp_path / "my_bots.py").write_text(textwrap.dedent(PLUGIN))
    monkeypatch.syspath_prepend(str(tmp_path))
    return "my_bots"


def test_a_plug_in_class_plays(plugin):
    result = run_cli("play", TIC_TAC_TOE, "--agent", f"0={plugin}:Last", "--agent", f"1={plugin}:Last:b2")
    assert result.exit_code == 0, result.output
    assert '[1] seat 0 chose "c3"' in result.output and '[2] seat 1 chose "b2"' in result.output


def test_a_plug_in_that_fails_to_build_is_told(plugin):
    result = run_cli("play", TIC_TAC_TOE, "--agent", f"0={plugin}:broken")
    assert result.exit_code == 1
    assert result.stderr == (f"error: agent '{plugin}:broken' could not be made for seat 0: "
                             "RuntimeError: no luck\n")


def test_plug_ins_in_worker_processes_give_the_same_summary(plugin):
    args = ["simulate", TIC_TAC_TOE, "--games", "12", "--seed", "3", "--json", "--agent", f"1={plugin}:Last"]
    one, two = run_cli(*args), run_cli(*args, "--jobs", "2")
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    a, b = json.loads(one.output), json.loads(two.output)
    assert {k: v for k, v in a.items() if k not in ("seconds", "playouts_per_second")} == \
           {k: v for k, v in b.items() if k not in ("seconds", "playouts_per_second")}
    random_only = json.loads(run_cli("simulate", TIC_TAC_TOE, "--games", "12", "--seed", "3", "--json").output)
    assert random_only["wins"] != a["wins"] or random_only["steps_mean"] != a["steps_mean"]


class FakeEntryPoint:
    value = "my_bots:Last"

    def __init__(self, target):
        self.target = target

    def load(self):
        return self.target


def test_an_entry_point_names_an_agent(plugin, monkeypatch):
    import my_bots
    monkeypatch.setattr(agents_module, "entry_points", lambda: {"last": FakeEntryPoint(my_bots.Last)})
    assert parse_agent_spec("0=last:a1") == (0, "last", "a1")
    agent = make_agent("last", 0, 1, "a1")
    assert agent.prefer == "a1"
    with pytest.raises(AgentError, match="kinds: random, first, human, scripted, mcts, last"):
        make_agent("robot", 0, 1)


def test_compare_takes_agents():
    result = run_cli("compare", TIC_TAC_TOE, TIC_TAC_TOE, "--games", "10", "--json", "--agent", "0=first")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["agents"] == ["0=first"]
    text = run_cli("compare", TIC_TAC_TOE, TIC_TAC_TOE, "--games", "10", "--agent", "0=first").output
    assert "agents 0=first (others random)" in text


# ---------------------------------------------------------------- hidden information
# Seat 1 hides a coin in a secret player field; seat 0 scores by guessing it. Seat 0
# sees "?" for the coin, so its search must not depend on the coin's true value.
GUESS = '''
game "Guess the coin" players 2..2

player {
  secret coin: int = 0
  points: int = 0
}

rule flow() {
  choose secret c from 0..1 by seat(1) as "hide"
  let hider = seat(1)
  hider.coin = c
  choose g from 0..1 by seat(0) as "guess"
  let guesser = seat(0)
  if g == hider.coin { guesser.points += 1 } else { hider.points += 1 }
  end "guessed"
}

score p: p.points
'''


@pytest.fixture
def guess_program(tmp_path):
    path = tmp_path / "guess.game"
    path.write_text(GUESS)
    return load_game(str(path)).program


def guess_after_hiding(program, coin):
    machine = Machine(program, 2, RandomChance(3))
    machine.choose(str(coin))
    return machine


def test_determinization_sets_other_seats_secret_fields_to_their_start_values(guess_program):
    machine = guess_after_hiding(guess_program, 1)
    assert machine.w.players[1]["coin"] == 1
    for k in range(5):
        copy = determinize(machine, 0, random.Random(k), f"t{k}")
        assert copy.w.players[1]["coin"] == 0  # the declared start value, never the true one
    assert determinize(machine, 1, random.Random(0), "t").w.players[1]["coin"] == 1  # its own stays
    assert machine.w.players[1]["coin"] == 1  # the game searched from is left alone


def test_mcts_choice_does_not_depend_on_a_hidden_secret_field(guess_program):
    games = [guess_after_hiding(guess_program, coin) for coin in (0, 1)]
    assert games[0].w.snapshot(0) == games[1].w.snapshot(0)  # seat 0 sees the same in both
    for seed in range(4):
        picks = [MctsAgent(0, seed, "40").choose(None, m.pending, m) for m in games]
        assert picks[0] == picks[1], (seed, picks)


# Seat 1's hand shows each card's colour, not its number: a determinization for seat 0
# may redeal the numbers, never the colours.
SHOWN = '''
game "Shown colours" players 2..2

enum colour { red blue }

cards tile(colour: colour, n: int) label "{colour} {n}" { each colour in colour, n in 1..3 }

zone bag: tile hidden
zone hand per player: tile owner show colour

rule setup() {
  shuffle bag
  for p in players { draw 2 from bag to hand[p] }
}

rule flow() {
  choose t from hand[seat(0)] by seat(0) as "play"
  end "played"
}
'''


def test_determinization_keeps_shown_attributes_and_redeals_the_rest(tmp_path):
    path = tmp_path / "shown.game"
    path.write_text(SHOWN)
    program = load_game(str(path)).program
    machine = Machine(program, 2, RandomChance(2))
    before = machine.w.snapshot()
    seen = set()
    for k in range(40):
        copy = determinize(machine, 0, random.Random(k), f"t{k}")
        assert copy.w.snapshot(0) == machine.w.snapshot(0)  # what seat 0 sees is unchanged
        hand = copy.w.snapshot()["zones"]["hand/seat 1"]
        assert [c.split()[0] for c in hand] == [c.split()[0] for c in before["zones"]["hand/seat 1"]]
        assert sorted(hand + copy.w.snapshot()["zones"]["bag"]) == \
            sorted(before["zones"]["hand/seat 1"] + before["zones"]["bag"])
        assert all(copy.w.loc[c] == key for key, cards in copy.w.zones.items() for c in cards)
        seen.add(tuple(hand))
    assert len(seen) > 1  # the numbers in seat 1's hand are redrawn


SEALED = """
player { won: int = 0 }
rule flow() {
  choose secret a from 1..5 by seat(0) as "bid"
  choose secret b from 1..5 by seat(1) as "bid"
  if a > b { seat(0).won += 1 } else if b > a { seat(1).won += 1 }
  end "bids shown"
}
score p: p.won
"""


def test_determinizing_redraws_another_seats_sealed_choice_held_in_a_local(tmp_path):
    import random
    from ruledsl.play.mcts import determinize
    from support import run_text
    m = run_text(tmp_path, SEALED)
    m.choose("5")
    assert m.pending.seat == 1 and m.frames[-1].env["a"] == 5
    seen = {determinize(m, 1, random.Random(i), "t").frames[-1].env["a"] for i in range(40)}
    assert seen == {1, 2, 3, 4, 5} and m.frames[-1].env["a"] == 5  # the game itself is left alone
    assert {determinize(m, 0, random.Random(i), "t").frames[-1].env["a"] for i in range(10)} == {5}


def test_a_clone_keeps_its_own_notes_of_sealed_choices(tmp_path):
    """A sealed choice's note is changed in place on its frame (decide._sealed_binder):
    one made after a clone is the original's alone, and the clone's later ones its own."""
    from support import run_text
    m = run_text(tmp_path, SEALED)
    m.choose("5")
    copy = m.clone()
    m.choose("3")
    assert set(copy.frames[-1].sealed) == {"a"}
    copy.choose("4")
    assert m.result is not None and copy.result is not None
    assert [f.sealed["b"][0] for f in (m.frames[-1], copy.frames[-1])] == [1, 1] and copy.frames[-1].env["b"] == 4
    assert m.frames[-1].sealed is not copy.frames[-1].sealed
