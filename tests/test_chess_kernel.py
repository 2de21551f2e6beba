"""Chess's compiled move generator against python-chess: perft and move-for-move equality."""

import random

import chess
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch.games import game_entry, load_game
from gamesearch.games.chess import board as B
from gamesearch.games.chess import legal as L
from gamesearch.games.chess.kernel import arrays_of, make_kernel, perft_fen, uci_of
from gamesearch.testing import check_kernel

# chessprogramming.org, "Perft Results": the six standard positions, fast depths here
# (bench/chess_perft.py runs the deeper ones).
PERFT = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", [20, 400, 8902, 197281]),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", [48, 2039, 97862]),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [14, 191, 2812, 43238, 674624]),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", [6, 264, 9467, 422333]),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", [44, 1486, 62379]),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
     [46, 2079, 89890]),
]


@pytest.mark.parametrize(("fen", "counts"), PERFT)
def test_perft_matches_the_published_counts(fen, counts):
    assert [perft_fen(fen, d + 1) for d in range(len(counts))] == counts


def test_perft_hook_is_registered():
    game = load_game("chess")
    assert game_entry("chess").perft(game, game.initial_state(), 3) == 8902


def _legal_uci(board: chess.Board) -> list[str]:
    b, s, undo = arrays_of(board)
    moves = np.zeros(B.MAX_MOVES, np.int64)
    n = L.legal_moves(b, s, undo, moves)
    return sorted(uci_of(int(m)) for m in moves[:n])


def _searched_uci(board: chess.Board) -> list[str]:
    """The engine's moves: pseudo-legal, kept when the king is safe after making them."""
    b, s, undo = arrays_of(board)
    moves = np.zeros(B.MAX_MOVES, np.int64)
    kept = []
    for m in moves[:B.generate(b, s, moves, False)]:
        B.make(b, s, undo, m)
        if not B.in_check(b, s, 1 - s[B.SIDE]):
            kept.append(uci_of(int(m)))
        B.unmake(b, s, undo)
    return sorted(kept)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 120))
def test_legal_moves_equal_python_chess_on_random_positions(seed, plies):
    rng = random.Random(seed)
    board = chess.Board()
    for _ in range(plies):
        legal = list(board.legal_moves)
        expected = sorted(m.uci() for m in legal)
        assert _legal_uci(board) == expected, board.fen()
        assert _searched_uci(board) == expected, board.fen()
        if not legal:
            break
        board.push(rng.choice(legal))


@pytest.mark.parametrize("fen", [
    "8/8/8/k2pP2R/8/8/8/4K3 w - d6 0 1",        # a legal en passant capture
    "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1",         # en passant through a pin: illegal
    "r3k2r/8/8/8/8/8/8/R3K1r1 w KQkq - 0 1",    # castling out of / through check
    "r3k2r/8/8/8/8/5b2/8/R3K2R w KQkq - 0 1",   # castling through an attacked square
])
def test_tricky_special_cases(fen):
    board = chess.Board(fen)
    assert _legal_uci(board) == sorted(m.uci() for m in board.legal_moves)


def test_kernel_keeps_the_contract():
    report = check_kernel(load_game("chess"), make_kernel(), playouts=2, seed=1)
    assert report.positions > 100


def test_perft_command_counts_and_refuses_a_bad_fen():
    import subprocess
    import sys

    kiwi = PERFT[1][0]
    run = subprocess.run([sys.executable, "-m", "gamesearch", "perft", "chess", "--fen", kiwi,
                          "--depth", "2"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and "2,039" in run.stdout
    bad = subprocess.run([sys.executable, "-m", "gamesearch", "perft", "chess", "--fen",
                          "8/8/8 w - - 0 1", "--depth", "2"], capture_output=True, text=True,
                         timeout=120)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def _arrays_with_ep(board: chess.Board) -> tuple[np.ndarray, np.ndarray]:
    """The kernel arrays, keeping python-chess's en passant square even where no capture
    is legal (so the generator meets the en passant pin itself)."""
    b, s, _ = arrays_of(board)
    ep = board.ep_square
    if ep is not None:
        s[B.EPSQ] = (ep >> 3) * 16 + (ep & 7)
    return b, s


def _random_position(rng: random.Random) -> chess.Board:
    """Two kings and 1..14 random pieces on random squares, valid for python-chess."""
    kinds = [chess.PAWN] * 4 + [chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN]
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), 2 + rng.randint(1, 14))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for sq in squares[2:]:
            kind = rng.choice(kinds)
            if kind != chess.PAWN or chess.square_rank(sq) not in (0, 7):
                board.set_piece_at(sq, chess.Piece(kind, rng.random() < 0.5))
        board.turn = rng.random() < 0.5
        if board.is_valid():
            return board


def test_bulk_count_equals_python_chess_on_varied_positions():
    """``count_legal`` (no move made) and ``generate_legal`` against python-chess's
    ``legal_moves`` on random placements, their double pushes (en passant, pinned or not)
    and random games from the perft positions; every hard case must occur."""
    rng = random.Random(16)
    seen = dict.fromkeys(("check", "double check", "pin", "en passant",
                          "en passant pinned", "promotion", "castling", "no move"), 0)
    row = np.zeros(B.MAX_MOVES, np.int64)

    def check(board: chess.Board) -> None:
        b, s = _arrays_with_ep(board)
        legal = list(board.legal_moves)
        assert L.count_legal(b, s) == len(legal), board.fen()
        n = L.generate_legal(b, s, row)
        assert sorted(uci_of(int(m)) for m in row[:n]) == sorted(m.uci() for m in legal), \
            board.fen()
        checkers = len(board.checkers())
        seen["check"] += checkers == 1
        seen["double check"] += checkers == 2
        ours = chess.SquareSet(board.occupied_co[board.turn])
        seen["pin"] += any(board.is_pinned(board.turn, sq) for sq in ours)
        seen["en passant"] += board.has_legal_en_passant()
        seen["en passant pinned"] += (board.has_pseudo_legal_en_passant()
                                      and not board.has_legal_en_passant())
        seen["promotion"] += any(m.promotion for m in legal)
        seen["castling"] += any(board.is_castling(m) for m in legal)
        seen["no move"] += not legal

    for _ in range(1500):
        board = _random_position(rng)
        check(board)
        for move in list(board.legal_moves):
            if board.piece_type_at(move.from_square) == chess.PAWN and \
                    abs(move.to_square - move.from_square) == 16:
                board.push(move)
                check(board)
                board.pop()
    for fen, _ in PERFT * 4 + PERFT[2:3] * 40:  # position 3: en passant along a pin
        board = chess.Board(fen)
        for _ in range(60):
            check(board)
            legal = list(board.legal_moves)
            if not legal:
                break
            board.push(rng.choice(legal))
    assert min(seen.values()) >= 3, seen


def test_the_cached_search_names_the_sources_compiled_into_it() -> None:
    """numba keys a cached function on its own file only; the search's cache tag hashes its
    templates and COMPILED_IN. Every compiled function or module the templates call must be
    in one of them, or an edit to it alone would leave every machine's old search cached."""
    import types

    from numba.core.registry import CPUDispatcher

    from gamesearch.engines.chess import search as S

    covered = {S.__name__} | {m.__name__ for m in S.COMPILED_IN}
    for template in S.TEMPLATES:
        for name in template.__code__.co_names:
            value = template.__globals__.get(name)
            if isinstance(value, types.ModuleType) and value.__name__.startswith("gamesearch"):
                assert value.__name__ in covered, (template.__name__, value.__name__)
            elif isinstance(value, CPUDispatcher):
                assert value.py_func.__module__ in covered, (template.__name__, name)
    # and the tag moves with each of them
    tag = S.search_tag()
    for module in S.COMPILED_IN:
        assert S.search_tag({module.__name__: "# edited"}) != tag, module.__name__
