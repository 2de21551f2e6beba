"""Support enumeration's inner loop compiled with numba: every pair of equal-size supports,
the two indifference systems solved by Gaussian elimination, the equilibrium conditions
checked in place. The readable form is support_enumeration.py's
:func:`~gamesearch.theory.support_enumeration.support_enumeration_reference`; tests check
they find the same equilibria.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _next_combination(c, n):
    """Advance the sorted index tuple ``c`` (k of range(n)) in place; False after the last."""
    k = c.shape[0]
    i = k - 1
    while i >= 0 and c[i] == n - k + i:
        i -= 1
    if i < 0:
        return False
    c[i] += 1
    for j in range(i + 1, k):
        c[j] = c[j - 1] + 1
    return True


@njit(cache=True)
def _equalizer(m, rows, cols, transpose, work, out, singular):
    """Solve M[rows, cols] p = v 1, sum(p) = 1 (M transposed when ``transpose``) into
    ``out`` (p then v); False when the system is singular."""
    k = rows.shape[0]
    size = k + 1
    for r in range(k):
        for c in range(k):
            work[r, c] = m[rows[c], cols[r]] if transpose else m[rows[r], cols[c]]
        work[r, k] = -1.0
        work[r, size] = 0.0
    for c in range(k):
        work[k, c] = 1.0
    work[k, k] = 0.0
    work[k, size] = 1.0
    for col in range(size):  # Gaussian elimination with partial pivoting
        piv = col
        for r in range(col + 1, size):
            if abs(work[r, col]) > abs(work[piv, col]):
                piv = r
        if abs(work[piv, col]) < singular:
            return False
        if piv != col:
            for c in range(size + 1):
                tmp = work[col, c]
                work[col, c] = work[piv, c]
                work[piv, c] = tmp
        for r in range(col + 1, size):
            f = work[r, col] / work[col, col]
            if f != 0.0:
                for c in range(col, size + 1):
                    work[r, c] -= f * work[col, c]
    for r in range(size - 1, -1, -1):
        s = work[r, size]
        for c in range(r + 1, size):
            s -= work[r, c] * out[c]
        out[r] = s / work[r, r]
    return True


@njit(cache=True)
def support_candidates_kernel(a, b, k, tol, capacity):
    """Row and column supports of size k (arrays count x k) whose indifference solutions
    pass every equilibrium condition to ``tol``, with those solutions (the probabilities of
    the support strategies); count is -1 if more than ``capacity``."""
    m, n = a.shape
    found_rows = np.zeros((capacity, k), dtype=np.int64)
    found_cols = np.zeros((capacity, k), dtype=np.int64)
    found_x = np.zeros((capacity, k))
    found_y = np.zeros((capacity, k))
    count = 0
    work = np.zeros((k + 1, k + 2))
    y = np.zeros(k + 1)
    x = np.zeros(k + 1)
    singular = 1e-12
    rows = np.arange(k)
    while True:
        cols = np.arange(k)
        while True:
            ok = _equalizer(a, rows, cols, False, work, y, singular)
            if ok:
                for t in range(k):
                    if y[t] < -tol:
                        ok = False
                        break
            if ok:  # no row pays the row player more than v against y
                for i in range(m):
                    s = 0.0
                    for t in range(k):
                        s += a[i, cols[t]] * y[t]
                    if s > y[k] + tol:
                        ok = False
                        break
            if ok:
                ok = _equalizer(b, rows, cols, True, work, x, singular)
            if ok:
                for t in range(k):
                    if x[t] < -tol:
                        ok = False
                        break
            if ok:
                for j in range(n):
                    s = 0.0
                    for t in range(k):
                        s += x[t] * b[rows[t], j]
                    if s > x[k] + tol:
                        ok = False
                        break
            if ok:
                if count == capacity:
                    return found_rows, found_cols, found_x, found_y, -1
                found_rows[count] = rows
                found_cols[count] = cols
                found_x[count] = x[:k]
                found_y[count] = y[:k]
                count += 1
            if not _next_combination(cols, n):
                break
        if not _next_combination(rows, m):
            break
    return found_rows[:count], found_cols[:count], found_x[:count], found_y[:count], count
