"""PGN game files (issue 16): match and tournament games written as PGN read back to the
same moves and results (set-up positions included), a known game is read to its known end,
bad files are one line with exit 2, and the reader only ever raises our own error."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch.errors import GameSearchError
from gamesearch.games.chess.pgn import PgnRecord, read_pgn, result_token, write_pgn

GAMESEARCH = [sys.executable, "-m", "gamesearch"]
SCHOLAR = '[Event "casual"]\n[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n' \
          "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"


def random_record(seed: int, start: str | None = None, plies: int = 120) -> PgnRecord:
    board, rng, moves = chess.Board(start) if start else chess.Board(), random.Random(seed), []
    while not board.is_game_over() and len(moves) < plies:
        move = rng.choice(list(board.legal_moves))
        moves.append(move.uci())
        board.push(move)
    outcome = board.outcome()
    utilities = None if outcome is None else \
        [1, -1] if outcome.winner is chess.WHITE else [-1, 1] if outcome.winner is chess.BLACK \
        else [0, 0]
    return PgnRecord(moves, result_token(utilities), {"White": f"w{seed}", "Black": "b"},
                     start)


def test_written_games_read_back_to_the_same_moves() -> None:
    records = [random_record(seed) for seed in range(6)]
    records.append(random_record(9, start="8/8/8/4k3/8/8/3QK3/8 w - - 0 1"))
    back = read_pgn(write_pgn(records))
    assert [r.moves for r in back] == [r.moves for r in records]
    assert [r.result for r in back] == [r.result for r in records]
    assert back[-1].start == records[-1].start and back[0].start is None
    assert back[0].tags["White"] == "w0"


def test_a_known_game_ends_where_it_should() -> None:
    (game,) = read_pgn(SCHOLAR)
    board = game.final_board()
    assert board.is_checkmate() and game.result == "1-0" and len(game.moves) == 7


@pytest.mark.parametrize(("text", "words"), [
    ("1. e4 e5 2. Ke3 *", "PGN game 1: illegal san"),
    ('[FEN "not a fen"]\n\n1. e4 *', "PGN game 1:"),
    (SCHOLAR + "\n1. d4 d5 2. Bxh7 *", "PGN game 2: illegal san"),
])
def test_bad_pgn_is_one_clear_error(text: str, words: str) -> None:
    with pytest.raises(GameSearchError, match=words):
        read_pgn(text)


def test_text_without_games_holds_none() -> None:
    assert read_pgn("") == [] and read_pgn("just some words") == []


def test_python_chess_readers_own_slip_is_our_error() -> None:
    """python-chess 1.11's reader fails with IndexError on a NAG after a closed variation
    (found by the fuzz test below): one clear line, not a traceback."""
    with pytest.raises(GameSearchError, match="unreadable"):
        read_pgn("a1)!")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet='[]"{}();.-+#=!?*/ 0123456789abcdefghKQRBNOxPWFENSetUp\n', max_size=120))
def test_the_reader_only_ever_raises_our_error(text: str) -> None:
    try:
        read_pgn(text)
    except GameSearchError as err:
        assert str(err).rstrip() and not str(err).rstrip().endswith(":"), str(err)


def test_match_games_export_to_pgn_and_read_back(tmp_path) -> None:
    games = tmp_path / "m.jsonl"
    played = subprocess.run([*GAMESEARCH, "match", "chess", "random", "random", "--games", "2",
                             "--seed", "3", "--position", "8/8/8/4k3/8/8/3QK3/8 w - - 0 1",
                             "--out", str(games)], capture_output=True, text=True, timeout=300)
    assert played.returncode == 0, played.stderr
    out = tmp_path / "m.pgn"
    wrote = subprocess.run([*GAMESEARCH, "pgn", "write", str(games), str(out)],
                           capture_output=True, text=True, timeout=120)
    assert wrote.returncode == 0, wrote.stderr
    listed = subprocess.run([*GAMESEARCH, "pgn", "read", str(out), "--json"],
                            capture_output=True, text=True, timeout=120)
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)
    played_games = [json.loads(line) for line in games.read_text().splitlines()
                    if json.loads(line).get("type") == "game"]
    assert [len(r["moves"]) for r in rows] == [len(g["moves"]) for g in played_games]
    assert [r["result"] for r in rows] == [result_token(g["utilities"]) for g in played_games]
    again = subprocess.run([*GAMESEARCH, "pgn", "write", str(games), str(out)],
                           capture_output=True, text=True, timeout=120)
    assert again.returncode == 0  # our own file may be replaced


@pytest.mark.parametrize(("args", "words"), [
    (("pgn", "read", "/nonexistent.pgn"), "no file"),
    (("pgn", "write", "/nonexistent.jsonl", "x.pgn"), "no file"),
])
def test_bad_files_are_one_line_and_status_2(args, words, tmp_path) -> None:
    done = subprocess.run([*GAMESEARCH, *args], capture_output=True, text=True, timeout=60,
                          cwd=tmp_path)
    assert done.returncode == 2 and words in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_an_illegal_move_in_a_file_is_one_line(tmp_path) -> None:
    bad = tmp_path / "bad.pgn"
    bad.write_text("1. e4 e5 2. Ke3 *\n")
    done = subprocess.run([*GAMESEARCH, "pgn", "read", str(bad)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "illegal san" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_file_we_did_not_write_is_not_replaced(tmp_path) -> None:
    games = tmp_path / "m.jsonl"
    subprocess.run([*GAMESEARCH, "match", "chess", "random", "random", "--games", "1",
                    "--position", "8/8/8/4k3/8/8/3QK3/8 w - - 0 1", "--out", str(games)],
                   capture_output=True, text=True, timeout=300, check=True)
    mine = tmp_path / "notes.pgn"
    mine.write_text("my notes\n")
    done = subprocess.run([*GAMESEARCH, "pgn", "write", str(games), str(mine)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and mine.read_text() == "my notes\n"
