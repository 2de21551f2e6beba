"""Othello's exact endgame solver: the final disc difference under perfect play.

Negamax alpha-beta with principal variation search over the kernel's bitboards, with the
techniques of the strong solvers (Edax, Zebra; M. Buro's and G. Andersson's notes):

* **fastest first** (more than ``SHALLOW`` empties): moves that leave the opponent the
  fewest replies are searched first, corners before the rest, the table's move before all;
* **parity** (few empties): empty squares in regions (the board's quadrants) holding an
  odd number of empties first, since the last move into a region is worth most;
* a **transposition table** of bounds (both boards stored: no false hits), always replace;
* **stability cut-off**: the opponent's stable discs (never flippable) bound our final
  score from above; when that bound is below alpha the node is cut at once;
* **the last two empties** are solved without recursion, the last one by counting flips.

Every value is exact (the score gives empty squares to the winner, as in the FFO files).
The recursion is the one compiled entry point (docs/KERNELS.md explains the numba caching
trap this avoids); the root mode (``ply == 0``) writes the best move into ``stats[1]``.
"""

from __future__ import annotations

import functools
import time
from typing import Any

import numpy as np

from gamesearch.errors import GameSearchError
from gamesearch.games.othello import kernel as K
from gamesearch.games.othello.kernel import (
    CORNERS,
    ONE,
    PASS_ACTION,
    ZERO,
    disc_margin,
    flips_of,
    moves_of,
    popcount64,
    shift,
)

SHALLOW = 5
"""At this many empties or fewer: parity ordering only, no table, no stability test."""
INF = 127
ZERO_I, ONE_I = np.int64(0), np.int64(1)  # typed, not literal: numba issue #6713


def stable_discs(me, opp):
    """Discs of ``me`` that can never be flipped: along each of the four lines through the
    disc, a neighbour is the board's edge or a stable disc of the same colour (grown from
    the corners until nothing changes). A lower bound on the really stable discs."""
    edge_e = VALID & ~shift(VALID, 0)  # noqa: F821  (bound by specialize)
    edge_w = VALID & ~shift(VALID, 1)  # noqa: F821
    edge_n = VALID & ~shift(VALID, 2)  # noqa: F821
    edge_s = VALID & ~shift(VALID, 3)  # noqa: F821
    edge_ne = VALID & ~shift(VALID, 4)  # noqa: F821
    edge_nw = VALID & ~shift(VALID, 5)  # noqa: F821
    edge_se = VALID & ~shift(VALID, 6)  # noqa: F821
    edge_sw = VALID & ~shift(VALID, 7)  # noqa: F821
    stable = ZERO
    while True:
        h = edge_e | edge_w | shift(stable, 0) | shift(stable, 1)  # noqa: F821
        v = edge_n | edge_s | shift(stable, 2) | shift(stable, 3)  # noqa: F821
        d = edge_ne | edge_sw | shift(stable, 4) | shift(stable, 7)  # noqa: F821
        a = edge_nw | edge_se | shift(stable, 5) | shift(stable, 6)  # noqa: F821
        grown = me & h & v & d & a
        if grown == stable:
            return stable
        stable = grown


def last_empty(me, opp, sq):
    """The score of a position with one empty square ``sq``."""
    bit = ONE << np.uint64(sq)
    f = flips_of(me, opp, sq)
    if f:
        return popcount64(me | f | bit) - popcount64(opp ^ f)
    f = flips_of(opp, me, sq)
    if f:
        return popcount64(me ^ f) - popcount64(opp | f | bit)
    return disc_margin(me, opp)


def two_empties(me, opp, beta, x1, x2, stats):
    """The score of a position with two empty squares ``x1``, ``x2`` (no recursion)."""
    best = -INF
    f = flips_of(me, opp, x1)
    if f:
        stats[0] += 1
        best = -last_empty(opp ^ f, me | f | (ONE << np.uint64(x1)), x2)
        if best >= beta:
            return best
    f = flips_of(me, opp, x2)
    if f:
        stats[0] += 1
        v = -last_empty(opp ^ f, me | f | (ONE << np.uint64(x2)), x1)
        if v > best:
            best = v
    if best > -INF:
        return best
    # a pass: the opponent moves, or the game is over
    f = flips_of(opp, me, x1)
    if f:
        stats[0] += 1
        best = -last_empty(me ^ f, opp | f | (ONE << np.uint64(x1)), x2)
    f = flips_of(opp, me, x2)
    if f:
        stats[0] += 1
        v = -last_empty(me ^ f, opp | f | (ONE << np.uint64(x2)), x1)
        if v > best:
            best = v
    if best > -INF:
        return -best
    return disc_margin(me, opp)


def solve(me, opp, alpha, beta, passed, ply, tkey, tinfo, buf, keys, fbuf, stats):
    """The exact score for ``me`` to move, fail-soft within (alpha, beta)."""
    stats[0] += 1
    empty = ~(me | opp) & VALID  # noqa: F821
    n_empty = popcount64(empty)
    if n_empty == 1 and ply > 0:
        return last_empty(me, opp, popcount64(empty - ONE))
    if n_empty == 2 and ply > 0:
        low = empty & (~empty + ONE)
        return two_empties(me, opp, beta, popcount64(low - ONE),
                           popcount64((empty ^ low) - ONE), stats)
    slot = -1
    table_move = -1
    n = 0
    if n_empty <= SHALLOW:
        # few empties: no move generation; squares of odd regions first (parity)
        for odd_first in range(2):
            rest = empty
            while rest:
                low = rest & (~rest + ONE)
                rest ^= low
                sq = popcount64(low - ONE)
                if quadrant_parity_odd(empty, sq) == (odd_first == 0):
                    f = flips_of(me, opp, sq)
                    if f:
                        buf[n_empty, n] = sq
                        fbuf[n_empty, n] = f
                        n += 1
        if n == 0:
            if passed:
                return disc_margin(me, opp)
            rest = empty
            while rest:
                low = rest & (~rest + ONE)
                rest ^= low
                if flips_of(opp, me, popcount64(low - ONE)):
                    v = -solve(opp, me, -beta, -alpha, ONE_I, ply + 1, tkey, tinfo, buf, keys,
                               fbuf, stats)
                    if ply == 0:
                        stats[1] = PASS_ACTION
                    return v
            return disc_margin(me, opp)
    else:
        moves = moves_of(me, opp)
        if moves == ZERO:
            if passed or moves_of(opp, me) == ZERO:
                return disc_margin(me, opp)
            v = -solve(opp, me, -beta, -alpha, ONE_I, ply + 1, tkey, tinfo, buf, keys, fbuf,
                       stats)
            if ply == 0:
                stats[1] = PASS_ACTION
            return v
        # stability cut-off, tried only where the opponent has discs enough to reach it
        if 2 * popcount64(opp) >= CELLS - alpha:  # noqa: F821
            upper = CELLS - 2 * popcount64(stable_discs(opp, me))  # noqa: F821
            if upper <= alpha and ply > 0:
                return upper
            if upper < beta:
                beta = upper
        h = me * np.uint64(0x9E3779B97F4A7C15) ^ opp * np.uint64(0xC2B2AE3D27D4EB4F)
        slot = np.int64((h ^ (h >> np.uint64(29))) & np.uint64(len(tkey) - 1))
        if tkey[slot, 0] == me and tkey[slot, 1] == opp:
            lo, hi = np.int64(tinfo[slot, 0]), np.int64(tinfo[slot, 1])
            table_move = np.int64(tinfo[slot, 2])
            if ply > 0:  # at the root only the move is used: the best move must be found
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                alpha = max(alpha, lo)
                beta = min(beta, hi)
        # fastest first: the fewest replies first, corners and the table's move before all
        rest = moves
        while rest:
            low = rest & (~rest + ONE)
            rest ^= low
            sq = popcount64(low - ONE)
            f = flips_of(me, opp, sq)
            k = popcount64(moves_of(opp ^ f, me | f | low)) * 16
            if low & CORNERS:
                k -= 32
            if quadrant_parity_odd(empty, sq):
                k -= 4
            if sq == table_move:
                k = -1000
            j = n
            while j > 0 and keys[n_empty, j - 1] > k:
                buf[n_empty, j] = buf[n_empty, j - 1]
                keys[n_empty, j] = keys[n_empty, j - 1]
                fbuf[n_empty, j] = fbuf[n_empty, j - 1]
                j -= 1
            buf[n_empty, j] = sq
            keys[n_empty, j] = k
            fbuf[n_empty, j] = f
            n += 1
    best = -INF
    best_move = buf[n_empty, 0]
    a = alpha
    for i in range(n):
        sq = buf[n_empty, i]
        f = fbuf[n_empty, i]
        child_me, child_opp = opp ^ f, me | f | (ONE << np.uint64(sq))
        if i == 0:
            v = -solve(child_me, child_opp, -beta, -a, ZERO_I, ply + 1, tkey, tinfo, buf, keys,
                       fbuf, stats)
        else:
            v = -solve(child_me, child_opp, -a - 1, -a, ZERO_I, ply + 1, tkey, tinfo, buf, keys,
                       fbuf, stats)
            if a < v < beta:
                v = -solve(child_me, child_opp, -beta, -v, ZERO_I, ply + 1, tkey, tinfo, buf,
                           keys, fbuf, stats)
        if v > best:
            best = v
            best_move = sq
            if v > a:
                a = v
                if a >= beta:
                    break
    if slot >= 0:
        lo, hi = -INF, INF
        if tkey[slot, 0] == me and tkey[slot, 1] == opp:
            lo, hi = np.int64(tinfo[slot, 0]), np.int64(tinfo[slot, 1])
        if best <= alpha:
            hi = min(hi, best)
        elif best >= beta:
            lo = max(lo, best)
        else:
            lo = hi = best
        tkey[slot, 0], tkey[slot, 1] = me, opp
        tinfo[slot, 0], tinfo[slot, 1], tinfo[slot, 2] = lo, hi, best_move
    if ply == 0:
        stats[1] = best_move
    return best


def quadrant_parity_odd(empty, sq):
    """True when the quadrant of square ``sq`` holds an odd number of empty squares."""
    q = QUADRANT_OF[sq]  # noqa: F821
    return (popcount64(empty & QUADRANTS[q]) & 1) == 1  # noqa: F821


TEMPLATES = (*K.TEMPLATES, stable_discs, last_empty, two_empties, solve, quadrant_parity_odd)


def constants(size: int) -> dict:
    """The compile-time constants of a board size."""
    half = size // 2
    quadrants = np.zeros(4, np.uint64)
    quadrant_of = np.zeros(64, np.int64)
    for r in range(size):
        for c in range(size):
            q = (r >= half) * 2 + (c >= half)
            quadrants[q] |= np.uint64(1 << (r * 8 + c))
            quadrant_of[r * 8 + c] = q
    return {"VALID": K.valid_mask(size), "CELLS": size * size, "CORNERS": K.corner_mask(size),
            "QUADRANTS": quadrants, "QUADRANT_OF": quadrant_of}


@functools.cache
def compiled(size: int = 8):
    """The solver compiled for one board size (cached per process and on disk)."""
    from gamesearch.kernels.specialize import source_tag, specialize

    tag = f"othello_solve{size}_{source_tag(*TEMPLATES)}"
    return specialize(TEMPLATES, constants(size), tag)


class Table:
    """The transposition table: both boards, the score bounds and the best move per slot."""

    def __init__(self, log2_slots: int = 20) -> None:
        n = 1 << log2_slots
        self.keys = np.zeros((n, 2), np.uint64)  # both boards
        self.info = np.zeros((n, 3), np.int8)  # lower bound, upper bound, best move


def solve_position(me: int, opp: int, size: int = 8, table: Table | None = None,
                   alpha: int = -64, beta: int = 64) -> tuple[int, int, int]:
    """``(score, best kernel move, nodes)`` of a position given as two bitboards."""
    ns = compiled(size)
    table = table or Table()
    buf = np.zeros((65, 64), np.int64)
    keys = np.zeros((65, 64), np.int64)
    flips = np.zeros((65, 64), np.uint64)
    stats = np.zeros(2, np.int64)
    stats[1] = -1
    score = ns.solve(np.uint64(me), np.uint64(opp), np.int64(alpha), np.int64(beta),
                     np.int64(0), np.int64(0), table.keys, table.info, buf, keys, flips, stats)
    return int(score), int(stats[1]), int(stats[0])


def solve_entry(game: Any, state: Any, options: dict) -> dict:
    """``gamesearch solve othello --position ...``: the exact score and a best move."""
    if game.is_terminal(state):
        return {"value": game.final_score(state) * (1 if game.to_move(state) == 0 else -1),
                "summary": "the game is over", "best_move": None}
    me, opp, _ = K.encode_state(state, game.size)
    empties = state[0].count("-")
    if empties > 30:
        raise GameSearchError(f"othello solve: {empties} empty squares is beyond an exact "
                              "solve here (30 at most); play some moves first")
    began = time.perf_counter()
    score, move, nodes = solve_position(int(me), int(opp), game.size,
                                        Table(int(options.get("table") or 20)))
    seconds = time.perf_counter() - began
    best = game.action_to_string(state, K.decode_action(move, game.size))
    side = "black" if game.to_move(state) == 0 else "white"
    verdict = "wins" if score > 0 else "loses" if score < 0 else "draws"
    return {"value": score, "best_move": best, "nodes": nodes,
            "seconds": round(seconds, 3), "nodes_per_second": round(nodes / max(seconds, 1e-9)),
            "summary": f"{side} to move {verdict} by {abs(score)} discs with best play "
                       f"({best}), exact; {nodes:,} nodes in {seconds:.2f} s"}
