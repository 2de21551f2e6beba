"""Two-player zero-sum games: pure maximin and minimax, saddle points, and the value with
optimal mixed strategies by linear programming (von Neumann's minimax theorem).

The row player (MAX) receives ``A[i, j]``, the column player (MIN) pays it. Pure maximin
``max_i min_j A[i, j]`` is what MAX can guarantee with a pure strategy, pure minimax
``min_j max_i A[i, j]`` what MIN can hold MAX to; they are equal exactly when the matrix has
a saddle point. With mixed strategies they are always equal: the value of the game.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from scipy.optimize import linprog

from gamesearch.errors import GameSearchError
from gamesearch.theory.equilibrium import EquilibriumSet
from gamesearch.theory.exact import Number, rationalize
from gamesearch.theory.normal_form import NormalFormGame


def _row_matrix(game: NormalFormGame) -> np.ndarray:
    if game.num_players != 2 or not game.is_zero_sum:
        raise GameSearchError(f"{game.title or 'game'}: maximin, minimax and the LP value "
                              "need a two-player zero-sum game")
    return game.matrix(0)


def maximin(game: NormalFormGame) -> tuple[Number, list[int]]:
    """The pure maximin value of the row player and the rows that guarantee it."""
    a = _row_matrix(game)
    worst = [min(row) for row in a]
    best = max(worst)
    return best, [i for i, w in enumerate(worst) if w == best]


def minimax(game: NormalFormGame) -> tuple[Number, list[int]]:
    """The pure minimax value (what the column player can hold the row player to) and the
    columns that achieve it."""
    a = _row_matrix(game)
    worst = [max(a[:, j]) for j in range(a.shape[1])]
    best = min(worst)
    return best, [j for j, w in enumerate(worst) if w == best]


def saddle_points(game: NormalFormGame) -> list[tuple[int, int]]:
    """Cells that are the minimum of their row and the maximum of their column."""
    a = _row_matrix(game)
    return [
        (i, j)
        for i in range(a.shape[0])
        for j in range(a.shape[1])
        if a[i, j] == min(a[i]) and a[i, j] == max(a[:, j])
    ]


@dataclass
class ZeroSumSolution:
    """The value of a zero-sum game and an optimal (maximin) mixed strategy for each side."""

    value: Number
    row: tuple[Number, ...]
    column: tuple[Number, ...]
    exact: bool

    def as_set(self) -> EquilibriumSet:
        """The solution as an equilibrium (every pair of optimal strategies is one)."""
        return EquilibriumSet("lp", [(self.row, self.column)], self.exact,
                              notes=[f"value {self.value} for the row player"])


def _maximin_lp(a: np.ndarray) -> np.ndarray:
    """An optimal mixed strategy of the row player: max v s.t. x^T A >= v, x in simplex."""
    m, n = a.shape
    c = np.zeros(m + 1)
    c[-1] = -1.0  # maximize v
    a_ub = np.hstack([-a.T, np.ones((n, 1))])  # v - (x^T A)_j <= 0
    a_eq = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0, None)] * m + [(None, None)]
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0], bounds=bounds,
                  method="highs")
    if res.status != 0:  # pragma: no cover - a bounded feasible LP always solves
        raise GameSearchError(f"zero-sum LP failed: {res.message}")
    x = np.clip(res.x[:m], 0, None)
    return x / x.sum()


def _exact_strategy(x: np.ndarray, guarantee: Any) -> Iterator[tuple[tuple, Fraction]]:
    """The float strategy rounded to fractions with growing denominators, each with its
    exact guarantee."""
    for denominator in (10, 100, 1000, 10**4, 10**6, 10**8):
        p = rationalize(x, denominator)
        total = sum(p)
        if total <= 0:
            continue
        p = [v / total for v in p]
        if any(v < 0 for v in p):
            continue
        g = guarantee(p)
        yield tuple(p), g


def solve_zero_sum(game: NormalFormGame) -> ZeroSumSolution:
    """The value and optimal mixed strategies of a two-player zero-sum game, by the maximin
    linear program solved with HiGHS; exact fractions for exact games (the rounded LP answer
    is proven optimal: MAX's guarantee equals MIN's)."""
    a_any = _row_matrix(game)
    a = np.asarray(a_any, dtype=float)
    x = _maximin_lp(a)
    y = _maximin_lp(-a.T)
    if game.exact:
        ea = game.exact_payoffs[0]

        def row_guarantee(p: list[Fraction]) -> Fraction:
            return min(sum(p[i] * ea[i, j] for i in range(ea.shape[0]))
                       for j in range(ea.shape[1]))

        def column_guarantee(q: list[Fraction]) -> Fraction:
            return max(sum(ea[i, j] * q[j] for j in range(ea.shape[1]))
                       for i in range(ea.shape[0]))

        rows = list(_exact_strategy(x, row_guarantee))
        cols = list(_exact_strategy(y, column_guarantee))
        for p, low in rows:
            for q, high in cols:
                if low == high:
                    return ZeroSumSolution(low, p, q, True)
    value = float(x @ a @ y)
    return ZeroSumSolution(value, tuple(float(v) for v in x), tuple(float(v) for v in y), False)
