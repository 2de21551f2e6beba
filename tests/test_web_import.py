"""The play view's board API: games opened from PGN, SGF and PDN text and positions from a
FEN (good input gives the game and its moves, every move checked by the rules; bad input a
4xx with one line), SAN and paired numbering in the position, game ends in words, and
resigning or offering a draw (``/api/end``). Facts: 1. f3 e5 2. g4 Qh4# is the fool's
mate; the position 7k/5Q2/6K1/8 with Qg7 is a mate; "8/8/8/8/8/8/8/K6k w" with no other
piece is a dead draw (insufficient material)."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("chess")

from fastapi.testclient import TestClient  # noqa: E402

from gamesearch.web.app import create_app  # noqa: E402

FOOLS_MATE = """[Event "test"]
[White "a"]
[Black "b"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1
"""
SET_UP = """[Event "set up"]
[SetUp "1"]
[FEN "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1"]

1. Qg7# 1-0
"""
SGF = "(;GM[1]FF[4]SZ[9]KM[6.5];B[ee];W[cc];B[gc];W[])"
PDN = """[Event "t"]
[Result "*"]

1. 11-15 23-19 2. 8-11 22-17 *
"""


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=1, warm=False)) as c:
        yield c


def one_line_error(response, status=400):
    assert response.status_code == status, response.text
    message = response.json()["error"]
    assert message and "\n" not in message and "Traceback" not in message
    return message


def test_pgn_opens_with_its_moves_in_uci(client):
    r = client.post("/api/import", json={"text": FOOLS_MATE, "game": "chess"})
    assert r.status_code == 200, r.text
    assert r.json()["game"] == "chess" and r.json()["moves"] == ["f2f3", "e7e5", "g2g4",
                                                                  "d8h4"]
    pos = client.post("/api/position", json={"game": "chess", "moves": r.json()["moves"]})
    assert pos.json()["notation"] == ["f3", "e5", "g4", "Qh4#"] and pos.json()["paired"]
    assert pos.json()["outcome"] == "Black wins by checkmate"


def test_pgn_with_a_set_up_position_carries_its_fen(client):
    r = client.post("/api/import", json={"text": SET_UP, "name": "game.pgn"})
    assert r.status_code == 200, r.text
    assert r.json()["game"] == "chess:fen=7k/5Q2/6K1/8/8/8/8/8 w - - 0 1"
    pos = client.post("/api/position", json=r.json()).json()
    assert pos["terminal"] and pos["outcome"] == "White wins by checkmate"
    assert pos["position_text"]["text"] == "7k/6Q1/6K1/8/8/8/8/8 b - - 1 1"


def test_a_fen_is_a_game_spec_and_bad_fens_are_one_line(client):
    r = client.post("/api/import", json={"text": "8/8/8/8/8/8/8/K6k w - - 0 1",
                                         "game": "chess"})
    assert r.status_code == 200 and r.json()["game"].startswith("chess:fen=")
    pos = client.post("/api/position", json={"game": r.json()["game"], "moves": []}).json()
    assert pos["outcome"] == "draw by insufficient material"
    assert "impossible" in one_line_error(client.post("/api/position", json={
        "game": "chess:fen=8/8/8/8/8/8/8/8 w - - 0 1", "moves": []}))
    assert "FEN" in one_line_error(client.post("/api/import", json={
        "text": "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}))


def test_sgf_opens_as_go_with_size_and_komi(client):
    r = client.post("/api/import", json={"text": SGF})
    assert r.status_code == 200, r.text
    assert r.json()["game"] == "go:size=9,komi=6.5"
    assert r.json()["moves"] == ["E5", "C7", "G7", "pass"]
    message = one_line_error(client.post("/api/import", json={
        "text": "(;GM[1]SZ[9];B[ee];W[ee])"}))
    assert "move 2" in message
    assert one_line_error(client.post("/api/import", json={"text": "(;GM[1]SZ[9];B[ee"}))


def test_pdn_opens_as_checkers_and_an_illegal_move_is_refused(client):
    r = client.post("/api/import", json={"text": PDN, "name": "x.pdn"})
    assert r.status_code == 200, r.text
    assert r.json()["game"] == "checkers" and r.json()["moves"] == ["11-15", "23-19",
                                                                    "8-11", "22-17"]
    bad = PDN.replace("22-17", "22-26")
    assert "move 4" in one_line_error(client.post("/api/import", json={"text": bad,
                                                                       "name": "x.pdn"}))


def test_import_refuses_garbage_and_oversized_text(client):
    assert one_line_error(client.post("/api/import", json={"text": "hello\nworld"}))
    assert one_line_error(client.post("/api/import", json={"text": "   "}))
    big = client.post("/api/import", json={"text": "[" + "x" * 70_000})
    assert big.status_code in (413, 422) and "\n" not in big.json()["error"]
    # a file name only picks a format: a path is never opened
    r = client.post("/api/import", json={"text": "/etc/passwd", "name": "/etc/passwd"})
    assert r.status_code == 400 and "root" not in r.text


def test_resign_and_draw_offers(client):
    body = {"game": "chess", "moves": ["e2e4"]}
    r = client.post("/api/end", json={**body, "kind": "resign", "seat": 1}).json()
    assert r["accepted"] and r["outcome"] == "White wins: Black resigned"
    assert r["utilities"] == [1.0, -1.0]
    near = client.post("/api/end", json={**body, "kind": "draw", "seat": 0, "value": 0.03})
    assert near.json()["accepted"] and near.json()["outcome"] == "draw by agreement"
    far = client.post("/api/end", json={**body, "kind": "draw", "seat": 0, "value": 0.4})
    assert not far.json()["accepted"] and "declines" in far.json()["message"]
    none = client.post("/api/end", json={**body, "kind": "draw", "seat": 0}).json()
    assert not none["accepted"]
    assert one_line_error(client.post("/api/end", json={**body, "kind": "resign",
                                                        "seat": 5}))
    over = {"game": "chess", "moves": ["f2f3", "e7e5", "g2g4", "d8h4"], "kind": "resign",
            "seat": 0}
    assert "over" in one_line_error(client.post("/api/end", json=over))


def test_go_and_othello_ends_give_the_margin(client):
    go = client.post("/api/position", json={"game": "go:size=5,komi=0.5",
                                            "moves": ["C3", "pass", "pass"]}).json()
    assert go["terminal"] and go["outcome"].startswith("Black wins (B+24.5")
    tic = client.post("/api/position", json={"game": "tictactoe", "moves": ["1", "4", "2"]})
    assert tic.json()["paired"] and "notation" in tic.json()


def test_othello_and_backgammon_ends_name_their_margin():
    from gamesearch.games import game_entry, load_game
    from gamesearch.web.views import outcome

    othello = load_game("othello")
    full = ("X" * 40 + "O" * 24, 0)  # a full board: 40 discs to 24
    assert othello.is_terminal(full)
    assert outcome(othello, full) == "Black wins (discs: black 40, white 24)"

    class Race:  # backgammon's entry reads only the utilities' size: 1, 2 or 3 points
        def __init__(self, points):
            self.points = points

        def utilities(self, state):
            return (-self.points, self.points)

    ending = game_entry("backgammon").ending
    assert [ending(Race(p), None) for p in (1, 2, 3)] == ["a single game", "a gammon",
                                                          "a backgammon"]
