"""The vertices of a polytope {z >= 0 : C z <= 1} (C > 0, so it is bounded), found by
walking its graph of feasible bases with simplex pivots, compiled with numba.

Brute force solves every choice of d tight constraints out of d + k (2.7 million systems
for a 12x12 game); the walk visits only the feasible bases, which are far fewer. The graph
of feasible bases of a polytope is connected, so a search from the origin's basis (all
slacks basic) that tries every pivot reaches each of them; in a degenerate polytope a
ratio test with ties branches on every tied leaving variable, so every basis of a vertex
is visited. Each basis is stored as a bitmask of its basic variables (so d + k <= 62);
its tableau is rebuilt from the mask when popped, which keeps the stack small.

Variables: 0..d-1 are z_t (label t), d..d+k-1 the slacks s_r = 1 - (C z)_r (label d + r).
The readable form is vertex_enumeration.py's brute-force ``polytope_vertices_reference``;
tests check they find the same vertices.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.typed import Dict

PIVOT_TOL = 1e-9
"""Entries of a pivot column at most this are treated as zero."""


@njit(cache=True)
def _tableau(c, basis, t, rhs):
    """Fill ``t`` (k x (d+k)) and ``rhs`` with B^-1 [C | I] and B^-1 1 for the basic
    variables ``basis``; reorders ``basis`` so that basis[i] is row i's variable. False
    when the basis is singular."""
    k, d = c.shape
    for r in range(k):
        for j in range(d):
            t[r, j] = c[r, j]
        for j in range(k):
            t[r, d + j] = 1.0 if r == j else 0.0
        rhs[r] = 1.0
    order = basis.copy()
    for i in range(k):  # Gauss-Jordan: row i gets variable order[i]
        col = order[i]
        piv = i
        for r in range(i + 1, k):
            if abs(t[r, col]) > abs(t[piv, col]):
                piv = r
        if abs(t[piv, col]) < 1e-12:
            return False
        if piv != i:
            for j in range(d + k):
                tmp = t[i, j]
                t[i, j] = t[piv, j]
                t[piv, j] = tmp
            tmp = rhs[i]
            rhs[i] = rhs[piv]
            rhs[piv] = tmp
        f = t[i, col]
        for j in range(d + k):
            t[i, j] /= f
        rhs[i] /= f
        for r in range(k):
            if r != i:
                g = t[r, col]
                if g != 0.0:
                    for j in range(d + k):
                        t[r, j] -= g * t[i, j]
                    rhs[r] -= g * rhs[i]
    for i in range(k):
        basis[i] = order[i]
    return True


@njit(cache=True)
def polytope_vertices_kernel(c, tol):
    """(points V x d, label masks V, nonbasic masks V) of the nonzero vertices of
    {z >= 0 : C z <= 1}: one row per vertex, labelled by the constraints tight there
    (within ``tol``), with one basis's nonbasic (tight) set for exact recomputation."""
    k, d = c.shape
    nvar = d + k
    visited = Dict.empty(key_type=types.int64, value_type=types.int64)
    seen = Dict.empty(key_type=types.int64, value_type=types.int64)
    stack = np.empty(64, dtype=np.int64)
    start = np.int64(0)
    for r in range(k):
        start |= np.int64(1) << (d + r)
    stack[0] = start
    top = 1
    visited[start] = 1
    t = np.empty((k, nvar))
    rhs = np.empty(k)
    basis = np.empty(k, dtype=np.int64)
    points = np.empty((16, d))
    labels = np.empty(16, dtype=np.int64)
    tights = np.empty(16, dtype=np.int64)
    count = 0
    while top > 0:
        top -= 1
        mask = stack[top]
        pos = 0
        for v in range(nvar):
            if (mask >> v) & 1:
                basis[pos] = v
                pos += 1
        if not _tableau(c, basis, t, rhs):
            continue
        # The vertex of this basis.
        label = np.int64(0)
        nonzero = False
        for v in range(nvar):
            if not (mask >> v) & 1:
                label |= np.int64(1) << v
        for i in range(k):
            if rhs[i] <= tol:
                label |= np.int64(1) << basis[i]
            elif basis[i] < d:
                nonzero = True
        if nonzero and label not in seen:
            seen[label] = count
            if count == points.shape[0]:
                grown = np.empty((2 * count, d))
                grown[:count] = points
                points = grown
                more = np.empty(2 * count, dtype=np.int64)
                more[:count] = labels
                labels = more
                more = np.empty(2 * count, dtype=np.int64)
                more[:count] = tights
                tights = more
            for j in range(d):
                points[count, j] = 0.0
            for i in range(k):
                if basis[i] < d:
                    points[count, basis[i]] = max(rhs[i], 0.0)
            labels[count] = label
            tights[count] = ~mask & ((np.int64(1) << nvar) - 1)
            count += 1
        # Every pivot: each nonbasic variable enters, each tied minimum-ratio row leaves.
        for j in range(nvar):
            if (mask >> j) & 1:
                continue
            best = np.inf
            for i in range(k):
                if t[i, j] > PIVOT_TOL:
                    ratio = max(rhs[i], 0.0) / t[i, j]
                    if ratio < best:
                        best = ratio
            if best == np.inf:  # pragma: no cover - C > 0 bounds the polytope
                continue
            for i in range(k):
                if t[i, j] > PIVOT_TOL:
                    ratio = max(rhs[i], 0.0) / t[i, j]
                    if ratio <= best + tol * (1.0 + best):
                        nxt = (mask & ~(np.int64(1) << basis[i])) | (np.int64(1) << j)
                        if nxt not in visited:
                            visited[nxt] = 1
                            if top == stack.shape[0]:
                                grown_stack = np.empty(2 * top, dtype=np.int64)
                                grown_stack[:top] = stack
                                stack = grown_stack
                            stack[top] = nxt
                            top += 1
    return points[:count].copy(), labels[:count].copy(), tights[:count].copy()
