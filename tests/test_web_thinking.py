"""The thinking table's data (the /api/think stream a worker sends): each depth once, the
line in the game's notation (SAN for chess), and a score that says what its number is: a
Connect Four search that finds a won game reads it with the game's own scale ("win in 1",
exact), not as a bare "+18"; a heuristic estimate stays an estimate.

Facts: after 1 2 1 2 1 2 in Connect Four, the first player has three stones in column 1 and
wins at once by playing there (the fourth in a column); after 1. e4 the line's moves are
written as python-chess writes SAN; after 1 3 1 4 7 5 the second player has an open three
on the bottom row (3, 4, 5 with 2 and 6 free), which the first player cannot stop."""

from __future__ import annotations

import chess

from gamesearch.web.worker import think


class Flag:
    value = 0


def stream(game: str, moves: list[str], agent: str, seconds: float = 2.0) -> list[dict]:
    sent: list[tuple[str, dict]] = []
    think({"game": game, "moves": moves, "agent": agent}, seconds, Flag(),
          lambda kind, data: sent.append((kind, data)))
    assert sent and sent[-1][0] == "result", sent[-1:]
    return [data for kind, data in sent if kind == "progress"]


def test_connect4_win_reads_as_win_in_n_not_a_bare_number():
    progress = stream("connect4", ["1", "2", "1", "2", "1", "2"], "alphabeta:depth=4")
    deep = progress[-1]
    assert deep["pv"][0] == "1"
    score = deep["score"]
    assert score["text"] == "win in 1", score
    assert score["kind"] == "moves-to-win" and score["exact"] is True
    assert score["win_probability"] == 1.0


def test_connect4_estimate_stays_an_estimate():
    first = stream("connect4", [], "alphabeta:depth=3")[-1]
    score = first["score"]
    assert score["exact"] is False and score["kind"] == "utility"
    assert abs(score["value"]) < 1 and "win" not in score["text"]


def test_each_depth_reported_once():
    depths = [d["stats"]["depth"] for d in stream("connect4", ["4", "4"], "alphabeta:time=0.3",
                                                   seconds=1.0)]
    assert depths == sorted(set(depths)), depths


def test_chess_line_in_san():
    progress = stream("chess", ["e2e4"], "alphabeta:depth=2", seconds=5.0)
    assert progress
    for data in progress:
        board = chess.Board()
        board.push_uci("e2e4")
        san = []
        for move in data["pv"]:
            san.append(board.san(chess.Move.from_uci(move)))
            board.push_uci(move)
        assert data["notation"] == san
        assert all(len(m) == 4 and m[1].isdigit() for m in data["pv"])  # the pv stays UCI


def test_connect4_lost_line_shows_the_winning_reply():
    # after 1 3 1 4 7 5 the second player holds 3, 4 and 5 of the bottom row with 2 and 6
    # free: the first player, to move, cannot stop both ends and loses in 1; the line names
    # the winner's reply too, never the loser's move alone
    lost = stream("connect4", ["1", "3", "1", "4", "7", "5"], "alphabeta:depth=6")[-1]
    assert lost["score"]["exact"] is True and lost["score"]["text"] == "lose in 1", lost
    assert len(lost["pv"]) >= 2, lost["pv"]
    assert lost["pv"][1] in {"2", "6"}, lost["pv"]
