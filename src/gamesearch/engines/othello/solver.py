"""Othello's exact endgame solver: the final disc difference under perfect play.

Negamax alpha-beta with principal variation search over the kernel's bitboards, with the
techniques of the strong solvers (Edax, Zebra; M. Buro's and G. Andersson's notes):

* **fastest first** (more than ``SHALLOW`` empties): moves that leave the opponent the
  fewest replies are searched first (a corner reply counts twice, the opponent's potential
  mobility a quarter), corners before the rest, the table's move before all;
* **evaluation first** (``ORDER_MIN`` empties or more): the pattern evaluation of each
  child (a one-ply search's at ``ORDER_DEEP`` or more) added to the fastest-first key, as
  Edax orders by a shallow search at many empties (FFO #40-#44: 306 M nodes to 158 M);
* **parity** (few empties): empty squares in regions (the board's quadrants) holding an
  odd number of empties first, since the last move into a region is worth most;
* a **transposition table** of bounds (both boards stored: no false hits), two slots per
  bucket: the first keeps the entry with more empties, the second the newest;
* **enhanced transposition cut-off** (``ETC_MIN`` empties or more): each child's entry is
  looked at before any move is searched, and one whose upper bound already lifts its move
  to beta ends the node (FFO #40-#44: 9% fewer nodes);
* **stability cut-off**: the opponent's stable discs (never flippable) bound our final
  score from above; when that bound is below alpha the node is cut at once;
* **the last six empties** without recursion and without move generation: one function
  per count (``solve6`` ... ``solve2``, each calling the next, which LLVM inlines), a pass
  handled in the same loop as the opponent's turn, the last square by counting flips;
* flips from **ray masks** (per square and direction; the nearest square not the
  opponent's found by a lowest-bit or leading-zero step, no walk along the line), moves
  by written-out shifts, the processor's popcount and leading-zero count (LLVM ctpop,
  ctlz); two arrays per recursive call (the table; the per-depth move lists and counters).

Every value is exact (the score gives empty squares to the winner, as in the FFO files).
The recursion is the one compiled entry point (docs/KERNELS.md explains the numba caching
trap this avoids); the root mode (``ply == 0``) writes the best move into ``work[65, 1]``.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from gamesearch.engines.othello import patterns
from gamesearch.engines.othello.patterns import SCRATCH, pattern_value
from gamesearch.errors import GameSearchError
from gamesearch.games.othello import kernel as K
from gamesearch.games.othello.kernel import CORNERS, ONE, PASS_ACTION, S1, S7, S8, S9, ZERO, shift
from gamesearch.kernels.bits import bit_intrinsics
from gamesearch.kernels.negamax import now_us

SHALLOW = 6
"""At this many empties or fewer: parity ordering only, no table, no stability test, no
recursion (``solve6`` down to ``last1``)."""
TABLE_MIN = 8
"""The table is probed and stored at this many empties or more (at 7 it cost more than it
saved on FFO #40-#41)."""
ETC_MIN = 12
"""At this many empties or more, before any move is searched, each child's table entry is
looked at (enhanced transposition cut-off): a child whose stored upper bound already makes
the move reach beta ends the node."""
ORDER_MIN = 14
"""At this many empties or more the moves are ordered by the pattern evaluation as well
(:func:`child_score`, added to the fastest-first key), the table's move still first. FFO
#40-#44 (ORDER_DEEP off, weight 8): 305.6 M nodes without it; 261.8 M from 20 empties,
243.1 M from 18, 211.3 M from 16, 190.0 M from 14 (10.4 s cpu against 15.4 s), 177.4 M
from 12 and 168.2 M from 10, both slower than 14 (the evaluation costs more than the
nodes it saves near the end)."""
ORDER_WEIGHT = 8
"""The evaluation's weight in the order key, per disc (a reply of the opponent's weighs
16): FFO #40-#44 at 18 empties, 251.5 M nodes at 4, 243.1 M at 8, 248.4 M at 16, 266.8 M
for the evaluation alone (no mobility term); at 14 empties 193.6 M at 5, 190.0 M at 8,
202.8 M at 12."""
ORDER_DEEP = 16
"""At this many empties or more a child's value is a one-ply search's (the best of its
replies, each evaluated) instead of its own evaluation: FFO #40-#44 from 190.0 M nodes
(10.4 s cpu) to 171.7 M from 20 empties, 158.7 M from 18, 158.0 M from 16 (9.3 s),
153.4 M from 14 (10.5 s: dearer than the nodes it saves)."""
INF = 127
ZERO_I, ONE_I = np.int64(0), np.int64(1)  # typed, not literal: numba issue #6713


def edge_lines():
    """``(h, v, d, a)``: the squares with no neighbour on one side along each of the four
    lines (sideways, up-down, the two diagonals): there the board's edge shelters a disc."""
    h = (VALID & ~shift(VALID, 0)) | (VALID & ~shift(VALID, 1))  # noqa: F821  (bound by specialize)
    v = (VALID & ~shift(VALID, 2)) | (VALID & ~shift(VALID, 3))  # noqa: F821
    d = (VALID & ~shift(VALID, 4)) | (VALID & ~shift(VALID, 7))  # noqa: F821
    a = (VALID & ~shift(VALID, 5)) | (VALID & ~shift(VALID, 6))  # noqa: F821
    return h, v, d, a


def grow_stable(me, h0, v0, d0, a0):
    """Discs of ``me`` sheltered along all four lines, where a line shelters a disc that is
    in its mask (``h0`` ... ``a0``) or has a stable disc of ``me`` beside it on that line;
    grown from those in all four masks until nothing changes."""
    stable = me & h0 & v0 & d0 & a0
    while True:
        h = h0 | shift(stable, 0) | shift(stable, 1)  # noqa: F821
        v = v0 | shift(stable, 2) | shift(stable, 3)  # noqa: F821
        d = d0 | shift(stable, 4) | shift(stable, 7)  # noqa: F821
        a = a0 | shift(stable, 5) | shift(stable, 6)  # noqa: F821
        grown = me & h & v & d & a
        if grown == stable:
            return stable
        stable = grown


def stable_discs(me, opp):
    """Discs of ``me`` that can never be flipped: along each of the four lines through the
    disc, a neighbour is the board's edge or a stable disc of the same colour (grown from
    the corners until nothing changes). A lower bound on the really stable discs."""
    h, v, d, a = edge_lines()
    return grow_stable(me, h, v, d, a)


def full_lines(disc):
    """``(h, v, d, a)``: the squares whose line in each of the four directions (sideways,
    up-down, the two diagonals) is full: no move can ever be played on that line again, so
    no disc on it can be flipped along it. A run is grown from the board's edge inwards in
    each of the eight directions; a line is full where both of its runs meet."""
    out_e = VALID & ~shift(VALID, 1)  # noqa: F821  (no neighbour on that side)
    out_w = VALID & ~shift(VALID, 0)  # noqa: F821
    out_n = VALID & ~shift(VALID, 3)  # noqa: F821
    out_s = VALID & ~shift(VALID, 2)  # noqa: F821
    out_ne = VALID & ~shift(VALID, 7)  # noqa: F821
    out_sw = VALID & ~shift(VALID, 4)  # noqa: F821
    out_nw = VALID & ~shift(VALID, 6)  # noqa: F821
    out_se = VALID & ~shift(VALID, 5)  # noqa: F821
    e, w, n, s = disc & out_e, disc & out_w, disc & out_n, disc & out_s
    ne, sw, nw, se = disc & out_ne, disc & out_sw, disc & out_nw, disc & out_se
    for _ in range(7):
        e = disc & (out_e | shift(e, 1))  # noqa: F821
        w = disc & (out_w | shift(w, 0))  # noqa: F821
        n = disc & (out_n | shift(n, 3))  # noqa: F821
        s = disc & (out_s | shift(s, 2))  # noqa: F821
        ne = disc & (out_ne | shift(ne, 7))  # noqa: F821
        sw = disc & (out_sw | shift(sw, 4))  # noqa: F821
        nw = disc & (out_nw | shift(nw, 6))  # noqa: F821
        se = disc & (out_se | shift(se, 5))  # noqa: F821
    return e & w, n & s, ne & sw, nw & se


def stable_bound(me, opp):
    """Discs of ``me`` that can never be flipped, a superset of :func:`stable_discs`' (which
    the evaluation keeps): along each of the four lines through the disc, the line is full,
    or a neighbour on it is the board's edge or a stable disc of the same colour."""
    fh, fv, fd, fa = full_lines(me | opp)
    h, v, d, a = edge_lines()
    return grow_stable(me, fh | h, fv | v, fd | d, fa | a)


def flips(me, opp, sq):
    """The discs turned over when ``me`` plays on ``sq``: along each of the eight rays from
    ``sq`` (``RAYS``), the opponent's run up to the nearest square that is not the
    opponent's, when that square is ours. Rays up the bit order find that square as their
    lowest bit, rays down as their highest (a leading-zero count): no loop along the line.
    None where no neighbour of ``sq`` is the opponent's (most squares near the end)."""
    if not NEIGHBOURS[sq] & opp:  # noqa: F821  (bound at compile time)
        return ZERO
    f = ZERO
    for d in range(4):
        ray = RAYS[d, sq]  # noqa: F821  (bound at compile time)
        o = ray & ~opp
        first = o & (~o + ONE)
        if first & me:
            f |= (first - ONE) & ray
    for d in range(4, 8):
        ray = RAYS[d, sq]  # noqa: F821
        o = ray & ~opp
        if o:
            top = ONE << np.uint64(63 - CLZ(o))  # noqa: F821
            if top & me:
                f |= ray & ~((top << ONE) - ONE)
    return f


def mobility(me, opp):
    """The squares where ``me`` may move: runs of the opponent's discs grown from ours in
    the eight directions, six steps each, written out (the a- and h-files masked off the
    runs of the sideways and diagonal directions)."""
    inner = opp & np.uint64(0x7E7E7E7E7E7E7E7E)
    m = ZERO
    t = inner & (me << S1)
    t |= inner & (t << S1)
    t |= inner & (t << S1)
    t |= inner & (t << S1)
    t |= inner & (t << S1)
    t |= inner & (t << S1)
    m |= t << S1
    t = inner & (me >> S1)
    t |= inner & (t >> S1)
    t |= inner & (t >> S1)
    t |= inner & (t >> S1)
    t |= inner & (t >> S1)
    t |= inner & (t >> S1)
    m |= t >> S1
    t = opp & (me << S8)
    t |= opp & (t << S8)
    t |= opp & (t << S8)
    t |= opp & (t << S8)
    t |= opp & (t << S8)
    t |= opp & (t << S8)
    m |= t << S8
    t = opp & (me >> S8)
    t |= opp & (t >> S8)
    t |= opp & (t >> S8)
    t |= opp & (t >> S8)
    t |= opp & (t >> S8)
    t |= opp & (t >> S8)
    m |= t >> S8
    t = inner & (me << S7)
    t |= inner & (t << S7)
    t |= inner & (t << S7)
    t |= inner & (t << S7)
    t |= inner & (t << S7)
    t |= inner & (t << S7)
    m |= t << S7
    t = inner & (me >> S7)
    t |= inner & (t >> S7)
    t |= inner & (t >> S7)
    t |= inner & (t >> S7)
    t |= inner & (t >> S7)
    t |= inner & (t >> S7)
    m |= t >> S7
    t = inner & (me << S9)
    t |= inner & (t << S9)
    t |= inner & (t << S9)
    t |= inner & (t << S9)
    t |= inner & (t << S9)
    t |= inner & (t << S9)
    m |= t << S9
    t = inner & (me >> S9)
    t |= inner & (t >> S9)
    t |= inner & (t >> S9)
    t |= inner & (t >> S9)
    t |= inner & (t >> S9)
    t |= inner & (t >> S9)
    m |= t >> S9
    return m & ~(me | opp) & VALID  # noqa: F821


def around(x):
    """The squares next to the discs of ``x`` (in the eight directions)."""
    side = ((x << S1) & np.uint64(0xFEFEFEFEFEFEFEFE)) | ((x >> S1) & np.uint64(0x7F7F7F7F7F7F7F7F))
    row = x | side
    return side | (row << S8) | (row >> S8)


def final_margin(me, opp):
    """The score of a finished game for ``me``: the disc difference, empties to the winner."""
    a, b = POPCNT(me), POPCNT(opp)  # noqa: F821
    if a > b:
        return CELLS - 2 * b  # noqa: F821
    if a < b:
        return 2 * a - CELLS  # noqa: F821
    return 0


def last1(me, opp, sq):
    """The score of a position with one empty square ``sq`` (no recursion, counts only)."""
    n = POPCNT(me)  # noqa: F821
    f = flips(me, opp, sq)
    if f:
        return 2 * (n + POPCNT(f)) + 2 - CELLS  # noqa: F821
    f = flips(opp, me, sq)
    if f:
        return 2 * (n - POPCNT(f)) - CELLS  # noqa: F821
    d = 2 * n + 1 - CELLS  # noqa: F821  (one empty: never a draw)
    return d + 1 if d > 0 else d - 1


def solve2(me, opp, alpha, beta, x1, x2, work):
    """The score with two empty squares ``x1``, ``x2`` (no recursion)."""
    work[65, 0] += ONE
    best = -INF
    f = flips(me, opp, x1)
    if f:
        work[65, 0] += ONE
        best = -last1(opp ^ f, me | f | (ONE << np.uint64(x1)), x2)
        if best >= beta:
            return best
    f = flips(me, opp, x2)
    if f:
        work[65, 0] += ONE
        v = -last1(opp ^ f, me | f | (ONE << np.uint64(x2)), x1)
        if v > best:
            best = v
    if best > -INF:
        return best
    # a pass: the opponent moves, or the game is over
    worst = INF
    f = flips(opp, me, x1)
    if f:
        work[65, 0] += ONE
        worst = last1(me ^ f, opp | f | (ONE << np.uint64(x1)), x2)
        if worst <= alpha:
            return worst
    f = flips(opp, me, x2)
    if f:
        work[65, 0] += ONE
        v = last1(me ^ f, opp | f | (ONE << np.uint64(x2)), x1)
        if v < worst:
            worst = v
    if worst < INF:
        return worst
    return final_margin(me, opp)


def solve3(me, opp, alpha, beta, x1, x2, x3, work):
    """The score with three empty squares, tried in the order given (no recursion)."""
    work[65, 0] += ONE
    best = -INF
    for k in range(3):
        x, y, z = (x1, x2, x3) if k == 0 else (x2, x1, x3) if k == 1 else (x3, x1, x2)
        f = flips(me, opp, x)
        if f:
            v = -solve2(opp ^ f, me | f | (ONE << np.uint64(x)), -beta, -max(alpha, best),
                        y, z, work)
            if v > best:
                best = v
                if v >= beta:
                    return best
    if best > -INF:
        return best
    worst = INF
    for k in range(3):
        x, y, z = (x1, x2, x3) if k == 0 else (x2, x1, x3) if k == 1 else (x3, x1, x2)
        f = flips(opp, me, x)
        if f:
            v = solve2(me ^ f, opp | f | (ONE << np.uint64(x)), alpha, min(beta, worst),
                       y, z, work)
            if v < worst:
                worst = v
                if v <= alpha:
                    return worst
    if worst < INF:
        return worst
    return final_margin(me, opp)


def solve4(me, opp, alpha, beta, x1, x2, x3, x4, work):
    """The score with four empty squares, tried in the order given (no recursion): the
    three left after each move keep the order, so odd regions stay first."""
    work[65, 0] += ONE
    best = -INF
    for k in range(4):
        if k == 0:
            x, y, z, w = x1, x2, x3, x4
        elif k == 1:
            x, y, z, w = x2, x1, x3, x4
        elif k == 2:
            x, y, z, w = x3, x1, x2, x4
        else:
            x, y, z, w = x4, x1, x2, x3
        f = flips(me, opp, x)
        if f:
            v = -solve3(opp ^ f, me | f | (ONE << np.uint64(x)), -beta, -max(alpha, best),
                        y, z, w, work)
            if v > best:
                best = v
                if v >= beta:
                    return best
    if best > -INF:
        return best
    worst = INF
    for k in range(4):
        if k == 0:
            x, y, z, w = x1, x2, x3, x4
        elif k == 1:
            x, y, z, w = x2, x1, x3, x4
        elif k == 2:
            x, y, z, w = x3, x1, x2, x4
        else:
            x, y, z, w = x4, x1, x2, x3
        f = flips(opp, me, x)
        if f:
            v = solve3(me ^ f, opp | f | (ONE << np.uint64(x)), alpha, min(beta, worst),
                       y, z, w, work)
            if v < worst:
                worst = v
                if v <= alpha:
                    return worst
    if worst < INF:
        return worst
    return final_margin(me, opp)


def odd_regions(empty):
    """The squares of the quadrants holding an odd number of empty squares."""
    odd = ZERO
    for q in range(4):
        if POPCNT(empty & QUADRANTS[q]) & 1:  # noqa: F821
            odd |= QUADRANTS[q]  # noqa: F821
    return odd


def take(a, b):
    """The lowest square of ``a`` (of ``b`` once ``a`` is empty) and both sets without it."""
    if a:
        low = a & (~a + ONE)
        return POPCNT(low - ONE), a ^ low, b  # noqa: F821
    low = b & (~b + ONE)
    return POPCNT(low - ONE), a, b ^ low  # noqa: F821


def parity_order4(me, opp, alpha, beta, empty, work):
    """``solve4`` on the four empty squares of ``empty``, odd regions first."""
    odd = odd_regions(empty)
    a, b = empty & odd, empty & ~odd
    x1, a, b = take(a, b)
    x2, a, b = take(a, b)
    x3, a, b = take(a, b)
    x4, a, b = take(a, b)
    return solve4(me, opp, alpha, beta, x1, x2, x3, x4, work)


def solve5(me, opp, alpha, beta, empty, work):
    """The score with five empty squares (``empty``), odd regions first, no recursion:
    a pass is the opponent's turn in the same loop, minimising."""
    work[65, 0] += ONE
    odd = odd_regions(empty)
    best = -INF
    a, b = empty & odd, empty & ~odd
    while a | b:
        sq, a, b = take(a, b)
        f = flips(me, opp, sq)
        if f:
            bit = ONE << np.uint64(sq)
            v = -parity_order4(opp ^ f, me | f | bit, -beta, -max(alpha, best), empty ^ bit, work)
            if v > best:
                best = v
                if v >= beta:
                    return best
    if best > -INF:
        return best
    worst = INF
    a, b = empty & odd, empty & ~odd
    while a | b:
        sq, a, b = take(a, b)
        f = flips(opp, me, sq)
        if f:
            bit = ONE << np.uint64(sq)
            v = parity_order4(me ^ f, opp | f | bit, alpha, min(beta, worst), empty ^ bit, work)
            if v < worst:
                worst = v
                if v <= alpha:
                    return worst
    if worst < INF:
        return worst
    return final_margin(me, opp)


def solve6(me, opp, alpha, beta, empty, work):
    """The score with six empty squares (``empty``), odd regions first, no recursion:
    a pass is the opponent's turn in the same loop, minimising."""
    work[65, 0] += ONE
    odd = odd_regions(empty)
    best = -INF
    a, b = empty & odd, empty & ~odd
    while a | b:
        sq, a, b = take(a, b)
        f = flips(me, opp, sq)
        if f:
            bit = ONE << np.uint64(sq)
            v = -solve5(opp ^ f, me | f | bit, -beta, -max(alpha, best), empty ^ bit, work)
            if v > best:
                best = v
                if v >= beta:
                    return best
    if best > -INF:
        return best
    worst = INF
    a, b = empty & odd, empty & ~odd
    while a | b:
        sq, a, b = take(a, b)
        f = flips(opp, me, sq)
        if f:
            bit = ONE << np.uint64(sq)
            v = solve5(me ^ f, opp | f | bit, alpha, min(beta, worst), empty ^ bit, work)
            if v < worst:
                worst = v
                if v <= alpha:
                    return worst
    if worst < INF:
        return worst
    return final_margin(me, opp)


def child_score(me, opp, n_empty, tables, scratch):
    """A child's place in the move order from the pattern evaluation (``me`` the child's
    mover, our opponent; ``n_empty`` the parent's empties): its value for that side
    (clamped to a disc margin), times ``ORDER_WEIGHT``; lower is searched first, so the
    children best for us come first. At ``ORDER_DEEP`` empties or more the value is a
    one-ply search's (the best of the child's replies, each evaluated)."""
    v = pattern_value(me, opp, tables, scratch)
    moves = mobility(me, opp) if n_empty >= ORDER_DEEP else ZERO
    if moves:
        v = -1e9
        while moves:
            low = moves & (~moves + ONE)
            moves ^= low
            f = flips(me, opp, POPCNT(low - ONE))  # noqa: F821
            v = max(v, -pattern_value(opp ^ f, me | f | low, tables, scratch))
    v = min(64.0, max(-64.0, v))
    return np.int64(ORDER_WEIGHT * v)


def table_slot(table, me, opp):
    """The slot of this position's table entry: the bucket's first slot where it holds the
    position, else the second (which may hold it, or not: the caller compares)."""
    h = me * np.uint64(0x9E3779B97F4A7C15) ^ opp * np.uint64(0xC2B2AE3D27D4EB4F)
    slot = np.int64((h ^ (h >> np.uint64(29))) & np.uint64(len(table) - 2))
    if not (table[slot, 0] == me and table[slot, 1] == opp):
        slot += 1
    return slot


def solve(me, opp, alpha, beta, passed, ply, table, work, tables, scratch):
    """The exact score for ``me`` to move, fail-soft within (alpha, beta).

    ``table`` holds per slot both boards and the packed bounds and move; ``work`` holds per
    number of empties the flips (columns 0-63) and the ordered moves (64-127), and in row
    65 the node count, the root's best move, a deadline (``perf_counter`` microseconds, 0:
    none), the stop flag and the count at the next clock reading: past the deadline (read
    every ``CLOCK_EVERY`` nodes) the flag is set and the search unwinds storing nothing;
    its value is then void.  ``tables`` are the pattern tables that order the moves at
    ``ORDER_MIN`` empties or more (:data:`NO_TABLES`: not), ``scratch`` the evaluation's."""
    work[65, 0] += ONE
    if work[65, 2] > ZERO and work[65, 0] >= work[65, 4]:
        # the count jumps (the last empties count their nodes too): a next reading, not a
        # multiple, says when
        work[65, 4] = work[65, 0] + CLOCK_EVERY_U  # noqa: F821
        if now_us() >= np.int64(work[65, 2]):  # noqa: F821  (bound by specialize)
            work[65, 3] = ONE
    if work[65, 3] > ZERO:
        return 0
    empty = ~(me | opp) & VALID  # noqa: F821
    n_empty = POPCNT(empty)  # noqa: F821
    if ply > 0 and n_empty <= SHALLOW:
        if n_empty == 6:
            work[65, 0] -= ONE
            return solve6(me, opp, alpha, beta, empty, work)
        if n_empty == 5:
            work[65, 0] -= ONE
            return solve5(me, opp, alpha, beta, empty, work)
        if n_empty == 4:
            work[65, 0] -= ONE
            return parity_order4(me, opp, alpha, beta, empty, work)
        if n_empty == 1:
            return last1(me, opp, POPCNT(empty - ONE))  # noqa: F821
        low = empty & (~empty + ONE)
        if n_empty == 2:
            work[65, 0] -= ONE
            return solve2(me, opp, alpha, beta, POPCNT(low - ONE),  # noqa: F821
                          POPCNT((empty ^ low) - ONE), work)  # noqa: F821
        if n_empty == 3:
            work[65, 0] -= ONE
            rest = empty ^ low
            low2 = rest & (~rest + ONE)
            return solve3(me, opp, alpha, beta, POPCNT(low - ONE),  # noqa: F821
                          POPCNT(low2 - ONE), POPCNT((rest ^ low2) - ONE), work)  # noqa: F821
        return final_margin(me, opp)
    slot = -1
    table_move = -1
    n = 0
    moves = mobility(me, opp)
    if moves == ZERO:
        if passed or mobility(opp, me) == ZERO:
            return final_margin(me, opp)
        v = -solve(opp, me, -beta, -alpha, ONE_I, ply + 1, table, work,
                   tables, scratch)
        if ply == 0:
            work[65, 1] = np.uint64(PASS_ACTION)
        return v
    # stability cut-off, tried only where the opponent has discs enough to reach it
    if 2 * POPCNT(opp) >= CELLS - alpha:  # noqa: F821
        upper = CELLS - 2 * POPCNT(stable_bound(opp, me))  # noqa: F821
        if upper <= alpha and ply > 0:
            return upper
        if upper < beta:
            beta = upper
    if n_empty >= TABLE_MIN:  # noqa: F821
        # two slots per bucket: the first kept for the deeper entry, the second newest
        slot = table_slot(table, me, opp)
    if slot >= 0 and table[slot, 0] == me and table[slot, 1] == opp:
        info = table[slot, 2]
        lo = np.int64(info & np.uint64(255)) - 128
        hi = np.int64((info >> np.uint64(8)) & np.uint64(255)) - 128
        table_move = np.int64((info >> np.uint64(16)) & np.uint64(255))
        if ply > 0:  # at the root only the move is used: the best move must be found
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            alpha = max(alpha, lo)
            beta = min(beta, hi)
    # fastest first: the fewest replies first (a corner reply counted twice, the squares
    # next to our discs, the opponent's potential moves, a quarter each), corners and odd
    # regions next, the table's move before all
    odd = odd_regions(empty)
    by_eval = n_empty >= ORDER_MIN and tables.shape[1] > 1
    rest = moves
    while rest:
        low = rest & (~rest + ONE)
        rest ^= low
        sq = POPCNT(low - ONE)  # noqa: F821
        f = flips(me, opp, sq)
        if ply > 0 and n_empty >= ETC_MIN:
            c_me, c_opp = opp ^ f, me | f | low
            cs = table_slot(table, c_me, c_opp)
            if table[cs, 0] == c_me and table[cs, 1] == c_opp:
                c_hi = np.int64((table[cs, 2] >> np.uint64(8)) & np.uint64(255)) - 128
                if -c_hi >= beta:
                    return -c_hi
        reply = mobility(opp ^ f, me | f | low)
        k = (POPCNT(reply) + POPCNT(reply & CORNERS)) * 16  # noqa: F821
        k += 4 * POPCNT(around(me | f | low) & empty & ~low)  # noqa: F821
        if low & CORNERS:
            k -= 32
        if low & odd:
            k -= 4
        if by_eval:
            k += child_score(opp ^ f, me | f | low, n_empty, tables, scratch)
        if sq == table_move:
            k = -4000
        key = np.uint64((k + 8192) * 64 + sq)
        j = n
        while j > 0 and work[n_empty, 64 + j - 1] > key:
            work[n_empty, 64 + j] = work[n_empty, 64 + j - 1]
            work[n_empty, j] = work[n_empty, j - 1]
            j -= 1
        work[n_empty, 64 + j] = key
        work[n_empty, j] = f
        n += 1
    best = -INF
    best_move = np.int64(work[n_empty, 64] & np.uint64(63))
    a = alpha
    for i in range(n):
        sq = np.int64(work[n_empty, 64 + i] & np.uint64(63))
        f = work[n_empty, i]
        child_me, child_opp = opp ^ f, me | f | (ONE << np.uint64(sq))
        if i == 0:
            v = -solve(child_me, child_opp, -beta, -a, ZERO_I, ply + 1, table, work,
                       tables, scratch)
        else:
            v = -solve(child_me, child_opp, -a - 1, -a, ZERO_I, ply + 1, table, work,
                       tables, scratch)
            if a < v < beta:
                v = -solve(child_me, child_opp, -beta, -v, ZERO_I, ply + 1, table, work,
                           tables, scratch)
        if work[65, 3] > ZERO:
            return 0  # cut short below: no value, nothing stored
        if v > best:
            best = v
            best_move = sq
            if v > a:
                a = v
                if a >= beta:
                    break
    if slot >= 0:
        first = slot & ~np.int64(1)
        slot = first
        if not (table[first, 0] == me and table[first, 1] == opp):
            slot = first + 1
        lo, hi = -INF, INF
        if table[slot, 0] == me and table[slot, 1] == opp:
            info = table[slot, 2]
            lo = np.int64(info & np.uint64(255)) - 128
            hi = np.int64((info >> np.uint64(8)) & np.uint64(255)) - 128
        elif np.int64(table[first, 2] >> np.uint64(24)) <= n_empty:
            # a new entry at least as deep as the first slot's takes it; that one moves on
            table[first + 1, 0] = table[first, 0]
            table[first + 1, 1] = table[first, 1]
            table[first + 1, 2] = table[first, 2]
            slot = first
        if best <= alpha:
            hi = min(hi, best)
        elif best >= beta:
            lo = max(lo, best)
        else:
            lo = hi = best
        table[slot, 0], table[slot, 1] = me, opp
        table[slot, 2] = np.uint64(lo + 128) | (np.uint64(hi + 128) << np.uint64(8)) | (
            np.uint64(best_move) << np.uint64(16)) | (np.uint64(n_empty) << np.uint64(24))
    if ply == 0:
        work[65, 1] = np.uint64(best_move)
    return best


TEMPLATES = (*K.TEMPLATES, now_us, edge_lines, grow_stable, stable_discs, full_lines,
             stable_bound, flips, mobility, around,
             final_margin, last1, solve2, solve3, solve4, odd_regions, take, parity_order4, solve5,
             solve6, pattern_value, child_score, table_slot, solve)
CLOCK_EVERY = 4096
"""Nodes between two readings of the clock where a solve has a deadline (a reading costs
about 2 us; a node here well under 0.1 us)."""


# the ray of each direction from each square: 0-3 up the bit order (E, N, NE, NW),
# 4-7 down it (W, S, SW, SE), as (row, column) steps
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1))


def rays(size: int) -> np.ndarray:
    """``RAYS[d, sq]``: the squares from ``sq`` (excluded) to the board's edge in direction d."""
    out = np.zeros((8, 64), np.uint64)
    for d, (dr, dc) in enumerate(DIRECTIONS):
        for sq in range(64):
            r, c = divmod(sq, 8)
            if r >= size or c >= size:
                continue
            r, c = r + dr, c + dc
            while 0 <= r < size and 0 <= c < size:
                out[d, sq] |= np.uint64(1 << (r * 8 + c))
                r, c = r + dr, c + dc
    return out


def constants(size: int) -> dict:
    """The compile-time constants of a board size."""
    half = size // 2
    quadrants = np.zeros(4, np.uint64)
    for r in range(size):
        for c in range(size):
            quadrants[(r >= half) * 2 + (c >= half)] |= np.uint64(1 << (r * 8 + c))
    popcnt, clz = bit_intrinsics()
    neighbours = np.zeros(64, np.uint64)
    for sq in range(64):
        r, c = divmod(sq, 8)
        for dr, dc in DIRECTIONS:
            if 0 <= r + dr < size and 0 <= c + dc < size:
                neighbours[sq] |= np.uint64(1 << ((r + dr) * 8 + c + dc))
    return {"VALID": K.valid_mask(size), "CELLS": size * size, "CORNERS": K.corner_mask(size),
            "QUADRANTS": quadrants, "NEIGHBOURS": neighbours, "RAYS": rays(size),
            "POPCNT": popcnt, "CLZ": clz,
            "CLOCK_EVERY_U": np.uint64(CLOCK_EVERY), **patterns.bindings()}


@functools.cache
def compiled(size: int = 8):
    """The solver compiled for one board size (cached per process and on disk)."""
    from gamesearch.kernels.specialize import source_tag, specialize

    # the module's constants are compiled in too: their values are part of the name
    tag = (f"othello_solve{size}_{SHALLOW}_{TABLE_MIN}_{ETC_MIN}_{CLOCK_EVERY}_"
           f"{ORDER_MIN}_{ORDER_WEIGHT}_{ORDER_DEEP}_"
           f"{source_tag(*TEMPLATES)}")
    return specialize(TEMPLATES, constants(size), tag)


class Table:
    """The transposition table: per slot both boards, then the score bounds, the best move
    and the empties packed in one word (lower + 128, upper + 128 << 8, move << 16, empties
    << 24); slots in pairs, the first for the deeper entry, the second for the newest."""

    def __init__(self, log2_slots: int = 20) -> None:
        self.slots = np.zeros((1 << log2_slots, 3), np.uint64)


def solve_position(me: int, opp: int, size: int = 8, table: Table | None = None,
                   alpha: int = -64, beta: int = 64, guess: int = 0,
                   ordering: bool = True) -> tuple[int, int, int]:
    """``(score, best kernel move, nodes)`` of a position given as two bitboards; ``guess``
    and ``ordering`` as :func:`solve_by`."""
    solved = solve_by(me, opp, None, size, table, alpha, beta, guess, ordering)
    assert solved is not None  # no deadline: always solved
    return solved


def solve_by(me: int, opp: int, deadline: float | None, size: int = 8,
             table: Table | None = None, alpha: int = -64, beta: int = 64,
             guess: int = 0, ordering: bool = True) -> tuple[int, int, int] | None:
    """``(score, best kernel move, nodes)`` as :func:`solve_position`, or None where the
    solve was still running at ``deadline`` (``time.perf_counter()`` seconds; None: no
    deadline). With ``(alpha, beta) = (-1, 1)`` it is a win/loss/draw solve: the score's
    sign is exact and a winning (or drawing) best move is one that wins (draws).

    A window wider than that is solved by null-window probes (:func:`probe_driver`), the
    table kept between them: a full-window search costs about 1.5x a search whose window
    holds the score just (FFO #40-#44), and the probes find the score for less. The first
    probe is at ``guess`` (the engine's :func:`~gamesearch.engines.othello.engine.
    first_guess` is a shallow search's value). ``ordering``: the moves at ``ORDER_MIN``
    empties or more ordered by the pattern evaluation too (8x8 with the shipped weights;
    False: fastest first alone, the same score in more nodes)."""
    table = table or Table()
    if beta - alpha <= 2:
        return search_once(me, opp, deadline, size, table, alpha, beta, ordering)
    return probe_driver(
        lambda a, b: search_once(me, opp, deadline, size, table, a, b, ordering),
        alpha, beta, guess)


def probe_driver(search: Any, alpha: int, beta: int,
                 guess: int = 0) -> tuple[int, int, int] | None:
    """The score within ``(alpha, beta)`` (fail-soft outside it) from null-window searches
    ``search(b - 1, b)`` (each ``(value, move, nodes)`` or None, fail-soft), as MTD(f):
    each tells whether the score is at least ``b``, and its value bounds the score
    further; the next probe is just past the bound found. The first is at ``guess`` (0:
    most endgames are close; the nearer the score, the fewer nodes: on FFO #40-#44 374 M
    nodes from 0, 298 M from the score itself, and a guess below the score costs less than
    one as far above it). Steps that grew while the probes failed the same way cost more
    than they saved (FFO #40-#44: 420 M nodes against 403 M). The move is that of the last
    probe that reached its bound (one that achieves the lower bound)."""
    lower, upper = -INF, INF
    nodes = 0
    move = -1
    b = min(max(guess, alpha + 1), beta - 1)
    while lower < upper:
        got = search(b - 1, b)
        if got is None:
            return None
        value, found, n = got
        nodes += n
        if move == -1:
            move = found
        if value >= b:
            lower, move = value, found
            if lower >= beta:
                return lower, move, nodes
            b = lower + 1
        else:
            upper = value
            if upper <= alpha:
                return upper, move, nodes
            b = upper
    return lower, move, nodes


NO_TABLES = np.zeros((1, 1), np.float32)
"""The solver's evaluation tables where there are none (6x6, the weights missing, or the
ordering turned off): a 1x1 array, which turns the evaluation ordering off."""


def ordering_tables(size: int) -> np.ndarray:
    """The pattern tables (float32, as the midgame engine's) that order the moves at
    ``ORDER_MIN`` empties or more; :data:`NO_TABLES` off the 8x8 board or without weights.
    Loaded once per weights file (``patterns.WEIGHTS_FILE`` as it is now)."""
    return NO_TABLES if size != 8 else _tables_from(patterns.WEIGHTS_FILE)


@functools.cache
def _tables_from(path: Any) -> np.ndarray:
    try:
        return np.ascontiguousarray(patterns.load(path), dtype=np.float32)
    except GameSearchError:
        return NO_TABLES


def search_once(me: int, opp: int, deadline: float | None, size: int, table: Table,
                alpha: int, beta: int, ordering: bool = True) -> tuple[int, int, int] | None:
    """One compiled search of the window ``(alpha, beta)``: as :func:`solve_by`."""
    ns = compiled(size)
    work = np.zeros((66, 128), np.uint64)
    work[65, 1] = np.uint64(255)
    if deadline is not None:
        work[65, 2] = np.uint64(max(1, int(deadline * 1e6)))
    tables = ordering_tables(size) if ordering else NO_TABLES
    score = ns.solve(np.uint64(me), np.uint64(opp), np.int64(alpha), np.int64(beta),
                     np.int64(0), np.int64(0), table.slots, work, tables,
                     np.zeros(SCRATCH))
    if work[65, 3]:
        return None
    move = int(work[65, 1])
    return int(score), -1 if move == 255 else move, int(work[65, 0])


def solve_entry(game: Any, state: Any, options: dict,
                guess: Callable[[int, int], int] | None = None) -> dict:
    """``gamesearch solve othello --position ...``: the exact score and a best move;
    ``guess(me, opp)`` gives the first probe on 8x8 (the package's entry passes the
    engine's ``first_guess``; none: 0)."""
    from gamesearch.engines.othello.scale import VALUE_SCALE

    mover = game.to_move(state)
    if game.is_terminal(state):
        value = game.final_score(state) * (1 if mover == 0 else -1)
        return {"value": value, "summary": "the game is over", "best_move": None,
                "score": VALUE_SCALE.score(value, mover, True).as_dict()}
    me, opp, _ = K.encode_state(state, game.size)
    empties = state[0].count("-")
    if empties > 30:
        raise GameSearchError(f"othello solve: {empties} empty squares is beyond an exact "
                              "solve here (30 at most); play some moves first")
    began = time.perf_counter()
    first = guess(int(me), int(opp)) if guess is not None and game.size == 8 else 0
    score, move, nodes = solve_position(int(me), int(opp), game.size,
                                        Table(int(options.get("table") or 20)), guess=first)
    seconds = time.perf_counter() - began
    best = game.action_to_string(state, K.decode_action(move, game.size))
    side = "black" if game.to_move(state) == 0 else "white"
    verdict = "wins" if score > 0 else "loses" if score < 0 else "draws"
    return {"value": score, "score": VALUE_SCALE.score(score, mover, True).as_dict(),
            "best_move": best, "nodes": nodes,
            "seconds": round(seconds, 3), "nodes_per_second": round(nodes / max(seconds, 1e-9)),
            "summary": f"{side} to move {verdict} by {abs(score)} discs with best play "
                       f"({best}), exact; {nodes:,} nodes in {seconds:.2f} s"}
