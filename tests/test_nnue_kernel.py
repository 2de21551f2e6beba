"""The compiled, integer NNUE inference (engines/chess/nnue/kernel.py) against the integer
reference and the float specification, with accumulators kept along move sequences."""

from __future__ import annotations

import random

import chess
import numpy as np
import pytest

from chess_positions import seeded_board
from gamesearch.engines.chess.nnue import kernel as K
from gamesearch.engines.chess.nnue import network as N
from gamesearch.games.chess import board as B
from gamesearch.games.chess import legal as L
from gamesearch.games.chess.kernel import arrays_of, uci_of

FLOAT_TOLERANCE_CP = 12
"""The largest difference allowed between the integer network and the float one, in
centipawns (rounding of weights to 1/1024 and of activations to 1/127; about 1-2 cp on
average, under 10 cp measured on random networks of several widths)."""
SPECIAL_FENS = (
    chess.STARTING_FEN,
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",         # castling, both sides
    "r3k2r/p1pp1ppp/8/1pP1pP2/8/8/PP1P1PPP/R3K2R w KQkq b6 0 1",  # en passant and castling
    "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1",                          # Black takes en passant
    "1r2k3/P7/8/8/8/8/7p/4K1R1 w - - 0 1",                        # promotions, with capture
    "r1n1k3/1P6/8/8/8/8/1p6/R1N1K3 b - - 0 1",                    # promotions, both sides
)


def _kind(board: np.ndarray, m: int) -> str:
    flags = m >> 18
    promo = (m >> 14) & 7
    capture = board[(m >> 7) & 127] != 0
    if flags & B.CASTLE:
        return "castle"
    if flags & B.EP:
        return "en passant"
    if promo:
        return "promotion capture" if capture else "promotion"
    return "capture" if capture else "quiet"


@pytest.fixture(scope="module")
def quantised() -> tuple[N.Network, K.Quantised]:
    net = N.random_network(hidden=64, l1=16, l2=16, seed=7)
    return net, K.quantise(net)


@pytest.mark.parametrize("widths", [(128, 32, 32), (32, 8, 16), (24, 4, 4)])
def test_compiled_equals_the_integer_reference_and_nears_the_float(widths) -> None:
    net = N.random_network(*widths, seed=sum(widths))
    q = K.quantise(net)
    assert q.widths == widths
    worst = 0.0
    for seed in range(25):
        board = seeded_board(seed, 8 + 2 * seed)
        b, st, undo = arrays_of(board)
        value = K.evaluate_arrays(b, st, undo, K.state(q))
        assert value == K.reference(q, board)
        worst = max(worst, abs(value - N.evaluate(net, board)))
    assert worst <= FLOAT_TOLERANCE_CP


def test_the_integer_network_sees_a_mirrored_position_the_same(quantised) -> None:
    _, q = quantised
    for seed in range(10):
        board = seeded_board(seed)
        assert K.reference(q, board) == K.reference(q, board.mirror())


def _walk(q: K.Quantised, fen: str, seed: int, plies: int, seen: set[str]) -> None:
    """Random moves (special kinds preferred), null moves and take-backs from ``fen``,
    evaluating after most of them (not all: the lazy update then walks back): every
    evaluation equals the reference, and the accumulators equal freshly summed ones."""
    rng = random.Random(seed)
    board = chess.Board(fen)
    b, st, undo = arrays_of(board)
    nn = K.state(q)
    fresh = K.state(q)
    moves = np.zeros(B.MAX_MOVES, np.int64)
    for _ in range(plies):
        roll = rng.random()
        if roll < 0.1 and len(board.move_stack) > 0:
            board.pop()
            if undo[st[B.PLY] - 1, 0] == 0:
                B.unmake_null(b, st, undo)
            else:
                B.unmake(b, st, undo)
        elif roll < 0.15 and not board.is_check():
            board.push(chess.Move.null())
            B.make_null(b, st, undo)
        else:
            n = L.legal_moves(b, st, undo, moves)
            if n == 0 or board.is_game_over(claim_draw=False) or st[B.PLY] >= B.MAX_PLY - 4:
                break
            legal = [int(moves[i]) for i in range(n)]
            special = [m for m in legal if _kind(b, m) != "quiet"]
            m = rng.choice(special if special and rng.random() < 0.6 else legal)
            seen.add(_kind(b, m))
            board.push(chess.Move.from_uci(uci_of(m)))
            B.make(b, st, undo, m)
        if rng.random() < 0.3:
            continue  # not evaluated here: a later evaluation updates from further back
        before = (b.copy(), st.copy())
        value = K.evaluate_arrays(b, st, undo, nn)
        assert np.array_equal(b, before[0]) and np.array_equal(st, before[1])
        ply = st[B.PLY]
        K.refresh(b, fresh, ply)
        assert np.array_equal(nn[K.ACC][ply], fresh[K.ACC][ply]), board.fen()
        assert value == K.reference(q, board), board.fen()


def test_incremental_accumulators_equal_refreshed_ones_for_every_move_kind(quantised) -> None:
    _, q = quantised
    seen: set[str] = set()
    for i, fen in enumerate(SPECIAL_FENS):
        for seed in range(4):
            _walk(q, fen, 100 * i + seed, 60, seen)
    assert seen >= {"quiet", "capture", "castle", "en passant", "promotion",
                    "promotion capture"}


def test_a_long_walk_refreshes_and_still_agrees(quantised) -> None:
    """Longer than MAX_WALK without an evaluation: the accumulators are summed afresh."""
    _, q = quantised
    board = chess.Board()
    b, st, undo = arrays_of(board)
    nn = K.state(q)
    K.evaluate_arrays(b, st, undo, nn)
    rng = random.Random(5)
    moves = np.zeros(B.MAX_MOVES, np.int64)
    for plies in (1, K.MAX_WALK - 1, K.MAX_WALK, K.MAX_WALK + 3):
        for _ in range(plies):
            n = L.legal_moves(b, st, undo, moves)
            m = int(moves[rng.randrange(n)])
            board.push(chess.Move.from_uci(uci_of(m)))
            B.make(b, st, undo, m)
        assert K.evaluate_arrays(b, st, undo, nn) == K.reference(q, board)


def test_networks_too_large_for_the_integers_are_refused() -> None:
    net = N.random_network(hidden=8, l1=4, l2=4)
    big = N.Network(**{**{name: getattr(net, name) for name in N.ARRAYS},
                       "ft_w": net.ft_w * 40})
    with pytest.raises(N.NetworkError, match="16-bit accumulators"):
        K.quantise(big)
    huge = N.Network(**{**{name: getattr(net, name) for name in N.ARRAYS},
                        "l1_w": net.l1_w * 100})
    with pytest.raises(N.NetworkError, match="too large"):
        K.quantise(huge)
