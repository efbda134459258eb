"""`ruledsl play --resume T`: an interrupted recorded game goes on from where it stopped."""
from click.testing import CliRunner

from ruledsl.cli import main
from support import GAMES, ROOT


def test_a_game_cut_at_any_line_resumes_into_the_very_same_transcript(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bid.game").write_text((GAMES / "secret_bid.game").read_text())
    runner = CliRunner()
    assert runner.invoke(main, ["play", "bid.game", "-n", "3", "--seed", "2", "--record", "full.jsonl"]).exit_code == 0
    full = (tmp_path / "full.jsonl").read_text()
    lines = full.splitlines(keepends=True)
    for cut in range(2, len(lines) - 1):  # every cut before the result line
        (tmp_path / "cut.jsonl").write_text("".join(lines[:cut]))
        result = runner.invoke(main, ["play", "--resume", "cut.jsonl"])
        assert result.exit_code == 0, (cut, result.output)
        assert (tmp_path / "cut.jsonl").read_text() == full, cut


def test_a_human_seat_resumes_and_is_asked_again(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    game = str(ROOT / "examples" / "tic_tac_toe.game")
    first = runner.invoke(main, ["play", game, "--agent", "0=human", "--seed", "3", "--record", "t.jsonl"],
                          input="1\n")  # one move, then the input ends: the game is interrupted
    assert "Traceback" not in first.output
    before = (tmp_path / "t.jsonl").read_text().splitlines()
    assert not any('"type":"result"' in line for line in before)
    moves = sum('"type":"decision"' in line for line in before)
    cells = "".join(f"{n}\n" for n in range(1, 10))  # a taken cell's number is refused: the next one is tried
    resumed = runner.invoke(main, ["play", "--resume", "t.jsonl"], input=cells * 5)
    assert resumed.exit_code == 0, resumed.output
    assert f"t.jsonl: resumed after step {moves}" in resumed.output
    after = (tmp_path / "t.jsonl").read_text().splitlines()
    assert after[:len(before)] == before and '"type":"result"' in after[-1]
    assert runner.invoke(main, ["replay", "t.jsonl"]).exit_code == 0


def test_a_finished_game_or_no_game_is_told_not_resumed(games_dir, tmp_path):
    runner = CliRunner()
    record = tmp_path / "done.jsonl"
    runner.invoke(main, ["play", "dice_race.game", "--record", str(record)])
    result = runner.invoke(main, ["play", "--resume", str(record)])
    assert result.exit_code == 1 and "the recorded game is over: there is nothing to resume" in result.output
    result = runner.invoke(main, ["play"])
    assert result.exit_code == 1 and "give a GAME to play, or --resume FILE" in result.output
