"""State digests hash `World.canonical_json`'s bytes, which must be exactly those of
`json.dumps(sort_keys=True, separators=(",", ":"))` (stored transcripts carry digests
made that way), whichever encoder made them."""
from __future__ import annotations

import json

import pytest

from ruledsl.pipeline import load_game
from ruledsl.runtime.world import canonical_json
from support import ROOT, random_playout

GAME_FILES = sorted(str(p.relative_to(ROOT)) for p in [*ROOT.glob("games/*.game"), *ROOT.glob("examples/*.game")])


def reference(data) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":")).encode()


@pytest.mark.parametrize("path", GAME_FILES)
def test_every_game_state_encodes_as_json_dumps_does(path):
    program = load_game(str(ROOT / path)).program
    seen = []

    def compare(m):
        if m.steps % 7 == 0:
            for seat in (None, *range(m.w.n)):
                snapshot = m.w.snapshot(seat)
                assert canonical_json(snapshot) == reference(snapshot)
            seen.append(m.steps)
    random_playout(program, program.min_players, seed=3, max_decisions=120, each_step=compare)
    assert seen, "no state was compared"


@pytest.mark.parametrize("text", [
    'quote " in a label', "back\\slash", "tab\tand newline\n", "control \x01", "del \x7f",
    "non-ASCII: café, 東京, €", "plain label", "",
])
def test_any_string_encodes_as_json_dumps_does(text):
    data = {"zones": {text: [text, 1, None, True]}, "b": text, "A": [-(2 ** 62), 2 ** 62]}
    assert canonical_json(data) == reference(data)


def test_what_msgspec_would_refuse_still_encodes_as_json_dumps_does():
    for data in ({"big": 2 ** 80}, {"n": -(2 ** 70)}, {"nested": [{"z": 1, "a": [2 ** 64]}]}):
        assert canonical_json(data) == reference(data)


def plain_snapshot_parts(w) -> dict:
    """A full snapshot's zones, boards and card fields as written plainly: every zone in the
    program's order (its cards' labels, [] when empty), every space of a board in its order
    with its fields labelled, each card with fields in id order."""
    p = w.program
    zones = {p.zone_label(key): [p.cards[c].label for c in cards] for key, cards in w.zones.in_order()}
    boards = {b: {s: {f: p.show_field(b, f, col[s]) for f, col in cols.items()} for s in p.boards[b].spaces}
              for b, cols in w.spaces.items()}
    card_fields = {f"{p.cards[c].label} #{c}": {f: w.cardf[f][c] for f, _ in p.card_fields[p.cards[c].set]}
                   for c in range(len(p.cards)) if p.card_fields.get(p.cards[c].set)}
    return {"zones": zones, "boards": boards, "card_fields": card_fields}


def items_all_the_way(data):
    """Nested dicts as nested lists of items: equal only if every dict has the same order."""
    if isinstance(data, dict):
        return [(k, items_all_the_way(v)) for k, v in data.items()]
    return data


@pytest.mark.parametrize("path", ["games/mafia_dollar.game", "games/road_to_infamy.game", "games/mafialand.game",
                                  "games/bada_bing.game"])
def test_a_full_snapshot_shows_every_zone_space_and_card_field_in_order(path):
    """Games with hundreds of zones (one per card), card fields, boards: the snapshot fills
    in only the zones that hold cards and labels a board's fields by column, so this pins
    down what it shows and in which order."""
    program = load_game(str(ROOT / path)).program
    seen = []

    def compare(m):
        if m.steps % 11 == 0:
            snap, plain = m.w.snapshot(), plain_snapshot_parts(m.w)
            for part, shown in plain.items():
                assert items_all_the_way(snap.get(part, {})) == items_all_the_way(shown), part
            seen.append([part for part, shown in plain.items() if shown])
    random_playout(program, program.min_players, seed=5, max_decisions=90, each_step=compare)
    assert seen and seen[-1]
