"""Exact rational arithmetic for the theory toolkit: numbers, linear systems, rounding back.

Games whose payoffs are all integers (or fractions ``p/q`` in a file) are solved exactly:
the fast floating-point searches find *where* an equilibrium is (its supports, its basis),
and the functions here recompute it in :class:`fractions.Fraction` and check it exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

Number = Fraction | float
"""A probability or payoff: a Fraction in exact games, a float otherwise."""


def exact_array(values: Any) -> np.ndarray | None:
    """The array as Fractions (object dtype) if every entry is an integer or a fraction,
    else None. Integral floats (3.0) count as integers: JSON writes them so."""
    array = np.asarray(values, dtype=object)
    flat = []
    for v in array.flat:
        if isinstance(v, bool):
            return None
        if isinstance(v, (int, np.integer, Fraction)):
            flat.append(Fraction(v))
        elif isinstance(v, (float, np.floating)) and float(v).is_integer():
            flat.append(Fraction(int(v)))
        else:
            return None
    out = np.empty(array.shape, dtype=object)
    out.flat[:] = flat if flat else []
    return out


def solve(matrix: Sequence[Sequence[Fraction]], rhs: Sequence[Fraction]) -> list[Fraction] | None:
    """Solve a square system exactly by Gauss-Jordan elimination; None when singular."""
    n = len(rhs)
    rows = [[Fraction(v) for v in row] + [Fraction(rhs[i])] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if rows[r][col] != 0), None)
        if pivot is None:
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        p = rows[col][col]
        rows[col] = [v / p for v in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                f = rows[r][col]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[col])]
    return [rows[i][n] for i in range(n)]


def rationalize(values: Sequence[float], max_denominator: int) -> list[Fraction]:
    """The nearest fractions with bounded denominators (used before an exact check)."""
    return [Fraction(float(v)).limit_denominator(max_denominator) for v in values]


def as_number(value: Any, exact: bool) -> Number:
    """A Fraction in exact mode, else a float."""
    return Fraction(value) if exact else float(value)


def format_number(value: Any) -> str:
    """How a probability or payoff is written: ``1/3`` for fractions, ``0.3333`` for floats."""
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    v = float(value)
    if v.is_integer():
        return str(int(v))
    return f"{v:.6g}"


def json_number(value: Any) -> str | float | int:
    """A number for JSON output: fractions as strings like "1/3", floats as floats."""
    if isinstance(value, Fraction):
        return str(value) if value.denominator != 1 else str(value.numerator)
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    return float(value)
