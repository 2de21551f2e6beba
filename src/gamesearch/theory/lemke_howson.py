"""The Lemke-Howson algorithm: one Nash equilibrium of a bimatrix game by complementary
pivoting (Lemke and Howson 1964; von Stengel 2002, sec. 2.6 and algorithm 2.9).

With payoffs made positive, the best-response polytopes are

    P = {x >= 0 : B^T x <= 1}    (labels: x_i = 0 is label i, (B^T x)_j = 1 is label m+j)
    Q = {y >= 0 : A y <= 1}      (labels: (A y)_i = 1 is label i, y_j = 0 is label m+j)

and an equilibrium is a completely labelled pair of vertices (x, y) != (0, 0). Starting at
(0, 0), drop one label k, and walk: each pivot in one polytope picks up a label that the
other polytope then drops, until label k comes back. Ties in the ratio test (degenerate
games) are broken lexicographically, so the walk never cycles; they are also reported.

:func:`lemke_howson_reference` pivots tableaux of Fractions (exact games) or floats, row by
row as in the textbook; :func:`lemke_howson` runs the same walk in a compiled kernel
(lemke_howson_kernel.py) and, for exact games, re-solves the equilibrium's supports exactly.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from gamesearch.errors import GameSearchError
from gamesearch.theory.equilibrium import EquilibriumSet, sort_profiles, unique_profiles
from gamesearch.theory.normal_form import NormalFormGame, Profile
from gamesearch.theory.support_enumeration import check_pair, two_player

MAX_PIVOTS = 1_000_000


class Tableau:
    """One polytope's system as a dictionary of rows: basis variable = rhs - sum(...).

    Columns are the m+n labels and a last column for the right-hand side; ``basis[r]`` is
    the label of the variable basic in row r.
    """

    def __init__(self, rows: list[list], basis: list[int]) -> None:
        self.rows = rows
        self.basis = basis
        self.initial_basis = list(basis)
        self.ties = 0

    def pivot(self, entering: int, tol: float) -> int:
        """Bring label ``entering`` into the basis by the (lexicographic) minimum-ratio test;
        return the label that leaves."""
        candidates = [r for r, row in enumerate(self.rows) if row[entering] > tol]
        if not candidates:
            raise GameSearchError("Lemke-Howson: unbounded ray (payoffs not positive?)")

        def ratio(r: int) -> tuple:
            row = self.rows[r]
            return (row[-1] / row[entering],
                    *(row[c] / row[entering] for c in self.initial_basis))

        best = min(ratio(r)[0] for r in candidates)
        tied = [r for r in candidates if ratio(r)[0] <= best + tol]
        if len(tied) > 1:
            self.ties += 1
        r = min(tied, key=ratio)
        row = self.rows[r]
        p = row[entering]
        self.rows[r] = row = [v / p for v in row]
        for i, other in enumerate(self.rows):
            if i != r and other[entering] != 0:
                f = other[entering]
                self.rows[i] = [a - f * b for a, b in zip(other, row)]
        leaving, self.basis[r] = self.basis[r], entering
        return leaving

    def values(self, labels: range) -> list:
        """The values of the variables with these labels at the current vertex."""
        out = [self.rows[0][-1] * 0] * len(labels)
        for r, label in enumerate(self.basis):
            if label in labels:
                out[label - labels.start] = self.rows[r][-1]
        return out


def positive(matrix: np.ndarray) -> np.ndarray:
    """The matrix shifted so that every entry is at least 1 (equilibria do not change)."""
    return matrix - matrix.min() + 1


def lemke_howson_reference(game: NormalFormGame, label: int = 0) -> tuple[Profile, int]:
    """The equilibrium reached by dropping ``label`` (0..m+n-1) and the number of ties met
    (ties > 0 means the game is degenerate)."""
    a, b = two_player(game, "Lemke-Howson")
    m, n = a.shape
    if not 0 <= label < m + n:
        raise GameSearchError(f"Lemke-Howson: label {label} is not in 0..{m + n - 1}")
    a, b = positive(a), positive(b)
    one, zero = (Fraction(1), Fraction(0)) if game.exact else (1.0, 0.0)
    tol = 0 if game.exact else 1e-12
    # P: rows j are s_j + sum_i B[i, j] x_i = 1; columns by label (x_i: i, s_j: m + j).
    p_rows = [[b[i, j] for i in range(m)] + [one if jj == j else zero for jj in range(n)]
              + [one] for j in range(n)]
    # Q: rows i are r_i + sum_j A[i, j] y_j = 1 (r_i: label i, y_j: label m + j).
    q_rows = [[one if ii == i else zero for ii in range(m)] + [a[i, j] for j in range(n)]
              + [one] for i in range(m)]
    p = Tableau(p_rows, [m + j for j in range(n)])
    q = Tableau(q_rows, list(range(m)))
    tableau = p if label < m else q
    entering = label
    for _ in range(MAX_PIVOTS):
        leaving = tableau.pivot(entering, tol)
        if leaving == label:
            break
        entering = leaving
        tableau = q if tableau is p else p
    else:  # pragma: no cover - the lexicographic rule guarantees termination
        raise GameSearchError("Lemke-Howson: too many pivots")
    x = p.values(range(0, m))
    y = q.values(range(m, m + n))
    return (_normalize(x, game.exact), _normalize(y, game.exact)), p.ties + q.ties


def _normalize(v: list, exact: bool) -> tuple:
    total = sum(v)
    if exact:
        return tuple(Fraction(p) / total for p in v)
    return tuple(float(p) / float(total) for p in v)


def lemke_howson(game: NormalFormGame, label: int = 0) -> tuple[Profile, int]:
    """The equilibrium reached by dropping ``label``, computed by the compiled kernel (exact
    rationals for exact games); also the number of ratio-test ties met."""
    from gamesearch.theory.lemke_howson_kernel import lemke_howson_float

    two_player(game, "Lemke-Howson")
    m, n = game.shape
    if not 0 <= label < m + n:
        raise GameSearchError(f"Lemke-Howson: label {label} is not in 0..{m + n - 1}")
    a = positive(np.ascontiguousarray(game.payoffs[0], dtype=float))
    b = positive(np.ascontiguousarray(game.payoffs[1], dtype=float))
    x, y, ties, pivots = lemke_howson_float(a, b, label, MAX_PIVOTS)
    if pivots < 0:  # pragma: no cover
        raise GameSearchError("Lemke-Howson: too many pivots")
    x, y = x / x.sum(), y / y.sum()
    if not game.exact:
        return (tuple(float(v) for v in x), tuple(float(v) for v in y)), int(ties)
    eps = 1e-9
    rows = tuple(int(i) for i in np.flatnonzero(x > eps))
    cols = tuple(int(j) for j in np.flatnonzero(y > eps))
    if len(rows) == len(cols):
        profile = check_pair(game.exact_payoffs[0], game.exact_payoffs[1], rows, cols, 0)
        if profile is not None:
            return profile, int(ties)
    return lemke_howson_reference(game, label)


def lemke_howson_all(game: NormalFormGame) -> EquilibriumSet:
    """The equilibria reached from every starting label (not always all equilibria)."""
    m, n = two_player(game, "Lemke-Howson")[0].shape
    found, ties = [], 0
    for label in range(m + n):
        profile, t = lemke_howson(game, label)
        ties += t
        found.append(profile)
    equilibria = sort_profiles(unique_profiles(found))
    notes = [f"{len(equilibria)} distinct equilibria from {m + n} starting labels"]
    if ties:
        notes.append(f"{ties} ties in the ratio test: the game is degenerate (broken "
                     "lexicographically)")
    elif len(equilibria) % 2 == 0:
        notes.append("an even number found: the labels do not reach every equilibrium "
                     "(a nondegenerate game has an odd number)")
    return EquilibriumSet("lemke-howson", equilibria, game.exact, degenerate=ties > 0,
                          notes=notes)
