"""Singular extensions in the chess search (issue 42): they change the search where they are
on and leave nothing behind; with them the engine still finds the mates and the winning
capture; the option that turns them on (they are off by default) is checked in UCI and on
the command line."""

import subprocess
import sys

import chess
import pytest

from gamesearch.cli.uci_session import UciSession
from gamesearch.engines.chess.engine import ChessEngine
from gamesearch.engines.chess.search import EXCLUDED, SINGULAR_DEPTH
from gamesearch.result import Limit

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
MIDDLEGAME = "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9"
DEPTH = SINGULAR_DEPTH + 2  # deep enough that nodes below the root are tested
BEST = [  # (FEN, the best move, moves to mate or None)
    ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "h5f7", 1),
    ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", "d5f6", 2),
    ("6k1/8/8/4Q2K/8/8/8/8 w - - 0 1", None, 3),
    # the queen on g5 hangs to the bishop
    ("rnb1kbnr/pppp1ppp/8/4p1q1/4P3/3P4/PPP2PPP/RNBQKBNR w KQkq - 1 3", "c1g5", None),
]


def _search(fen: str, singular: bool, depth: int = DEPTH) -> tuple[ChessEngine, object]:
    engine = ChessEngine(hash_mb=16, singular=singular)
    engine.position(chess.Board(fen))
    return engine, engine.go(Limit(depth=depth))


def test_singular_extensions_change_the_search_and_leave_no_excluded_move():
    counts = {}
    for singular in (True, False):
        for fen in (KIWIPETE, MIDDLEGAME):
            engine, result = _search(fen, singular)
            counts[singular, fen] = result.stats.nodes
            assert (engine.killers[:, EXCLUDED] == 0).all()  # every verification undone
            board = chess.Board(fen)
            for move in result.pv:  # the line is legal: no stale verification line in it
                assert chess.Move.from_uci(move) in board.legal_moves, (fen, result.pv)
                board.push_uci(move)
    assert any(counts[True, fen] != counts[False, fen] for fen in (KIWIPETE, MIDDLEGAME))


@pytest.mark.parametrize(("fen", "best", "mate"), BEST)
def test_with_singular_extensions_the_engine_finds_the_best_move(fen, best, mate):
    _, result = _search(fen, True)
    if best is not None:
        assert result.action == best
    if mate is not None:
        assert result.stats.extra.get("mate") == mate
        board = chess.Board(fen)
        for move in result.pv[:2 * mate - 1]:
            board.push_uci(move)
        assert board.is_checkmate()


def test_the_uci_option_turns_them_off_and_refuses_bad_values():
    lines: list[str] = []
    session = UciSession(lines.append, hash_mb=1)
    session.handle("uci")
    assert "option name SingularExtensions type check default false" in lines
    assert not session.engine.singular
    for bad in ("maybe", "2", ""):
        before = len(lines)
        session.handle(f"setoption name SingularExtensions value {bad}")
        answer = lines[before:]
        assert len(answer) == 1 and answer[0].startswith("info string"), (bad, answer)
        assert not session.engine.singular
    session.handle("setoption name SingularExtensions value TRUE")
    assert session.engine.singular
    session.handle("setoption name SingularExtensions value false")
    assert not session.engine.singular


def test_the_agent_spec_takes_singular_1_and_refuses_2():
    from gamesearch.agents import make_agent

    assert make_agent("chess-engine:singular=1,nodes=100").engine.singular
    assert not make_agent("chess-engine").engine.singular
    assert not make_agent("chess-engine:singular=0").engine.singular
    out = subprocess.run([sys.executable, "-m", "gamesearch", "match", "chess",
                          "chess-engine:singular=2", "random", "--games", "1"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert "singular" in out.stderr and "Traceback" not in out.stderr
