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


def _hidden_text(game: Any, state: Any, viewer: int) -> str:
    from gamesearch.games.leduc_poker import card_name

    cards, round1, round2 = state
    own = card_name(cards[viewer]) if len(cards) > viewer else "-"
    public = card_name(cards[2]) if len(cards) == 3 else "-"
    return (f"your card {own}  public {public}  round 1 {round1 or '-'}  "
            f"round 2 {round2 or '-'}")


ENTRY = GameEntry("leduc_poker", "Leduc hold'em: 6 cards, public card (CFR solver)",
                  _leduc_poker, solver=_solver, solver_options=CFR_OPTIONS,
                  defaults=("ismcts:iterations=2000",), hidden_text=_hidden_text)
