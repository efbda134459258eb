"""Road to Infamy: what one seat sees, live and in a replay (hidden hands, sealed choices).

Its seeded snapshots are in tests/play/test_snapshots.py; rule-edit replays in tests/play/test_rule_edits.py.
"""
from click.testing import CliRunner

from ruledsl.cli import main
from support import play_recorded

GAME = "games/road_to_infamy.game"


def test_replay_as_a_seat_shows_other_bids_only_when_revealed(tmp_path, monkeypatch):
    """RI-04: seen from seat 1, seat 0's picks are sealed; its bid shows up only in
    the reveal that follows everyone's pick."""
    play_recorded(tmp_path, monkeypatch, GAME, 3, 1)
    result = CliRunner().invoke(main, ["replay", str(tmp_path / "game.jsonl"), "--as-seat", "1"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    bids = [i for i, line in enumerate(lines) if line.endswith(" for bid") or line.endswith(" for bid (secret)")]
    assert bids and all("(sealed)" in lines[i] for i in bids if "seat 0 chose" in lines[i] or "seat 2 chose" in lines[i])
    assert all('(sealed)' not in lines[i] for i in bids if "seat 1 chose" in lines[i])
    # the first turn: three picks (seat 1's view of the table may stand between them),
    # no bid revealed before the last of them, then the reveals
    first = bids[:3]
    assert [lines[i].split(" chose")[0].split("] ")[1] for i in first] == ["seat 0", "seat 1", "seat 2"]
    assert not any(" plays " in line for line in lines[first[0]:first[-1]])
    reveals = [i for i, line in enumerate(lines) if '"seat 0 plays' in line]
    assert reveals and reveals[0] > first[-1]
    # the unsealed narration names seat 0's pick; seen from seat 1 it shows at the reveal
    full = CliRunner().invoke(main, ["replay", str(tmp_path / "game.jsonl")]).output.splitlines()
    full_first = next(line for line in full if "seat 0 chose" in line and line.endswith(" for bid (secret)"))
    assert full_first.split(" chose")[0] == lines[first[0]].split(" chose")[0]  # the same step
    pick = full_first.split('"')[1]
    assert pick not in lines[first[0]]
    assert lines[reveals[0]].strip() == f'"seat 0 plays {pick}"'
