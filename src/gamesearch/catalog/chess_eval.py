"""The chess engine's evaluation: a tapered sum of readable terms, in centipawns.

Each term has a middlegame (mg) and an endgame (eg) weight; the game phase (knights and
bishops 1, rooks 2, queens 4, at most 24 at the start) blends them:
``(mg * phase + eg * (24 - phase)) / 24``, seen from the side to move.

Terms (every number is in the weights block below; ``catalog/chess_terms.py`` states the
same evaluation as weights times term counts). The numbers were first set by hand from
chess common sense, then fitted by ``bench/chess_tune.py`` to Stockfish 15.1's scores of
72,114 quiet positions (Texel's method; docs/BENCHMARKS.md, "Chess"): the fit is worth
about 110 Elo against Stockfish at UCI_Elo 2000. Fitted tables are less smooth than drawn
ones; each number is still the value of that piece on that square:

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
MATERIAL_MG = np.array([0, 96, 401, 368, 465, 1073, 0, 0], np.int64)
PST_MG = _board_tables({
    'pawn': [
           0,    0,    0,    0,    0,    0,    0,    0,
          36,  -21,   10,    6,    8,   20,   -7,   -8,
         -38,   18,   34,    7,   14,   -3,  -31,  -15,
         -14,   24,   11,   34,   29,   17,   29,  -12,
         -22,   -9,    9,   12,   19,   16,   -6,  -19,
         -10,   -8,    1,  -17,   -9,   -9,   24,   -8,
         -28,   -3,  -13,  -34,  -36,    8,   16,  -20,
           0,    0,    0,    0,    0,    0,    0,    0,
    ],
    'knight': [
         -64,  -16,    1,  -21,  -11,  -27,  -14,  -32,
         -27,   -7,   19,    4,   11,   17,   -9,   27,
          -4,   43,   74,   52,   62,   28,   20,   -4,
          13,   12,   22,   25,   36,   34,   37,   21,
         -14,  -30,   16,    0,    0,   30,  -30,   -5,
         -28,   16,   -2,   12,   22,    7,    6,  -16,
         -48,  -15,   -7,   -3,    2,    1,  -27,  -42,
         -37,  -34,    7,   -5,  -38,  -17,  -24,  -44,
    ],
    'bishop': [
           5,   -8,  -90,   -8,   -1,  -16,    2,  -22,
          -7,  -11,   -8,  -10,   11,   -3,  -14,  -32,
         -16,   34,  -14,  -32,   13,   35,  -29,    4,
         -17,    6,   10,   20,   27,   35,   17,   30,
         -26,    9,    3,    4,   -8,   -5,    2,   32,
          15,   37,   38,   -8,   -3,   27,    5,   -2,
           2,   26,   -6,   -5,    3,    5,   17,  -18,
          38,   15,  -10,  -58,  -16,  -17,  -12,    0,
    ],
    'rook': [
          36,    2,    2,   13,   -6,   -6,   11,    5,
          16,   21,   26,   37,   26,   47,   -2,   38,
         -14,   28,   12,   31,    1,    2,   36,    2,
           0,  -18,  -24,   -7,    6,   14,  -20,   -7,
         -39,  -18,   -9,    3,  -15,  -14,  -14,  -25,
         -45,   13,  -50,   27,   -5,   -5,  -44,    2,
         -37,    1,    4,  -12,  -15,   25,  -18,  -36,
         -10,  -14,   15,   33,   21,   17,  -20,    4,
    ],
    'queen': [
         -71,   26,   12,    1,    1,   -4,   -5,  -41,
         -20,  -22,    9,    3,  -10,   32,   37,   19,
         -35,   38,   10,   31,   16,   45,   54,   65,
         -17,  -17,  -18,   -6,   23,   24,  -18,   11,
         -12,    0,  -20,  -28,   -7,  -23,  -21,   -6,
           3,    5,  -30,  -11,   -6,   -3,    6,   -5,
           3,    6,    6,    9,   -5,    2,   20,   14,
          -5,   -1,  -12,   -5,    2,  -21,  -14,   16,
    ],
    'king': [
        -175, -177, -170, -175, -175, -172, -180, -175,
        -149, -152, -144, -152, -147, -146, -159, -159,
        -123, -129, -117, -127, -124, -127, -119, -125,
        -106, -100,  -96,  -89, -101, -115, -100,  -98,
         -79,  -63,  -71,  -77,  -72,  -94,  -85,  -81,
         -52,  -46,  -69,  -87,  -98,  -81,  -34,  -64,
         -33,   13,  -30,  -63,  -51,  -46,  -14,   61,
           4,   45,   49,   -6,   11,   -5,   41,   38,
    ],
})
MOBILITY_MG = np.array([0, 0, 1, 5, 7, 1, 0, 0], np.int64)
PASSED_MG = np.array([0, -12, -30, -11, 4, 13, -8, 0], np.int64)
DOUBLED_MG = 17
ISOLATED_MG = 16
SHIELD_MG = 13
OPEN_FILE_NEAR_KING_MG = 16
BISHOP_PAIR_MG = 64
TEMPO_MG = 17
MATERIAL_EG = np.array([0, 139, 336, 353, 614, 1068, 0, 0], np.int64)
PST_EG = _board_tables({
    'pawn': [
           0,    0,    0,    0,    0,    0,    0,    0,
          34,   30,   35,   29,    8,   34,   54,    2,
           4,  -19,   20,  -14,   29,   14,   34,  -21,
          -4,    2,   -9,  -15,  -10,   -8,   38,   -2,
         -14,   -6,  -27,  -19,   -2,  -16,    3,  -32,
         -34,  -18,  -26,  -11,   18,   -9,  -14,  -36,
         -19,   -3,   -3,   -1,   21,    5,    4,  -30,
           0,    0,    0,    0,    0,    0,    0,    0,
    ],
    'knight': [
           8,  -17,   20,  -18,  -42,  -25,  -13,  -52,
         -18,  -36,   52,  -19,    2,    2,  -30,  -21,
         -19,   14,   26,   11,   26,  -10,   -2,  -13,
          11,   52,    1,   60,   28,   37,    9,  -30,
           4,    3,   10,   18,   55,   18,   31,  -47,
          -7,   12,   19,   42,   36,    4,   13,  -17,
         -14,   -3,   11,   -2,  -14,   16,    7,  -69,
         -11,  -34,   14,    6,  -11,  -16,  -56,  -16,
    ],
    'bishop': [
          18,  -19,  -71,  -12,   12,   -4,   38,  -58,
          -9,  -23,  -12,   -7,   12,   27,   -5,  -11,
          14,  -11,   14,   -5,   15,  -23,    1,    1,
         -40,  -29,   39,   -4,   12,    5,   -6,  -37,
           3,   -1,   52,    0,  -16,   32,    6,    2,
          -4,   33,   23,   12,   12,   13,  -54,    0,
           5,  -24,   23,  -18,   -6,    3,    0,    1,
          -2,   63,   18,   18,   24,  -10,   -3,  -40,
    ],
    'rook': [
         -12,   23,  -10,   28,    2,   -4,   18,    5,
           5,   33,   -4,   26,   -8,   18,    7,   25,
          -9,   -3,    0,   22,   14,   16,    8,   16,
           3,   29,    7,   15,  -13,   13,  -11,   15,
         -17,   17,  -37,  -10,    5,   -8,   -4,  -32,
         -11,   40,   12,    8,   23,  -21,   -8,  -11,
          -9,  -12,  -21,   23,  -17,    3,  -24,  -34,
         -39,   -1,  -22,  -25,  -11,    3,   24,  -41,
    ],
    'queen': [
         -41,   17,    2,  -12,   -2,  -11,   -9,  -23,
          -3,   20,   10,    0,   -3,   10,   19,    5,
          -3,   29,   13,    8,   17,   32,   22,    8,
           3,    1,    5,   16,   31,   13,    5,    7,
          10,    3,    3,   11,   16,   15,    1,   -4,
           0,   -5,    9,  -14,    6,    0,  -18,   15,
          -9,  -18,  -24,  -28,  -32,    0,  -11,   13,
         -33,   -6,  -17,   -2,  -26,   -6,  -10,   -3,
    ],
    'king': [
         -25,  -33,   -1,   -4,  -21,  -11,  -26,  -12,
         -16,   -1,   14,   25,   29,   31,   14,  -39,
         -22,  -24,   19,    9,   33,   29,   10,  -28,
         -25,  -31,  -18,   33,   42,   20,  -29,  -33,
         -55,  -26,  -20,    6,   11,    8,   -7,  -56,
         -91,  -46,   -5,   27,   29,    9,   14,  -53,
         -18,  -34,   -5,   12,   15,   22,   10,  -56,
         -36,  -22,  -28,  -13,  -26,  -22,  -50,  -25,
    ],
})
MOBILITY_EG = np.array([0, 0, 4, 6, 4, 13, 0, 0], np.int64)
PASSED_EG = np.array([0, -18, -11, 19, 55, 105, 146, 0], np.int64)
DOUBLED_EG = 24
ISOLATED_EG = 1
BISHOP_PAIR_EG = 43
TEMPO_EG = 5
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
