"""The OpenSpiel adapter (ruledsl/openspiel/game.py): OpenSpiel's own checks and algorithms.

Skipped only when open_spiel is not installed (the `openspiel` extra, which CI installs).
"""
import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402

from ruledsl.openspiel.chance import event_outcome  # noqa: E402
from ruledsl.openspiel.game import load_game  # noqa: E402
from support import ROOT  # noqa: E402

pytestmark = pytest.mark.slow  # OpenSpiel's own checks and algorithms over whole games: minutes

EXAMPLES = ROOT / "examples"
GAMES = ROOT / "games"
CLASSICS = ["tic_tac_toe", "kuhn_poker", "goofspiel", "pig"]
# (game, player counts, simulations): fewer simulations for the long games
FIVE = [("mafialand", (2, 3), 2), ("road_to_infamy", (2, 3), 2), ("the_boss", (2, 3), 2),
        ("mafia_dollar", (2, 3), 1), ("bada_bing", (2, 3), 3)]


@pytest.mark.parametrize("name", CLASSICS)
def test_random_sim_test_on_the_classics(name):
    game = load_game(str(EXAMPLES / f"{name}.game"), players=2)
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


@pytest.mark.parametrize("name,players,sims", [(n, p, s) for n, counts, s in FIVE for p in counts])
def test_random_sim_test_on_the_five_games(name, players, sims):
    game = load_game(str(GAMES / f"{name}.game"), players=players)
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


def test_registered_with_pyspiel_by_parameters():
    game = pyspiel.load_game("python_ruledsl", {"game": str(EXAMPLES / "tic_tac_toe.game"), "players": 2})
    assert game.num_players() == 2
    assert game.new_initial_state().current_player() == 0
    game = pyspiel.load_game("python_ruledsl_simultaneous", {"game": str(EXAMPLES / "goofspiel.game")})
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS


def test_a_shuffle_is_chance_nodes_one_card_at_a_time():
    state = load_game(str(EXAMPLES / "kuhn_poker.game")).new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    state.apply_action(2)
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    state.apply_action(0)
    assert state.current_player() == 0  # three cards: two chance nodes, then seat 0 opens
    assert event_outcome(("shuffle", (10, 11, 12)), [2, 0]) == [12, 10, 11]


def test_a_die_roll_is_a_chance_node_of_its_faces():
    game = load_game(str(EXAMPLES / "pig.game"))
    state = game.new_initial_state()
    roll = [a for a in state.legal_actions() if state.action_to_string(0, a) == "roll"][0]
    state.apply_action(roll)
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(a, 1 / 6) for a in range(6)]
    state.apply_action(3)  # a 4
    assert state.current_player() == 0
    assert '"turn_total":4' in str(state)


def test_action_ids_are_stable_across_states():
    game = load_game(str(EXAMPLES / "tic_tac_toe.game"))
    state = game.new_initial_state()
    ids = {state.action_to_string(0, a): a for a in state.legal_actions()}
    state.apply_action(ids["a1"])
    later = {state.action_to_string(1, a): a for a in state.legal_actions()}
    assert "a1" not in later and later["b2"] == ids["b2"] and later["c3"] == ids["c3"]
    assert len(set(ids.values())) == 9


def test_a_sealed_bid_is_hidden_from_the_other_seat():
    game = load_game(str(EXAMPLES / "goofspiel.game"))
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(0)
    seen = set()
    own = set()
    for bid in state.legal_actions():
        after = state.clone()
        after.apply_action(bid)
        assert after.current_player() == 1
        seen.add(after.information_state_string(1))
        own.add(after.information_state_string(0))
    assert len(seen) == 1  # seat 1 cannot tell seat 0's bids apart
    assert len(own) == 13  # seat 0 remembers its own


def test_kuhn_information_states_show_only_the_own_card():
    game = load_game(str(EXAMPLES / "kuhn_poker.game"))
    seen = {0: set(), 1: set()}
    for first in range(3):
        for second in range(2):
            state = game.new_initial_state()
            state.apply_action(first)
            state.apply_action(second)
            for seat in (0, 1):
                seen[seat].add(state.information_state_string(seat))
    # six deals, but each seat holds one of three cards and cannot see the other's
    assert len(seen[0]) == 3 and len(seen[1]) == 3


def test_returns_win_and_score():
    path = str(EXAMPLES / "kuhn_poker.game")
    for returns, bound in (("win", 1.0), ("score", 2.0)):
        game = load_game(path, returns=returns)
        rng = np.random.RandomState(1)
        for _ in range(20):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
            r = state.returns()
            assert sum(r) == 0 and max(abs(x) for x in r) <= bound and max(r) > 0


def test_bad_parameters_are_refused():
    with pytest.raises(ValueError, match="players"):
        load_game(str(EXAMPLES / "kuhn_poker.game"), players=3)
    with pytest.raises(ValueError, match="returns"):
        load_game(str(EXAMPLES / "kuhn_poker.game"), returns="money")


def test_cfr_on_kuhn_poker_reaches_the_game_value():
    from open_spiel.python.algorithms import cfr, expected_game_score, exploitability
    game = load_game(str(EXAMPLES / "kuhn_poker.game"), returns="score")
    solver = cfr.CFRSolver(game)
    for _ in range(300):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    value = expected_game_score.policy_value(game.new_initial_state(), [policy] * 2)
    assert abs(value[0] - (-1 / 18)) < 0.005
    assert exploitability.exploitability(game, policy) < 0.01


def test_openspiel_mcts_never_loses_tic_tac_toe_to_random():
    from open_spiel.python.algorithms import mcts
    game = load_game(str(EXAMPLES / "tic_tac_toe.game"))
    rng = np.random.RandomState(0)
    outcomes = []
    for i in range(100):
        bot = mcts.MCTSBot(game, uct_c=2, max_simulations=400, solve=True, random_state=rng,
                           evaluator=mcts.RandomRolloutEvaluator(1, rng))
        state, seat = game.new_initial_state(), i % 2
        while not state.is_terminal():
            if state.current_player() == seat:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        outcomes.append(state.returns()[seat])
    assert min(outcomes) >= 0, f"lost {outcomes.count(-1.0)} of 100"


# ---------------------------------------------------------------- simultaneous nodes
@pytest.mark.parametrize("name,players", [(n, 2) for n in CLASSICS] + [(n, p) for n, counts, _ in FIVE
                                                                         for p in counts])
def test_random_sim_test_with_simultaneous_nodes(name, players):
    folder = EXAMPLES if name in CLASSICS else GAMES
    game = load_game(str(folder / f"{name}.game"), players=players, simultaneous=True)
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def random_play(game, rng, on_simultaneous=lambda state: None):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choice(outcomes, p=probs))
        elif state.is_simultaneous_node():
            on_simultaneous(state)
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name,simultaneous", [("pig", False), ("goofspiel", True), ("kuhn_poker", False)])
def test_node_kinds_answered_in_python_agree_with_pyspiels_own(name, simultaneous):
    game = load_game(str(EXAMPLES / f"{name}.game"), simultaneous=simultaneous)
    kinds = set()

    def check(state):
        own = (pyspiel.State.is_chance_node(state), pyspiel.State.is_simultaneous_node(state))
        assert (state.is_chance_node(), state.is_simultaneous_node()) == own
        kinds.add(own)

    rng = np.random.default_rng(3)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            check(state)
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        check(state)
    assert len(kinds) >= 2  # chance and player nodes (and simultaneous ones in goofspiel) were met


def test_goofspiel_bids_are_simultaneous_nodes():
    game = load_game(str(EXAMPLES / "goofspiel.game"), simultaneous=True)
    sizes = []

    def look(state):
        assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
        mine, theirs = state.legal_actions(0), state.legal_actions(1)
        assert len(mine) == len(theirs)
        sizes.append(len(mine))
        for seat, actions in ((0, mine), (1, theirs)):  # each seat its own hand's bids
            assert {state.action_to_string(seat, a) for a in actions} <= {str(v) for v in range(1, 14)}
    random_play(game, np.random.RandomState(4), look)
    assert sizes == list(range(13, 0, -1))  # 13 turns, both seats bidding at once each turn
    sequential = load_game(str(EXAMPLES / "goofspiel.game"))
    assert sequential.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL


def outcome_counts(game, seed, games):
    counts = {-1: 0, 0: 0, 1: 0}
    rng = np.random.RandomState(seed)
    for _ in range(games):
        r = random_play(game, rng).returns()
        counts[int(np.sign(r[0] - r[1]))] += 1
    return counts


def test_goofspiel_plays_like_openspiels_under_random_play():
    ours = outcome_counts(load_game(str(EXAMPLES / "goofspiel.game"), simultaneous=True), 1, 600)
    theirs = outcome_counts(pyspiel.load_game("goofspiel"), 2, 600)
    for key in ours:  # two-proportion z per outcome (win, draw, loss of seat 0)
        pooled = (ours[key] + theirs[key]) / 1200
        se = (pooled * (1 - pooled) * 2 / 600) ** 0.5
        assert abs(ours[key] - theirs[key]) / 600 <= 4 * max(se, 1e-9), (ours, theirs)
    assert ours[0] > 0 and ours[1] > 150 and ours[-1] > 150


NOT_SIMULTANEOUS = '''
game "Not at once" players 2..2
player { points: int = 0 }
rule flow() {
  choose secret a from 1..3 by seat(0) as "first"
  choose secret b from 1..a by seat(1) as "second"
  let p = seat(1)
  p.points += b
  end "done"
}
score p: p.points
'''


def test_grouping_that_changes_a_later_seats_options_is_refused(tmp_path):
    path = tmp_path / "not_at_once.game"
    path.write_text(NOT_SIMULTANEOUS)
    game = load_game(str(path), simultaneous=True)
    state = game.new_initial_state()
    assert state.is_simultaneous_node()  # the probe (seat 0 takes "1") offers seat 1 only "1"
    ids = {state.action_to_string(0, a): a for a in state.legal_actions(0)}
    ok = state.clone()
    ok.apply_actions([ids["1"], state.legal_actions(1)[0]])
    assert ok.is_terminal()
    with pytest.raises(Exception, match="seat 1's 'second'.* not simultaneous"):
        state.apply_actions([ids["3"], state.legal_actions(1)[0]])


def test_the_choice_before_a_roll_is_in_the_information_states():
    """Seat 0 rolls: the step's record for the seats' information states keeps the choice,
    also though the step stopped for the die on the way (it once said "set-up" instead)."""
    game = load_game(str(EXAMPLES / "pig.game"), players=2)
    state = game.new_initial_state()
    roll = next(a for a in state.legal_actions() if state.action_to_string(0, a) == "roll")
    state.apply_action(roll)
    assert state.is_chance_node()
    state.apply_action(3)  # a four
    assert state.play.seen.told == ("seat 0 chose for roll or hold", "roll", False)


def prices_game(tmp_path, top: int):
    path = tmp_path / "prices.game"
    path.write_text(f'game "Prices" players 2..2\nrule flow() {{ choose p from 0..{top} by seat(0) as "price" }}\n')
    return load_game(str(path))


def test_a_decision_of_thousands_of_prices_numbers_them_apart_by_value(tmp_path):
    """Numbers up to 9,999 have ids of their own (Bada Bing's prices ran past the 512
    hashed ids, and numbering them apart never ended)."""
    game = prices_game(tmp_path, 9_999)
    state = game.new_initial_state()
    legal = state.legal_actions()
    assert len(set(legal)) == 10_000 and max(legal) < game.num_distinct_actions()
    assert [state.action_to_string(0, a) for a in legal[:3]] == ["0", "1", "10"]  # sorted ids, by label order
    assert state.action_to_string(0, game.label_ids["5000"]) == "5000"
    state.apply_action(game.label_ids["5000"])
    assert state.action_to_string(0, game.label_ids["777"]) == "777"  # no decision offers it now: by value


def test_a_decision_beyond_the_action_space_is_refused_clearly(tmp_path):
    game = prices_game(tmp_path, 11_000)  # 1,001 numbers past 9,999: more than 512 hashed ids
    with pytest.raises(Exception, match="'price' offers 1,001 options"):
        game.new_initial_state().legal_actions()


def test_the_action_space_holds_numbers_and_hashed_ids_only_where_a_choice_may_offer_them(tmp_path):
    """Tic-tac-toe's actions are its names (cells, seats, pass, yes, no, none, directions):
    no decision offers a number or an unnamed label, so neither region is there."""
    game = load_game(str(EXAMPLES / "tic_tac_toe.game"))
    assert game.num_distinct_actions() == len(game.labels) < 20
    assert "5" not in game.label_ids and game.actions.overflow == 0
    rng = np.random.RandomState(2)
    state = game.new_initial_state()
    while not state.is_terminal():
        legal = state.legal_actions()
        assert max(legal) < game.num_distinct_actions()
        state.apply_action(legal[rng.randint(len(legal))])
    prices = prices_game(tmp_path, 200)  # numbers past 100: 0..100 named, then 101..9,999, then hashed ids
    assert prices.label_ids["5"] < len(prices.labels) and prices.actions.overflow == 512
    assert prices.num_distinct_actions() == len(prices.labels) + 9_899 + 512


def test_a_windows_label_is_a_named_action(tmp_path):
    """A `window` is lowered to `may`s before the checker: its label is in the vocabulary
    (the action space once missed it, and with no hashed ids refused the decision)."""
    path = tmp_path / "window.game"
    path.write_text('game "W" players 2..2\nrule flow() {\n  window q in players as "respond" { end "r" winner q }\n'
                    '  end "nobody" draw\n}\n')
    game = load_game(str(path))
    assert "respond" in game.label_ids and game.actions.overflow == 0
    state = game.new_initial_state()
    assert sorted(state.action_to_string(0, a) for a in state.legal_actions()) == ["pass", "respond"]


@pytest.mark.parametrize("top,small", [("3", True), ("100", True), ("101", False), ("2 + 1", False)])
def test_a_range_of_numbers_bounded_by_its_shape_needs_no_number_region(tmp_path, top, small):
    """`choose n from 1..min(TOP, p.coins)`: a literal, a constant, the min of a bounded
    argument bound it; a bound past 100 or one the shape does not tell keeps the regions."""
    path = tmp_path / "range.game"
    path.write_text(f'game "R" players 2..2\nconst TOP = {top}\nplayer {{ coins: int = 7 }}\n'
                    'rule flow() {\n  for p in players { choose n from 1..min(TOP, p.coins) by p as "how many"\n'
                    '    p.coins -= n }\n  end "done" draw\n}\n')
    game = load_game(str(path))
    assert ("101" in game.label_ids, game.actions.overflow) == ((False, 0) if small else (True, 512))
    state = game.new_initial_state()
    labels = sorted(state.action_to_string(0, a) for a in state.legal_actions())
    assert labels == sorted(str(n) for n in range(1, min(7, eval(top)) + 1))


def test_mafialands_action_space_is_its_names_and_numbers_to_100():
    game = load_game(str(GAMES / "mafialand.game"), players=3)
    assert game.num_distinct_actions() < 300 and "100" in game.label_ids and "101" not in game.label_ids


def test_a_variant_that_raises_the_bound_gets_the_number_regions_back(tmp_path):
    path = tmp_path / "big_gambles.game"
    path.write_text('extends "ruledsl:mafialand"\n\noverride const MAX_GAMBLE = 500\n')
    game = load_game(str(path), players=3)
    assert "101" in game.label_ids and game.actions.overflow == 512
