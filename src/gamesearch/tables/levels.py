"""The retrograde solve of one slice level by level, compiled: what :func:`sweep.sweep`
decides pass by pass, with each position's moves generated twice instead of once a pass.

The first two steps link the slice backwards: ``link_out`` generates every undecided
position's moves, counts the moves that stay in the slice (at both ends) and folds the
moves that leave it (captures, promotions: the slices built before) into three facts,
the soonest loss it can reach (a win scheduled one ply later), the longest win, and
whether a move leaves for a draw or a loss (then it never loses). ``link_in`` generates
the moves again and writes, for each slot, the list of slots that move into it.

Then ``decide_level(L)`` settles every position whose distance is ``L`` and tells its
predecessors: a loss schedules each undecided predecessor as a win at ``L + 1``; a win
takes one from the predecessor's count of moves not yet known to reach a win, and at
zero (with no move leaving for a draw or a loss) the predecessor is a loss at
``1 + max(L, its longest win outside)``. This is the forward passes' rule exactly (a
position decided in pass ``k`` there has distance ``k``), so the values and distances are
the same; tests/test_retrograde_levels.py compares the two on checkers and chess.

Bound by :func:`gamesearch.kernels.specialize.specialize` to the same ``legal``, ``play``,
``state_at`` and ``locate`` as sweep.py.
"""

from __future__ import annotations

import numpy as np

from gamesearch.tables.sweep import LOSS, MAX_DISTANCE, UNKNOWN, WIN

TOO_LONG = -2
"""``decide_level``'s answer when a distance would pass ``MAX_DISTANCE``."""


def link_out(values, dist, meta, sid, lo, hi, a, b, buf, inside, npred, sched, out_win,
             blocked):
    """Slots ``a .. b - 1`` of the slice ``lo .. hi - 1``: count the moves into the slice
    (``inside`` at the mover, ``npred`` at the target), and fold the moves out of it into
    ``sched`` (the soonest loss reached, plus one), ``out_win`` (the longest win reached)
    and ``blocked`` (a move reaches a draw or a loss: never a loss). Returns how many moves
    reach no slot of the tables or an unsolved one (a wrong build order) and, as a second
    count, how many schedules would pass ``MAX_DISTANCE``."""
    missing = 0
    too_long = 0
    for j in range(a, b):
        if values[j] != UNKNOWN:
            continue
        i = j - lo
        s = state_at(meta, sid, i)  # noqa: F821  (bound by specialize)
        n = legal(s, buf)  # noqa: F821
        for m in range(n):
            t = locate(meta, play(s, buf[m]))  # noqa: F821
            if t < 0:
                missing += 1
            elif lo <= t < hi:
                inside[i] += 1
                npred[t - lo] += 1
            else:
                v = values[t]
                d = np.int64(dist[t])
                if v == UNKNOWN:
                    missing += 1
                elif v == LOSS:
                    blocked[i] = 1
                    if d + 1 > MAX_DISTANCE:
                        too_long += 1
                    elif sched[i] == 0 or d + 1 < sched[i]:
                        sched[i] = d + 1
                elif v == WIN:
                    if d > out_win[i]:
                        out_win[i] = d
                else:
                    blocked[i] = 1
    return missing, too_long


def link_in(values, meta, sid, lo, a, b, buf, start, fill, pred):
    """Slots ``a .. b - 1``: write each move into the slice backwards, ``pred[start[t] +
    k]`` holding the k-th slot found to move into ``t`` (``fill`` counts them)."""
    hi = lo + start.shape[0] - 1
    for j in range(a, b):
        if values[j] != UNKNOWN:
            continue
        i = j - lo
        s = state_at(meta, sid, i)  # noqa: F821
        n = legal(s, buf)  # noqa: F821
        for m in range(n):
            t = locate(meta, play(s, buf[m]))  # noqa: F821
            if lo <= t < hi:
                k = t - lo
                pred[start[k] + fill[k]] = i
                fill[k] += 1


def seed_losses(values, lo, hi, inside, sched, out_win, blocked):
    """Positions whose every move leaves the slice for a win: a loss one ply after the
    longest. Returns the latest level scheduled, or ``TOO_LONG``."""
    latest = 0
    for j in range(lo, hi):
        i = j - lo
        if values[j] == UNKNOWN and inside[i] == 0 and blocked[i] == 0:
            level = np.int64(out_win[i]) + 1
            if level > MAX_DISTANCE:
                return TOO_LONG
            sched[i] = level
        if values[j] == UNKNOWN and sched[i] > latest:
            latest = sched[i]
    return latest


def decide_level(values, dist, lo, hi, level, start, pred, inside, sched, out_win, blocked,
                 frontier):
    """Settle the positions of distance ``level`` (at level 0, the ends ``mark_ends``
    found) and schedule what they decide. Returns the latest level scheduled by this call
    (0 if none), or ``TOO_LONG``."""
    count = 0
    for j in range(lo, hi):
        i = j - lo
        if level == 0:
            if dist[j] == 0 and (values[j] == WIN or values[j] == LOSS):
                frontier[count] = i
                count += 1
        elif values[j] == UNKNOWN and sched[i] == level:
            values[j] = LOSS if (inside[i] == 0 and blocked[i] == 0) else WIN
            dist[j] = level
            frontier[count] = i
            count += 1
    latest = 0
    for f in range(count):
        t = frontier[f]
        lost = values[lo + t] == LOSS
        for e in range(start[t], start[t + 1]):
            p = pred[e]
            if values[lo + p] != UNKNOWN:
                continue
            if lost:
                if sched[p] == 0 or sched[p] > level + 1:
                    if level + 1 > MAX_DISTANCE:
                        return TOO_LONG
                    sched[p] = level + 1
                    latest = max(latest, level + 1)
            else:
                inside[p] -= 1
                if inside[p] == 0 and blocked[p] == 0:
                    at = max(np.int64(level), np.int64(out_win[p])) + 1
                    if at > MAX_DISTANCE:
                        return TOO_LONG
                    sched[p] = at
                    latest = max(latest, at)
    return latest


TEMPLATES = (link_out, link_in, seed_losses, decide_level)
