"""MafiaDollar: what one seat sees, live and in a replay (hidden hands, sealed choices).

Its seeded snapshots are in tests/play/test_snapshots.py; rule-edit replays in tests/play/test_rule_edits.py.
"""
import pytest
from click.testing import CliRunner

from ruledsl.cli import main
from support import play_recorded, start

GAME = "games/mafia_dollar.game"


@pytest.mark.slow  # replays a whole seeded game as a seat, drawing its ~700-zone view at each of its decisions
def test_replay_as_a_seat_hides_offers_passes_and_returns_of_others(tmp_path, monkeypatch):
    """MD-04/MD-11: seen from seat 2, the cards other seats offer, give in return and
    pass to the left are sealed; its own are not. The full narration names them."""
    play_recorded(tmp_path, monkeypatch, GAME, 3, 1)
    seat = CliRunner().invoke(main, ["replay", str(tmp_path / "game.jsonl"), "--as-seat", "2"])
    full = CliRunner().invoke(main, ["replay", str(tmp_path / "game.jsonl")])
    assert seat.exit_code == 0 and full.exit_code == 0
    # the decisions, by step (a seat's replay also shows its view at its decisions)
    seen = {line.split("]")[0]: line for line in seat.output.splitlines() if line.startswith("[")}
    all_lines = {line.split("]")[0]: line for line in full.output.splitlines() if line.startswith("[")}
    assert seen.keys() == all_lines.keys()
    secret = ("card to offer", "card in return", "card to pass left")
    sealed = [i for i, line in all_lines.items() if any(f"for {s}" in line for s in secret)]
    assert sealed
    others = [i for i in sealed if "seat 2 chose" not in all_lines[i]]
    own = [i for i in sealed if "seat 2 chose" in all_lines[i]]
    assert others and own
    for i in others:
        assert "(sealed)" in seen[i]
        card = all_lines[i].split('"')[1]
        assert card not in seen[i]
    for i in own:
        assert "(sealed)" not in seen[i] and seen[i] == all_lines[i]


def card(m, label):
    """A card with this label not yet in play (in the deck or a hand)."""
    return next(c.id for c in m.program.cards if c.label == label and m.w.loc[c.id][0] in ("deck", "lower", "hand"))


def test_what_lies_on_a_card_in_play_is_in_every_seats_view():
    """MD-07/MD-09/MD-10: items under a gangster, the blocks on him in stack order and
    the guard dog on a warehouse lie face up at a real table: every seat sees them, in
    the zone of the card they lie on. Loot under a warehouse lies face down: every seat
    sees how many cards, none sees their faces."""
    m = start(GAME, 3)
    g = card(m, "Gangster 3/0 [1 key]")
    w = m.w.zones[("yard", 1)][0]
    m.w.put(g, ("street", 1))
    for label, zone, on in (("Weapon +1 [4 hat]", "gear", g), ("Vehicle +3 [7 hat]", "gear", g),
                            ("Jail [1]", "blocks", g), ("At home [2]", "blocks", g),
                            ("Guard dog [4 key]", "guard", w),
                            ("Gambling $25,000", "stock", w), ("Alcohol $5,000", "stock", w)):
        m.w.put(card(m, label), (zone, on))
    name, wname = m.program.cards[g].label, m.program.cards[w].label
    for seat in (None, 0, 1, 2):
        zones = m.w.snapshot(seat)["zones"]
        assert zones[f"gear/{name}"] == ["Vehicle +3 [7 hat]", "Weapon +1 [4 hat]"]
        assert zones[f"blocks/{name}"] == ["At home [2]", "Jail [1]"]  # the top first
        assert zones[f"guard/{wname}"] == ["Guard dog [4 key]"]
        if seat is not None:
            assert zones[f"stock/{wname}"] == {"count": 2}
    assert sorted(m.w.snapshot()["zones"][f"stock/{wname}"]) == ["Alcohol $5,000", "Gambling $25,000"]


def test_the_state_command_as_a_seat_shows_the_attachments():
    """The same through `ruledsl state --as-seat` after some random play: every zone of
    a card in play is there, loot zones as counts only."""
    import json

    out = CliRunner().invoke(main, ["state", GAME, "--players", "3", "--seed", "1", "--steps", "900",
                                    "--as-seat", "1"])
    assert out.exit_code == 0, out.output
    zones = json.loads(out.output)["state"]["zones"]
    stock = {k: v for k, v in zones.items() if k.startswith("stock/")}
    assert stock and all(set(v) == {"count"} for v in stock.values())
    assert any(v["count"] for v in stock.values())
    assert any(k.startswith("gear/") and v for k, v in zones.items())
    assert any(k.startswith("blocks/") and v for k, v in zones.items())
