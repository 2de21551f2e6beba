"""The chess engine's evaluation: a tapered sum of readable terms, in centipawns.

Each term has a middlegame (mg) and an endgame (eg) weight; the game phase (knights and
bishops 1, rooks 2, queens 4, at most 24 at the start) blends them:
``(mg * phase + eg * (24 - phase)) / 24``, seen from the side to move.

Terms (every number is in the weights block below; ``engines/chess/terms.py`` states the
same evaluation as weights times term counts). The numbers were first set by hand from
chess common sense, then fitted by ``bench/chess_tune.py`` to Stockfish 15.1's scores of
quiet positions (Texel's method; docs/BENCHMARKS.md, "Chess"): a first fit (72,114
positions) was worth about 110 Elo against Stockfish at UCI_Elo 2000; the threats, king
attacks, rook files, pawn support and king-to-passer terms, fitted with the rest on
200,014 positions, about 40 more: 105.5 / 200 against UCI_Elo 2000 at 10 s + 0.1 s, so
we score 50% at about UCI_Elo 2019. Fitted tables are less smooth than drawn ones; each
number is still the value of that piece on that square:

* material: ``MATERIAL_MG`` / ``MATERIAL_EG``;
* piece-square tables, drawn as boards (centralisation of knights, bishops and the
  endgame king, pawn advance, rooks on the seventh rank, the middlegame king at home
  behind its pawns);
* mobility: each square a knight, bishop, rook or queen attacks that is not its own piece's;
* pawn structure: doubled and isolated pawns cost, passed pawns gain more as they advance
  (and in the endgame, by rank, per step our king stands nearer than theirs to the square
  in front of the pawn: ``KING_PASSER_EG``), a pawn defended by a pawn;
* king safety (middlegame): pawns of the shield in front of the king, open files near it,
  and each square next to the enemy king (or its own) that a knight, bishop, rook or queen
  attacks (``KING_ATTACK_MG``, by piece);
* threats: a knight, bishop, rook or queen attacked by an enemy pawn (``PAWN_THREAT``, by
  the piece attacked, to the pawn's side);
* rooks on open files (no pawn) and half-open ones (no pawn of their own);
* the bishop pair, and a small bonus for the side to move (tempo).
"""

from __future__ import annotations

import numpy as np

from gamesearch.games.chess import bitboards
from gamesearch.games.chess import board as B
from gamesearch.kernels.specialize import compile_in_place

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
MATERIAL_MG = np.array([0, 93, 408, 389, 466, 1105, 0, 0], np.int64)
PST_MG = _board_tables({
    'pawn': [
           0,    0,    0,    0,    0,    0,    0,    0,
          30,  -30,   16,   57,   -3,   48,  -43,   -4,
         -13,   19,   35,   35,   42,    1,   -4,   -1,
          -8,   17,   18,   28,   36,   23,   26,  -18,
         -24,  -10,    8,   10,   10,    9,   -9,  -30,
         -19,  -18,   -6,  -30,  -22,  -18,    5,  -28,
         -33,   -6,  -12,  -38,  -37,    9,   10,  -29,
           0,    0,    0,    0,    0,    0,    0,    0,
    ],
    'knight': [
        -117,  -20,   -5,  -21,  -17,  -47,  -15,  -50,
         -37,  -30,   21,    5,   35,   56,  -12,   36,
         -10,   63,   43,   84,   72,   46,   53,    8,
           5,   16,   30,   37,   23,   54,   22,   38,
         -11,  -24,   25,   22,   23,   31,  -21,   11,
         -33,    5,   -3,    8,   14,    6,   14,  -21,
         -52,  -28,    4,   -8,    1,    0,   -2,  -37,
         -33,  -45,  -38,  -26,  -31,  -33,  -33,  -64,
    ],
    'bishop': [
         -33,  -13, -107,  -11,  -13,  -27,  -14,  -21,
          -6,   15,    7,  -11,   -5,    1,    7,  -10,
         -26,   39,   19,  -19,    0,   51,    8,    3,
          -8,   10,   12,   34,   17,   53,   11,   23,
         -24,    0,    4,   21,   18,   -7,    7,    5,
          -7,   19,   12,    2,   -5,   25,    9,  -11,
          -6,   20,   -4,   -5,   10,    3,   27,   -2,
          16,   -3,  -17,  -41,   -8,  -13,  -10,   -6,
    ],
    'rook': [
          34,  -10,   24,   12,    4,  -10,   19,   16,
          28,   25,   31,   39,   48,   53,  -19,   26,
           5,   23,   17,   25,    9,    7,   18,   -4,
          -9,  -18,  -28,  -29,   20,    4,  -10,  -17,
         -40,  -27,  -10,   -3,   -4,    0,  -32,  -30,
         -37,   -8,  -28,    7,  -18,   19,  -18,  -11,
         -28,   -9,   -3,  -11,   13,   -1,  -30,  -41,
          -5,  -10,    5,   28,   29,   17,  -16,   -5,
    ],
    'queen': [
         -66,   19,   -5,    1,   10,   12,  -16,  -18,
         -27,  -25,    1,    5,  -10,   21,   36,   16,
         -22,    2,    2,   -4,   18,   38,   61,   40,
          -9,   -3,   -3,  -21,   -4,   13,   -1,   10,
           3,  -33,    5,  -11,   -8,  -12,   -6,   -4,
         -10,   -1,   -8,    1,  -15,   -3,    9,    6,
         -16,   -8,   14,   11,   15,   26,   15,   24,
         -19,   -6,    4,   -1,   -1,  -35,  -11,    5,
    ],
    'king': [
        -174, -173, -169, -175, -175, -170, -179, -174,
        -148, -149, -137, -156, -147, -143, -176, -158,
        -115, -120, -119, -130, -128, -131, -121, -127,
        -105, -103,  -98,  -93, -109, -120, -104, -102,
         -76,  -59,  -72,  -88,  -96,  -87,  -96,  -72,
         -25,  -37,  -60, -107, -116,  -91,  -46,  -43,
         -17,   36,  -20,  -62,  -59,  -35,   14,   44,
          25,   55,   36,  -36,    7,  -17,   41,   45,
    ],
})
MOBILITY_MG = np.array([0, 0, 1, 4, 5, 1, 0, 0], np.int64)
PASSED_MG = np.array([0, 11, -20, -9, 13, 34, 18, 0], np.int64)
DOUBLED_MG = 19
ISOLATED_MG = 9
SHIELD_MG = 9
OPEN_FILE_NEAR_KING_MG = 19
BISHOP_PAIR_MG = 48
TEMPO_MG = 22
MATERIAL_EG = np.array([0, 123, 348, 359, 634, 1116, 0, 0], np.int64)
PST_EG = _board_tables({
    'pawn': [
           0,    0,    0,    0,    0,    0,    0,    0,
          21,   61,   26,   57,   -5,   59,   55,   23,
           6,   19,   -7,  -15,   28,   38,   20,   14,
          10,   -2,  -18,  -33,  -26,   -3,   -5,   -9,
         -14,  -16,  -42,  -27,  -25,  -18,    0,  -17,
         -24,  -14,  -39,   -6,   -8,   -6,  -26,  -24,
          -1,   -7,  -11,    6,   22,   -5,  -14,  -17,
           0,    0,    0,    0,    0,    0,    0,    0,
    ],
    'knight': [
         -17,  -27,   21,  -13,  -38,  -40,  -23,  -69,
         -35,  -35,   30,  -13,   29,   12,  -37,  -25,
         -37,    2,   17,   17,   31,    5,  -15,  -13,
          19,   11,   10,   61,   49,   25,   32,  -12,
          18,   21,   41,   29,   34,    4,   36,  -33,
         -18,   18,    9,   26,   29,   16,    1,  -10,
         -28,  -22,   17,   13,    7,   -1,    5,  -53,
           1,  -18,   22,    1,   -2,   -9,  -34,  -30,
    ],
    'bishop': [
         -11,  -20,  -86,  -11,   -5,   -3,   19,  -40,
           8,  -16,   -9,  -13,  -16,   14,   -9,    5,
          -1,   11,   41,    4,    0,  -27,    4,    0,
         -36,   23,    9,    1,    8,    1,   15,  -30,
         -11,  -13,   43,   15,   18,   27,    7,  -12,
         -22,   39,  -12,   25,   52,    8,  -20,  -29,
          25,  -31,   41,    4,   -1,   13,   -3,   -9,
         -25,   58,  -22,   16,    1,   -7,    1,  -14,
    ],
    'rook': [
          -2,   16,    4,   38,   13,   -1,    5,   31,
          15,   18,  -10,   30,   -2,   27,   10,   10,
          10,   -4,   16,   15,   18,    9,  -16,   20,
          11,   32,   13,    8,   -7,   -7,    2,   21,
           1,   14,  -23,  -24,  -12,  -19,   -4,  -17,
          14,   12,   16,  -21,   12,  -22,    4,  -22,
           2,  -19,  -18,    2,  -19,  -15,   -2,  -34,
         -29,  -16,  -25,  -31,  -25,  -10,   -1,  -38,
    ],
    'queen': [
         -26,   12,   -7,  -12,    9,   -2,  -12,   -3,
          -8,   19,    2,   -4,   -1,    0,   31,   17,
          -3,    5,   -1,    5,   23,   35,   35,   16,
           4,    3,   19,   21,   52,   17,   16,   17,
           1,  -11,   13,   24,    6,   25,    8,   11,
           9,  -15,   18,   -7,    8,  -23,  -33,    1,
         -16,  -25,  -54,  -22,  -27,   -3,  -28,   14,
         -32,  -19,  -23,  -20,  -27,   -4,  -16,   -6,
    ],
    'king': [
         -23,  -19,   -1,    4,  -13,   -7,  -24,   -8,
         -11,    7,   27,    9,   27,   29,   -8,  -20,
          -7,  -11,   24,    7,   34,   18,   28,  -17,
         -14,  -21,   17,   33,   18,   12,    1,  -29,
         -51,   -7,  -11,  -17,    0,  -16,    0,  -23,
         -48,  -30,  -23,   -6,    8,    5,  -29,  -23,
          -6,  -26,  -18,   -1,  -14,  -13,  -25,  -54,
         -35,  -14,  -27,  -15,  -53,  -30,  -46,  -40,
    ],
})
MOBILITY_EG = np.array([0, 0, 2, 4, 2, 8, 0, 0], np.int64)
PASSED_EG = np.array([0, -2, 26, 47, 79, 137, 216, 0], np.int64)
DOUBLED_EG = 24
ISOLATED_EG = 5
BISHOP_PAIR_EG = 38
TEMPO_EG = 7
ROOK_OPEN_MG = 36
ROOK_OPEN_EG = 0
ROOK_SEMI_OPEN_MG = 16
ROOK_SEMI_OPEN_EG = 28
KING_ATTACK_MG = np.array([0, 0, 6, 7, 1, 10, 0, 0], np.int64)
PAWN_THREAT_MG = np.array([0, 0, 58, 69, 69, 65, 0, 0], np.int64)
PAWN_THREAT_EG = np.array([0, 0, 60, 58, 46, 66, 0, 0], np.int64)
SUPPORTED_PAWN_MG = 11
SUPPORTED_PAWN_EG = 9
KING_PASSER_EG = np.array([0, 8, 1, 10, 18, 33, 28, 0], np.int64)
# END WEIGHTS


def _mobility(board, sq, t, us, zone):
    """(mobility, king-zone attacks) of the piece of type ``t`` on ``sq``: the squares it
    attacks that are not its own side's, and the squares it attacks (any) within one step
    of the 0x88 square ``zone`` (the enemy king's)."""
    n = 0
    z = 0
    if t == B.KNIGHT:
        for d in B.KNIGHT_STEPS:
            s = sq + d
            if not (s & 0x88):
                if board[s] == 0 or (board[s] >> 3) != us:
                    n += 1
                if _near(s, zone):
                    z += 1
        return n, z
    for k in range(2):
        if (k == 0 and t == B.ROOK) or (k == 1 and t == B.BISHOP):
            continue
        steps = B.BISHOP_STEPS if k == 0 else B.ROOK_STEPS
        for d in steps:
            s = sq + d
            while not (s & 0x88):
                if _near(s, zone):
                    z += 1
                if board[s] != 0:
                    if (board[s] >> 3) != us:
                        n += 1
                    break
                n += 1
                s += d
    return n, z


def _near(a, b):
    """Whether 0x88 squares ``a`` and ``b`` are the same or neighbours."""
    return abs((a >> 4) - (b >> 4)) <= 1 and abs((a & 7) - (b & 7)) <= 1


def _distance(a, b):
    """King steps between 0x88 squares ``a`` and ``b``."""
    return max(abs((a >> 4) - (b >> 4)), abs((a & 7) - (b & 7)))


def _pawn_attacked(board, sq, c):
    """Whether a pawn of colour ``c`` attacks the 0x88 square ``sq``."""
    pawn = (c << 3) | B.PAWN
    for d in (15, 17):
        s = sq - d if c == 0 else sq + d
        if not (s & 0x88) and board[s] == pawn:
            return True
    return False


def evaluate(board, st):
    """The position's value in centipawns for the side to move."""
    side = st[B.SIDE]
    mg = np.zeros(2, np.int64)
    eg = np.zeros(2, np.int64)
    pawns = np.zeros((2, 8), np.int64)        # pawns per file
    front = np.zeros((2, 8), np.int64)        # most advanced rank (from own side) per file
    back = np.full((2, 8), 8, np.int64)       # least advanced rank (from own side) per file
    bishops = np.zeros(2, np.int64)
    rooks = np.zeros((2, 8), np.int64)        # rooks per file
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
            if _pawn_attacked(board, sq, c):
                mg[c] += SUPPORTED_PAWN_MG
                eg[c] += SUPPORTED_PAWN_EG
        elif t != B.KING:
            if t == B.BISHOP:
                bishops[c] += 1
            elif t == B.ROOK:
                rooks[c, i & 7] += 1
            m, z = _mobility(board, sq, t, c, st[B.WKING + (c ^ 1)])
            mg[c] += MOBILITY_MG[t] * m + KING_ATTACK_MG[t] * z
            eg[c] += MOBILITY_EG[t] * m
            if _pawn_attacked(board, sq, c ^ 1):
                mg[c ^ 1] += PAWN_THREAT_MG[t]
                eg[c ^ 1] += PAWN_THREAT_EG[t]
    for c in range(2):
        o = c ^ 1
        if bishops[c] >= 2:
            mg[c] += BISHOP_PAIR_MG
            eg[c] += BISHOP_PAIR_EG
        for f in range(8):
            if rooks[c, f] > 0 and pawns[c, f] == 0:
                if pawns[o, f] == 0:
                    mg[c] += ROOK_OPEN_MG * rooks[c, f]
                    eg[c] += ROOK_OPEN_EG * rooks[c, f]
                else:
                    mg[c] += ROOK_SEMI_OPEN_MG * rooks[c, f]
                    eg[c] += ROOK_SEMI_OPEN_EG * rooks[c, f]
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
                # the kings' distances to the square in front of it: ours near, theirs far
                ahead = ((r + 1 if c == 0 else 6 - r) << 4) | f
                eg[c] += KING_PASSER_EG[r] * (_distance(st[B.WKING + o], ahead)
                                              - _distance(st[B.WKING + c], ahead))
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


TEMPLATES = (_mobility, _near, _distance, _pawn_attacked, evaluate)
"""Compiled by ``kernels.specialize`` under a tag that also covers the modules whose compiled
code they call: an edit to any of them gives these a new cache entry."""
compile_in_place(globals(), TEMPLATES, "chess_eval", (B, bitboards))
