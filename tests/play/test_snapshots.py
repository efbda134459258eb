"""Seeded games of every game and classic as snapshots, through ruledsl's own pytest plugin.

Each case stores its games as transcripts in __snapshots__/test_snapshots/ (one
.jsonl per game, replayable with `ruledsl replay`). After a rule edit the test
fails with the divergence explained (step, fields, the rule line). Update with
`pytest --snapshot-update` and say in the commit message which rule change
caused it.
"""
import pytest

CASES = [  # (game, players, seeds, max decisions or None for whole games)
    ("games/mafialand.game", 2, [11], None),
    ("games/mafialand.game", 3, [1], 80),
    ("games/mafialand.game", 4, [2], 80),
    ("games/mafialand/wild_cards.game", 3, [1], 80),
    ("games/road_to_infamy.game", 2, [5], None),
    ("games/road_to_infamy.game", 4, [2], 120),
    ("games/the_boss.game", 2, [5], None),
    ("games/the_boss.game", 4, [2], 90),
    ("games/mafia_dollar.game", 2, [3], None),
    ("games/mafia_dollar.game", 6, [2], 100),
    ("games/bada_bing.game", 2, [22], None),
    ("games/bada_bing.game", 8, [2], 120),
    ("examples/tic_tac_toe.game", 2, [1, 2], None),
    ("examples/kuhn_poker.game", 2, [1, 4], None),
    ("examples/goofspiel.game", 2, [1], None),
    ("examples/pig.game", 2, [1], None),
]


@pytest.mark.parametrize("game,players,seeds,max_steps", CASES,
                         ids=[f"{g.split('/')[-1][:-5]}-{n}p" for g, n, _, _ in CASES])
def test_seeded_games(ruledsl_snapshot, game, players, seeds, max_steps):
    ruledsl_snapshot(game, players=players, seeds=seeds, max_steps=max_steps)


@pytest.mark.slow
def test_every_stored_game_replays(ruledsl_replay):
    """The golden-games test: every stored snapshot replays under the current rules."""
    assert ruledsl_replay("tests/play/__snapshots__/test_snapshots/*.jsonl") >= len(CASES)
