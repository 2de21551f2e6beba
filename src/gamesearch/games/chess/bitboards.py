"""Bitboards for the chess kernel: attack tables, line masks and sliding attacks, in numba.

A bitboard is an int64 whose bit ``8 * rank + file`` stands for a square (rank 0 is White's
first rank). Everything is int64 (numba mixes uint64 and int64 into floats): subtraction
wraps, and right shifts are only applied where bit 63 is clear or the result is masked.

Sliding attacks use the "hyperbola quintessence" idea (chessprogramming.org): on a file or
diagonal, the squares a slider sees upward are found by subtracting its bit from the
occupancy of that line (the borrow runs up to the first blocker); a byte swap mirrors the
board vertically, which turns "downward" into "upward" on those lines. Ranks are not
mirrored by a byte swap, so rank attacks come from a table indexed by the file and the six
inner squares of the rank. No magic numbers, no large tables.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, x):
    """The number of set bits of an int64 (one machine instruction)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def lsb(typingctx, x):
    """The index of the lowest set bit of a non-zero int64."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.int64), codegen


@intrinsic
def bswap(typingctx, x):
    """The int64 with its bytes reversed: the board mirrored top to bottom."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.bswap(args[0])

    return types.int64(types.int64), codegen


def _bit(i: int) -> int:
    """Bit ``i`` as a signed 64-bit value."""
    return int(np.int64(np.uint64(1) << np.uint64(i)))


def _walk(sq: int, steps: list[tuple[int, int]], slide: bool) -> int:
    """The squares reached from ``sq`` by the steps (once, or sliding on an empty board)."""
    out = 0
    for dr, df in steps:
        r, f = (sq >> 3) + dr, (sq & 7) + df
        while 0 <= r < 8 and 0 <= f < 8:
            out |= 1 << (8 * r + f)
            if not slide:
                break
            r, f = r + dr, f + df
    return out


def _table(values: list[int]) -> np.ndarray:
    return np.array(values, dtype=np.uint64).view(np.int64)


_KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
_KING = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
_DIRECTIONS = _KING

BIT = _table([1 << i for i in range(64)])
KNIGHT_ATTACKS = _table([_walk(s, _KNIGHT, False) for s in range(64)])
KING_ATTACKS = _table([_walk(s, _KING, False) for s in range(64)])
PAWN_ATTACKS = np.stack([_table([_walk(s, [(1, -1), (1, 1)], False) for s in range(64)]),
                         _table([_walk(s, [(-1, -1), (-1, 1)], False) for s in range(64)])])
"""``PAWN_ATTACKS[c, s]``: the squares a pawn of colour ``c`` (0 White) on ``s`` attacks."""
FILE_MASK = _table([_walk(s, [(1, 0), (-1, 0)], True) for s in range(64)])
DIAG_MASK = _table([_walk(s, [(1, 1), (-1, -1)], True) for s in range(64)])
ANTI_MASK = _table([_walk(s, [(1, -1), (-1, 1)], True) for s in range(64)])
"""The file, diagonal and anti-diagonal through a square, the square itself left out."""
ROOK_EMPTY = _table([_walk(s, [(1, 0), (-1, 0), (0, 1), (0, -1)], True) for s in range(64)])
BISHOP_EMPTY = _table([_walk(s, [(1, 1), (-1, -1), (1, -1), (-1, 1)], True)
                       for s in range(64)])


def _rank_attacks() -> np.ndarray:
    """``RANK_ATTACKS[file * 64 + inner]``: the squares a rook on ``file`` of rank 0 sees when
    the six inner squares b..g hold the pieces of ``inner`` (bit 0 = b)."""
    out = np.zeros(8 * 64, np.int64)
    for f in range(8):
        for inner in range(64):
            occ = inner << 1
            seen = 0
            for d in (1, -1):
                g = f + d
                while 0 <= g < 8:
                    seen |= 1 << g
                    if occ >> g & 1:
                        break
                    g += d
            out[f * 64 + inner] = seen
    return out


RANK_ATTACKS = _rank_attacks()


def _lines() -> tuple[np.ndarray, np.ndarray]:
    """``LINE[a, b]``: the whole line through two aligned squares (0 if not aligned);
    ``BETWEEN[a, b]``: the squares strictly between them (0 if not aligned)."""
    line = np.zeros((64, 64), np.uint64)
    between = np.zeros((64, 64), np.uint64)
    for a in range(64):
        for dr, df in _DIRECTIONS:
            ray = 0
            r, f = (a >> 3) + dr, (a & 7) + df
            full = _walk(a, [(dr, df), (-dr, -df)], True) | (1 << a)
            while 0 <= r < 8 and 0 <= f < 8:
                b = 8 * r + f
                line[a, b] = full
                between[a, b] = ray
                ray |= 1 << b
                r, f = r + dr, f + df
    return line.view(np.int64), between.view(np.int64)


LINE, BETWEEN = _lines()

RANK_1, RANK_3, RANK_6, RANK_8 = (_bit(0) * 0xFF, 0xFF << 16, 0xFF << 40,
                                  int(np.int64(np.uint64(0xFF << 56))))
FILE_A = int(_table([0x0101010101010101])[0])
FILE_H = int(_table([0x8080808080808080])[0])


@njit(cache=True)
def _line_attacks(sq, occ, mask):
    """A slider's attacks on one file or diagonal (``mask``, the square left out)."""
    up = occ & mask
    down = bswap(up)
    up -= BIT[sq]
    down -= bswap(BIT[sq])
    return (up ^ bswap(down)) & mask


@njit(cache=True)
def rook_attacks(sq, occ):
    """The squares a rook on ``sq`` attacks given the occupancy ``occ``."""
    shift = sq & 56
    rank = RANK_ATTACKS[((sq & 7) << 6) | ((occ >> (shift + 1)) & 63)] << shift
    return rank | _line_attacks(sq, occ, FILE_MASK[sq])


@njit(cache=True)
def bishop_attacks(sq, occ):
    """The squares a bishop on ``sq`` attacks given the occupancy ``occ``."""
    return _line_attacks(sq, occ, DIAG_MASK[sq]) | _line_attacks(sq, occ, ANTI_MASK[sq])
