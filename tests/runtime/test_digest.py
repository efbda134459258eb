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
