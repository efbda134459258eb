"""Seeded The Boss transcripts as snapshots: a rule edit shows up as a diff here.

Update with `pytest --snapshot-update` and say in the commit message which rule
change caused the diff.
"""
import json

import pytest
from click.testing import CliRunner

from ruledsl.cli import main
from ruledsl.pipeline import load_game
from ruledsl.runtime import Machine, RandomChance
from scenario import ROOT, play_recorded

GAME = "games/the_boss.game"
CASES = [  # (players, seed, max decisions or None for a whole game)
    (2, 5, None),
    (3, 1, 90),
    (4, 2, 90),
]


def play(tmp_path, monkeypatch, players, seed, max_steps):
    return play_recorded(tmp_path, monkeypatch, GAME, players, seed, max_steps)


@pytest.mark.parametrize("players,seed,max_steps", CASES)
def test_seeded_transcript(tmp_path, monkeypatch, snapshot, players, seed, max_steps):
    _, transcript = play(tmp_path, monkeypatch, players, seed, max_steps)
    assert transcript == snapshot


def test_seeded_narration_of_a_whole_game(tmp_path, monkeypatch, snapshot):
    narration, transcript = play(tmp_path, monkeypatch, 2, 5, None)
    assert '"type":"result"' in transcript.splitlines()[-1]
    assert narration == snapshot


def test_replaying_a_seeded_game_succeeds(tmp_path, monkeypatch):
    play(tmp_path, monkeypatch, 3, 1, None)
    result = CliRunner().invoke(main, ["replay", str(tmp_path / "game.jsonl")])
    assert result.exit_code == 0, result.output


def test_seat_view_hides_rewards_and_hand_values_but_shows_colours(snapshot):
    """What seat 1 sees at its first decision of a seeded 3-player game."""
    game = load_game(str(ROOT / GAME))
    m = Machine(game.program, 3, RandomChance(4))
    m.choose_index(0)  # the dealer (seat 0) picks the first boss combination
    while m.pending.seat != 1:
        m.choose_index(0)
    view = m.w.snapshot(1)
    zones = view["zones"]
    for b in ("new_york", "detroit", "kansas_city", "cincinnati", "memphis"):
        assert zones[f"reward/{b}"] == {"count": 1}  # face down for everyone
    for other in (0, 2):
        hand = zones[f"hand/seat {other}"]
        assert set(hand) == {"count", "show"} and len(hand["show"]) == hand["count"]
        real = [m.program.cards[c].attrs["boss"] for c in m.w.zones[("hand", other)]]
        assert hand["show"] == real  # the colours, in hand order
    assert all(isinstance(x, str) and " " in x for x in zones["hand/seat 1"])  # own hand: full labels
    rewards = {m.program.cards[c].label for b in m.w.spaces["boss"] for c in m.w.zones[("reward", b)]}
    others = {m.program.cards[c].label for s in (0, 2) for c in m.w.zones[("hand", s)]}
    text = json.dumps(view)
    assert not any(f'"{lab}"' in text for lab in rewards | others)
    assert json.dumps(view, indent=1, sort_keys=True) == snapshot
