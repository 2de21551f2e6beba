"""The chess engine's evaluation: a tapered sum of readable terms, in centipawns.

Each term has a middlegame (mg) and an endgame (eg) weight; the game phase (knights and
bishops 1, rooks 2, queens 4, at most 24 at the start) blends them:
``(mg * phase + eg * (24 - phase)) / 24``, seen from the side to move.

Terms (all numbers are here, chosen by hand from chess common sense, not tuned):

* material: ``MATERIAL_MG`` / ``MATERIAL_EG``;
* piece-square tables built by the formulas of ``_tables`` (centralisation of knights,
  bishops and the endgame king, pawn advance, rooks on the seventh rank, the middlegame
  king at home behind its pawns);
* mobility: each square a knight, bishop, rook or queen attacks that is not its own piece's;
* pawn structure: doubled and isolated pawns cost, passed pawns gain more as they advance;
* king safety (middlegame): pawns of the shield in front of the king, open files near it;
* the bishop pair, and a small bonus for the side to move (tempo).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamesearch.games.chess import board as B

MATERIAL_MG = np.array([0, 100, 320, 330, 500, 950, 0, 0], np.int64)
MATERIAL_EG = np.array([0, 120, 300, 320, 550, 1000, 0, 0], np.int64)
PHASE = np.array([0, 0, 1, 1, 2, 4, 0, 0], np.int64)
MOBILITY_MG = np.array([0, 0, 4, 4, 2, 1, 0, 0], np.int64)
MOBILITY_EG = np.array([0, 0, 4, 4, 4, 2, 0, 0], np.int64)
PASSED_MG = np.array([0, 5, 5, 10, 20, 35, 60, 0], np.int64)
PASSED_EG = np.array([0, 10, 15, 25, 45, 75, 120, 0], np.int64)
DOUBLED, ISOLATED = 15, 12
SHIELD, OPEN_FILE_NEAR_KING = 12, 20
BISHOP_PAIR, TEMPO = 30, 10


def _tables() -> tuple[np.ndarray, np.ndarray]:
    """Piece-square tables [piece type, square 0..63 from White's side] for mg and eg."""
    mg = np.zeros((8, 64), np.int64)
    eg = np.zeros((8, 64), np.int64)
    for sq in range(64):
        rank, file = sq >> 3, sq & 7
        center = max(abs(file - 3.5), abs(rank - 3.5)) - 0.5  # 0 (centre) .. 3 (edge)
        mg[B.PAWN, sq] = 6 * (rank - 1) + (12 if file in (3, 4) and 2 <= rank <= 4 else 0)
        eg[B.PAWN, sq] = 10 * (rank - 1)
        mg[B.KNIGHT, sq] = eg[B.KNIGHT, sq] = int(20 - 14 * center)
        mg[B.BISHOP, sq] = eg[B.BISHOP, sq] = int(10 - 6 * center)
        mg[B.ROOK, sq] = (20 if rank == 6 else 0) + (6 if file in (3, 4) else 0)
        eg[B.ROOK, sq] = 10 if rank == 6 else 0
        mg[B.QUEEN, sq] = int(5 - 3 * center)
        eg[B.QUEEN, sq] = int(10 - 6 * center)
        mg[B.KING, sq] = (-25 * rank if rank > 0 else 0) + (20 if rank == 0 and file in (1, 2, 6)
                                                           else 0)
        eg[B.KING, sq] = int(20 - 14 * center)
    return mg, eg


PST_MG, PST_EG = _tables()


@njit(cache=True)
def _mobility(board, sq, t, us):
    n = 0
    if t == B.KNIGHT:
        for d in B.KNIGHT_STEPS:
            s = sq + d
            if not (s & 0x88) and (board[s] == 0 or (board[s] >> 3) != us):
                n += 1
        return n
    for k in range(2):
        if (k == 0 and t == B.ROOK) or (k == 1 and t == B.BISHOP):
            continue
        steps = B.BISHOP_STEPS if k == 0 else B.ROOK_STEPS
        for d in steps:
            s = sq + d
            while not (s & 0x88):
                if board[s] != 0:
                    if (board[s] >> 3) != us:
                        n += 1
                    break
                n += 1
                s += d
    return n


@njit(cache=True)
def evaluate(board, st):
    """The position's value in centipawns for the side to move."""
    side = st[B.SIDE]
    mg = np.zeros(2, np.int64)
    eg = np.zeros(2, np.int64)
    pawns = np.zeros((2, 8), np.int64)        # pawns per file
    front = np.zeros((2, 8), np.int64)        # most advanced rank (from own side) per file
    back = np.full((2, 8), 8, np.int64)       # least advanced rank (from own side) per file
    bishops = np.zeros(2, np.int64)
    phase = 0
    for i in range(64):
        sq = B.SQ88[i]
        p = board[sq]
        if p == 0:
            continue
        c = p >> 3
        t = p & 7
        j = i if c == 0 else i ^ 56            # the square from the piece's own side
        mg[c] += MATERIAL_MG[t] + PST_MG[t, j]
        eg[c] += MATERIAL_EG[t] + PST_EG[t, j]
        phase += PHASE[t]
        if t == B.PAWN:
            f = i & 7
            r = j >> 3
            pawns[c, f] += 1
            front[c, f] = max(front[c, f], r)
            back[c, f] = min(back[c, f], r)
        elif t != B.KING:
            if t == B.BISHOP:
                bishops[c] += 1
            m = _mobility(board, sq, t, c)
            mg[c] += MOBILITY_MG[t] * m
            eg[c] += MOBILITY_EG[t] * m
    for c in range(2):
        o = c ^ 1
        if bishops[c] >= 2:
            mg[c] += BISHOP_PAIR
            eg[c] += BISHOP_PAIR
        for f in range(8):
            n = pawns[c, f]
            if n == 0:
                continue
            if n > 1:
                mg[c] -= DOUBLED * (n - 1)
                eg[c] -= DOUBLED * (n - 1)
            left = pawns[c, f - 1] if f > 0 else 0
            right = pawns[c, f + 1] if f < 7 else 0
            if left + right == 0:
                mg[c] -= ISOLATED * n
                eg[c] -= ISOLATED * n
            # passed: no enemy pawn ahead on this or a neighbouring file (ranks from c's side:
            # an enemy pawn on rank r' of its own side stands on rank 7 - r' of ours)
            r = front[c, f]
            passed = True
            for g in range(max(0, f - 1), min(7, f + 1) + 1):
                if pawns[o, g] > 0 and 7 - back[o, g] > r:
                    passed = False
            if passed:
                mg[c] += PASSED_MG[r]
                eg[c] += PASSED_EG[r]
        # king safety: the shield of pawns in front of a king at home
        k88 = st[B.WKING + c]
        k = (k88 >> 4) * 8 + (k88 & 7)
        kj = k if c == 0 else k ^ 56
        if (kj >> 3) <= 1:
            kf = kj & 7
            for f in range(max(0, kf - 1), min(7, kf + 1) + 1):
                if pawns[c, f] == 0:
                    mg[c] -= OPEN_FILE_NEAR_KING
                elif back[c, f] <= (kj >> 3) + 2:
                    mg[c] += SHIELD
    phase = min(phase, 24)
    mgv = mg[side] - mg[side ^ 1] + TEMPO
    egv = eg[side] - eg[side ^ 1] + TEMPO
    return (mgv * phase + egv * (24 - phase)) // 24
