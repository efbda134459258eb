"""The hand-written baselines bench.py races ruledsl against (benchmarks/handwritten/) play
deterministically and are held to ruledsl's distributions by a check that can fail."""
import random

import pytest

from samples import NO_DIAGONALS, handwritten, sample, verdicts
from handwritten import mafialand, the_boss, tic_tac_toe


REASONS = {tic_tac_toe: {tic_tac_toe.WIN, tic_tac_toe.DRAW}, mafialand: {mafialand.LOCKED, mafialand.LAST},
           the_boss: {the_boss.BADGES, the_boss.OVERTIME}}


@pytest.mark.parametrize("module,players", [(tic_tac_toe, 2), (mafialand, 2), (mafialand, 3), (mafialand, 4),
                                            (the_boss, 2), (the_boss, 3), (the_boss, 4)])
def test_handwritten_games_are_deterministic_per_seed(module, players):
    games = [module.play(players, random.Random(seed)) for seed in range(6)]
    assert games == [module.play(players, random.Random(seed)) for seed in range(6)]
    assert len(set(games)) > 1  # the seed matters
    for length, reason, winners in games:
        assert length > 0 and reason in REASONS[module]
        assert winners and set(winners) <= set(range(players))


class EndsLookedAtEveryTime(mafialand.Mafialand):
    """Looks at the end conditions before every decision, also when the hand-written
    game thinks nothing changed since they were false (its `dirty` flag)."""

    def ask(self, options):
        if not self.dirty:
            self.dirty = True
            try:
                self.check_ends()
            except mafialand.GameOver as over:
                raise AssertionError(f"an end condition held unseen: {over.reason}") from None
        return super().ask(options)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_handwritten_mafialand_never_skips_an_end_condition(players):
    rng = random.Random(f"ends:{players}")
    for _ in range(60):
        EndsLookedAtEveryTime(players, rng).play()


def test_handwritten_tic_tac_toe_agrees_with_ruledsl(ruledsl_tic_tac_toe):
    ours = sample(handwritten(tic_tac_toe, 2), 4000, "hand-written")
    assert verdicts(ruledsl_tic_tac_toe, ours) == {"game length": True, "end reasons": True, "winners": True}


def test_a_tic_tac_toe_without_diagonal_wins_is_caught(ruledsl_tic_tac_toe):
    broken = sample(handwritten(tic_tac_toe, 2, lines_through=NO_DIAGONALS), 4000, "hand-written")
    found = verdicts(ruledsl_tic_tac_toe, broken)
    assert not found["game length"] and not found["end reasons"] and not found["winners"]


class OutWithoutLooseBags(mafialand.Mafialand):
    """ML-11 misread: a player is out once their loose bags are gone, though their bags
    still hold down houses (those houses are emptied)."""

    def knock_out_broke_players(self):
        own = self.owner
        for q in range(self.n):
            if self.alive[q] and self.stash[q] == 0:
                self.alive[q] = False
                for h in range(16):
                    if own[h] == q:
                        own[h] = -1
                self.dirty = True


def test_a_broken_mafialand_rule_is_caught():
    right = sample(handwritten(mafialand, 3), 200, "right")
    again = sample(handwritten(mafialand, 3), 200, "again")
    broken_module = type("broken", (), {"play": staticmethod(lambda n, rng: OutWithoutLooseBags(n, rng).play())})
    broken = sample(handwritten(broken_module, 3), 200, "broken")
    assert all(verdicts(right, again).values())
    assert not verdicts(right, broken)["end reasons"]  # far more games end by elimination
