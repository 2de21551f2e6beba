"""The strategy-fusion game's ENTRY: the lectures' example of PIMC's blind spot."""

from __future__ import annotations

from typing import Any

from gamesearch.entry import GameEntry
from gamesearch.imperfect.solve import CFR_OPTIONS, solve_poker


def _strategy_fusion() -> Any:
    from gamesearch.games.strategy_fusion import StrategyFusion

    return StrategyFusion()


def _solver(game: Any, state: Any, options: dict) -> dict:
    return solve_poker(game, state, options)


def _hidden_text(game: Any, state: Any, viewer: int) -> str:
    return f"the coin is hidden  your choices: {game.information_set(state, viewer) or '-'}"


ENTRY = GameEntry("strategy_fusion", "Take 3, or guess a hidden coin for 4: PIMC's blind spot",
                  _strategy_fusion, solver=_solver, solver_options=CFR_OPTIONS,
                  defaults=("ismcts:iterations=2000",), hidden_text=_hidden_text,
                  title="Strategy fusion")
