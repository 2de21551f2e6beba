"""WeightedFeatures: the linear evaluation, its explanation, and its use in search."""

import random

import pytest

from gamesearch.catalog.features import connect4_features, tictactoe_features
from gamesearch.errors import GameSearchError
from gamesearch.games.connect4 import ConnectFour
from gamesearch.games.tictactoe import TicTacToe
from gamesearch.learn import WeightedFeatures, with_evaluation
from gamesearch.search import alphabeta, minimax


def test_eval_is_the_weighted_sum() -> None:
    wf = WeightedFeatures([("a", lambda s, p: s[0], 2.0), ("b", lambda s, p: s[1], -0.5)])
    assert wf((3, 4), 0) == 2 * 3 - 0.5 * 4
    assert wf.names == ["a", "b"] and wf.weights == [2.0, -0.5]
    assert repr(wf) == "WeightedFeatures(2*a - 0.5*b)"
    assert wf.with_weights([1, 1])((3, 4), 0) == 7
    assert wf((3, 4), 0) == 4  # with_weights made a new object


def test_contributions_add_up_and_bound_clips() -> None:
    wf = WeightedFeatures([("x", lambda s, p: s, 1.0), ("y", lambda s, p: 2 * s, 3.0)],
                          scale=0.1, bound=0.5)
    parts = wf.contributions(1, 0)
    assert [(c.name, c.value, c.weight) for c in parts] == [("x", 1, 1.0), ("y", 2, 3.0)]
    assert sum(c.contribution for c in parts) == pytest.approx(0.7)
    assert wf(1, 0) == 0.5  # 0.7 clipped to the bound
    assert wf(-1, 0) == -0.5
    text = wf.explain(1, 0)
    assert "x" in text and "y" in text and "Eval" in text


def test_bad_feature_sets_are_named() -> None:
    with pytest.raises(GameSearchError, match="repeat"):
        WeightedFeatures([("a", lambda s, p: 0, 1), ("a", lambda s, p: 0, 1)])
    with pytest.raises(GameSearchError, match="2 weights"):
        tictactoe_features().with_weights([1, 2])


def test_tictactoe_features_match_the_textbook_count() -> None:
    # AIMA 5.4.1: X2 = rows, columns, diagonals with two X's and no O's; X1 likewise.
    game = TicTacToe()
    state = game.state_from_string("xx..o....")  # X on 1, 2; O on 5
    parts = {c.name: c.value for c in tictactoe_features().contributions(state, 0)}
    # X: top row holds two X's and no O (X2 = 1); X1: column 1 and column 2 hold one
    # X each but column 2 has O, diagonal 1-5-9 has O: X1 = column 1 only = 1.
    # O (square 5): lines through 5 without X: row 2, diagonal 3-5-7 (column 2 and
    # diagonal 1-5-9 hold an X): O1 = 2.
    assert parts["open_two"] == 1
    assert parts["open_one"] == 1 - 2
    assert parts["centre"] == -1
    evaluation = tictactoe_features()(state, 0)
    assert evaluation == -tictactoe_features()(state, 1)  # zero-sum viewpoint
    assert -1 < evaluation < 1


def test_connect4_features_count_open_windows() -> None:
    game = ConnectFour()
    wf = connect4_features(game)
    state = game.state_from_string("4455")  # X on 4,5 bottom; O on 4,5 second row; X to move
    parts = {c.name: c.value for c in wf.contributions(state, 0)}
    # symmetric position: each side has the same open windows (rows shifted by one)
    assert parts["centre"] == 0
    empty = {c.name: c.value for c in wf.contributions(game.initial_state(), 0)}
    assert all(v == 0 for v in empty.values())
    # X on 1, 2, 3 of the bottom row, O twice in column 7: the only window with three
    # stones of one side and none of the other is X's bottom window over columns 1-4.
    after = game.state_from_string("17273")
    assert {c.name: c.value for c in wf.contributions(after, 0)}["open_three"] == 1
    assert {c.name: c.value for c in wf.contributions(after, 1)}["open_three"] == -1


def test_connect4_has_69_windows_of_four() -> None:
    # 7x6: 24 horizontal + 21 vertical + 12 + 12 diagonal = 69 ways to win (Allis 1988)
    from gamesearch.catalog.features import windows_of_four

    windows = windows_of_four(ConnectFour())
    assert len(windows) == len(set(windows)) == 69
    assert all(w.bit_count() == 4 for w in windows)


def test_usable_as_search_evaluation_and_as_the_games() -> None:
    game = ConnectFour()
    wf = connect4_features(game)
    state = game.state_from_string("4435")
    by_option = alphabeta(game, state, depth=3, evaluate=wf, tt=False)
    evaluated = with_evaluation(game, wf)
    by_game = alphabeta(evaluated, state, depth=3, tt=False)
    assert by_option.value == by_game.value
    assert by_option.value == minimax(game, state, depth=3, evaluate=wf).value
    assert evaluated.evaluate is wf
    assert "evaluate" not in vars(game)  # the original game is untouched


def play_against_random(game, wf, depth: int, games: int) -> tuple[int, int, int]:
    """Alpha-beta with ``wf`` against a seeded random player, alternating colours."""
    wins = draws = losses = 0
    for i in range(games):
        rng = random.Random(i)
        me = i % 2
        state = game.initial_state()
        while not game.is_terminal(state):
            if game.to_move(state) == me:
                action = alphabeta(game, state, depth=depth, evaluate=wf, tt=False).action
            else:
                action = rng.choice(game.actions(state))
            state = game.result(state, action)
        u = game.utilities(state)[me]
        wins += u > 0
        draws += u == 0
        losses += u < 0
    return wins, draws, losses


def test_tictactoe_features_beat_random() -> None:
    wins, draws, losses = play_against_random(TicTacToe(), tictactoe_features(), 2, 40)
    assert wins >= 30 and losses <= 2, (wins, draws, losses)


def test_connect4_features_beat_random() -> None:
    game = ConnectFour()
    wins, draws, losses = play_against_random(game, connect4_features(game), 2, 10)
    assert wins >= 9, (wins, draws, losses)
