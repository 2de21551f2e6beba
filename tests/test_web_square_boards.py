"""The board data of the games drawn on named squares (gamesearch/boards.py and each
engine's view): every legal move is clickable by its first and last square (or offered as a
button), pieces stand where the notation says."""

from __future__ import annotations

import pytest

from gamesearch.boards import move_squares
from gamesearch.game import replay
from gamesearch.games import load_game
from gamesearch.web.views import position_view

pytest.importorskip("chess")


def test_move_squares_reads_the_first_and_last_square():
    files, ranks = "abcdefgh", [str(8 - r) for r in range(8)]
    assert move_squares("e2e4", files, ranks) == [[6, 4], [4, 4]]
    assert move_squares("a7a8q", files, ranks) == [[1, 0], [0, 0]]
    assert move_squares("pass", files, ranks) is None
    assert move_squares("z9", files, ranks) is None


def test_chess_board_has_every_legal_move_and_promotions_share_their_squares():
    game = load_game("chess:fen=8/P6k/8/8/8/8/8/K7 w - - 0 1")
    view = position_view("chess", game, [], game.initial_state())
    board = view["board"]
    assert sorted(board["moves"]) == sorted(view["legal"]) and board["other_moves"] == []
    assert board["squares"][1][0] == "P" and board["squares"][7][0] == "K"
    promotions = [m for m, sq in board["moves"].items() if sq == [[1, 0], [0, 0]]]
    assert sorted(promotions) == ["a7a8b", "a7a8n", "a7a8q", "a7a8r"]
    assert board["check"] is None


def test_chess_board_names_the_king_in_check():
    game = load_game("chess")
    state = replay(game, ["f2f3", "e7e5", "g2g4", "d8h4"])  # fool's mate: the game is over
    board = position_view("chess", game, [], state)["board"]
    assert board["check"] == "e1" and board["moves"] == {}


def test_othello_board_offers_a_pass_as_a_button():
    game = load_game("othello")
    # a position where black (to move) has no move but white has: black must pass
    cells = "O" * 8 + "X" + "-" * 6 + "O" + "-" * 48
    cells = list(cells)
    for sq in (27, 28, 35, 36):
        cells[sq] = "O"
    state = ("".join(cells), 0)
    legal = [game.action_to_string(state, a) for a in game.actions(state)]
    board = position_view("othello", game, [], state)["board"]
    assert legal == ["pass"] and board["other_moves"] == ["pass"] and board["moves"] == {}
    assert board["count"] == {"X": 1, "O": 13}


def test_othello_opening_moves_are_single_squares():
    game = load_game("othello")
    board = position_view("othello", game, [], game.initial_state())["board"]
    assert sorted(board["moves"]) == ["c4", "d3", "e6", "f5"]
    assert all(first == last for first, last in board["moves"].values())
    assert board["moves"]["d3"] == [[2, 3], [2, 3]]
    assert board["squares"][3][3] == "O" and board["squares"][3][4] == "X"  # d4 white, e4 black


def test_checkers_board_numbers_squares_and_clicks_moves_by_their_ends():
    game = load_game("checkers")
    board = position_view("checkers", game, [], game.initial_state())["board"]
    assert board["labels"][0][1] == "1" and board["labels"][7][6] == "32"
    assert board["labels"][0][0] == "" and board["squares"][0][0] == ""  # light squares
    assert board["squares"][0][1] == "b" and board["squares"][7][6] == "w"
    assert sorted(board["moves"]) == sorted(game.actions(game.initial_state()))
    assert board["moves"]["11-15"] == [[2, 5], [3, 4]]  # squares 11 and 15


def test_checkers_board_tells_apart_two_jump_paths_with_the_same_ends():
    """A king on 10 ringed by four men takes all four going either way round: two moves
    from 10 back to 10, which the page offers as two buttons."""
    game = load_game("checkers")
    s = game.state_from_string("B:W14,15,22,23:BK10")
    board = position_view("checkers", game, [], s)["board"]
    ends = {}
    for move, (first, last) in board["moves"].items():
        ends.setdefault((tuple(first), tuple(last)), []).append(move)
    assert all("x" in m for m in board["moves"])
    assert sorted(board["moves"]) == sorted(game.actions(s))
    assert sorted(ends[(2, 3), (2, 3)]) == ["10x17x26x19x10", "10x19x26x17x10"]


def test_go_board_puts_stones_where_the_vertices_say_and_passes_by_a_button():
    game = load_game("go:size=9")
    state = replay(game, ["D4", "J9"])  # J: the column after H (GTP skips I)
    board = position_view("go", game, ["D4", "J9"], state)["board"]
    assert board["files"] == "ABCDEFGHJ" and board["ranks"][0] == "9" and board["style"] == "go"
    assert board["squares"][5][3] == "X" and board["squares"][0][8] == "O"
    assert board["other_moves"] == ["pass"] and len(board["moves"]) == 79
    assert board["moves"]["E5"] == [[4, 4], [4, 4]]  # as GTP and the engines write it
    assert game.string_to_action(state, "e5") == game.string_to_action(state, "E5")


def test_go_board_marks_the_territory_when_the_game_is_over():
    """Black walls off the left two columns on 5x5, White the right two; both pass: the
    empty points behind each wall are that side's, the count is the area score."""
    game = load_game("go:size=5,komi=0.5")
    moves = ["C5", "D5", "C4", "D4", "C3", "D3", "C2", "D2", "C1", "D1", "pass", "pass"]
    state = replay(game, moves)
    assert game.is_terminal(state)
    board = position_view("go:size=5,komi=0.5", game, moves, state)["board"]
    territory = board["territory"]
    assert [row[:2] for row in territory] == [["X", "X"]] * 5
    assert [row[4] for row in territory] == ["O"] * 5
    assert all(row[2] == row[3] == "" for row in territory)  # stones carry no mark
    assert board["count"] == {"X": 15, "O": 10}
    assert "territory" not in position_view("go", load_game("go"), [],
                                            load_game("go").initial_state())["board"]
