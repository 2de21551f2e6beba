"""The chess evaluation as weights times term counts, in plain Python.

``chess_eval.evaluate`` (compiled) adds up, for each side, a middlegame and an endgame sum of
weighted terms and blends them by the game phase. Here the same evaluation is written as a
dot product: ``terms(board)`` counts each term for the side to move minus the other side,
already scaled by the phase, so that ``terms(board) @ flat(weights())`` is the evaluation.
It is the specification the compiled code is tested against (tests/test_chess_terms.py),
and what ``bench/chess_tune.py`` fits the weights with.
"""

from __future__ import annotations

import chess
import numpy as np

from gamesearch.engines.chess import evaluation as E

# (name, length): the weights in the order of the flat vector; "_mg" ones are scaled by
# phase / 24, "_eg" ones by (24 - phase) / 24
BLOCKS: list[tuple[str, int]] = [
    ("MATERIAL_MG", 8), ("PST_MG", 8 * 64), ("MOBILITY_MG", 8), ("PASSED_MG", 8),
    ("DOUBLED_MG", 1), ("ISOLATED_MG", 1), ("SHIELD_MG", 1), ("OPEN_FILE_NEAR_KING_MG", 1),
    ("BISHOP_PAIR_MG", 1), ("TEMPO_MG", 1),
    ("MATERIAL_EG", 8), ("PST_EG", 8 * 64), ("MOBILITY_EG", 8), ("PASSED_EG", 8),
    ("DOUBLED_EG", 1), ("ISOLATED_EG", 1), ("BISHOP_PAIR_EG", 1), ("TEMPO_EG", 1),
    ("ROOK_OPEN_MG", 1), ("ROOK_OPEN_EG", 1), ("ROOK_SEMI_OPEN_MG", 1),
    ("ROOK_SEMI_OPEN_EG", 1), ("KING_ATTACK_MG", 8), ("PAWN_THREAT_MG", 8),
    ("PAWN_THREAT_EG", 8), ("SUPPORTED_PAWN_MG", 1), ("SUPPORTED_PAWN_EG", 1),
    ("KING_PASSER_EG", 8),
]
OFFSET: dict[str, int] = {}
_at = 0
for _name, _size in BLOCKS:
    OFFSET[_name] = _at
    _at += _size
SIZE = _at
"""The number of weights."""


def weights() -> dict[str, np.ndarray]:
    """The compiled evaluation's weights, by name (each a flat int64 array)."""
    return {name: np.asarray(getattr(E, name), np.int64).reshape(-1).copy()
            for name, _ in BLOCKS}


def flat(w: dict[str, np.ndarray]) -> np.ndarray:
    """The weights as one vector, in ``BLOCKS`` order."""
    return np.concatenate([np.asarray(w[name], np.float64).reshape(-1) for name, _ in BLOCKS])


def unflat(v: np.ndarray) -> dict[str, np.ndarray]:
    """A vector back into named weights (rounded to whole centipawns)."""
    return {name: np.rint(v[OFFSET[name]:OFFSET[name] + size]).astype(np.int64)
            for name, size in BLOCKS}


def _counts(board: chess.Board) -> tuple[np.ndarray, np.ndarray, int]:
    """Per colour (0 White, 1 Black), the middlegame and endgame term counts, and the phase."""
    mg = np.zeros((2, SIZE))
    eg = np.zeros((2, SIZE))
    pawns = np.zeros((2, 8), np.int64)
    front = np.zeros((2, 8), np.int64)
    back = np.full((2, 8), 8, np.int64)
    bishops = [0, 0]
    rooks = np.zeros((2, 8), np.int64)
    kings = [board.king(chess.WHITE), board.king(chess.BLACK)]
    phase = 0

    def add(c: int, name: str, index: int = 0, n: float = 1.0) -> None:
        target = mg if name.endswith("_MG") else eg
        target[c, OFFSET[name] + index] += n

    for sq, piece in board.piece_map().items():
        c = 0 if piece.color == chess.WHITE else 1
        t = piece.piece_type
        j = sq if c == 0 else sq ^ 56
        for part in ("MG", "EG"):
            add(c, f"MATERIAL_{part}", t)
            add(c, f"PST_{part}", t * 64 + j)
        phase += int(E.PHASE[t])
        if t == chess.PAWN:
            f, r = sq & 7, j >> 3
            pawns[c, f] += 1
            front[c, f] = max(front[c, f], r)
            back[c, f] = min(back[c, f], r)
            if _pawn_attacked(board, sq, c):
                add(c, "SUPPORTED_PAWN_MG")
                add(c, "SUPPORTED_PAWN_EG")
        elif t != chess.KING:
            bishops[c] += t == chess.BISHOP
            if t == chess.ROOK:
                rooks[c, sq & 7] += 1
            own = board.occupied_co[piece.color]
            attacks = board.attacks_mask(sq)
            m = chess.popcount(attacks & ~own)
            add(c, "MOBILITY_MG", t, m)
            add(c, "MOBILITY_EG", t, m)
            king = kings[c ^ 1]
            zone = chess.BB_KING_ATTACKS[king] | chess.BB_SQUARES[king]
            add(c, "KING_ATTACK_MG", t, chess.popcount(attacks & zone))
            if _pawn_attacked(board, sq, c ^ 1):
                add(c ^ 1, "PAWN_THREAT_MG", t)
                add(c ^ 1, "PAWN_THREAT_EG", t)
    for c in range(2):
        o = c ^ 1
        if bishops[c] >= 2:
            add(c, "BISHOP_PAIR_MG")
            add(c, "BISHOP_PAIR_EG")
        for f in range(8):
            if rooks[c, f] and not pawns[c, f]:
                part = "ROOK_SEMI_OPEN" if pawns[o, f] else "ROOK_OPEN"
                add(c, f"{part}_MG", 0, rooks[c, f])
                add(c, f"{part}_EG", 0, rooks[c, f])
            n = int(pawns[c, f])
            if n == 0:
                continue
            if n > 1:
                add(c, "DOUBLED_MG", 0, -(n - 1))
                add(c, "DOUBLED_EG", 0, -(n - 1))
            if (pawns[c, f - 1] if f > 0 else 0) + (pawns[c, f + 1] if f < 7 else 0) == 0:
                add(c, "ISOLATED_MG", 0, -n)
                add(c, "ISOLATED_EG", 0, -n)
            r = int(front[c, f])
            if all(not (pawns[o, g] > 0 and 7 - back[o, g] > r)
                   for g in range(max(0, f - 1), min(7, f + 1) + 1)):
                add(c, "PASSED_MG", r)
                add(c, "PASSED_EG", r)
                ahead = chess.square(f, r + 1 if c == 0 else 6 - r)
                add(c, "KING_PASSER_EG", r, chess.square_distance(kings[o], ahead)
                    - chess.square_distance(kings[c], ahead))
        king = board.king(chess.WHITE if c == 0 else chess.BLACK)
        kj = king if c == 0 else king ^ 56
        if kj >> 3 <= 1:
            for f in range(max(0, (kj & 7) - 1), min(7, (kj & 7) + 1) + 1):
                if pawns[c, f] == 0:
                    add(c, "OPEN_FILE_NEAR_KING_MG", 0, -1)
                elif back[c, f] <= (kj >> 3) + 2:
                    add(c, "SHIELD_MG")
    return mg, eg, min(phase, 24)


def _pawn_attacked(board: chess.Board, sq: int, c: int) -> bool:
    """Whether a pawn of colour ``c`` (0 White) attacks ``sq``."""
    color = chess.WHITE if c == 0 else chess.BLACK
    return bool(board.attackers_mask(color, sq) & board.pieces_mask(chess.PAWN, color))


def terms(board: chess.Board) -> np.ndarray:
    """The term counts of ``board`` for the side to move minus the other side, each scaled
    by its phase: ``terms(board) @ flat(weights())`` is ``evaluate``'s value (before its
    rounding down)."""
    mg, eg, phase = _counts(board)
    us = 0 if board.turn == chess.WHITE else 1
    x = (mg[us] - mg[us ^ 1]) * phase / 24 + (eg[us] - eg[us ^ 1]) * (24 - phase) / 24
    x[OFFSET["TEMPO_MG"]] = phase / 24
    x[OFFSET["TEMPO_EG"]] = (24 - phase) / 24
    return x
