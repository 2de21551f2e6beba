"""Generic compiled expectiminimax and *-minimax (Star1, Star2): templates for chance games.

The compiled twins of :func:`gamesearch.search.chance.expectiminimax` and
:class:`gamesearch.search.chance.StarSearch` (Ballard 1983; Hauk, Buro and Schaeffer 2004),
written once against the chance-kernel contract
(:class:`gamesearch.kernels.contract.ChanceKernel`) and compiled per game by
:func:`gamesearch.kernels.specialize.specialize`. The names a game binds:

====================  ============================================================
``expand(s, r, out)`` the positions after each distinct move of the player to move
                      at chance node ``s`` once outcome ``r`` is drawn, written as rows
                      of ``out`` (each the next chance node, seen by the next mover);
                      returns how many
``is_terminal(s)``    the terminal test
``terminal_value(s)`` the utility of a terminal ``s`` for the player to move
``evaluate(s)``       a heuristic value for the player to move
``PROBS``             the outcomes' probabilities (a float array, the same at every node)
``VALUE_LO/HI``       bounds on every value (*-minimax prunes with them)
====================  ============================================================

A state is a row of int64 (a view into scratch space: nothing is allocated per node).
Turns alternate: the player who moves after a chance outcome is the one about to draw, and
the next chance node belongs to the other player. Values are for the root player:
``sign`` is +1 where the player to move is the root player. Nodes are counted as the
readable search counts them (a chance node and each decision node after an outcome), so
tests can compare node counts exactly.

The root (a decision node whose outcome is known) is a Python loop over its children
(:func:`decide`): a cached function calling a cached recursive one crashes numba's cache on
reload (docs/KERNELS.md), and the loop costs microseconds against each child's subtree.
"""

from __future__ import annotations

import numpy as np

NODES, LEAVES, CUTOFFS = 0, 1, 2  # slots of ``counts``


def chance_value(s, depth, sign, counts, work):
    """Expectiminimax value, for the root player, of chance node ``s`` with ``depth`` player
    moves left; ``work[d]`` is the scratch for the children at depth ``d``."""
    if is_terminal(s):  # noqa: F821  (bound by specialize)
        counts[LEAVES] += 1
        return sign * terminal_value(s)  # noqa: F821
    if depth <= 0:
        counts[LEAVES] += 1
        return sign * evaluate(s)  # noqa: F821
    counts[NODES] += 1
    out = work[depth]
    total = 0.0
    for r in range(PROBS.shape[0]):  # noqa: F821
        n = expand(s, r, out)  # noqa: F821
        counts[NODES] += 1  # the decision node after the outcome
        best = -np.inf if sign > 0 else np.inf
        for i in range(n):
            v = chance_value(out[i], depth - 1, -sign, counts, work)
            if sign > 0:
                if v > best:
                    best = v
            elif v < best:
                best = v
        total += PROBS[r] * best  # noqa: F821
    return total


def star_value(s, d, sign, alpha, beta, probing, counts, work, bounds):
    """Star1 (Star2 with ``probing``) at chance node ``s``: the value for the root player
    if it lies in (alpha, beta), else a bound beyond the window (fail-soft), step for step
    as :class:`gamesearch.search.chance.StarSearch`. ``bounds[d]`` holds each outcome's
    lower and upper bound at depth ``d``. (One self-recursive function: the decision nodes
    are inlined, as numba's cache dislikes mutual recursion.)"""
    if is_terminal(s):  # noqa: F821
        counts[LEAVES] += 1
        return sign * terminal_value(s)  # noqa: F821
    if d <= 0:
        counts[LEAVES] += 1
        return sign * evaluate(s)  # noqa: F821
    counts[NODES] += 1
    m = PROBS.shape[0]  # noqa: F821
    lower = bounds[d, 0]
    upper = bounds[d, 1]
    for i in range(m):
        lower[i] = VALUE_LO  # noqa: F821
        upper[i] = VALUE_HI  # noqa: F821
    out = work[d]
    if probing:  # Star2: each outcome's first move bounds that outcome from one side
        for i in range(m):
            p_i = PROBS[i]  # noqa: F821
            expand(s, i, out)  # noqa: F821
            if sign > 0:  # a MAX child is worth at least its first move
                others = 0.0
                for j in range(m):
                    if j != i:
                        others += PROBS[j] * lower[j]  # noqa: F821
                high = min((beta - others) / p_i, VALUE_HI)  # noqa: F821
                if lower[i] >= high:
                    continue
                v = star_value(out[0], d - 1, -sign, lower[i], high, probing, counts, work,
                               bounds)
                if v > lower[i]:
                    lower[i] = v
                bound = 0.0
                for j in range(m):
                    bound += PROBS[j] * lower[j]  # noqa: F821
                if bound >= beta:
                    counts[CUTOFFS] += 1
                    return bound
            else:  # a MIN child is worth at most its first move
                others = 0.0
                for j in range(m):
                    if j != i:
                        others += PROBS[j] * upper[j]  # noqa: F821
                low = max((alpha - others) / p_i, VALUE_LO)  # noqa: F821
                if low >= upper[i]:
                    continue
                v = star_value(out[0], d - 1, -sign, low, upper[i], probing, counts, work,
                               bounds)
                if v < upper[i]:
                    upper[i] = v
                bound = 0.0
                for j in range(m):
                    bound += PROBS[j] * upper[j]  # noqa: F821
                if bound <= alpha:
                    counts[CUTOFFS] += 1
                    return bound
    done = 0.0
    rest_lo = 0.0
    rest_hi = 0.0
    for i in range(m):
        rest_lo += PROBS[i] * lower[i]  # noqa: F821
        rest_hi += PROBS[i] * upper[i]  # noqa: F821
    for i in range(m):  # Star1: the window each outcome must stay in to matter
        p = PROBS[i]  # noqa: F821
        rest_lo -= p * lower[i]
        rest_hi -= p * upper[i]
        a_i = (alpha - done - rest_hi) / p
        b_i = (beta - done - rest_lo) / p
        if upper[i] <= a_i:
            counts[CUTOFFS] += 1
            return min(done + p * upper[i] + rest_hi, alpha)
        if lower[i] >= b_i:
            counts[CUTOFFS] += 1
            return max(done + p * lower[i] + rest_lo, beta)
        if lower[i] == upper[i]:
            v = lower[i]
        else:  # the decision node after outcome i: fail-soft alpha-beta over its moves
            counts[NODES] += 1
            n = expand(s, i, out)  # noqa: F821
            a = max(a_i, lower[i])
            b = min(b_i, upper[i])
            v = -np.inf if sign > 0 else np.inf
            for k in range(n):
                w = star_value(out[k], d - 1, -sign, a, b, probing, counts, work, bounds)
                if sign > 0:
                    v = max(v, w)
                    a = max(a, w)
                else:
                    v = min(v, w)
                    b = min(b, w)
                if a >= b:
                    counts[CUTOFFS] += 1
                    break
        if v <= a_i:
            counts[CUTOFFS] += 1
            return min(done + p * v + rest_hi, alpha)
        if v >= b_i:
            counts[CUTOFFS] += 1
            return max(done + p * v + rest_lo, beta)
        done += p * v
    return done


TEMPLATES = (chance_value, star_value)


def decide(kernel, children: np.ndarray, depth: int,
           pruning: str | None = None) -> tuple[float, int, np.ndarray]:
    """Search a decision node whose outcome is drawn: ``children`` (rows, as ``expand``
    writes them) are its moves' positions, the root player moves, ``depth`` counts player
    moves (this one included). Returns (value, index of the chosen child, counts).

    ``pruning`` None searches every child fully (their values are exact: the first best
    wins ties); "star1"/"star2" search each child in the window above the best so far."""
    if pruning not in (None, "star1", "star2"):
        raise ValueError(f"pruning must be None, 'star1' or 'star2', not {pruning!r}")
    code = kernel.chance
    counts = np.zeros(3, np.int64)
    counts[NODES] += 1  # the root decision node
    width = children.shape[1]
    work = np.empty((depth + 1, kernel.max_children, width), np.int64)
    bounds = np.empty((depth + 1, 2, len(kernel.probs)))
    lo, hi = float(kernel.value_bounds[0]), float(kernel.value_bounds[1])
    best, chosen = -np.inf, -1
    for i in range(children.shape[0]):
        if pruning is None:
            v = code.chance_value(children[i], depth - 1, -1.0, counts, work)
        else:
            if best >= hi:
                break
            v = code.star_value(children[i], depth - 1, -1.0, max(best, lo), hi,
                                pruning == "star2", counts, work, bounds)
        if v > best or chosen < 0:
            best, chosen = v, i
    return float(best), chosen, counts
