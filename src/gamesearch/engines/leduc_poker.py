"""Leduc hold'em's ENTRY: solved by CFR+."""

from __future__ import annotations

from typing import Any

from gamesearch.entry import GameEntry
from gamesearch.imperfect.solve import CFR_OPTIONS, solve_poker


def _leduc_poker() -> Any:
    from gamesearch.games.leduc_poker import LeducPoker

    return LeducPoker()


def _solver(game: Any, state: Any, options: dict) -> dict:
    return solve_poker(game, state, options, iterations=3_000)


ENTRY = GameEntry("leduc_poker", "Leduc hold'em: 6 cards, public card (CFR solver)",
                  _leduc_poker, solver=_solver, solver_options=CFR_OPTIONS,
                  defaults=("ismcts:iterations=2000",))
