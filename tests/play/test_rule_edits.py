"""A house rule edited into a copy of each game breaks a recorded game that used the rule,
and the replay names the edited line (the divergence explained, see explain.py)."""
import pytest
from click.testing import CliRunner

from ruledsl.cli import main
from support import ROOT, play_with

pytestmark = pytest.mark.slow  # each case searches seeds for a game that uses the rule, then replays it

EDITS = [  # (game, a transcript line the game must have, rule text, house-rule text)
    ("games/mafialand.game", '"decision":"bags to gamble","choice":"3"',
     "choose n from 1..min(MAX_GAMBLE, p.stash)", "choose n from 1..min(2, p.stash)"),
    ("games/road_to_infamy.game", '"decision":"launder","choice":"launder"',
     'may p "launder" if size(hand[p]) > 0', 'may p "launder" if false'),
    ("games/mafia_dollar.game", '"decision":"offer a trade","choice":"offer a trade"',
     'may q "offer a trade" if size(hand[q]) > 0', 'may q "offer a trade" if false'),
    ("games/bada_bing.game", '"decision":"use the Overpass","choice":"use the Overpass"',
     'may p "use the Overpass" if p.at.pathway', 'may p "use the Overpass" if false'),
]


@pytest.mark.parametrize("game,want,old,new", EDITS, ids=[e[0].split("/")[1][:-5] for e in EDITS])
def test_replay_names_the_edited_line(tmp_path, monkeypatch, game, want, old, new):
    play_with(tmp_path, monkeypatch, game, 2, want)
    base = (ROOT / game).read_text()
    assert base.count(old) == 1
    edited = base.replace(old, new)
    copy = tmp_path / game.split("/")[1]
    copy.write_text(edited)
    result = CliRunner().invoke(main, ["replay", str(tmp_path / "game.jsonl"), "--game", str(copy)])
    assert result.exit_code == 1
    assert result.stderr.startswith("diverged at step ")
    line = next(i for i, text in enumerate(edited.splitlines(), start=1) if new in text)
    responsible = next(text for text in result.stderr.splitlines() if "rule change responsible" in text)
    assert responsible.startswith(f"  rule change responsible: {copy}:{line}: ")
    assert new in responsible and f"(recorded: " in responsible and old in responsible
