"""Pig's optimal policy as a picture (Neller & Presser's figure, drawn flat as a colour map),
for ``gamesearch solve pig --plot FILE``: the engine makes the figure from its solved
table, the command line saves it."""

from __future__ import annotations

from typing import Any

from gamesearch.engines.pig.solver import DEFAULT_TOLERANCE, PigSolution, solved


def policy_figure(solution: PigSolution) -> Any:
    """The turn total at which to hold, by both scores, as a matplotlib Figure (made without
    pyplot: no display, no global state)."""
    from matplotlib.figure import Figure

    table = solution.hold_at().astype(float)
    fig = Figure(figsize=(7, 6))
    ax = fig.add_subplot()
    image = ax.imshow(table, origin="lower", cmap="viridis", aspect="equal",
                      vmin=0, vmax=min(solution.goal, 40))
    ax.set_xlabel("opponent's score j")
    ax.set_ylabel("player's score i")
    ax.set_title(f"Pig to {solution.goal}: optimal hold-at turn total\n"
                 f"(first player wins with probability {solution.win_probability():.4f})")
    fig.colorbar(image, ax=ax, label="hold once the turn total reaches")
    fig.tight_layout()
    return fig


def plot_policy(game: Any, options: dict) -> Any:
    """GameEntry.plot: the policy of the solution ``solve`` has just computed with these
    options (the same goal and tolerance: solved once per process)."""
    tolerance = options.get("tolerance")
    return policy_figure(solved(game.goal, float(tolerance) if tolerance else DEFAULT_TOLERANCE))
