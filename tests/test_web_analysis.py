"""The analysis route (/api/analyse): the engine's lines for a position, streamed, with the
score the page's evaluation bar reads, several lines (multi-PV) where they are cheap, and
bad input refused in one line before any stream starts.

Facts from outside: in tic-tac-toe after X takes the centre, O's corner replies draw and
its edge replies lose (Wikipedia, "Tic-tac-toe", strategy section); a player with two in a
row and the third cell free wins by taking it.
"""

from __future__ import annotations

import pytest

from web_events import server_events

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from gamesearch.web.app import create_app  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=1, warm=False)) as c:
        yield c


def analysis(client, body):
    """The server-sent events of /api/analyse as (name, data) pairs."""
    return server_events(client, "/api/analyse", body)


def test_analysis_streams_the_first_line_then_the_best_lines(client):
    # X took the centre, O is to move: the corners draw, the edges lose.
    # (5 s: the game is solved in milliseconds; at a load of 10 one second reached depth 4,
    # where an edge was not yet refuted)
    got = analysis(client, {"game": "tictactoe", "moves": ["5"], "lines": 3, "time": 5})
    names = [name for name, _ in got]
    assert names[0] == "start" and names[-1] == "done" and "progress" in names
    assert got[0][1]["agent"]  # the seat's default engine, named
    progress = [data for name, data in got if name == "progress"]
    assert all("score" in p and 0 <= p["score"]["win_probability"] <= 1 for p in progress)
    lines = got[-1][1]["lines"]
    assert len(lines) == 3 and got[-1][1]["note"] == ""
    assert len({line["move"] for line in lines}) == 3
    for line in lines:  # a corner each, each a draw (player 1's viewpoint: 0.5)
        assert line["move"] in {"1", "3", "7", "9"}, lines
        assert line["pv"][0] == line["move"] and line["score"]["win_probability"] == 0.5


def test_a_winning_move_leads_and_the_bar_says_so(client):
    # X has 1 and 2 with 3 free, O has 4 and 5: X to move wins at once with 3.
    got = analysis(client, {"game": "tictactoe", "moves": ["1", "4", "2", "5"],
                            "lines": 2, "time": 1})
    done = got[-1][1]
    assert done["lines"][0]["move"] == "3"
    assert done["lines"][0]["score"]["win_probability"] == 1.0
    # the second line does not win at once: O then completes 4-5-6
    assert done["lines"][1]["move"] != "3"
    assert done["lines"][1]["score"]["win_probability"] < 1.0


def test_one_line_where_several_are_not_cheap(client):
    # Nim with 60 moves (as Go's 82 points): too many to search each, one line, and the
    # note says why.
    got = analysis(client, {"game": "nim:piles=20-20-20", "moves": [], "lines": 3,
                            "time": 0.5})
    done = got[-1]
    assert done[0] == "done", got
    assert len(done[1]["lines"]) == 1 and done[1]["note"].startswith("1 line")


@pytest.mark.parametrize("body, status, words", [
    ({"game": "tictactoe", "moves": ["1", "4", "2", "5", "3"]}, 400, "game is over"),
    ({"game": "tictactoe", "moves": ["0"]}, 400, "malformed move"),
    ({"game": "tictactoe", "moves": [], "lines": 4}, 422, "lines"),
    ({"game": "tictactoe", "moves": [], "time": 60}, 422, "time"),
    ({"game": "tictactoe", "moves": [], "agent": "nosuchagent"}, 404, "nosuchagent"),
    ({"game": "nosuchgame", "moves": []}, 404, "nosuchgame"),
    ({"game": "kuhn_poker", "moves": [], "viewer": 0}, 400, "hidden"),
])
def test_bad_analysis_requests_answer_one_line(client, body, status, words):
    answer = client.post("/api/analyse", json=body)
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert words in error and "\n" not in error and "Traceback" not in error


def test_a_resignation_is_the_saved_records_result(client):
    pytest.importorskip("chess", reason="python-chess is not installed")
    moves = ["e2e4", "e7e5"]
    pgn = client.post("/api/record", json={"game": "chess", "moves": moves, "resigned": 0})
    assert pgn.status_code == 200 and '[Result "0-1"]' in pgn.json()["text"]
    black = client.post("/api/record", json={"game": "chess", "moves": moves, "resigned": 1})
    assert '[Result "1-0"]' in black.json()["text"]
    going = client.post("/api/record", json={"game": "chess", "moves": moves}).json()["text"]
    assert '[Result "*"]' in going
    sgf = client.post("/api/record", json={"game": "go:size=9", "moves": ["E5"],
                                           "resigned": 1}).json()["text"]
    assert "RE[B+R]" in sgf  # White gave up: Black wins by resignation, as SGF writes it
    over = client.post("/api/record", json={"game": "chess", "resigned": 2, "moves": moves})
    assert over.status_code == 400 and "seat 2" in over.json()["error"]


def test_a_replys_mate_is_one_move_longer_for_the_player_who_gives_it():
    """After 1. Qa1+ (7k/8/6K1/8/8/8/8/1Q6 w) the reply's search sees White mate in 1 (Qg7#
    after Kg8); from the root that line is a mate in 2 for White. A mate the other side
    gives keeps its distance (the root's move was the loser's)."""
    from gamesearch.result import Score
    from gamesearch.web.worker import one_move_earlier

    reply = Score(30000, 0, True, "centipawns", 100.0, mate_in=1).as_dict()
    root = one_move_earlier(reply, mover=0)
    assert root["mate_in"] == 2 and root["text"] == "#2" and root["win_probability"] == 1.0
    assert one_move_earlier(reply, mover=1) == reply
    lost = Score(-30000, 0, True, "centipawns", 100.0, mate_in=-3).as_dict()
    assert one_move_earlier(lost, mover=1)["text"] == "#-4"
    plain = Score(35, 0, False, "centipawns", 100.0).as_dict()
    assert one_move_earlier(plain, mover=0) == plain and one_move_earlier(None, 0) is None
