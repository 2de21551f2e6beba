"""Othello: the readable rules, the board-string notation, the compiled kernel and perft."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch.errors import GameSearchError
from gamesearch.games import load_game
from gamesearch.games.othello.kernel import kernel_perft
from gamesearch.testing import check_game, check_kernel

# Aart Bik's perft counts for 8x8 Othello (passes are plies, finished games are leaves),
# as quoted in issue #17; depths 10 and 11 are checked by bench/othello_perft.py.
BIK = [4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216, 3_005_288, 24_571_284, 212_258_800]


def test_start_position_and_first_moves() -> None:
    game = load_game("othello")
    s = game.initial_state()
    assert sorted(game.action_to_string(s, a) for a in game.actions(s)) == ["c4", "d3", "e6",
                                                                            "f5"]
    s = game.state_from_string("f5")
    assert game.state_to_string(s) == ("-" * 27 + "OX" + "-" * 6 + "XXX" + "-" * 26 + " O")


def test_perft_equals_bik_to_depth_9() -> None:
    game = load_game("othello")
    s = game.initial_state()
    assert [kernel_perft(game, s, d) for d in range(1, 10)] == BIK[:9]


def test_kernel_perft_equals_counting_the_readable_rules() -> None:
    from gamesearch.search.enumeration import perft

    for spec in ("othello", "othello:size=6"):
        game = load_game(spec)
        s = game.state_from_string("f5 f6 e6 f4" if game.size == 8 else "b3")
        for d in (1, 2, 3, 4):
            assert kernel_perft(game, s, d) == perft(game, s, d)


@pytest.mark.parametrize("spec", ["othello", "othello:size=6"])
def test_rules_and_kernel_keep_the_contract(spec: str) -> None:
    game = load_game(spec)
    check_game(game)
    report = check_kernel(game, game.kernel)
    assert report.checks["kernel-play"] > 100


def test_a_pass_is_a_ply_and_the_game_ends_when_neither_side_moves() -> None:
    game = load_game("othello")
    # black (only b1) has no move; white brackets b1 from a1 by playing c1
    cells = list("-" * 64)
    for sq, c in ((27, "O"), (28, "O"), (35, "O"), (36, "O"), (0, "O"), (1, "X")):
        cells[sq] = c
    s = game.state_from_string("".join(cells) + " X")
    assert game.actions(s) == [-1] and not game.is_terminal(s)
    assert game.string_to_action(s, "pass") == -1
    after = game.result(s, -1)
    assert game.to_move(after) == 1 and game.actions(after) != [-1]
    # all white: nobody can move; white wins 64-0 with the empties counted
    done = game.state_from_string("-" * 27 + "OO" + "-" * 6 + "OO" + "-" * 27 + " X")
    assert game.is_terminal(done) and game.utilities(done) == (-1, 1)
    assert game.final_score(done) == -64


@pytest.mark.parametrize("text, words", [
    ("X" * 10, "65 characters"),
    ("Z" * 64 + " X", "unknown character"),
    ("-" * 64 + " X", "centre squares"),
    ("-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " -", "side to move"),
    ("d3 z9", "malformed move"),
    ("d3 d3", "illegal move"),
    ("pass", "only when it has no move"),
])
def test_bad_input_is_one_clear_line(text: str, words: str) -> None:
    game = load_game("othello")
    with pytest.raises(GameSearchError, match=words) as err:
        game.state_from_string(text)
    assert "\n" not in str(err.value)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="XO-.*xoabcdh123489 ,pas\x00é", max_size=80))
def test_fuzzed_positions_are_read_or_refused_cleanly(text: str) -> None:
    game = load_game("othello")
    try:
        s = game.state_from_string(text)
    except GameSearchError as err:
        assert "\n" not in str(err)
        return
    assert game.state_from_string(game.state_to_string(s)) == s


def test_check_game_catches_nothing_on_the_small_board() -> None:
    report = check_game(load_game("othello:size=6"), playouts=5)
    assert report.terminals == 5
