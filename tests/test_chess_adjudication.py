"""The benchmark's adjudication of games past the 200-ply cut-off (issue 42): the endgame
tables where they hold the position, else played on up to the hard cap, else Stockfish's
evaluation of the last positions; on constructed positions, with fake players."""

import shutil
from pathlib import Path
from types import SimpleNamespace

import chess
import chess.engine
import chess.pgn
import pytest
from bench.chess_perft import Clock, Judge, _play_one, _record

from gamesearch.engines.chess import adjudication as A

STOCKFISH = shutil.which("stockfish") or "/usr/games/stockfish"
needs_stockfish = pytest.mark.skipif(not Path(STOCKFISH).exists(),
                                     reason="Stockfish is not installed")


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    from gamesearch.engines.chess.tables import Tables, table_spec
    from gamesearch.tables.build import build_tables

    folder = tmp_path_factory.mktemp("adjudication-tables")
    build_tables(table_spec(3, only=["KQvK", "KRvK"]), folder)
    return Tables(folder)


def at_ply(fen_body: str, ply: int) -> chess.Board:
    """A board of this position whose ply count (``board.ply()``) is ``ply``."""
    board = chess.Board(f"{fen_body} - 0 {ply // 2 + 1}")
    assert board.ply() == ply and board.turn == (ply % 2 == 0)
    return board


@pytest.mark.parametrize("scores, result", [
    ([350, 300, 900, 310], "1-0"),
    ([-301, -300, -A.MATE_CP, -450], "0-1"),
    ([A.MATE_CP, A.MATE_CP, A.MATE_CP, A.MATE_CP], "1-0"),
    ([350, 320, 299, 310], "1/2-1/2"),      # one evaluation short of the margin
    ([400, -400, 400, -400], "1/2-1/2"),    # the sides disagree
    ([0, 0, 0, 0], "1/2-1/2"),
    ([900, 900, 900], "1/2-1/2"),           # fewer than four: no verdict but a draw
    ([-900, 10, 350, 350, 350, 350], "1-0"),  # only the last four count
])
def test_the_evaluation_rule(scores, result):
    verdict = A.by_evaluations(scores)
    assert verdict.result == result
    assert "Stockfish evaluation" in verdict.how and "300" in verdict.how


def test_the_tables_decide_where_they_hold_the_position(tables):
    white_to_win = at_ply("8/8/8/4k3/8/8/8/KQ6 w -", 200)
    verdict = A.by_tables(white_to_win, tables)
    assert verdict.result == "1-0" and "tables" in verdict.how and "White to move wins" in \
        verdict.how
    black_to_lose = at_ply("8/8/8/4k3/8/8/8/KQ6 b -", 201)
    assert A.by_tables(black_to_lose, tables).result == "1-0"
    black_rook = at_ply("8/8/8/4k3/8/8/7r/K7 w -", 200)  # Black's rook: the flipped table
    assert A.by_tables(black_rook, tables).result == "0-1"
    takes_the_queen = at_ply("7K/8/8/8/8/8/2k5/1Q6 b -", 201)  # Black takes: a dead draw
    assert A.by_tables(takes_the_queen, tables).result == "1/2-1/2"
    crowded = at_ply("8/8/8/4k3/8/8/1P6/KQ6 w -", 200)  # four pieces: not built here
    assert A.by_tables(crowded, tables) is None
    assert A.by_tables(white_to_win, None) is None


def test_the_last_positions_and_the_cap_rule():
    board = chess.Board()
    for move in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]:
        board.push_uci(move)
    positions = A.last_positions(board)
    assert [b.ply() for b in positions] == [2, 3, 4, 5]
    assert positions[-1] == board
    seen = []

    def evaluate(b: chess.Board) -> int:
        seen.append(b.ply())
        return 500 if b.ply() % 2 else 250  # one of the four below the margin
    assert A.at_cap(board, evaluate).result == "1/2-1/2" and seen == [2, 3, 4, 5]
    assert A.at_cap(board, lambda b: -777).result == "0-1"
    assert len(A.last_positions(chess.Board())) == 1


class Player:
    """A fake UCI engine for ``_play_one``: plays the move ``choose`` picks."""

    def __init__(self, choose):
        self.choose = choose
        self.calls = 0

    def play(self, board, limit, game=None):
        self.calls += 1
        return SimpleNamespace(move=self.choose(board))


def first_legal(board: chess.Board) -> chess.Move:
    return min(board.legal_moves, key=lambda m: m.uci())


def test_a_game_at_the_cut_off_that_the_tables_hold_is_theirs_at_once(tables):
    judge = Judge(None)
    judge.tables = tables
    player = Player(first_legal)
    opening = at_ply("8/8/8/4k3/8/8/8/KQ6 w -", A.CUTOFF)
    board, result, flagged, how = _play_one(player, player, opening, 1, Clock(nodes=100),
                                            judge)
    assert (result, flagged, player.calls) == ("1-0", "", 0)
    assert how.startswith("endgame tables at ply 200")


def test_a_game_past_the_cut_off_is_played_on_to_its_end():
    def mate_if_possible(board: chess.Board) -> chess.Move:
        for move in board.legal_moves:
            board.push(move)
            mate = board.is_checkmate()
            board.pop()
            if mate:
                return move
        return first_legal(board)
    player = Player(mate_if_possible)
    # Black to move past the cut-off (Kh7, its only move), then White mates (Qg7#)
    opening = at_ply("7k/8/5K2/6Q1/8/8/8/8 b -", A.CUTOFF + 1)
    board, result, _, how = _play_one(player, player, opening, 0, Clock(nodes=100), Judge(None))
    assert result == "1-0" and board.is_checkmate() and board.ply() > A.CUTOFF
    assert how.startswith("played on past the 200-ply cut-off")


@needs_stockfish
def test_at_the_hard_cap_stockfish_adjudicates(tmp_path):
    judge = Judge(None, depth=10)  # the rule's depth 16 costs minutes on a loaded machine
    player = Player(first_legal)
    try:
        # White a rook and four pawns up, four plies before the cap: played on, then
        # Stockfish evaluates the four positions those moves reached
        ahead = at_ply("r3k3/pppq4/8/8/8/8/PPPQ1PPP/R3K2R w KQq", A.HARD_CAP - 4)
        board, result, _, how = _play_one(player, player, ahead, 0, Clock(nodes=100), judge)
        assert board.ply() == A.HARD_CAP and player.calls == 4
        assert result == "1-0" and how.startswith("Stockfish evaluation: White"), how
        level = at_ply("4k3/pppp4/8/8/8/8/PPPP4/4K3 w -", A.HARD_CAP - 4)
        board, result, _, how = _play_one(player, player, level, 1, Clock(nodes=100), judge)
        assert result == "1/2-1/2" and "neither side" in how
        path = tmp_path / "games.pgn"
        import threading
        points = _record(board, result, 1, "someone", Clock(nodes=100), str(path),
                         threading.Lock(), how)
        assert points == 0.5
        game = chess.pgn.read_game(path.open())
        assert game.headers["Termination"] == "adjudication"
        assert game.end().comment == how
    finally:
        judge.close()
