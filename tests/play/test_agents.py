from __future__ import annotations

from collections import Counter

import msgspec
import click
import pytest

from ruledsl.play.agents import (AgentError, FirstAgent, HumanAgent, RandomAgent, ScriptedAgent, ask_agent,
                            make_agent, parse_agent_spec, render_view)
from ruledsl.pipeline import load_game
from ruledsl.runtime.machine import Machine, RandomChance, Refusal
from ruledsl.runtime.streams import KeyedStreams
from support import GAMES


def start(name: str, players: int = 2, seed: int = 3) -> Machine:
    return Machine(load_game(str(GAMES / name)).program, players, RandomChance(seed))


def test_random_agent_is_seeded_by_seed_and_seat():
    machine = start("dice_race.game")
    decision = machine.pending
    picks = [RandomAgent(1, 7).choose(None, decision) for _ in range(3)]
    agent = RandomAgent(1, 7)
    sequence = [agent.choose(None, decision) for _ in range(20)]
    again = RandomAgent(1, 7)
    assert sequence == [again.choose(None, decision) for _ in range(20)]
    assert sequence != [RandomAgent(0, 7).choose(None, decision) for _ in range(20)]
    assert picks == [sequence[0]] * 3
    assert len(set(sequence)) == 2  # both options of a two-way choice come up


def test_random_picks_are_keyed_by_decision_so_an_added_decision_leaves_the_others():
    decision = start("dice_race.game").pending  # "pace"
    other = msgspec.structs.replace(decision, name="stretch", shown=["a", "b", "c"])
    plain, busy = RandomAgent(0, 5), RandomAgent(0, 5)
    picks = []
    for i in range(30):
        if i % 3 == 0:
            busy.choose(None, other)  # a decision the rules now ask in between
        picks.append((plain.choose(None, decision), busy.choose(None, decision)))
    assert all(a == b for a, b in picks)


def test_a_pick_survives_options_added_or_removed_beside_it():
    decision = start("dice_race.game").pending
    wide = msgspec.structs.replace(decision, shown=["steady", "dash", "crawl", "sprint"])
    kept = 0
    for seed in range(200):
        pick = decision.labels[RandomAgent(0, seed).choose(None, decision)]
        wider = wide.labels[RandomAgent(0, seed).choose(None, wide)]
        assert wider == pick or wider in ("crawl", "sprint")  # only a new option can take its place
        kept += wider == pick
    assert 70 < kept < 130  # about half: each of 4 options is the least hash with chance 1/4


def test_a_shuffle_orders_cards_by_label_so_a_card_added_leaves_the_others_in_order():
    deck = [f"card {i}" for i in range(30)]
    a = KeyedStreams("chance:3").order("deck", deck, deck)
    b = KeyedStreams("chance:3").order("deck", deck + ["joker"], deck + ["joker"])
    assert sorted(a) == sorted(deck) and [c for c in b if c != "joker"] == a
    assert a != deck and a != KeyedStreams("chance:4").order("deck", deck, deck)


def test_keyed_streams_are_uniform_enough():
    streams = KeyedStreams("chance:1")
    counts = Counter(streams.below("k", 6) for _ in range(60_000))
    chi2 = sum((c - 10_000) ** 2 / 10_000 for c in counts.values())
    assert len(counts) == 6 and chi2 < 20.5  # chi-square, 5 degrees of freedom, p = 0.001
    picks = Counter(streams.pick("k", ["a", "b", "c"]) for _ in range(30_000))
    assert sum((c - 10_000) ** 2 / 10_000 for c in picks.values()) < 13.8  # 2 degrees of freedom, p = 0.001
    dice = Counter(x for _ in range(10_000) for x in streams.dice("roll 2d6", 2, 6))
    assert sorted(dice) == [1, 2, 3, 4, 5, 6]
    assert sum((c - 20_000 / 6) ** 2 / (20_000 / 6) for c in dice.values()) < 20.5


def test_first_agent_takes_index_zero():
    machine = start("dice_race.game")
    assert machine.pending.labels == ["steady", "dash"]
    assert FirstAgent(0).choose(None, machine.pending) == 0


def test_scripted_agent_follows_its_labels_then_runs_out():
    machine = start("dice_race.game")
    agent = ScriptedAgent(0, ["dash"])
    assert agent.choose(None, machine.pending) == 1
    with pytest.raises(AgentError, match=r'seat 0: the script ran out after 1 choice.*"steady", "dash"'):
        agent.choose(None, machine.pending)


def test_scripted_agent_refuses_an_illegal_label_and_lists_the_legal_ones():
    machine = start("dice_race.game")
    with pytest.raises(AgentError) as info:
        ScriptedAgent(0, ["sprint"]).choose(None, machine.pending)
    assert '"sprint" is not legal' in str(info.value)
    assert 'legal: "steady", "dash"' in str(info.value)


def test_make_agent_kinds_and_unknown_kind():
    assert isinstance(make_agent("random", 0, 1), RandomAgent)
    assert isinstance(make_agent("first", 0, 1), FirstAgent)
    assert isinstance(make_agent("human", 0, 1), HumanAgent)
    assert make_agent("scripted", 1, 1, ["a"]).labels == ["a"]
    with pytest.raises(AgentError, match="unknown agent kind 'robot'; kinds: random, first, human, scripted"):
        make_agent("robot", 0, 1)


def test_parse_agent_spec():
    assert parse_agent_spec("1=human") == (1, "human", None)
    assert parse_agent_spec("0=scripted:dash,pass") == (0, "scripted", ["dash", "pass"])
    with pytest.raises(AgentError, match="SEAT=KIND"):
        parse_agent_spec("human")
    with pytest.raises(AgentError, match="unknown agent kind 'bot'"):
        parse_agent_spec("0=bot")


class Spy:
    needs_view = True

    def __init__(self):
        self.views = []

    def choose(self, view, decision):
        self.views.append((view, decision))
        return 0


def test_agents_see_only_their_seat_view():
    machine = start("secret_bid.game")
    seat = machine.pending.seat
    spy = Spy()
    ask_agent(spy, machine)
    view, decision = spy.views[0]
    assert decision is machine.pending
    assert view == machine.w.snapshot(seat)
    other = 1 - seat
    assert view["players"][other]["last_bid"] == "?"
    assert view["zones"][f"hand/seat {other}"] == {"count": 2}
    assert isinstance(view["zones"][f"hand/seat {seat}"], list)


def test_ask_agent_rejects_an_out_of_range_answer():
    class Bad:
        needs_view = False

        def choose(self, view, decision):
            return 5
    with pytest.raises(AgentError, match="not an option index 0..1"):
        ask_agent(Bad(), start("dice_race.game"))


def test_machine_refuses_an_illegal_choice_with_the_legal_options():
    machine = start("dice_race.game")
    refusal = machine.choose("sprint")
    assert isinstance(refusal, Refusal)
    assert refusal.code == "R101"
    assert refusal.legal == ["steady", "dash"]
    assert machine.pending.labels == ["steady", "dash"] and machine.steps == 0


def test_human_agent_shows_view_and_asks_again_after_bad_input(monkeypatch, capsys):
    answers = iter(["x", "0", "3", "2"])
    monkeypatch.setattr(click, "prompt", lambda *a, **k: next(answers))
    machine = start("secret_bid.game")
    seat = machine.pending.seat
    index = HumanAgent(seat).choose(machine.w.snapshot(seat), machine.pending)
    assert index == 1
    out = capsys.readouterr().out
    assert f"--- seat {seat} to choose: bid ---" in out
    assert "you: wins=0 last_bid=0" in out
    assert f"seat {1 - seat}: wins=0 last_bid=?" in out
    assert f"  1. {machine.pending.labels[0]}\n  2. {machine.pending.labels[1]}" in out
    assert out.count("is not an option: enter a number shown (1-2)") == 3


def test_render_view_is_compact():
    view = {"shared": {"round": 2}, "players": [{"seat": 0, "alive": True, "gold": 3},
                                               {"seat": 1, "alive": False, "gold": "?"}],
            "zones": {"deck": {"count": 4, "top": "ace"}, "hand/seat 0": ["2", "K"]},
            "boards": {"track": {"a": {"owner": None}, "b": {"owner": "seat 1", "tolls": 2}}}}
    assert render_view(view, 0).splitlines() == [
        "shared: round=2", "you: gold=3", "seat 1 (out): gold=?",
        "deck: 4 card(s), top ace", "hand/seat 0: [2, K]",
        "track: a owner=none; b owner=seat 1 tolls=2"]


def test_empty_zones_kept_per_card_are_summed_up_not_listed():
    from ruledsl.play.agents import empty_text
    names = ["deck", "hand/seat 0", "hand/seat 1"] + [f"gear/card {i}" for i in range(50)]
    assert empty_text(names) == "deck, hand/seat 0, hand/seat 1, gear/... (50 of them)"
