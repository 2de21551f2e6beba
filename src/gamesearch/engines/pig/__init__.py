"""The Pig engine: the game solved by value iteration, its table as a player, the picture of
its policy, and Pig's ENTRY (what the command line and web app offer)."""

from __future__ import annotations

from typing import Any

from gamesearch.agent import Agent
from gamesearch.engines.pig.scale import VALUE_SCALE
from gamesearch.entry import AgentDecl, GameEntry, WarmupStep
from gamesearch.spec import Option, Range


def _pig(goal: int = 100) -> Any:
    from gamesearch.games.pig import Pig

    return Pig(goal=goal)


def _solver(game: Any, state: Any, options: dict) -> dict:
    from gamesearch.engines.pig.agent import pig_solver

    return pig_solver(game, state, options)


def _plot(game: Any, options: dict) -> Any:
    from gamesearch.engines.pig.plot import plot_policy

    return plot_policy(game, options)


def _svg(game: Any, state: Any, lastmove: Any, arrows: Any) -> Any:
    from gamesearch.engines.pig.view import picture

    return picture(game, state, lastmove, arrows)


def _pig_optimal() -> Agent:
    from gamesearch.engines.pig.agent import PigOptimalAgent

    return PigOptimalAgent()


def _warmups(game: Any) -> list[WarmupStep]:
    def value_iteration() -> None:
        from gamesearch.engines.pig.solver import solve_pig

        solve_pig(goal=4)

    return [("pig value iteration", value_iteration)]


ENTRY = GameEntry(
    "pig", "Pig, the dice race to goal=100 (solved by value iteration)", _pig,
    ranges={"goal": Range(2, 10**9)}, solver=_solver, plot=_plot,
    solver_options={
        "tolerance": Option(float, "value iteration stops below this change",
                            Range(0, 1, low_open=True)),
        "plot": Option(str, "draw the optimal policy into this image file"),
    },
    agents=(AgentDecl("pig-optimal", _pig_optimal,
                      "Pig: optimal play from the solved table"),),
    defaults=("pig-optimal",),
    warmups=_warmups,
    svg=_svg,
    scale=VALUE_SCALE,
)
