from __future__ import annotations

import io
import json
import re

import pytest

from ruledsl import __version__
from ruledsl.pipeline import load_game
from ruledsl.runtime.machine import Machine, RandomChance
from ruledsl.play.replay import Divergence, ReplayChance, ReplayError, replay
from ruledsl.play.transcript import TranscriptError, TranscriptWriter, parse_lines, read_transcript
from support import edit, record_game, records_of


# ---------------------------------------------------------------- writing
def test_same_seed_gives_a_byte_identical_transcript(games_dir):
    _, first = record_game("secret_bid.game", 2, seed=11)
    _, again = record_game("secret_bid.game", 2, seed=11)
    _, other = record_game("secret_bid.game", 2, seed=12)
    assert first == again
    assert first != other


def test_record_format(games_dir):
    machine, text = record_game("secret_bid.game", 2, seed=3)
    lines = text.splitlines()
    game = load_game("secret_bid.game")
    assert lines[0] == ('{"type":"header","format":2,"ruledsl":"%s","game":"secret_bid.game",'
                        '"rules_sha256":"%s","players":2,"seed":3,"agents":["random","random"]}'
                        % (__version__, game.rules_sha256))
    rules = json.loads(lines[1])
    with open("secret_bid.game", encoding="utf-8") as fh:
        assert rules == {"type": "rules", "files": [{"path": "secret_bid.game", "text": fh.read()}]}
    setup_shuffle = json.loads(lines[2])
    assert list(setup_shuffle) == ["type", "step", "what", "outcome"]
    assert setup_shuffle["step"] == 0 and setup_shuffle["what"] == "shuffle deck"
    assert sorted(setup_shuffle["outcome"]) == [0, 1, 2, 3, 4, 5]
    decision = json.loads(lines[3])
    assert list(decision) == ["type", "step", "seat", "decision", "choice", "digest", "secret"]
    assert decision["step"] == 1 and decision["decision"] == "bid" and decision["secret"] is True
    result = json.loads(lines[-1])
    assert result == {"type": "result", "reason": "the flow of play ended", "by_rule": True,
                      "scores": machine.result.scores, "ranking": machine.result.ranking,
                      "winners": machine.result.winners, "steps": 8}
    compact = [json.dumps(json.loads(line), separators=(",", ":"), ensure_ascii=False) for line in lines]
    assert compact == lines


def test_digest_is_the_state_after_the_choice(games_dir):
    machine, text = record_game("dice_race.game", 2, seed=5, max_steps=1)
    decision = [r for r in records_of(text) if r["type"] == "decision"][0]
    assert decision["digest"] == machine.w.digest()
    assert "secret" not in decision
    _, longer = record_game("dice_race.game", 2, seed=5, max_steps=2)
    assert [r for r in records_of(longer) if r["type"] == "decision"][0] == decision


def test_events_carry_the_number_of_decisions_before_them(games_dir):
    _, text = record_game("secret_bid.game", 2, seed=3)
    records = records_of(text)
    reveals = [r for r in records if r["type"] == "event" and r["kind"] == "reveal"]
    assert [r["step"] for r in reveals] == [2, 2, 4, 4, 6, 6, 8, 8]
    refills = [r for r in records if r["type"] == "chance" and r["step"] > 0]
    assert refills and all(len(r["outcome"]) == 4 for r in refills)


def test_eliminations_are_events(games_dir):
    for seed in range(1, 60):
        machine, text = record_game("dice_race.game", 3, seed=seed)
        records = records_of(text)
        events = [r for r in records if r["type"] == "event" and r["kind"] == "eliminate"]
        if events:
            break
    assert events, "no seed of 1..59 eliminates a runner"
    event = events[0]
    assert list(event) == ["type", "step", "kind", "seat"]
    before = [r for r in records[:records.index(event)] if r["type"] == "decision"]
    assert before[-1]["step"] == event["step"] and before[-1]["choice"] == "gamble"
    assert before[-1]["seat"] == event["seat"] and not machine.w.alive[event["seat"]]
    says = [r for r in records if r["type"] == "event" and r["kind"] == "say"]
    assert {"type": "event", "step": event["step"], "kind": "say", "text": f"seat {event['seat']} stumbles"} in says


def test_an_illegal_choice_is_refused_and_the_writer_records_nothing(games_dir):
    game = load_game("dice_race.game")
    out = io.StringIO()
    writer = TranscriptWriter(out)
    machine = Machine(game.program, 2, RandomChance(1), listener=writer)
    refusal = machine.choose("sprint")
    assert refusal.legal == ["steady", "dash"]
    assert out.getvalue() == "" and writer.step == 0
    machine.choose("dash")
    assert [json.loads(line)["type"] for line in out.getvalue().splitlines()][0] == "decision"
    assert writer.step == 1


def test_interrupted_game_leaves_a_readable_prefix(games_dir, tmp_path):
    path = tmp_path / "cut.jsonl"
    game = load_game("secret_bid.game")
    with open(path, "w", encoding="utf-8") as out:
        writer = TranscriptWriter(out)
        writer.header(game, 2, 3, ["random", "random"])
        machine = Machine(game.program, 2, RandomChance(3), listener=writer)
        for _ in range(3):
            machine.choose(machine.pending.labels[0])
        # the process dies here: no result record, file not closed by us
        records = read_transcript(str(path))
    assert [r["type"] for r in records][:4] == ["header", "rules", "chance", "decision"]
    assert [r["step"] for r in records if r["type"] == "decision"] == [1, 2, 3]
    report = replay(game, records)
    assert report.result is None and report.steps == 3
    assert "stops after step 3 without a result" in report.notes[-1]


# ---------------------------------------------------------------- reading
def test_reader_names_the_bad_line(games_dir):
    _, text = record_game("dice_race.game", 2, seed=5)
    lines = text.splitlines()
    broken = lines[:3] + ['{"type":"decision","step":'] + lines[4:]
    with pytest.raises(TranscriptError) as info:
        parse_lines(broken)
    assert info.value.line_no == 4
    assert str(info.value).startswith("line 4: not valid JSON")


@pytest.mark.parametrize("line, reason", [
    ('{"type":"decision","step":1,"seat":0,"decision":"pace","digest":"x"}',
     "decision record lacks the key 'choice'"),
    ('{"type":"decision","step":1,"seat":0,"decision":"pace","choice":"dash","digest":7}',
     "decision record: 'digest' must be str"),
    ('{"type":"move","step":1}', "unknown record type 'move'"),
    ('[1,2]', "a record must be a JSON object"),
    ('{"type":"chance","step":"0","what":"roll 1d6","outcome":[1]}', "'step' must be int"),
    ('{"type":"decision","step":5,"seat":0,"decision":"pace","choice":"dash","digest":"x"}',
     "decision step 5 out of order (expected 1)"),
])
def test_reader_validates_each_record(games_dir, line, reason):
    _, text = record_game("dice_race.game", 2, seed=5)
    header = text.splitlines()[0]
    with pytest.raises(TranscriptError) as info:
        parse_lines([header, line])
    assert info.value.line_no == 2
    assert reason in str(info.value)


def test_reader_wants_the_header_first_and_only_first(games_dir):
    _, text = record_game("dice_race.game", 2, seed=5)
    lines = text.splitlines()
    for broken, line_no in ((lines[1:], 1), ([lines[0], lines[0]], 2)):
        with pytest.raises(TranscriptError) as info:
            parse_lines(broken)
        assert str(info.value) == f"line {line_no}: the header must be the first record, and only the first"


def test_reader_rejects_records_after_the_result(games_dir):
    _, text = record_game("dice_race.game", 2, seed=5)
    lines = text.splitlines()
    with pytest.raises(TranscriptError, match=f"line {len(lines) + 1}: a record after the result record"):
        parse_lines(lines + [lines[-1]])


def test_reader_rejects_a_file_without_header(tmp_path):
    path = tmp_path / "empty.jsonl"
    path.write_text("")
    with pytest.raises(TranscriptError, match="line 1: the transcript is empty"):
        read_transcript(str(path))


# ---------------------------------------------------------------- replay chance
def test_replay_chance_gives_back_recorded_outcomes_in_order():
    chance = ReplayChance([{"type": "chance", "step": 0, "what": "roll 2d6", "outcome": [3, 4]},
                           {"type": "chance", "step": 0, "what": "shuffle deck", "outcome": [2, 0, 1]}])
    assert chance.roll(2, 6, "2d6") == [3, 4]
    assert chance.shuffle([0, 1, 2], "deck") == [2, 0, 1]
    with pytest.raises(Divergence, match="diverged at step 0: the current rules ask for a roll 1d6.*no more"):
        chance.roll(1, 6, "1d6")


def test_replay_chance_diverges_on_another_kind_of_chance():
    chance = ReplayChance([{"type": "chance", "step": 0, "what": "roll 2d6", "outcome": [3, 4]}])
    with pytest.raises(Divergence, match="ask for a roll 1d6, but the recording has a roll 2d6 at step 0"):
        chance.roll(1, 6, "1d6")


def test_replay_chance_diverges_on_a_shuffle_of_other_cards():
    chance = ReplayChance([{"type": "chance", "step": 0, "what": "shuffle deck", "outcome": [2, 0, 1]}])
    with pytest.raises(Divergence, match="shuffles other cards into deck"):
        chance.shuffle([0, 1, 3], "deck")


# ---------------------------------------------------------------- replay
def test_replay_round_trip(games_dir):
    machine, text = record_game("dice_race.game", 3, seed=2)
    report = replay(load_game("dice_race.game"), records_of(text))
    assert report.notes == []
    assert report.result["winners"] == machine.result.winners
    assert report.steps == machine.steps > 3
    assert report.lines[-3] == f"game over after {machine.steps} steps: {machine.result.reason}"


def test_replay_of_a_game_stopped_by_the_step_limit(games_dir):
    machine, text = record_game("dice_race.game", 2, seed=2, max_steps=4)
    records = records_of(text)
    scores = machine.result.scores
    assert records[-1] == {"type": "result", "reason": "step limit: 4 decisions", "by_rule": False,
                           "scores": scores, "ranking": sorted([0, 1], key=lambda s: -scores[s]), "winners": [],
                           "steps": 4}
    report = replay(load_game("dice_race.game"), records)
    assert report.result == records[-1] and report.steps == 4
    assert report.lines[-3] == "game over after 4 steps: step limit: 4 decisions (stopped, not by the rules)"


def test_replay_as_seat_seals_other_seats_secret_choices(games_dir):
    _, text = record_game("secret_bid.game", 2, seed=3)
    records = records_of(text)
    report = replay(load_game("secret_bid.game"), records, as_seat=1)
    first_two = [line for line in report.lines if line.startswith("[")][:2]
    choice_1 = records[3]["choice"]
    assert first_two[0] == "[1] seat 0 chose (sealed) for bid"
    assert first_two[1] == f'[2] seat 1 chose "{records[4]["choice"]}" for bid (secret)'
    assert f'"{choice_1}"' not in first_two[0]
    everyone = replay(load_game("secret_bid.game"), records).lines
    assert f'[1] seat 0 chose "{choice_1}" for bid (secret)' in everyone


def test_divergence_when_an_edited_rule_changes_the_state(game_copy):
    name = game_copy("secret_bid.game")
    _, text = record_game(name, 2, seed=3)
    edit(name, "p.last_bid = c.value", "p.last_bid = c.value + 1")
    game = load_game(name)
    with pytest.raises(Divergence) as info:
        replay(game, records_of(text))
    choice = records_of(text)[3]["choice"]
    bid = int(choice)
    assert str(info.value).splitlines() == [
        f'diverged at step 1: after seat 0 chose "{choice}" for bid the state differs from the recording',
        f"  seat 0 last_bid: recorded {bid}, now {bid + 1}",
        f"  first differing value: seat 0 last_bid, written by {name}:21",
        f"  rule change responsible: {name}:21: p.last_bid = c.value + 1   (recorded: p.last_bid = c.value)"]


def test_divergence_when_the_recorded_choice_is_no_longer_allowed(game_copy):
    name = game_copy("dice_race.game")
    _, text = record_game(name, 2, seed=4, kinds=["scripted", "random"], scripts={0: ["dash", "pass", "walk"]},
                          max_steps=3)
    edit(name, "enum pace { steady dash }", "enum pace { steady sprint }")
    edit(name, "speed == dash", "speed == sprint")
    with pytest.raises(Divergence) as info:
        replay(load_game(name), records_of(text))
    assert str(info.value).splitlines() == [
        'diverged at step 1: seat 0 chose "dash" for pace, which the current rules do not '
        f'allow there (allowed: "steady", "sprint") (rule at {name}:15)',
        "  rule changes (no one of them alone diverges here; together they do):",
        f"    {name}:5: enum pace {{ steady sprint }}   (recorded: enum pace {{ steady dash }})",
        f"    {name}:17: if speed == sprint and p.stamina > 0 {{   (recorded: if speed == dash and p.stamina > 0 {{)"]


def test_divergence_when_the_rules_ask_for_other_chance(game_copy):
    name = game_copy("dice_race.game")
    _, text = record_game(name, 2, seed=6)
    edit(name, "let r = roll 1d6", "let r = roll 2d6")
    with pytest.raises(Divergence) as info:
        replay(load_game(name), records_of(text))
    assert str(info.value).splitlines() == [
        f"diverged at step 1: the current rules ask for a roll 2d6 (rule at {name}:16), "
        "but the recording has a roll 1d6 at step 1",
        f"  rule change responsible: {name}:16: let r = roll 2d6   (recorded: let r = roll 1d6)"]


def test_divergence_when_the_game_ends_early_or_goes_on(game_copy):
    name = game_copy("dice_race.game")
    for seed in range(1, 60):  # a long game that ends by crossing the line
        machine, text = record_game(name, 2, seed=seed)
        if machine.result.reason == "crossed the line" and machine.steps >= 12:
            break
    steps = machine.steps
    edit(name, "const GOAL = 15", "const GOAL = 6")
    with pytest.raises(Divergence, match=r"^diverged at step \d+: after seat \d chose .* the current rules end "
                                         r"the game \(crossed the line\), but the recording goes on\n"
                                         rf"  rule change responsible: {name}:4: const GOAL = 6"):
        replay(load_game(name), records_of(text))
    edit(name, "const GOAL = 6", "const GOAL = 99")
    with pytest.raises(Divergence) as info:
        replay(load_game(name), records_of(text))
    assert re.match(rf"diverged at step {steps}: after seat \d chose .* the recorded game ends, "
                    "but the current rules continue: seat ", str(info.value))
    assert f"(rule at {name}:" in str(info.value)


def test_a_comment_or_layout_edit_is_no_change_of_the_rules(game_copy):
    name = game_copy("dice_race.game")
    _, text = record_game(name, 2, seed=6)
    edit(name, "const GOAL = 15", "# a comment added\n\nconst GOAL = 15")
    edit(name, "const GOAL = 15", "const   GOAL =   15   # the finish line")
    report = replay(load_game(name), records_of(text))
    assert report.result is not None
    assert report.notes == []
    assert records_of(text)[0]["rules_sha256"] == load_game(name).rules_sha256


def test_replay_mentions_changed_rules_but_still_replays(game_copy):
    name = game_copy("dice_race.game")
    _, text = record_game(name, 2, seed=6)
    edit(name, "const GOAL = 15", "const GOAL = 15\nconst UNUSED = 3")
    report = replay(load_game(name), records_of(text))
    assert report.result is not None
    assert "rules_sha256 differs" in report.notes[0]
    assert report.lines[0] == report.notes[0]


def test_transcript_of_another_game_fails_clearly(games_dir):
    _, bids = record_game("secret_bid.game", 3, seed=3)
    with pytest.raises(ReplayError, match=r"transcript is for 3 players, but 'Divide' .* takes 2..2: "
                                          "is it a transcript of another game"):
        replay(load_game("divide.game"), records_of(bids))
    _, race = record_game("dice_race.game", 2, seed=3)
    with pytest.raises(Divergence, match=r"^diverged at step 0: after set-up, .* state differs from the recording "
                                         r"\(is this a transcript of another game\?: it was recorded with 'Dice race'\)"):
        replay(load_game("divide.game"), records_of(race))


def test_transcript_snapshot(games_dir, snapshot):
    _, text = record_game("secret_bid.game", 2, seed=3)
    assert text == snapshot


# ---------------------------------------------------------------- private reveals
PEEK = '''game "Peek" players 2..3
cards card(v: int) { each v in 1..5 }
zone deck: card hidden
rule flow() {
  reveal top(deck) to seat(1)
  reveal bottom(deck)
  choose x from 1..2 by seat(0)
}
'''


def test_a_private_reveal_is_recorded_for_its_seat_and_sealed_for_the_others(tmp_path):
    from ruledsl.play.narrate import NO_SEAT, narrate
    path = tmp_path / "peek.game"
    path.write_text(PEEK)
    _, text = record_game(str(path), 2, 0)
    events = [r for r in records_of(text) if r["type"] == "event"]
    assert events == [{"type": "event", "step": 0, "kind": "reveal", "text": "1", "to": 1},
                      {"type": "event", "step": 0, "kind": "reveal", "text": "5"}]
    private = events[0]
    assert narrate(private) == ["      reveals 1 to seat 1"]
    assert narrate(private, as_seat=1) == ["      reveals 1 to seat 1"]
    for seat in (0, NO_SEAT):
        assert narrate(private, as_seat=seat) == ["      reveals something to seat 1 (sealed)"]
    records = records_of(text)
    lines = replay(load_game(str(path)), records, as_seat=0).lines
    assert lines[1].startswith("      (seen by seat 0: ")
    assert lines[2] == "      reveals something to seat 1 (sealed)"


def test_replay_as_seat_shows_that_seats_view_at_each_of_its_decisions(games_dir):
    _, text = record_game("secret_bid.game", 2, seed=3)
    lines = replay(load_game("secret_bid.game"), records_of(text), as_seat=1).lines
    asked = [i for i, line in enumerate(lines) if line.startswith("[") and "seat 1 chose" in line]
    assert asked and all(lines[i - 1].startswith("        ") for i in asked)
    views = [i for i, line in enumerate(lines) if line == "      what seat 1 sees:"]
    assert len(views) == len(asked)
    assert not any(line == "      what seat 0 sees:" for line in lines)
