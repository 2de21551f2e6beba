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

from gamesearch.agents import Agent
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
    _check_goal(goal)
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
    _check_goal(goal)
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


def _check_goal(goal: int) -> None:
    if isinstance(goal, bool) or not isinstance(goal, int) or goal < 2:
        raise GameSearchError(f"pig: goal {goal!r} must be an integer of at least 2")
    from gamesearch.resources import check_memory

    # the padded table of goal x goal x (goal + 6) floats, and about three more of its size
    # while solving and checking (the copy, the Bellman update, the mask)
    check_memory(4 * 8 * goal * goal * (goal + 6), f"solving pig to goal {goal:,}")


def plot_policy(solution: PigSolution, path: str) -> str:
    """Save the optimal policy as a picture: the turn total at which to hold, by both
    scores (Neller & Presser's figure, drawn flat as a colour map). Written atomically;
    an existing file is replaced only if it is a picture gamesearch drew."""
    from gamesearch.durable import PNG_MARK, atomic_writer, check_output, png_is_ours

    check_output(path, png_is_ours, what="picture", remedy="choose another --plot name")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table = solution.hold_at().astype(float)
    fig, ax = plt.subplots(figsize=(7, 6))
    image = ax.imshow(table, origin="lower", cmap="viridis", aspect="equal",
                      vmin=0, vmax=min(solution.goal, 40))
    ax.set_xlabel("opponent's score j")
    ax.set_ylabel("player's score i")
    ax.set_title(f"Pig to {solution.goal}: optimal hold-at turn total\n"
                 f"(first player wins with probability {solution.win_probability():.4f})")
    fig.colorbar(image, ax=ax, label="hold once the turn total reaches")
    fig.tight_layout()
    try:
        with atomic_writer(path) as handle:
            fig.savefig(handle, dpi=110, format="png", metadata=PNG_MARK)
    except (OSError, ValueError) as err:  # no such folder, an unknown image type
        raise GameSearchError(f"cannot write the plot {path!r}: {err}") from None
    finally:
        plt.close(fig)
    return path


def pig_solver(game, state, options: dict) -> dict:
    """``gamesearch solve pig``: solve by value iteration with a progress bar; report the
    mover's win probability at ``state`` (the first player's, from the start)."""
    import time

    from rich.console import Console
    from rich.progress import Progress

    from gamesearch.games.pig import ROLL, PigState

    tolerance = float(options.get("tolerance") or DEFAULT_TOLERANCE)
    _check_goal(game.goal)  # the memory it needs, before a progress bar appears
    start = time.perf_counter()
    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(f"value iteration, goal {game.goal}", total=2 * game.goal - 1)
        solution = solve_pig(game.goal, tolerance,
                             progress=lambda done, total: bar.update(task, completed=done))
    seconds = time.perf_counter() - start
    s: PigState = state
    i, j = s.scores[s.player], s.scores[1 - s.player]
    if game.is_terminal(s):
        p_mover = 1.0 if i + s.turn_total >= game.goal else 0.0
        action = None
    elif s.rolling:
        p_mover, action = solution.roll_value(i, j, s.turn_total), None
    else:
        p_mover = solution.win_probability(i, j, s.turn_total)
        action = ROLL if solution.should_roll(i, j, s.turn_total) else "hold"
    report = {
        "goal": game.goal,
        "win_probability": p_mover,
        "value": 2 * p_mover - 1,
        "best_action": action,
        "to_move": game.player_name(s.player),
        "hold_at_start": int(solution.hold_at()[0, 0]),
        "sweeps": solution.iterations,
        "bellman_residual": solution.residual,
        "seconds": round(seconds, 3),
    }
    if options.get("plot"):
        report["plot"] = plot_policy(solution, str(options["plot"]))
    return report


_SOLVED: dict[int, PigSolution] = {}


def solved(goal: int) -> PigSolution:
    """The solution for ``goal``, solved once per process."""
    if goal not in _SOLVED:
        _SOLVED[goal] = solve_pig(goal)
    return _SOLVED[goal]


class PigOptimalAgent(Agent):
    """The solved table as a player: rolls or holds exactly as optimal play does."""

    interactive = False
    spec = "pig-optimal"

    def __call__(self, game, state):
        from gamesearch.games.pig import HOLD, ROLL
        from gamesearch.search.result import SearchResult, SearchStats

        solution = solved(game.goal)
        i, j = state.scores[state.player], state.scores[1 - state.player]
        action = ROLL if solution.should_roll(i, j, state.turn_total) else HOLD
        p = solution.win_probability(i, j, state.turn_total)
        return SearchResult(2 * p - 1, action, [action], SearchStats())

    def reset(self) -> None:
        """The table is kept: it does not depend on the game played."""
