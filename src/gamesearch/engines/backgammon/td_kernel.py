"""TD-Gammon compiled: the encoding, the network's values, depth 2 and a whole self-play
training game in numba, beside the readable numpy versions in ``backgammon_td.py`` and
``backgammon_training.py`` (tests/test_td_gammon.py checks that both give the same numbers).

The network's weights are passed as arrays ``w1t (inputs, hidden)`` (the first layer
transposed), ``b1 (hidden), w2 (hidden), b2 (1,)`` (``b2`` is the 0-d parameter reshaped,
a view, so updates reach it). Tesauro's inputs are mostly zero (about 30 of 196 for a
position), so the hidden layer adds only the rows of the non-zero inputs; the TD update
itself is dense (every trace decays).
"""

from __future__ import annotations

import math

import numpy as np

from gamesearch.games import backgammon_kernel
from gamesearch.games.backgammon_kernel import _mirror, generate
from gamesearch.kernels.specialize import compile_in_place

TESAURO_INPUTS = 196
FEATURE_INPUTS = 4  # the expert features after Tesauro's units (see encode_row)
_ROLLS = np.array([[a, b] for a in range(6, 0, -1) for b in range(a, 0, -1)], dtype=np.int64)
_PROBS = np.array([1 / 36 if a == b else 1 / 18 for a, b in _ROLLS])


def _sigmoid(z):
    if z > 60.0:
        z = 60.0
    elif z < -60.0:
        z = -60.0
    return 1.0 / (1.0 + math.exp(-z))


def _blocked(row, point):
    """The mover (who just moved) holds ``point`` (two or more checkers)."""
    return 1 <= point <= 24 and row[point] >= 2


def _hits(row, blots, nb, sources, ns, d1, d2):
    """Whether the roll (d1, d2) lets one of the opponent's checkers hit a blot."""
    for b in range(nb):
        p = blots[b]
        for s in range(ns):
            q = sources[s]
            if q >= p:
                break
            dist = p - q
            if dist in (d1, d2):
                return True
            if d1 != d2:
                if dist == d1 + d2 and (not _blocked(row, q + d1) or not _blocked(row, q + d2)):
                    return True
            elif dist % d1 == 0 and dist // d1 <= 4:
                open_path = True
                for k in range(1, dist // d1):
                    if _blocked(row, q + k * d1):
                        open_path = False
                if open_path:
                    return True
    return False


def hit_chance(row):
    """The fraction of the opponent's 36 rolls that hit at least one of the mover's blots
    (row as after a play, the opponent next to roll; it moves 1 -> 24 in the mover's
    numbering, its bar counting as point 0). A checker may hit with one die or with the
    whole roll when the points stepped on are open; the rule that the bar enters first is
    ignored (Berliner's "shots", approximately)."""
    blots = np.empty(24, dtype=np.int64)
    sources = np.empty(25, dtype=np.int64)
    nb = ns = 0
    for p in range(1, 25):
        if row[p] == 1:
            blots[nb] = p
            nb += 1
    if nb == 0:
        return 0.0
    for q in range(0, 25):
        if (row[51] if q == 0 else row[26 + q]) > 0:
            sources[ns] = q
            ns += 1
    hits = 0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):  # d1-d2 hits as d2-d1 does: count it twice
            if _hits(row, blots, nb, sources, ns, d1, d2):
                hits += 1 if d1 == d2 else 2
    return hits / 36.0


def _expert(row):
    """The four expert inputs of ``row``: the mover's and the opponent's pip counts / 100,
    the opponent's chance of hitting a blot (:func:`hit_chance`), 1 for a race."""
    mine, theirs = 25 * row[25], 25 * row[51]
    back, front = 0, 25  # the mover's rearmost checker, the opponent's rearmost
    for p in range(1, 25):
        mine += p * row[p]
        theirs += (25 - p) * row[26 + p]
        if row[p] > 0:
            back = p
    if row[25] > 0:
        back = 25
    for p in range(24, 0, -1):
        if row[26 + p] > 0:
            front = p
    if row[51] > 0:
        front = 0
    return mine / 100.0, theirs / 100.0, hit_chance(row), 1.0 if back < front else 0.0


def encode_row(row, features, x):
    """Tesauro's 196 units of ``row`` into ``x``; with ``features`` the four of
    :func:`_expert` after them."""
    for side in range(2):
        base = 98 * side
        for p in range(1, 25):
            n = row[26 * side + p]
            k = base + 4 * (p - 1)
            x[k] = 1.0 if n >= 1 else 0.0
            x[k + 1] = 1.0 if n >= 2 else 0.0
            x[k + 2] = 1.0 if n >= 3 else 0.0
            x[k + 3] = (n - 3.0) / 2.0 if n > 3 else 0.0
        x[base + 96] = row[26 * side + 25] / 2.0
        x[base + 97] = row[26 * side] / 15.0
    if features:
        x[196], x[197], x[198], x[199] = _expert(row)


def _put(idx, val, nnz, i, v):
    """Append input ``i`` of value ``v`` to a sparse vector when it is not zero."""
    if v != 0.0:
        idx[nnz] = i
        val[nnz] = v
        return nnz + 1
    return nnz


def encode_sparse(row, features, idx, val):
    """:func:`encode_row`'s non-zero inputs, in increasing order: indices into ``idx``,
    values into ``val``; returns how many."""
    nnz = 0
    for side in range(2):
        base = 98 * side
        for p in range(1, 25):
            n = row[26 * side + p]
            if n >= 1:
                k = base + 4 * (p - 1)
                nnz = _put(idx, val, nnz, k, 1.0)
                if n >= 2:
                    nnz = _put(idx, val, nnz, k + 1, 1.0)
                if n >= 3:
                    nnz = _put(idx, val, nnz, k + 2, 1.0)
                if n > 3:
                    nnz = _put(idx, val, nnz, k + 3, (n - 3.0) / 2.0)
        nnz = _put(idx, val, nnz, base + 96, row[26 * side + 25] / 2.0)
        nnz = _put(idx, val, nnz, base + 97, row[26 * side] / 15.0)
    if features:
        f = _expert(row)
        for k in range(4):
            nnz = _put(idx, val, nnz, 196 + k, f[k])
    return nnz


def _sparse_value(w1t, b1, w2, b2, idx, val, nnz, h):
    """The network's output at the sparse input (idx, val)[:nnz]; ``h`` gets the hidden
    activations. ``w1t`` is the first layer transposed (inputs, hidden): each non-zero
    input adds one contiguous row."""
    hidden = b1.shape[0]
    h[:] = b1
    for k in range(nnz):
        row = w1t[idx[k]]
        v = val[k]
        for j in range(hidden):
            h[j] += row[j] * v
    z = b2[0]
    for j in range(hidden):
        h[j] = _sigmoid(h[j])
        z += w2[j] * h[j]
    return _sigmoid(z)


def _value(w1t, b1, w2, b2, x, idx, val, h):
    """The network's output at the dense input ``x`` (summing its non-zero inputs)."""
    nnz = 0
    for i in range(x.shape[0]):
        nnz = _put(idx, val, nnz, i, x[i])
    return _sparse_value(w1t, b1, w2, b2, idx, val, nnz, h)


def row_values(w1t, b1, w2, b2, rows, n, features, out):
    """P(the player who just moved wins) for rows[:n] into out[:n]; 1 where it has borne
    off all fifteen. ``w1t``: the first layer transposed, (inputs, hidden)."""
    idx = np.empty(w1t.shape[0], dtype=np.int64)
    val = np.empty(w1t.shape[0])
    h = np.empty(w1t.shape[1])
    for i in range(n):
        if rows[i, 0] == 15:
            out[i] = 1.0
        else:
            nnz = encode_sparse(rows[i], features, idx, val)
            out[i] = _sparse_value(w1t, b1, w2, b2, idx, val, nnz, h)


def depth2_values(w1t, b1, w2, b2, rows, n, features, out, work, dies):
    """TD-Gammon's depth 2 for rows[:n]: the average over the opponent's 21 rolls of 1 -
    (its best reply's 0-ply value)."""
    my = np.empty(26, dtype=np.int64)
    opp = np.empty(26, dtype=np.int64)
    replies = np.empty(work.shape[0])
    for i in range(n):
        if rows[i, 0] == 15:
            out[i] = 1.0
            continue
        _mirror(rows[i], my, opp)
        total = 0.0
        for r in range(_ROLLS.shape[0]):
            m = generate(my, opp, _ROLLS[r, 0], _ROLLS[r, 1], work, dies)
            row_values(w1t, b1, w2, b2, work, m, features, replies)
            best = replies[0]
            for k in range(1, m):
                if replies[k] > best:
                    best = replies[k]
            total += _PROBS[r] * (1.0 - best)
        out[i] = total


def _td_step(w1t, b1, w2, b2, e1t, eb1, ew2, eb2, x, idx, val, h, target, flip, alpha,
             lam):
    """One TD(lambda) update of the prediction at ``x`` towards ``target`` (as
    :meth:`gamesearch.learn.td.TDLambda.step`, in the same order of operations; first
    layer and its traces transposed)."""
    v = _value(w1t, b1, w2, b2, x, idx, val, h)
    prediction = 1.0 - v if flip else v
    sign = -1.0 if flip else 1.0
    delta = target - prediction
    step = alpha * delta
    dv = v * (1.0 - v)
    hidden = b1.shape[0]
    dh = np.empty(hidden)
    for j in range(hidden):
        dh[j] = dv * w2[j] * h[j] * (1.0 - h[j])
    for i in range(w1t.shape[0]):
        xi = x[i]
        for j in range(hidden):
            e1t[i, j] = e1t[i, j] * lam + sign * (dh[j] * xi)
            w1t[i, j] += step * e1t[i, j]
    for j in range(hidden):
        eb1[j] = eb1[j] * lam + sign * dh[j]
        b1[j] += step * eb1[j]
        ew2[j] = ew2[j] * lam + sign * (dv * h[j])
        w2[j] += step * ew2[j]
    eb2[0] = eb2[0] * lam + sign * dv
    b2[0] += step * eb2[0]


def train_game(w1, b1, w2, b2, e1, eb1, ew2, eb2, alpha, lam, first_roll, dice, features,
               work, dies):
    """One greedy self-play game with TD(lambda) updates, the weights and traces changed in
    place (the traces must start at zero). ``first_roll`` is the opening (d1, d2), ``dice``
    the rolls after it, one row a play. Returns the number of plays, or -1 if the game
    outlasted ``dice``. The compiled twin of
    :func:`gamesearch.engines.backgammon.training.train_game`."""
    w1t = w1.T.copy()  # contiguous rows per input for the sparse sums; copied back at the end
    e1t = e1.T.copy()
    plays = _play(w1t, b1, w2, b2, e1t, eb1, ew2, eb2, alpha, lam, first_roll, dice,
                  features, work, dies)
    w1[:, :] = w1t.T
    e1[:, :] = e1t.T
    return plays


def _play(w1t, b1, w2, b2, e1t, eb1, ew2, eb2, alpha, lam, first_roll, dice, features,
          work, dies):
    """The game of :func:`train_game`, on the transposed first layer."""
    my = np.empty(26, dtype=np.int64)
    opp = np.empty(26, dtype=np.int64)
    my[:] = 0
    opp[:] = 0
    my[24], my[13], my[8], my[6] = 2, 5, 3, 5
    opp[1], opp[12], opp[17], opp[19] = 2, 5, 3, 5
    inputs = w1t.shape[0]
    previous = np.zeros(inputs)
    idx = np.empty(inputs, dtype=np.int64)
    val = np.empty(inputs)
    h = np.empty(w1t.shape[1])
    values = np.empty(work.shape[0])
    d1, d2 = first_roll[0], first_roll[1]
    first = mover = 0 if d1 > d2 else 1
    have_previous, previous_flip = False, False
    for plays in range(1, dice.shape[0] + 2):
        n = generate(my, opp, max(d1, d2), min(d1, d2), work, dies)
        row_values(w1t, b1, w2, b2, work, n, features, values)
        i = 0
        for k in range(1, n):
            if values[k] > values[i]:
                i = k
        flip = mover != first
        target = 1.0 - values[i] if flip else values[i]
        if have_previous:
            _td_step(w1t, b1, w2, b2, e1t, eb1, ew2, eb2, previous, idx, val, h, target,
                     previous_flip, alpha, lam)
        if work[i, 0] == 15:
            return plays
        encode_row(work[i], features, previous)
        have_previous, previous_flip = True, flip
        _mirror(work[i], my, opp)
        mover = 1 - mover
        if plays > dice.shape[0]:
            break
        d1, d2 = dice[plays - 1, 0], dice[plays - 1, 1]
    return -1


TEMPLATES = (_sigmoid, _blocked, _hits, hit_chance, _expert, encode_row, _put, encode_sparse,
             _sparse_value, _value, row_values, depth2_values, _td_step, train_game, _play)
"""Compiled together by ``kernels.specialize``, under a tag that also covers the move
generator they call (games/backgammon_kernel.py): an edit to either recompiles them."""


compile_in_place(globals(), TEMPLATES, "backgammon_td", (backgammon_kernel,))
