"""The engine of Bachet's game: a perfect player from the theory, a solver for
``gamesearch solve``, an analyzer for ``gamesearch analyze``, and the ENTRY that gamesearch
loads (docs/ADDING_A_GAME.md, step 5)."""

from __future__ import annotations

from typing import Any

from gamesearch.agent import Agent
from gamesearch.entry import AgentDecl, Analyzer, GameEntry
from gamesearch.result import SearchResult, SearchStats
from gamesearch.spec import Range


# --- step 5: the engine and its entry ------------------------------------------------------
def bachet_value(sticks: int, max_take: int) -> tuple[int, int | None]:
    """(value for the mover, a winning take or None): a pile that is a multiple of
    ``max_take + 1`` is lost (Winning Ways, ch. 4, subtraction games)."""
    take = sticks % (max_take + 1)
    return (1, take) if take else (-1, None)


class PerfectBachet(Agent):
    """Plays the theory's winning take; in a lost position, one stick (the longest game)."""

    def __call__(self, game: Any, state: Any) -> SearchResult:
        value, take = bachet_value(state[0], game.max_take)
        action = take if take is not None else 1
        return SearchResult(value, action, [action], SearchStats(),
                            pov=game.to_move(state), exact=True)


def _perfect() -> Agent:
    return PerfectBachet()


def _solver(game: Any, state: Any, options: dict) -> dict:
    value, take = bachet_value(state[0], game.max_take)
    return {"game": "bachet", "value": value, "best_move": take,
            "reason": f"{state[0]} sticks, take 1-{game.max_take}: "
                      + ("a multiple of max_take + 1 loses" if take is None
                         else f"take {take} to leave a multiple of {game.max_take + 1}")}


def _analyze(game: Any, state: Any, options: dict) -> dict:
    """Every take's value for the mover: taking the last stick wins, else the value is
    the opponent's loss in the pile left."""
    return {take: 1 if state[0] == take else -bachet_value(state[0] - take, game.max_take)[0]
            for take in game.actions(state)}


def _bachet(sticks: int = 21, max_take: int = 3) -> Any:
    from gamesearch_bachet.rules import Bachet

    return Bachet(sticks=sticks, max_take=max_take)


ENTRY = GameEntry(
    "bachet", "Bachet's game: take 1-3 sticks, the last one wins (an installed example)",
    _bachet, ranges={"sticks": Range(1, 1000), "max_take": Range(1, 10)}, solver=_solver,
    analyzer=Analyzer(_analyze, describe=lambda value: "win" if value > 0 else "loss"),
    agents=(AgentDecl("bachet-perfect", _perfect, "Bachet's game: the theory's winning "
                      "take (a multiple of max_take + 1 is lost)"),),
    defaults=("bachet-perfect",),
)
