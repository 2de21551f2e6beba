"""Pig solved exactly by value iteration (Neller & Presser 2004, "Optimal Play of the Dice
Game Pig", The UMAP Journal 25(1):25-47).

Pig's states form cycles (both players can roll a 1 and come back to the same scores), so
tree search alone never ends; the win probabilities are instead the fixed point of the
Bellman equations, found by iterating them until nothing changes. With ``P(i, j, k)`` the
probability that the player about to decide, with score ``i``, opponent score ``j`` and
turn total ``k``, wins under optimal play by both (1 once ``i + k`` reaches the goal):

    roll:  (1 - P(j, i, 0)) / 6  +  sum over r = 2..6 of P(i, j, k + r) / 6
    hold:  1 - P(j, i + k, 0)                       (only when k > 0)
    P(i, j, k) = max(roll, hold)

:func:`solve_pig_reference` is the readable pure-Python sweep (the specification);
:func:`solve_pig` is the same iteration compiled with numba, layer by layer (fast, tested
against it); :func:`bellman_update` is one vectorized sweep that checks any solution.
Neller & Presser report that the first player wins with probability about 0.5306 for
goal 100 under optimal play.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from gamesearch.errors import GameSearchError

DEFAULT_TOLERANCE = 1e-12


@dataclass
class PigSolution:
    """Win probabilities ``P[i, j, k]`` of the player to decide, with how they converged."""

    goal: int
    P: np.ndarray
    iterations: int
    residuals: list = field(default_factory=list)
    """The convergence report: the largest change in each sweep (reference solver), or the
    sweeps each score-sum layer needed (compiled solver)."""
    residual: float = 0.0
    """The largest change one more Bellman sweep would make: how close to the fixed point."""

    def win_probability(self, i: int = 0, j: int = 0, k: int = 0) -> float:
        """P(i, j, k): the mover's chance to win from scores i : j with turn total k."""
        if i + k >= self.goal:
            return 1.0
        if j >= self.goal:
            return 0.0
        return float(self.P[i, j, k])

    def roll_value(self, i: int, j: int, k: int) -> float:
        """The win probability if the mover rolls (the chance node's expectation)."""
        pig = 1.0 - self.win_probability(j, i, 0)
        return (pig + sum(self.win_probability(i, j, k + r) for r in range(2, 7))) / 6

    def hold_value(self, i: int, j: int, k: int) -> float:
        """The win probability if the mover holds (k > 0)."""
        return 1.0 - self.win_probability(j, i + k, 0) if i + k < self.goal else 1.0

    def should_roll(self, i: int, j: int, k: int) -> bool:
        """The optimal decision: roll unless holding is strictly better."""
        return k == 0 or self.roll_value(i, j, k) >= self.hold_value(i, j, k)

    def hold_at(self) -> np.ndarray:
        """For each (i, j): the smallest turn total at which the optimal player holds."""
        return hold_at(self.P)


def solve_pig_reference(goal: int, tolerance: float = DEFAULT_TOLERANCE,
                        max_iterations: int = 100_000) -> PigSolution:
    """Value iteration in plain Python, in place (Gauss-Seidel): the readable version."""
    check_goal(goal)
    P: dict[tuple[int, int, int], float] = {
        (i, j, k): 0.0 for i in range(goal) for j in range(goal) for k in range(goal - i)
    }

    def p(i: int, j: int, k: int) -> float:
        return 1.0 if i + k >= goal else P[i, j, k]

    residuals = []
    for _ in range(max_iterations):
        change = 0.0
        for (i, j, k), old in P.items():
            roll = (1.0 - p(j, i, 0) + sum(p(i, j, k + r) for r in range(2, 7))) / 6
            best = roll if k == 0 else max(roll, 1.0 - p(j, i + k, 0))
            P[i, j, k] = best
            change = max(change, abs(best - old))
        residuals.append(change)
        if change < tolerance:
            break
    else:
        raise GameSearchError(f"pig goal {goal}: no convergence in {max_iterations} sweeps")
    array = np.full((goal, goal, goal), np.nan)
    for (i, j, k), v in P.items():
        array[i, j, k] = v
    return PigSolution(goal, array, len(residuals), residuals, residuals[-1])


def solve_pig(goal: int = 100, tolerance: float = DEFAULT_TOLERANCE,
              max_iterations: int = 100_000,
              progress: Callable[[int, int], None] | None = None) -> PigSolution:
    """Value iteration compiled with numba, one layer of equal score sums at a time.

    A state with scores (i, j) depends only on states with the same score sum (its own
    turn and the opponent's after a pig) and on states with a larger sum (after a hold),
    so the layers are solved from the largest sum down, each iterated to convergence
    (Neller & Presser's observation). ``progress(layers_done, layers)`` follows along.
    ``residuals`` holds the sweeps each layer needed; the final Bellman residual of the
    whole table (one more sweep, :func:`bellman_update`) is checked below ``tolerance``.
    """
    check_goal(goal)
    G = goal
    i = np.arange(G)[:, None, None]
    k_all = np.arange(G + 6)[None, None, :]
    # P padded with turn totals up to G + 5: those that reach the goal are wins (1)
    P = np.broadcast_to((i + k_all >= G).astype(float), (G, G, G + 6)).copy()
    layers = 2 * G - 1
    sweeps = []
    for done, total in enumerate(range(2 * G - 2, -1, -1), start=1):
        n = _solve_layer(P, G, total, tolerance, max_iterations)
        if n < 0:
            raise GameSearchError(f"pig goal {goal}: layer {total} did not converge in "
                                  f"{max_iterations} sweeps")
        sweeps.append(n)
        if progress is not None:
            progress(done, layers)
    solved = P[:, :, :G].copy()
    residual = float(np.nanmax(np.abs(bellman_update(solved) - solved)))
    if residual > 10 * tolerance + 1e-12:
        raise GameSearchError(f"pig goal {goal}: Bellman residual {residual:g} after solving")
    valid = i + np.arange(G)[None, None, :] < G
    solved = np.where(valid, solved, np.nan)
    return PigSolution(goal, solved, sum(sweeps), sweeps, residual)


@njit(cache=True)
def _solve_layer(P, G, total, tolerance, max_iterations):  # pragma: no cover - compiled
    """Gauss-Seidel sweeps over the states with score sum ``total`` until they settle."""
    for sweep in range(max_iterations):
        change = 0.0
        for i in range(max(0, total - G + 1), min(total, G - 1) + 1):
            j = total - i
            for k in range(G - i - 1, -1, -1):
                roll = (1.0 - P[j, i, 0] + P[i, j, k + 2] + P[i, j, k + 3] + P[i, j, k + 4]
                        + P[i, j, k + 5] + P[i, j, k + 6]) / 6.0
                best = roll
                if k > 0:
                    hold = 1.0 - P[j, i + k, 0]
                    if hold > best:
                        best = hold
                d = abs(best - P[i, j, k])
                if d > change:
                    change = d
                P[i, j, k] = best
        if change < tolerance:
            return sweep + 1
    return -1


def decision_values(P: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The win probability of rolling and of holding in every state of a table ``P[i, j, k]``
    (vectorized; holding a zero turn total is -1: not a move)."""
    G = P.shape[0]
    i = np.arange(G)[:, None, None]
    k = np.arange(G)[None, None, :]
    padded = np.ones((G, G, G + 6))
    padded[:, :, :G] = np.where(i + k < G, np.nan_to_num(P, nan=1.0), 1.0)
    pig = 1.0 - padded[:, :, 0].T  # pig[i, j] = 1 - P(j, i, 0)
    roll = pig[:, :, None] + sum(padded[:, :, r:G + r] for r in range(2, 7))
    roll /= 6
    padded_pig = np.ones((2 * G, G))
    padded_pig[:G] = pig
    hold = np.lib.stride_tricks.sliding_window_view(padded_pig, G, axis=0)[:G].copy()
    hold[:, :, 0] = -1.0  # a turn starts with a roll
    return roll, hold  # hold[i, j, k] = pig[i + k, j] = 1 - P(j, i + k, 0)


def bellman_update(P: np.ndarray) -> np.ndarray:
    """One Jacobi sweep of the Bellman equations over a whole table ``P[i, j, k]`` (numpy).

    At the fixed point it returns ``P`` itself: the tests and the solver use it to check a
    solution independently of how it was found.
    """
    G = P.shape[0]
    roll, hold = decision_values(P)
    valid = np.arange(G)[:, None, None] + np.arange(G)[None, None, :] < G
    return np.where(valid, np.maximum(roll, hold), np.nan)


def hold_at(P: np.ndarray) -> np.ndarray:
    """For each pair of scores (i, j): the smallest turn total at which holding is strictly
    better than rolling (``goal - i`` where the optimal player rolls until the goal)."""
    G = P.shape[0]
    roll, hold = decision_values(P)
    k = np.arange(G)[None, None, :]
    stop = (hold > roll) | (np.arange(G)[:, None, None] + k >= G)
    stop[:, :, 0] = False
    first = np.argmax(stop, axis=2)
    never = ~stop.any(axis=2)  # rolls on until the turn total reaches the goal
    return np.where(never, G - np.arange(G)[:, None], first)


def check_goal(goal: int) -> None:
    if isinstance(goal, bool) or not isinstance(goal, int) or goal < 2:
        raise GameSearchError(f"pig: goal {goal!r} must be an integer of at least 2")
    from gamesearch.resources import check_memory

    # the padded table of goal x goal x (goal + 6) floats, and about three more of its size
    # while solving and checking (the copy, the Bellman update, the mask)
    check_memory(4 * 8 * goal * goal * (goal + 6), f"solving pig to goal {goal:,}")


_SOLVED: dict[tuple[int, float], PigSolution] = {}


def solved(goal: int, tolerance: float = DEFAULT_TOLERANCE,
           progress: Callable[[int, int], None] | None = None) -> PigSolution:
    """The solution for ``goal``, solved once per process (and tolerance)."""
    if (goal, tolerance) not in _SOLVED:
        _SOLVED[goal, tolerance] = solve_pig(goal, tolerance, progress=progress)
    return _SOLVED[goal, tolerance]
