"""A perfect index of checkers positions for the endgame databases: a bijection between
the positions of one piece configuration and the integers 0 .. size - 1.

A *slice* is a piece configuration ``(black men, black kings, white men, white kings)``.
Men never stand on their crowning row, so Black's men use squares 1-28 and White's 5-32.
The index of a placement, from the outermost part in:

1. Black's men, a combination of 28 squares (colex rank);
2. White's men, a combination of the White-men squares that Black's men left free:
   their count depends on how many of Black's men stand on 5-28, so a table of offsets
   (one per rank of Black's men) makes the pair's rank dense;
3. Black's kings, a combination of the squares the men left free;
4. White's kings, a combination of what is left.

"Squeezing" a square (subtracting the occupied squares below it) turns a combination of
free squares into one of ``0 .. free - 1``. The counts equal the published ones (Schaeffer
et al., Science 2007, Table 1): 120, 6,972, 261,224, 7,092,774 and 148,688,232 placements
of 1-5 pieces (tests/test_checkers_tables.py). The side to move is not part of a slice:
a table keeps two values per index, one per side.
"""

from __future__ import annotations

import functools
import itertools
from math import comb

import numpy as np

from gamesearch.kernels.bits import popcount

BINOM = np.array([[comb(n, k) for k in range(13)] for n in range(33)], np.int64)
BLACK_MEN_SQUARES = 0x0FFFFFFF
"""Squares 1-28 (bits 0-27): where a black man may stand."""
WHITE_MEN_SQUARES = 0xFFFFFFF0
"""Squares 5-32 (bits 4-31)."""


def slices_of(pieces: int) -> list[tuple[int, int, int, int]]:
    """Every piece configuration of exactly ``pieces`` pieces, fewest men first (a man's
    crowning leads to a configuration with one man fewer, which is then already built)."""
    found = [(bm, bk, wm, wk) for bm, bk, wm, wk in itertools.product(range(pieces + 1),
                                                                        repeat=4)
             if bm + bk + wm + wk == pieces and bm + bk <= 12 and wm + wk <= 12]
    return sorted(found, key=lambda c: (c[0] + c[2], c))


def popcount_below(x, p):
    """How many set bits of ``x`` are below bit ``p``."""
    return popcount(x & ((1 << p) - 1))


def colex_rank(squares, occupied):
    """The colex rank of the squares of bitboard ``squares`` after squeezing out the
    ``occupied`` ones below each."""
    r = 0
    i = 1
    rest = squares
    while rest:
        low = rest & -rest
        p = 0
        while (low >> p) != 1:
            p += 1
        r += BINOM[p - popcount_below(occupied, p), i]
        i += 1
        rest ^= low
    return r


def colex_unrank(r, k, free):
    """The bitboard of ``k`` squares with colex rank ``r`` among the set bits of ``free``
    (the inverse of :func:`colex_rank` with the squares outside ``free`` squeezed out)."""
    # the positions 0 .. n-1 of the free squares, in order
    n = 0
    positions = np.empty(32, np.int64)
    for sq in range(32):
        if (free >> sq) & 1:
            positions[n] = sq
            n += 1
    out = 0
    c = n - 1
    for i in range(k, 0, -1):
        while BINOM[c, i] > r:
            c -= 1
        r -= BINOM[c, i]
        out |= 1 << positions[c]
        c -= 1
    return out


def white_men_index(black_men, white_men):
    """White's men ranked among the White-men squares that Black's men leave free."""
    blocked = black_men | (~WHITE_MEN_SQUARES & 0xFFFFFFFF)
    return colex_rank(white_men, blocked)


def position_index(black, white, kings, offsets, wm_count, kings_size_b, kings_size_w):
    """The index of a placement within its slice (module docstring, steps 1-4)."""
    bm = black & ~kings
    wm = white & ~kings
    rb = colex_rank(bm, ~BLACK_MEN_SQUARES & 0xFFFFFFFF)
    pair = offsets[rb] + white_men_index(bm, wm)
    men = bm | wm
    rbk = colex_rank(black & kings, men)
    rwk = colex_rank(white & kings, men | (black & kings))
    return (pair * kings_size_b + rbk) * kings_size_w + rwk


def position_at(i, bm_n, bk_n, wm_n, wk_n, offsets, kings_size_b, kings_size_w):
    """The ``(black, white, kings)`` boards of index ``i`` of a slice (the inverse of
    :func:`position_index`)."""
    rwk = i % kings_size_w
    i //= kings_size_w
    rbk = i % kings_size_b
    pair = i // kings_size_b
    lo, hi = 0, offsets.shape[0] - 1  # the Black-men rank r with offsets[r] <= pair
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if offsets[mid] <= pair:
            lo = mid
        else:
            hi = mid
    black_men = colex_unrank(lo, bm_n, BLACK_MEN_SQUARES)
    white_men = colex_unrank(pair - offsets[lo], wm_n, WHITE_MEN_SQUARES & ~black_men)
    men = black_men | white_men
    black_kings = colex_unrank(rbk, bk_n, ~men & 0xFFFFFFFF)
    white_kings = colex_unrank(rwk, wk_n, ~(men | black_kings) & 0xFFFFFFFF)
    return black_men | black_kings, white_men | white_kings, black_kings | white_kings


def slice_id(bm, bk, wm, wk):
    """A slice's number: its four counts as digits in base 13."""
    return ((bm * 13 + bk) * 13 + wm) * 13 + wk


def locate(meta, s):
    """The table slot of kernel state ``s`` (kernel.py's tuple): the slice's base, then two
    slots per index, one per side to move; -1 for a slice not in the tables."""
    base, offsets, off_start, off_end, kings_b, kings_w = meta
    black, white, kings = s[0], s[1], s[2]
    bm, wm = popcount(black & ~kings), popcount(white & ~kings)
    sid = slice_id(bm, popcount(black & kings), wm, popcount(white & kings))
    if base[sid] < 0:
        return -1
    i = position_index(black, white, kings, offsets[off_start[sid]:off_end[sid]], wm,
                       kings_b[sid], kings_w[sid])
    return base[sid] + 2 * i + s[3]


def state_at(meta, sid, local):
    """The kernel state at slot ``local`` of slice ``sid`` (the inverse of locate)."""
    base, offsets, off_start, off_end, kings_b, kings_w = meta
    wk = sid % 13
    wm = (sid // 13) % 13
    bk = (sid // 169) % 13
    bm = sid // 2197
    black, white, kings = position_at(local // 2, bm, bk, wm, wk,
                                      offsets[off_start[sid]:off_end[sid]], kings_b[sid],
                                      kings_w[sid])
    return (black, white, kings, local % 2, 0)


TEMPLATES = (popcount_below, colex_rank, colex_unrank, white_men_index, position_index,
             position_at, slice_id, popcount, locate, state_at)


def table_layout(configs: list[tuple[int, int, int, int]]) -> tuple[tuple, dict]:
    """The ``meta`` arrays that locate/state_at read for the slices ``configs`` (in this
    order, two slots per placement), and ``{config: (first slot, slots)}``."""
    n = 13 ** 4
    base = np.full(n, -1, np.int64)
    off_start, off_end = np.zeros(n, np.int64), np.zeros(n, np.int64)
    kings_b, kings_w = np.ones(n, np.int64), np.ones(n, np.int64)
    chunks, at, slot, where = [], 0, 0, {}
    for config in configs:
        offsets, _, kb, kw = slice_layout(config)
        sid = slice_id(*config)
        base[sid] = slot
        off_start[sid], off_end[sid] = at, at + len(offsets)
        kings_b[sid], kings_w[sid] = kb, kw
        chunks.append(offsets)
        at += len(offsets)
        where[config] = (slot, 2 * slice_size(config))
        slot += 2 * slice_size(config)
    offsets_all = np.concatenate(chunks) if chunks else np.zeros(1, np.int64)
    return (base, offsets_all, off_start, off_end, kings_b, kings_w), where


@functools.cache
def compiled():
    """The index functions compiled (numba, cached on disk)."""
    from gamesearch.kernels.specialize import source_tag, specialize

    return specialize(TEMPLATES, {}, f"checkers_index_{source_tag(*TEMPLATES)}")


@functools.cache
def slice_layout(config: tuple[int, int, int, int]) -> tuple[np.ndarray, int, int, int]:
    """``(offsets, pairs, black-king combinations, white-king combinations)`` of a slice:
    ``offsets[r]`` counts the men pairs whose Black-men rank is below ``r``."""
    bm, bk, wm, wk = config
    n_black = comb(28, bm)
    offsets = np.zeros(n_black + 1, np.int64)
    unrank = compiled().colex_unrank
    for r in range(n_black):
        black_men = unrank(r, bm, BLACK_MEN_SQUARES)
        overlap = bin(black_men & WHITE_MEN_SQUARES).count("1")
        offsets[r + 1] = offsets[r] + comb(28 - overlap, wm)
    men = bm + wm
    return offsets, int(offsets[-1]), comb(32 - men, bk), comb(32 - men - bk, wk)


def slice_size(config: tuple[int, int, int, int]) -> int:
    """The placements of one slice."""
    _, pairs, kb, kw = slice_layout(config)
    return pairs * kb * kw


def counted_slice_size(config: tuple[int, int, int, int]) -> int:
    """:func:`slice_size` counted by formula, without building the slice's layout (which
    for an 8-piece slice takes seconds): the Black men sets that share ``k`` squares with
    the White men's, times the White men's places left, times the kings'."""
    bm, bk, wm, wk = config
    black = bin(BLACK_MEN_SQUARES).count("1")
    shared = bin(BLACK_MEN_SQUARES & WHITE_MEN_SQUARES).count("1")
    white = bin(WHITE_MEN_SQUARES).count("1")
    pairs = sum(comb(shared, k) * comb(black - shared, bm - k) * comb(white - k, wm)
                for k in range(bm + 1))
    men = bm + wm
    return pairs * comb(32 - men, bk) * comb(32 - men - bk, wk)


def placements(pieces: int) -> int:
    """All placements of exactly ``pieces`` pieces (the published counts)."""
    return sum(slice_size(c) for c in slices_of(pieces))
