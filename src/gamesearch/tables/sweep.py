"""The retrograde sweep of retrograde.py, compiled: templates bound (by
:func:`gamesearch.kernels.specialize.specialize`) to a game's kernel primitives ``legal``
and ``play`` and to its table indexing ``state_at(meta, slice, slot)`` and
``locate(meta, state)`` (the slot of any position in the tables, -1 if absent), and to
``end_value(s, buf)``: the value of a position where the game is over (WIN, LOSS, DRAW),
UNKNOWN where it goes on, NO_POSITION for a slot that holds no position. The default
:func:`end_value` (checkers) says a side without a move has lost; chess binds its own
(stalemate is a draw, and its index has slots that hold no position).

Values are one byte a slot while building (UNKNOWN, WIN, LOSS, DRAW, as retrograde.py) and
the distance in plies another (at most 254; a longer one stops the build with an error).
A slot without a position is stored as a draw at distance ``NO_POSITION_DISTANCE`` (255),
which no move reaches and no count includes.
"""

from __future__ import annotations

import numpy as np

UNKNOWN, WIN, LOSS, DRAW, NO_POSITION = 0, 1, 2, 3, 4
MAX_DISTANCE = 254
NO_POSITION_DISTANCE = 255


def end_value(s, buf):
    """The default end of a game: the side to move without a move has lost."""
    return LOSS if legal(s, buf) == 0 else UNKNOWN  # noqa: F821


def mark_ends(values, dist, meta, sid, lo, hi, buf):
    """Pass 0: the ends of games (``end_value``) at distance 0, and the slots that hold no
    position. Returns how many ends."""
    found = 0
    for j in range(lo, hi):
        s = state_at(meta, sid, j - lo)  # noqa: F821  (bound by specialize)
        v = end_value(s, buf)  # noqa: F821
        if v == NO_POSITION:
            values[j] = DRAW
            dist[j] = NO_POSITION_DISTANCE
        elif v != UNKNOWN:
            values[j] = v
            dist[j] = 0
            found += 1
    return found


def sweep(values, dist, meta, sid, lo, hi, k, buf):
    """Pass ``k`` over slots ``lo .. hi - 1`` (one slice): decide what retrograde.py's rule
    decides. Returns (decided, missing, reach): missing counts moves into slots that are
    not in the tables (a wrong build order; the caller stops); reach is the longest
    distance of a won or lost position outside the slice that an undecided one moves to
    (the caller sweeps on at least that far)."""
    decided = 0
    missing = 0
    reach = 0
    for j in range(lo, hi):
        if values[j] != UNKNOWN:
            continue
        s = state_at(meta, sid, j - lo)  # noqa: F821
        n = legal(s, buf)  # noqa: F821
        win_in = 1 << 30
        all_won = True
        longest = 0
        for m in range(n):
            t = locate(meta, play(s, buf[m]))  # noqa: F821
            if t < 0:
                missing += 1
                all_won = False
                continue
            v = values[t]
            d = dist[t]
            if (t < lo or t >= hi) and v in (WIN, LOSS) and d > reach:
                reach = d
            if v in (UNKNOWN, DRAW) or d > k - 1:
                all_won = False
            elif v == LOSS:
                if d < win_in:
                    win_in = d
            elif d > longest:
                longest = d
        if win_in < (1 << 30):
            values[j] = WIN
            dist[j] = win_in + 1
            decided += 1
        elif all_won and n > 0:
            values[j] = LOSS
            dist[j] = longest + 1
            decided += 1
    # decided positions carry distance k: the next pass may use them, this one did not
    # (a child decided in this pass has d = k > k - 1)
    return decided, missing, reach


def settle(values, lo, hi):
    """After the last pass: what no pass decided is a draw."""
    for j in range(lo, hi):
        if values[j] == UNKNOWN:
            values[j] = DRAW


def verify(values, dist, meta, sid, lo, hi, buf):
    """Check every slot of a slice against its moves; returns the first slot that breaks
    the rules of retrograde.py, or -1. A win has a move to a loss one ply shorter and none
    to a shorter loss; a loss has only moves to wins, the longest one ply shorter (no moves:
    distance 0); a draw has no move to a loss and, if it has moves, one to a draw."""
    for j in range(lo, hi):
        s = state_at(meta, sid, j - lo)  # noqa: F821
        v = values[j]
        d = dist[j]
        end = end_value(s, buf)  # noqa: F821
        if end == NO_POSITION:
            if v != DRAW or d != NO_POSITION_DISTANCE:
                return j
            continue
        if end != UNKNOWN:
            if v != end or d != 0:
                return j
            continue
        n = legal(s, buf)  # noqa: F821
        shortest_loss = 1 << 30
        longest_win = -1
        draws = 0
        for m in range(n):
            t = locate(meta, play(s, buf[m]))  # noqa: F821
            if t < 0:
                return j
            if values[t] == LOSS:
                shortest_loss = min(shortest_loss, dist[t])
            elif values[t] == WIN:
                longest_win = max(longest_win, dist[t])
            else:
                draws += 1
        if v == WIN:
            if shortest_loss + 1 != d:
                return j
        elif v == LOSS:
            if (n == 0 and d != 0) or (n > 0 and (draws or shortest_loss < (1 << 30)
                                                  or longest_win + 1 != d)):
                return j
        elif v == DRAW:
            if shortest_loss < (1 << 30) or (n > 0 and draws == 0) or n == 0:
                return j
        else:
            return j
    return -1


TEMPLATES = (mark_ends, sweep, settle, verify)
DEFAULT_END = (end_value,)
"""Compiled with TEMPLATES for a game that binds no ``end_value`` of its own."""


def buffer(max_actions: int) -> np.ndarray:
    """The move buffer a sweep writes into."""
    return np.zeros(max_actions, np.int64)
