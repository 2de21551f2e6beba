"""Kuhn poker's ENTRY: solved by CFR+ (its value, -1/18, is Kuhn's 1950 result)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from gamesearch.entry import GameEntry, WarmupStep
from gamesearch.imperfect.solve import CFR_OPTIONS, cfr_warmup, solve_poker


def _kuhn_poker() -> Any:
    from gamesearch.games.kuhn_poker import KuhnPoker

    return KuhnPoker()


def _solver(game: Any, state: Any, options: dict) -> dict:
    return solve_poker(game, state, options, iterations=10_000, known_value=Fraction(-1, 18))


def _warmups(game: Any) -> list[WarmupStep]:
    return [("CFR + best response", lambda: cfr_warmup(game))]


def _hidden_text(game: Any, state: Any, viewer: int) -> str:
    info = game.information_set(state, viewer)
    return f"your card {info[:1] or '-'}  betting {info[1:] or '-'}"


ENTRY = GameEntry("kuhn_poker", "Kuhn poker: 3 cards, value -1/18 (CFR solver)", _kuhn_poker,
                  solver=_solver, solver_options=CFR_OPTIONS,
                  defaults=("ismcts:iterations=2000",), warmups=_warmups,
                  hidden_text=_hidden_text)
