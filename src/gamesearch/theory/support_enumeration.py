"""Support enumeration: every Nash equilibrium of a nondegenerate bimatrix game.

In a nondegenerate game both strategies of an equilibrium have supports of the same size k,
and each mixed strategy makes the other player indifferent among the strategies of its
support (von Stengel, "Computing equilibria for two-person games", Handbook of Game Theory
vol. 3, 2002, sec. 2.3; Nisan et al., *Algorithmic Game Theory*, ch. 3). So for every pair
of supports I (rows) and J (columns) of equal size, solve

    A[I, J] y = v 1,  sum(y) = 1        (the row player is indifferent on I)
    B[I, J]^T x = u 1, sum(x) = 1       (the column player is indifferent on J)

and keep the solutions with x, y >= 0 where no strategy outside a support pays more.

:func:`support_enumeration_reference` is the readable specification (one support pair at a
time, exact Fractions where the game is exact). :func:`support_enumeration` runs the same
enumeration in a compiled kernel (support_enumeration_kernel.py), and in exact games
re-solves the few survivors in Fractions; tests check the two agree.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction
from math import comb

import numpy as np

from gamesearch.errors import GameSearchError
from gamesearch.theory import exact as ex
from gamesearch.theory.degeneracy import degeneracy_notes
from gamesearch.theory.equilibrium import EquilibriumSet, sort_profiles, unique_profiles
from gamesearch.theory.normal_form import NormalFormGame, Profile


def two_player(game: NormalFormGame, method: str) -> tuple[np.ndarray, np.ndarray]:
    """The two payoff matrices; bad input says which method needed two players."""
    if game.num_players != 2:
        raise GameSearchError(f"{method} needs a two-player game; this one has "
                              f"{game.num_players} players (try --method pure, logit, "
                              "simpdiv or gnm)")
    return game.matrix(0), game.matrix(1)


def equalizer(sub: list[list]) -> tuple[list, object] | None:
    """The mixed strategy p (over the columns of ``sub``) that gives every row the same
    payoff v: ``sub p = v 1, sum(p) = 1``; None when that system is singular."""
    k = len(sub)
    matrix = [list(row) + [-1] for row in sub] + [[1] * k + [0]]
    rhs = [0] * k + [1]
    if isinstance(sub[0][0], Fraction):
        solution = ex.solve(matrix, rhs)
        if solution is None:
            return None
    else:
        try:
            solution = list(np.linalg.solve(np.array(matrix, float), np.array(rhs, float)))
        except np.linalg.LinAlgError:
            return None
    return solution[:k], solution[k]


def check_pair(a: np.ndarray, b: np.ndarray, rows: tuple, cols: tuple,
               tol: float) -> Profile | None:
    """The equilibrium with supports ``rows`` and ``cols`` if there is one (exact when the
    matrices hold Fractions, else to ``tol``), else None."""
    m, n = a.shape
    ys = equalizer([[a[i, j] for j in cols] for i in rows])
    xs = equalizer([[b[i, j] for i in rows] for j in cols])
    if ys is None or xs is None:
        return None
    (y_sub, v), (x_sub, u) = ys, xs
    if min(y_sub) < -tol or min(x_sub) < -tol:
        return None
    x = [0 * v] * m
    y = [0 * v] * n
    for i, p in zip(rows, x_sub):
        x[i] = p
    for j, p in zip(cols, y_sub):
        y[j] = p
    if any(sum(a[i, j] * y[j] for j in cols) > v + tol for i in range(m)):
        return None
    if any(sum(x[i] * b[i, j] for i in rows) > u + tol for j in range(n)):
        return None
    if isinstance(v, Fraction):
        return tuple(x), tuple(y)
    return _clean(x), _clean(y)


def _clean(p: list) -> tuple[float, ...]:
    q = np.clip(np.asarray(p, dtype=float), 0, None)
    return tuple(float(v) for v in q / q.sum())


def tolerance(game: NormalFormGame) -> float:
    """Float games: the slack allowed in the equilibrium conditions."""
    return 1e-9 * max(1.0, float(np.abs(game.payoffs).max()))


def support_enumeration_reference(game: NormalFormGame) -> EquilibriumSet:
    """Every equilibrium of a nondegenerate two-player game, one support pair at a time."""
    a, b = two_player(game, "support enumeration")
    m, n = a.shape
    tol = 0 if game.exact else tolerance(game)
    found = []
    for k in range(1, min(m, n) + 1):
        for rows in itertools.combinations(range(m), k):
            for cols in itertools.combinations(range(n), k):
                profile = check_pair(a, b, rows, cols, tol)
                if profile is not None:
                    found.append(profile)
    return _result("support enumeration (reference)", game, found)


def support_pairs(m: int, n: int, k: int) -> int:
    """How many pairs of supports of size k an m x n game has."""
    return comb(m, k) * comb(n, k)


def support_enumeration(game: NormalFormGame,
                        progress: Callable[[int, int], None] | None = None) -> EquilibriumSet:
    """Every equilibrium of a nondegenerate two-player game (compiled kernel; exact rationals
    for exact games). ``progress(done, total)`` is called with support pairs after each size."""
    two_player(game, "support enumeration")
    a = np.ascontiguousarray(game.payoffs[0], dtype=float)
    b = np.ascontiguousarray(game.payoffs[1], dtype=float)
    m, n = a.shape
    tol = tolerance(game)
    found = []
    total = sum(support_pairs(m, n, k) for k in range(1, min(m, n) + 1))
    done = 0
    for k in range(1, min(m, n) + 1):
        for rows, cols, profile in support_candidates(a, b, k,
                                                      tol * 100 if game.exact else tol):
            if game.exact:  # re-solve the supports in Fractions and check exactly
                profile = check_pair(game.exact_payoffs[0], game.exact_payoffs[1],
                                     rows, cols, 0)
            if profile is not None:
                found.append(profile)
        done += support_pairs(m, n, k)
        if progress is not None:
            progress(done, total)
    return _result("support enumeration", game, found)


def _result(method: str, game: NormalFormGame, found: list[Profile]) -> EquilibriumSet:
    equilibria = sort_profiles(unique_profiles(found))
    notes = degeneracy_notes(game, equilibria)
    return EquilibriumSet(method, equilibria, game.exact, degenerate=bool(notes), notes=notes)


def support_candidates(a: np.ndarray, b: np.ndarray, k: int, tol: float):
    """Support pairs of size k whose float solution passes every equilibrium condition, with
    that solution as a float profile (the compiled kernel does the enumeration)."""
    from gamesearch.theory.support_enumeration_kernel import support_candidates_kernel

    capacity = 1024
    while True:
        rows, cols, xs, ys, count = support_candidates_kernel(a, b, k, tol, capacity)
        if count >= 0:
            break
        capacity *= 16  # pragma: no cover - only for games with thousands of equilibria
    m, n = a.shape
    for r, c, x_sub, y_sub in zip(rows, cols, xs, ys):
        x, y = np.zeros(m), np.zeros(n)
        x[r], y[c] = x_sub, y_sub
        profile = (_clean(x), _clean(y))
        yield tuple(int(i) for i in r), tuple(int(j) for j in c), profile
