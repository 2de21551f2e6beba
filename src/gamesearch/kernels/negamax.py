"""Generic compiled negamax alpha-beta: templates written once against the kernel contract.

These are plain Python functions; :func:`gamesearch.kernels.specialize.specialize` compiles a
copy per game with the game's primitives bound to the names used here (``legal``, ``play``,
``is_terminal``, ``terminal_value``, ``evaluate``, ``to_move``, ``key``, ``MAX_ACTIONS``). See
docs/KERNELS.md for the contract. Values are for the player to move (negamax), which is the
alpha-beta value from the root player's viewpoint at the root. Turns need not alternate: a
child with the same player to move (an extra turn) is searched with the same window and
its value kept, not negated.

The transposition table is five numpy arrays of one fixed size (a power of two, set from a
memory cap by :func:`gamesearch.kernels.search.table_entries`): full 64-bit keys, values,
remaining depth, bound kind and best move. Replacement: always replace (the newest entry wins
its slot), as in Pons' Connect Four solver; a full key is checked on every probe, so a
collision only costs a lookup, never a wrong value.
"""

from __future__ import annotations

import time

import numpy as np
from numba import objmode

EXACT, LOWER, UPPER = 0, 1, 2
PROVEN_DEPTH = 30000  # the depth stored for a value that rests on ends of games only
GOLDEN = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit integer

# statistics slots shared with the Python wrapper; NODE_LIMIT > 0 stops the search once
# that many nodes are counted, DEADLINE > 0 once time.perf_counter() in microseconds reaches
# it (looked at every CLOCK_EVERY nodes), and ABORTED says one of them happened
NODES, LEAVES, TT_HITS, CUTOFFS, UNPROVEN, NODE_LIMIT, ABORTED, DEADLINE = 0, 1, 2, 3, 4, 5, 6, 7
N_STATS = 8
CLOCK_EVERY = 1024  # a clock reading costs ~2 us (numba's object mode); nodes cost ~0.3 us


def now_us():
    """time.perf_counter() in whole microseconds, read from compiled code."""
    with objmode(t="int64"):
        t = int(time.perf_counter() * 1e6)
    return t


def tt_slot(k, size):
    """The table slot of key ``k`` (Fibonacci hashing; size is a power of two)."""
    return ((k * GOLDEN) >> 17) & (size - 1)


def negamax(s, depth, alpha, beta, ply, use_tt, pvs, tt_keys, tt_vals, tt_depth, tt_flag,
            tt_move, moves_buf, stats, root_move):
    """Fail-soft negamax alpha-beta to ``depth`` plies with a table and optional PVS; at the
    root (ply 0) the best action goes to ``root_move[0]``.

    (The root is not a separate function: numba's cache crashes when a cached function
    calls a cached recursive one, so the recursion is the only entry point.)"""
    if is_terminal(s):  # noqa: F821  (bound by specialize)
        stats[LEAVES] += 1
        return terminal_value(s)  # noqa: F821
    if depth <= 0:
        stats[LEAVES] += 1
        stats[UNPROVEN] += 1
        return evaluate(s)  # noqa: F821
    stats[NODES] += 1
    if stats[NODE_LIMIT] > 0 and stats[NODES] > stats[NODE_LIMIT]:
        stats[ABORTED] = 1
        return 0.0
    if stats[DEADLINE] > 0 and stats[NODES] % CLOCK_EVERY == 0 and now_us() >= stats[DEADLINE]:
        stats[ABORTED] = 1
        return 0.0
    unproven0 = stats[UNPROVEN]
    k = key(s)  # noqa: F821
    slot = tt_slot(k, tt_keys.shape[0])
    hint = -1
    if use_tt and tt_keys[slot] == k:
        hint = tt_move[slot]
        if tt_depth[slot] >= depth and ply > 0:  # the root always searches: it names a move
            v = tt_vals[slot]
            f = tt_flag[slot]
            if tt_depth[slot] < PROVEN_DEPTH:
                stats[UNPROVEN] += 1
            if f == EXACT:
                stats[TT_HITS] += 1
                return v
            if f == LOWER and v > alpha:
                alpha = v
            elif f == UPPER and v < beta:
                beta = v
            if alpha >= beta:
                stats[TT_HITS] += 1
                return v
    alpha0 = alpha
    moves = moves_buf[ply]
    n = legal(s, moves)  # noqa: F821
    if hint >= 0:  # the table's move first, the rest in the game's order
        for i in range(n):
            if moves[i] == hint:
                for j in range(i, 0, -1):
                    moves[j] = moves[j - 1]
                moves[0] = hint
                break
    best = -np.inf
    best_move = moves[0]
    mover = to_move(s)  # noqa: F821
    for i in range(n):
        child = play(s, moves[i])  # noqa: F821
        # A child with the same player to move (an extra turn, as in Dots and Boxes) keeps
        # the window and the value's sign; otherwise both flip (negamax).
        sign = 1.0 if to_move(child) == mover else -1.0  # noqa: F821
        lo, hi = (alpha, beta) if sign > 0 else (-beta, -alpha)
        if i == 0 or not pvs:
            v = sign * negamax(child, depth - 1, lo, hi, ply + 1, use_tt, pvs, tt_keys,
                               tt_vals, tt_depth, tt_flag, tt_move, moves_buf, stats, root_move)
        else:
            # a null window just above alpha, from the child's mover's viewpoint
            if sign > 0:
                lo, hi = alpha, np.nextafter(alpha, np.inf)
            else:
                lo, hi = -np.nextafter(alpha, np.inf), -alpha
            v = sign * negamax(child, depth - 1, lo, hi, ply + 1, use_tt, pvs, tt_keys,
                               tt_vals, tt_depth, tt_flag, tt_move, moves_buf, stats, root_move)
            if alpha < v < beta:
                lo, hi = (alpha, beta) if sign > 0 else (-beta, -alpha)
                v = sign * negamax(child, depth - 1, lo, hi, ply + 1, use_tt, pvs, tt_keys,
                                   tt_vals, tt_depth, tt_flag, tt_move, moves_buf, stats,
                                   root_move)
        if stats[ABORTED]:  # out of time: unwind without storing anything
            return 0.0
        if v > best:
            best = v
            best_move = moves[i]
        if v > alpha:
            alpha = v
        if alpha >= beta:
            stats[CUTOFFS] += 1
            break
    if ply == 0:
        root_move[0] = best_move
    if use_tt:
        tt_keys[slot] = k
        tt_vals[slot] = best
        tt_depth[slot] = PROVEN_DEPTH if stats[UNPROVEN] == unproven0 else depth
        tt_flag[slot] = UPPER if best <= alpha0 else (LOWER if best >= beta else EXACT)
        tt_move[slot] = best_move
    return best


TEMPLATES = (tt_slot, now_us, negamax)
