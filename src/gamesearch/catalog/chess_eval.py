"""The chess engine's evaluation: a tapered sum of readable terms, in centipawns.

Each term has a middlegame (mg) and an endgame (eg) weight; the game phase (knights and
bishops 1, rooks 2, queens 4, at most 24 at the start) blends them:
``(mg * phase + eg * (24 - phase)) / 24``, seen from the side to move.

Terms (every number is in the weights block below, chosen by hand from chess common
sense; ``catalog/chess_terms.py`` states the same evaluation as weights times term counts,
and ``bench/chess_tune.py`` fits the block to Stockfish's scores):

* material: ``MATERIAL_MG`` / ``MATERIAL_EG``;
* piece-square tables, drawn as boards (centralisation of knights, bishops and the
  endgame king, pawn advance, rooks on the seventh rank, the middlegame king at home
  behind its pawns);
* mobility: each square a knight, bishop, rook or queen attacks that is not its own piece's;
* pawn structure: doubled and isolated pawns cost, passed pawns gain more as they advance;
* king safety (middlegame): pawns of the shield in front of the king, open files near it;
* the bishop pair, and a small bonus for the side to move (tempo).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamesearch.games.chess import board as B

PHASE = np.array([0, 0, 1, 1, 2, 4, 0, 0], np.int64)
PIECES = ("pawn", "knight", "bishop", "rook", "queen", "king")


def _board_tables(boards: dict[str, list[int]]) -> np.ndarray:
    """Piece-square tables drawn as boards (the piece's own last rank first, its first rank
    at the bottom) into an int64 array [piece type, square 0..63 from the piece's side]."""
    out = np.zeros((8, 64), np.int64)
    for t, name in enumerate(PIECES, start=1):
        out[t] = np.array(boards[name], np.int64).reshape(8, 8)[::-1].reshape(64)
    return out


# BEGIN WEIGHTS (written by bench/chess_tune.py fit --write)
MATERIAL_MG = np.array([0, 100, 320, 330, 500, 950, 0, 0], np.int64)
PST_MG = _board_tables({
    'pawn': [
          36,   36,   36,   36,   36,   36,   36,   36,
          30,   30,   30,   30,   30,   30,   30,   30,
          24,   24,   24,   24,   24,   24,   24,   24,
          18,   18,   18,   30,   30,   18,   18,   18,
          12,   12,   12,   24,   24,   12,   12,   12,
           6,    6,    6,   18,   18,    6,    6,    6,
           0,    0,    0,    0,    0,    0,    0,    0,
          -6,   -6,   -6,   -6,   -6,   -6,   -6,   -6,
    ],
    'knight': [
         -22,  -22,  -22,  -22,  -22,  -22,  -22,  -22,
         -22,   -8,   -8,   -8,   -8,   -8,   -8,  -22,
         -22,   -8,    6,    6,    6,    6,   -8,  -22,
         -22,   -8,    6,   20,   20,    6,   -8,  -22,
         -22,   -8,    6,   20,   20,    6,   -8,  -22,
         -22,   -8,    6,    6,    6,    6,   -8,  -22,
         -22,   -8,   -8,   -8,   -8,   -8,   -8,  -22,
         -22,  -22,  -22,  -22,  -22,  -22,  -22,  -22,
    ],
    'bishop': [
          -8,   -8,   -8,   -8,   -8,   -8,   -8,   -8,
          -8,   -2,   -2,   -2,   -2,   -2,   -2,   -8,
          -8,   -2,    4,    4,    4,    4,   -2,   -8,
          -8,   -2,    4,   10,   10,    4,   -2,   -8,
          -8,   -2,    4,   10,   10,    4,   -2,   -8,
          -8,   -2,    4,    4,    4,    4,   -2,   -8,
          -8,   -2,   -2,   -2,   -2,   -2,   -2,   -8,
          -8,   -8,   -8,   -8,   -8,   -8,   -8,   -8,
    ],
    'rook': [
           0,    0,    0,    6,    6,    0,    0,    0,
          20,   20,   20,   26,   26,   20,   20,   20,
           0,    0,    0,    6,    6,    0,    0,    0,
           0,    0,    0,    6,    6,    0,    0,    0,
           0,    0,    0,    6,    6,    0,    0,    0,
           0,    0,    0,    6,    6,    0,    0,    0,
           0,    0,    0,    6,    6,    0,    0,    0,
           0,    0,    0,    6,    6,    0,    0,    0,
    ],
    'queen': [
          -4,   -4,   -4,   -4,   -4,   -4,   -4,   -4,
          -4,   -1,   -1,   -1,   -1,   -1,   -1,   -4,
          -4,   -1,    2,    2,    2,    2,   -1,   -4,
          -4,   -1,    2,    5,    5,    2,   -1,   -4,
          -4,   -1,    2,    5,    5,    2,   -1,   -4,
          -4,   -1,    2,    2,    2,    2,   -1,   -4,
          -4,   -1,   -1,   -1,   -1,   -1,   -1,   -4,
          -4,   -4,   -4,   -4,   -4,   -4,   -4,   -4,
    ],
    'king': [
        -175, -175, -175, -175, -175, -175, -175, -175,
        -150, -150, -150, -150, -150, -150, -150, -150,
        -125, -125, -125, -125, -125, -125, -125, -125,
        -100, -100, -100, -100, -100, -100, -100, -100,
         -75,  -75,  -75,  -75,  -75,  -75,  -75,  -75,
         -50,  -50,  -50,  -50,  -50,  -50,  -50,  -50,
         -25,  -25,  -25,  -25,  -25,  -25,  -25,  -25,
           0,   20,   20,    0,    0,    0,   20,    0,
    ],
})
MOBILITY_MG = np.array([0, 0, 4, 4, 2, 1, 0, 0], np.int64)
PASSED_MG = np.array([0, 5, 5, 10, 20, 35, 60, 0], np.int64)
DOUBLED_MG = 15
ISOLATED_MG = 12
SHIELD_MG = 12
OPEN_FILE_NEAR_KING_MG = 20
BISHOP_PAIR_MG = 30
TEMPO_MG = 10
MATERIAL_EG = np.array([0, 120, 300, 320, 550, 1000, 0, 0], np.int64)
PST_EG = _board_tables({
    'pawn': [
          60,   60,   60,   60,   60,   60,   60,   60,
          50,   50,   50,   50,   50,   50,   50,   50,
          40,   40,   40,   40,   40,   40,   40,   40,
          30,   30,   30,   30,   30,   30,   30,   30,
          20,   20,   20,   20,   20,   20,   20,   20,
          10,   10,   10,   10,   10,   10,   10,   10,
           0,    0,    0,    0,    0,    0,    0,    0,
         -10,  -10,  -10,  -10,  -10,  -10,  -10,  -10,
    ],
    'knight': [
         -22,  -22,  -22,  -22,  -22,  -22,  -22,  -22,
         -22,   -8,   -8,   -8,   -8,   -8,   -8,  -22,
         -22,   -8,    6,    6,    6,    6,   -8,  -22,
         -22,   -8,    6,   20,   20,    6,   -8,  -22,
         -22,   -8,    6,   20,   20,    6,   -8,  -22,
         -22,   -8,    6,    6,    6,    6,   -8,  -22,
         -22,   -8,   -8,   -8,   -8,   -8,   -8,  -22,
         -22,  -22,  -22,  -22,  -22,  -22,  -22,  -22,
    ],
    'bishop': [
          -8,   -8,   -8,   -8,   -8,   -8,   -8,   -8,
          -8,   -2,   -2,   -2,   -2,   -2,   -2,   -8,
          -8,   -2,    4,    4,    4,    4,   -2,   -8,
          -8,   -2,    4,   10,   10,    4,   -2,   -8,
          -8,   -2,    4,   10,   10,    4,   -2,   -8,
          -8,   -2,    4,    4,    4,    4,   -2,   -8,
          -8,   -2,   -2,   -2,   -2,   -2,   -2,   -8,
          -8,   -8,   -8,   -8,   -8,   -8,   -8,   -8,
    ],
    'rook': [
           0,    0,    0,    0,    0,    0,    0,    0,
          10,   10,   10,   10,   10,   10,   10,   10,
           0,    0,    0,    0,    0,    0,    0,    0,
           0,    0,    0,    0,    0,    0,    0,    0,
           0,    0,    0,    0,    0,    0,    0,    0,
           0,    0,    0,    0,    0,    0,    0,    0,
           0,    0,    0,    0,    0,    0,    0,    0,
           0,    0,    0,    0,    0,    0,    0,    0,
    ],
    'queen': [
          -8,   -8,   -8,   -8,   -8,   -8,   -8,   -8,
          -8,   -2,   -2,   -2,   -2,   -2,   -2,   -8,
          -8,   -2,    4,    4,    4,    4,   -2,   -8,
          -8,   -2,    4,   10,   10,    4,   -2,   -8,
          -8,   -2,    4,   10,   10,    4,   -2,   -8,
          -8,   -2,    4,    4,    4,    4,   -2,   -8,
          -8,   -2,   -2,   -2,   -2,   -2,   -2,   -8,
          -8,   -8,   -8,   -8,   -8,   -8,   -8,   -8,
    ],
    'king': [
         -22,  -22,  -22,  -22,  -22,  -22,  -22,  -22,
         -22,   -8,   -8,   -8,   -8,   -8,   -8,  -22,
         -22,   -8,    6,    6,    6,    6,   -8,  -22,
         -22,   -8,    6,   20,   20,    6,   -8,  -22,
         -22,   -8,    6,   20,   20,    6,   -8,  -22,
         -22,   -8,    6,    6,    6,    6,   -8,  -22,
         -22,   -8,   -8,   -8,   -8,   -8,   -8,  -22,
         -22,  -22,  -22,  -22,  -22,  -22,  -22,  -22,
    ],
})
MOBILITY_EG = np.array([0, 0, 4, 4, 4, 2, 0, 0], np.int64)
PASSED_EG = np.array([0, 10, 15, 25, 45, 75, 120, 0], np.int64)
DOUBLED_EG = 15
ISOLATED_EG = 12
BISHOP_PAIR_EG = 30
TEMPO_EG = 10
# END WEIGHTS


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
            mg[c] += BISHOP_PAIR_MG
            eg[c] += BISHOP_PAIR_EG
        for f in range(8):
            n = pawns[c, f]
            if n == 0:
                continue
            if n > 1:
                mg[c] -= DOUBLED_MG * (n - 1)
                eg[c] -= DOUBLED_EG * (n - 1)
            left = pawns[c, f - 1] if f > 0 else 0
            right = pawns[c, f + 1] if f < 7 else 0
            if left + right == 0:
                mg[c] -= ISOLATED_MG * n
                eg[c] -= ISOLATED_EG * n
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
                    mg[c] -= OPEN_FILE_NEAR_KING_MG
                elif back[c, f] <= (kj >> 3) + 2:
                    mg[c] += SHIELD_MG
    phase = min(phase, 24)
    mgv = mg[side] - mg[side ^ 1] + TEMPO_MG
    egv = eg[side] - eg[side ^ 1] + TEMPO_EG
    return (mgv * phase + egv * (24 - phase)) // 24
