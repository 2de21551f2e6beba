"""The checkers engine's compiled search: templates bound to the checkers kernel.

Principal variation search with iterative deepening (the driver is
``engines/checkers/engine.py``), a transposition table, move ordering (the table's move, then
longer captures, killer moves, the history heuristic of from-square and direction),
late-move reductions of quiet moves off the principal variation (never of a capture, a
crowning, the table's move or a killer) and the forced-capture rule as natural
quiescence: at depth 0 a side that must capture goes on capturing, so the
evaluation only ever sees a quiet position; where the other side could capture there
(a pending capture), the mover's replies are searched too, up to ``PENDING`` plies on.
The evaluation is the kernel's features (games/checkers/evaluation.py) times a weight
vector passed in as an array, so learning (engines/checkers/learn.py) changes weights
without compiling anything.

Where endgame databases are loaded, a position with few enough pieces below the root is
not searched: its database value is exact (as in Chinook), scored ``TB_WIN - ply``.

Scores are integers for the side to move: a man is about 100; a win found by search is
``MATE - ply``. ``info`` (int64): [0] nodes, [1] stop, [2] deadline (microseconds of
``perf_counter``, 0: none), [3] best root move, [4] node limit (0: none), [5] deepest ply,
[6] database hits, [7] set when a root move after the first raised alpha (the root move
is then better than the first one searched, even if the iteration is cut). ``order``
holds move-ordering keys per ply; ``pv``/``pv_len`` are the triangular principal-variation
table.
"""

from __future__ import annotations

import functools
import time
from typing import Any

import numpy as np
from numba import objmode

from gamesearch.games.checkers.kernel import CAPTURE, DIR_SHIFT, DRAW_PLIES, primitives

MATE = 30000
TB_WIN = 20000
INF = 32000
MAX_PLY = 96
NODES, STOP, DEADLINE, ROOT_MOVE, NODE_LIMIT, SELDEPTH, TB_HITS, ROOT_ALT = range(8)
N_INFO = 8
EXACT, LOWER, UPPER = 1, 2, 3
KILLER_KEY = 1 << 29
"""The first killer's ordering key (the second's is one less; captures and the table's
move are above, history below)."""
LMR_FROM, LMR_DEPTH = 3, 3
"""Late-move reductions: from the fourth move on, at a depth of 3 or more, one ply..."""
LMR_FROM_2, LMR_DEPTH_2 = 8, 6
"""...and two from the ninth move on at a depth of 6 or more."""
PENDING = 2
"""Quiescence of pending captures: where the side not to move could capture at the horizon,
the mover's replies are searched too, at most this many plies past it (captures always go
on to the end, as the rules force them)."""
TB_CODES = np.array([0, 1, -1, 0], np.int64)  # tables' UNKNOWN, WIN, LOSS, DRAW as a sign


def now_us():
    """time.perf_counter() in whole microseconds, read from compiled code."""
    with objmode(t="int64"):
        t = int(time.perf_counter() * 1e6)
    return t


def weighted(s, w):
    """The weighted features for the side to move (men about 100), as an integer."""
    return weighted_into(s, w, np.zeros((2, w.shape[0])))


def weighted_into(s, w, scratch):
    """``weighted`` with the feature counts written into ``scratch`` (two rows, one per
    side): the search's leaves allocate nothing."""
    mover = s[3]
    me = s[0] if mover == 0 else s[1]
    opp = s[1] if mover == 0 else s[0]
    scratch[:] = 0.0
    mine = scratch[0]
    theirs = scratch[1]
    side_features(me, opp, s[2], mover, mine)  # noqa: F821  (bound by specialize)
    side_features(opp, me, s[2], 1 - mover, theirs)  # noqa: F821
    x = 0.0
    for i in range(w.shape[0]):
        x += w[i] * (mine[i] - theirs[i])
    return int(np.round(x))


def table_value(s, tb_meta, tb_packed):
    """The database's value for the side to move: 1 win, -1 loss, 0 draw, 2 not held."""
    slot = locate(tb_meta, s)  # noqa: F821
    if slot < 0:
        return 2
    code = (tb_packed[slot >> 2] >> (2 * (slot & 3))) & 3
    if code == 0:
        return 2
    return TB_CODES[code]


def order_key(a, hint, k0, k1, history):
    """Higher first: the table's move, longer captures, killers, then history."""
    if a == hint:
        return 1 << 40
    if a & CAPTURE:
        return (1 << 30) + ((a >> 5) & 31)
    if a == k0:
        return KILLER_KEY
    if a == k1:
        return KILLER_KEY - 1
    return history[(a & 31) * 4 + ((a >> DIR_SHIFT) & 3)]


def repeats(s, ply, trail):
    """Record ``s`` at ``ply`` of the line searched; True when the line met the same
    position (same side to move) before, since its last capture or man's move: a draw (the
    rules draw at the third occurrence; a search that finds a way to repeat once can repeat
    again, so the first repetition scores as the draw, as chess engines do)."""
    trail[ply, 0] = s[0]
    trail[ply, 1] = s[1]
    trail[ply, 2] = s[2]
    j = ply - 4  # a position needs two moves of each side to come back
    while j >= 0 and j >= ply - s[4]:
        if trail[j, 0] == s[0] and trail[j, 1] == s[1] and trail[j, 2] == s[2]:
            return True
        j -= 2
    return False


def search(s, depth, alpha, beta, ply, w, tt, killers, history, moves, order, pv, pv_len,
           info, tb_meta, tb_packed, tb_pieces, trail, scratch):
    """Negamax PVS value of ``s`` for the side to move (fail-soft); ``trail`` holds the
    line's positions for the repetition rule; ``tt`` is the table, one row of (key, move,
    data) an entry, so that a probe reads one cache line; ``scratch`` the evaluation's."""
    info[NODES] += 1
    pv_len[ply] = ply
    if ply > info[SELDEPTH]:
        info[SELDEPTH] = ply
    if (info[NODES] & 1023) == 0 and (
            (info[DEADLINE] > 0 and now_us() >= info[DEADLINE])
            or (info[NODE_LIMIT] > 0 and info[NODES] >= info[NODE_LIMIT])):
        info[STOP] = 1
    if info[STOP]:
        return 0
    buf = moves[ply]
    n = legal(s, buf)  # noqa: F821
    if n == 0:
        return -(MATE - ply)
    if s[4] >= DRAW_PLIES or repeats(s, ply, trail):
        return 0
    if ply > 0 and tb_pieces > 0 and popcount(s[0] | s[1]) <= tb_pieces:  # noqa: F821
        v = table_value(s, tb_meta, tb_packed)
        if v != 2:
            info[TB_HITS] += 1
            return v * (TB_WIN - ply)
    must_capture = (buf[0] & CAPTURE) != 0
    if ply >= MAX_PLY - 1:
        return weighted_into(s, w, scratch)
    # a pending capture (the other side could capture now): the mover's replies are
    # searched, at most PENDING plies past the horizon, instead of a static guess
    if depth <= 0 and not must_capture and (
            depth <= -PENDING or count_quiet(s[0], s[1], s[2], 1 - s[3]) >= 0):  # noqa: F821
        return weighted_into(s, w, scratch)
    k = key(s)  # noqa: F821
    size = tt.shape[0]
    slot = k & (size - 1)
    hint = -1
    if tt[slot, 0] == k:
        hint = tt[slot, 1]
        data = tt[slot, 2]
        t_depth = (data >> 2) & 255
        if ply > 0 and t_depth >= depth:
            t_flag = data & 3
            t_score = (data >> 10) - INF
            if t_score > TB_WIN - 1000:
                t_score -= ply
            elif t_score < -(TB_WIN - 1000):
                t_score += ply
            if t_flag == EXACT or (t_flag == LOWER and t_score >= beta) or \
                    (t_flag == UPPER and t_score <= alpha):
                return t_score
    # one legal move costs no depth (a forced reply is not a real choice)
    child_depth = depth if n == 1 else depth - 1
    scores = order[ply]
    for i in range(n):
        scores[i] = order_key(buf[i], hint, killers[ply, 0], killers[ply, 1], history)
    alpha0 = alpha
    best = -INF
    best_move = buf[0]
    for i in range(n):
        top = i
        for j in range(i + 1, n):
            if scores[j] > scores[top]:
                top = j
        a = buf[top]
        buf[top] = buf[i]
        buf[i] = a
        t = scores[top]
        scores[top] = scores[i]
        scores[i] = t
        child = play(s, a)  # noqa: F821
        if i == 0:
            v = -search(child, child_depth, -beta, -alpha, ply + 1, w, tt, killers,
                        history, moves, order, pv, pv_len, info, tb_meta, tb_packed,
                        tb_pieces, trail, scratch)
        else:
            # late-move reduction: a quiet move late in the order (not the table's move, a
            # killer or a capture, nor a crowning) at a node off the principal variation
            # is searched a ply shallower first, and again at full depth if it beats alpha
            reduce = 0
            if i >= LMR_FROM and depth >= LMR_DEPTH and beta - alpha == 1 and \
                    scores[i] < KILLER_KEY - 1 and \
                    popcount(child[2]) == popcount(s[2]):  # noqa: F821
                reduce = 2 if i >= LMR_FROM_2 and depth >= LMR_DEPTH_2 else 1
            v = -search(child, child_depth - reduce, -alpha - 1, -alpha, ply + 1, w, tt,
                        killers, history, moves, order, pv, pv_len, info, tb_meta,
                        tb_packed, tb_pieces, trail, scratch)
            if reduce > 0 and v > alpha and not info[STOP]:
                v = -search(child, child_depth, -alpha - 1, -alpha, ply + 1, w, tt, killers,
                            history, moves, order, pv, pv_len, info, tb_meta, tb_packed,
                            tb_pieces, trail, scratch)
            if alpha < v < beta:
                v = -search(child, child_depth, -beta, -alpha, ply + 1, w, tt, killers,
                            history, moves, order, pv, pv_len, info, tb_meta, tb_packed,
                            tb_pieces, trail, scratch)
        if info[STOP]:
            return 0
        if v > best:
            best = v
            best_move = a
            if v > alpha:
                alpha = v
                pv[ply, ply] = a
                for j in range(ply + 1, pv_len[ply + 1]):
                    pv[ply, j] = pv[ply + 1, j]
                pv_len[ply] = max(pv_len[ply + 1], ply + 1)
                if ply == 0:
                    info[ROOT_MOVE] = a
                    if i > 0:
                        info[ROOT_ALT] = 1
        if alpha >= beta:
            if not (a & CAPTURE):
                if killers[ply, 0] != a:
                    killers[ply, 1] = killers[ply, 0]
                    killers[ply, 0] = a
                h = (a & 31) * 4 + ((a >> DIR_SHIFT) & 3)
                if depth > 0:
                    history[h] += depth * depth
            break
    if ply == 0 and best <= alpha0:
        info[ROOT_MOVE] = best_move
    stored = best
    if stored > TB_WIN - 1000:
        stored += ply
    elif stored < -(TB_WIN - 1000):
        stored -= ply
    flag = UPPER if best <= alpha0 else (LOWER if best >= beta else EXACT)
    tt[slot, 0] = k
    tt[slot, 1] = best_move
    tt[slot, 2] = ((stored + INF) << 10) | (max(depth, 0) << 2) | flag
    return best


TEMPLATES = (now_us, weighted, weighted_into, table_value, order_key, repeats, search)


@functools.cache
def compiled() -> Any:
    """The search compiled against the checkers kernel and index (numba, cached on disk)."""
    from gamesearch.games.checkers import index as I
    from gamesearch.games.checkers import kernel as K
    from gamesearch.kernels.specialize import source_tag, specialize

    prims = primitives()
    bindings = {"legal": prims.legal, "play": prims.play, "key": prims.key,
                "side_features": prims.side_features, "popcount": prims.popcount,
                "count_quiet": prims.count_quiet,
                "locate": I.compiled().locate}
    tag = source_tag(*TEMPLATES, *K.TEMPLATES, *I.TEMPLATES)  # all compiled in (see tables)
    # the search releases the GIL, so a stop from a Python thread reaches it mid-depth even
    # when no deadline makes it read the clock (the tag says so: no GIL-holding cache reused)
    return specialize(TEMPLATES, bindings, f"checkers_search_ng_{tag}", nogil=("search",))


def no_tables() -> tuple[tuple, np.ndarray, int]:
    """Empty database arguments (the search then never probes)."""
    from gamesearch.games.checkers import index as I

    meta, _ = I.table_layout([(0, 0, 0, 1)])
    return meta, np.zeros(1, np.uint8), 0
