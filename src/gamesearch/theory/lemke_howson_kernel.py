"""The Lemke-Howson walk compiled with numba (the readable form is lemke_howson.py's
:func:`~gamesearch.theory.lemke_howson.lemke_howson_reference`; tests check they agree).

Both tableaux are dense float arrays with one column per label and a last column for the
right-hand side; the minimum-ratio test breaks ties lexicographically over the columns of
the initial basis, as the reference does.
"""

from __future__ import annotations

import numpy as np
from numba import njit

TIE = 1e-12


@njit(cache=True)
def _pivot(tab, basis, initial, entering):
    """Pivot label ``entering`` into the tableau; return (leaving label, tie flag)."""
    rows, cols = tab.shape
    best = -1
    best_ratio = 0.0
    ties = 0
    for r in range(rows):
        c = tab[r, entering]
        if c <= TIE:
            continue
        ratio = tab[r, cols - 1] / c
        if best < 0 or ratio < best_ratio - TIE:
            best, best_ratio = r, ratio
            ties = 0
        elif ratio <= best_ratio + TIE:
            ties = 1
            # lexicographic comparison over the initial basis columns
            for k in range(initial.shape[0]):
                col = initial[k]
                u = tab[r, col] / c
                w = tab[best, col] / tab[best, entering]
                if u < w - TIE:
                    best = r
                    best_ratio = min(ratio, best_ratio)
                    break
                if u > w + TIE:
                    break
    if best < 0:
        return -1, ties
    p = tab[best, entering]
    for k in range(cols):
        tab[best, k] /= p
    for r in range(rows):
        if r == best:
            continue
        f = tab[r, entering]
        if f != 0.0:
            for k in range(cols):
                tab[r, k] -= f * tab[best, k]
    leaving = basis[best]
    basis[best] = entering
    return leaving, ties


@njit(cache=True)
def lemke_howson_float(a, b, label, max_pivots):
    """The equilibrium (x, y) (unnormalized) reached by dropping ``label``, the number of
    ratio-test ties, and the number of pivots (-1 when ``max_pivots`` ran out)."""
    m, n = a.shape
    width = m + n + 1
    p_tab = np.zeros((n, width))
    for j in range(n):
        for i in range(m):
            p_tab[j, i] = b[i, j]
        p_tab[j, m + j] = 1.0
        p_tab[j, width - 1] = 1.0
    q_tab = np.zeros((m, width))
    for i in range(m):
        q_tab[i, i] = 1.0
        for j in range(n):
            q_tab[i, m + j] = a[i, j]
        q_tab[i, width - 1] = 1.0
    p_basis = np.arange(m, m + n)
    q_basis = np.arange(0, m)
    p_initial = p_basis.copy()
    q_initial = q_basis.copy()
    in_p = label < m
    entering = label
    ties = 0
    pivots = 0
    while True:
        if in_p:
            leaving, t = _pivot(p_tab, p_basis, p_initial, entering)
        else:
            leaving, t = _pivot(q_tab, q_basis, q_initial, entering)
        ties += t
        pivots += 1
        if leaving == label or leaving < 0 or pivots >= max_pivots:
            if pivots >= max_pivots and leaving != label:
                pivots = -1
            break
        entering = leaving
        in_p = not in_p
    x = np.zeros(m)
    y = np.zeros(n)
    for r in range(n):
        if p_basis[r] < m:
            x[p_basis[r]] = p_tab[r, width - 1]
    for r in range(m):
        if q_basis[r] >= m:
            y[q_basis[r] - m] = q_tab[r, width - 1]
    return x, y, ties, pivots
