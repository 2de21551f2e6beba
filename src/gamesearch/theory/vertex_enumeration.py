"""Vertex enumeration: every Nash equilibrium of a nondegenerate bimatrix game as a
completely labelled pair of vertices of the best-response polytopes (Mangasarian 1964;
von Stengel 2002, sec. 2.5 and algorithm 2.5).

With payoffs made positive, P = {x >= 0 : B^T x <= 1} lives in R^m and Q = {y >= 0 :
A y <= 1} in R^n. A vertex of P makes m of its m+n inequalities tight; its labels are the
tight ones (x_i = 0 is label i, (B^T x)_j = 1 is label m+j), and likewise for Q ((A y)_i = 1
is label i, y_j = 0 is label m+j). A pair of vertices (x, y) != (0, 0) whose labels cover
all m+n labels, rescaled to probabilities, is an equilibrium. Here every choice of m tight
inequalities is solved (batched with numpy) and the feasible vertices are kept; in exact
games every vertex is recomputed in Fractions.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import numpy as np

from gamesearch.errors import GameSearchError
from gamesearch.theory import exact as ex
from gamesearch.theory.degeneracy import degeneracy_notes
from gamesearch.theory.equilibrium import EquilibriumSet, sort_profiles, unique_profiles
from gamesearch.theory.lemke_howson import positive
from gamesearch.theory.normal_form import NormalFormGame
from gamesearch.theory.support_enumeration import two_player

MAX_SUBSETS = 5_000_000
CHUNK = 20_000
"""Systems solved per numpy batch."""


def polytope_vertices(constraints: np.ndarray, exact_constraints: np.ndarray | None
                      ) -> list[tuple[tuple, frozenset[int]]]:
    """The nonzero vertices of {z >= 0 : C z <= 1} (C is k x d) with their labels: z_t = 0
    is label t, (C z)_r = 1 is label d + r."""
    k, d = constraints.shape
    found: dict[frozenset, tuple] = {}
    # Equations of the full system: rows 0..d-1 are z_t = 0, rows d..d+k-1 are (C z)_r = 1.
    lhs = np.vstack([np.eye(d), constraints])
    rhs = np.r_[np.zeros(d), np.ones(k)]
    tol = 1e-9
    combos = itertools.combinations(range(d + k), d)
    while True:
        subsets = np.array(list(itertools.islice(combos, CHUNK)), dtype=np.intp)
        if len(subsets) == 0:
            break
        systems = lhs[subsets]
        norms = np.linalg.norm(systems, axis=2).prod(axis=1)
        ok = np.abs(np.linalg.det(systems)) > 1e-11 * norms
        points = np.zeros((len(subsets), d))
        if ok.any():
            points[ok] = np.linalg.solve(systems[ok], rhs[subsets[ok]][:, :, None])[:, :, 0]
        feasible = ok & (points >= -tol).all(axis=1)
        feasible &= ((points @ constraints.T) <= 1 + tol).all(axis=1)
        feasible &= np.abs(points).sum(axis=1) > tol  # not the origin
        for s in np.flatnonzero(feasible):
            _add_vertex(found, [int(t) for t in subsets[s]], points[s], constraints,
                        exact_constraints, tol)
    return [(point, labels) for labels, point in found.items()]


def _add_vertex(found: dict, tight: list[int], p: np.ndarray, constraints: np.ndarray,
                exact_constraints: np.ndarray | None, tol: float) -> None:
    """Record a feasible vertex with its labels (recomputed exactly in exact games)."""
    k, d = constraints.shape
    if exact_constraints is not None:
        elhs = [[Fraction(int(t == u)) for u in range(d)] if t < d
                else list(exact_constraints[t - d]) for t in tight]
        point = ex.solve(elhs, [Fraction(0) if t < d else Fraction(1) for t in tight])
        if point is None or any(v < 0 for v in point):  # pragma: no cover
            return
        values = [sum(c * v for c, v in zip(row, point)) for row in exact_constraints]
        if any(v > 1 for v in values):  # pragma: no cover
            return
        labels = frozenset([t for t in range(d) if point[t] == 0]
                           + [d + r for r in range(k) if values[r] == 1])
        point = tuple(point)
    else:
        values = constraints @ p
        labels = frozenset([t for t in range(d) if abs(p[t]) <= tol]
                           + [d + r for r in range(k) if abs(values[r] - 1) <= tol])
        point = tuple(float(v) for v in np.clip(p, 0, None))
    found.setdefault(labels, point)


def vertex_enumeration(game: NormalFormGame) -> EquilibriumSet:
    """Every equilibrium of a nondegenerate two-player game, from the vertices of the two
    best-response polytopes."""
    a, b = two_player(game, "vertex enumeration")
    m, n = a.shape
    if comb(m + n, m) > MAX_SUBSETS:
        raise GameSearchError(f"vertex enumeration of a {m}x{n} game would solve "
                              f"{comb(m + n, m)} systems; use support enumeration or "
                              "Lemke-Howson")
    fa = positive(np.asarray(game.payoffs[0], dtype=float))
    fb = positive(np.asarray(game.payoffs[1], dtype=float))
    ea = eb = None
    if game.exact:
        ea, eb = positive(game.exact_payoffs[0]), positive(game.exact_payoffs[1])
    # P: x in R^m, constraints B^T x <= 1. Its labels: x_i = 0 -> i; (B^T x)_j = 1 -> m + j.
    p_vertices = polytope_vertices(fb.T, None if eb is None else eb.T)
    # Q: y in R^n, constraints A y <= 1. Local labels: y_j = 0 -> j, (A y)_i = 1 -> n + i;
    # in game labels that is m + j and i.
    q_vertices = []
    for point, local in polytope_vertices(fa, ea):
        labels = frozenset(m + t if t < n else t - n for t in local)
        q_vertices.append((point, labels))
    everything = frozenset(range(m + n))
    degenerate_vertex = any(len(lab) > m for _, lab in p_vertices) or any(
        len(lab) > n for _, lab in q_vertices)
    found = []
    for x, lx in p_vertices:
        for y, ly in q_vertices:
            if lx | ly == everything:
                found.append((_normalize(x, game.exact), _normalize(y, game.exact)))
    equilibria = sort_profiles(unique_profiles(found))
    notes = degeneracy_notes(game, equilibria)
    if degenerate_vertex:
        notes.insert(0, "a vertex of a best-response polytope has more labels than its "
                        "dimension")
    if notes:  # every vertex is found, so every extreme equilibrium is (von Stengel 2002)
        notes[-1] = ("the game is degenerate: these are all its extreme equilibria; some "
                     "convex combinations of them are equilibria too")
    return EquilibriumSet("vertex enumeration", equilibria, game.exact,
                          degenerate=bool(notes), notes=notes)


def _normalize(v: tuple, exact: bool) -> tuple:
    total = sum(v)
    if exact:
        return tuple(Fraction(p) / total for p in v)
    return tuple(float(p) / float(total) for p in v)
