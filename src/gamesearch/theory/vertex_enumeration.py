"""Vertex enumeration: every Nash equilibrium of a nondegenerate bimatrix game as a
completely labelled pair of vertices of the best-response polytopes (Mangasarian 1964;
von Stengel 2002, sec. 2.5 and algorithm 2.5).

With payoffs made positive, P = {x >= 0 : B^T x <= 1} lives in R^m and Q = {y >= 0 :
A y <= 1} in R^n. A vertex of P makes m of its m+n inequalities tight; its labels are the
tight ones (x_i = 0 is label i, (B^T x)_j = 1 is label m+j), and likewise for Q ((A y)_i = 1
is label i, y_j = 0 is label m+j). A pair of vertices (x, y) != (0, 0) whose labels cover
all m+n labels, rescaled to probabilities, is an equilibrium. The vertices come from a
compiled walk over the polytopes' feasible bases (vertex_enumeration_kernel.py); in exact
games the vertices of each completely labelled pair are recomputed in Fractions and their
labels checked exactly. ``polytope_vertices_reference`` is the brute-force reference (every
choice of m tight inequalities solved with numpy) the tests compare against.
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
from gamesearch.theory.vertex_enumeration_kernel import polytope_vertices_kernel

MAX_SUBSETS = 5_000_000
"""Systems the brute-force reference may solve."""
MAX_LABELS = 62
"""Strategies in all (m + n) the compiled walk can label in one 64-bit mask."""
CHUNK = 20_000
"""Systems solved per numpy batch."""


def polytope_vertices_reference(constraints: np.ndarray,
                                exact_constraints: np.ndarray | None
                                ) -> list[tuple[tuple, frozenset[int]]]:
    """The nonzero vertices of {z >= 0 : C z <= 1} (C is k x d) with their labels: z_t = 0
    is label t, (C z)_r = 1 is label d + r. Brute force over every choice of d tight
    constraints: the readable reference for the compiled walk."""
    k, d = constraints.shape
    if comb(d + k, d) > MAX_SUBSETS:
        raise GameSearchError(f"brute-force vertex enumeration would solve {comb(d + k, d)} "
                              "systems")
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


def polytope_vertices(constraints: np.ndarray, tol: float = 1e-9
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(points, label masks, tight masks) of the nonzero vertices of {z >= 0 : C z <= 1},
    by the compiled pivoting walk (bit t of a mask is label t as in
    :func:`polytope_vertices_reference`)."""
    k, d = constraints.shape
    if d + k > MAX_LABELS:
        raise GameSearchError(f"vertex enumeration handles at most {MAX_LABELS} strategies "
                              f"in all; this game has {d + k}")
    return polytope_vertices_kernel(np.ascontiguousarray(constraints, dtype=float), tol)


def _exact_vertex(tight: int, exact_constraints: np.ndarray) -> tuple[tuple, int] | None:
    """A vertex recomputed in Fractions from its tight set, with its exact label mask."""
    k, d = exact_constraints.shape
    rows = [t for t in range(d + k) if (tight >> t) & 1]
    elhs = [[Fraction(int(t == u)) for u in range(d)] if t < d
            else list(exact_constraints[t - d]) for t in rows]
    point = ex.solve(elhs, [Fraction(0) if t < d else Fraction(1) for t in rows])
    if point is None or any(v < 0 for v in point):  # pragma: no cover
        return None
    values = [sum(c * v for c, v in zip(row, point)) for row in exact_constraints]
    if any(v > 1 for v in values):  # pragma: no cover
        return None
    mask = sum(1 << t for t in range(d) if point[t] == 0)
    mask += sum(1 << (d + r) for r in range(k) if values[r] == 1)
    return tuple(point), mask


def _q_to_game_labels(local: np.ndarray, m: int, n: int) -> np.ndarray:
    """Q's local label masks (y_j = 0 is j, (A y)_i = 1 is n + i) in game labels (m + j
    and i)."""
    ys = local & ((1 << n) - 1)
    rows = (local >> n) & ((1 << m) - 1)
    return (ys << m) | rows


def vertex_enumeration(game: NormalFormGame) -> EquilibriumSet:
    """Every extreme equilibrium of a two-player game, from the vertices of the two
    best-response polytopes (completely labelled pairs)."""
    a, b = two_player(game, "vertex enumeration")
    m, n = a.shape
    fa = positive(np.asarray(game.payoffs[0], dtype=float))
    fb = positive(np.asarray(game.payoffs[1], dtype=float))
    # P: x in R^m, constraints B^T x <= 1. Its labels: x_i = 0 -> i; (B^T x)_j = 1 -> m + j.
    px, plab, ptight = polytope_vertices(fb.T)
    # Q: y in R^n, constraints A y <= 1; its local labels are mapped to game labels.
    qy, qlocal, qtight = polytope_vertices(fa)
    qlab = _q_to_game_labels(qlocal, m, n)
    everything = (1 << (m + n)) - 1
    degenerate_vertex = any(bin(int(v)).count("1") > m for v in plab) or any(
        bin(int(v)).count("1") > n for v in qlab)
    pairs = []
    for s in range(len(plab)):
        need = everything & ~int(plab[s])
        for t in np.flatnonzero((qlab & need) == need):
            pairs.append((s, int(t)))
    found = []
    if game.exact:
        ea, eb = positive(game.exact_payoffs[0]), positive(game.exact_payoffs[1])
        p_exact: dict[int, tuple | None] = {}
        q_exact: dict[int, tuple | None] = {}
        for s, t in pairs:
            if s not in p_exact:
                p_exact[s] = _exact_vertex(int(ptight[s]), eb.T)
            if t not in q_exact:
                got = _exact_vertex(int(qtight[t]), ea)
                q_exact[t] = None if got is None else (
                    got[0], int(_q_to_game_labels(np.array([got[1]]), m, n)[0]))
            x, y = p_exact[s], q_exact[t]
            if x is not None and y is not None and x[1] | y[1] == everything:
                found.append((_normalize(x[0], True), _normalize(y[0], True)))
    else:
        found = [(_normalize(tuple(px[s]), False), _normalize(tuple(qy[t]), False))
                 for s, t in pairs]
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
