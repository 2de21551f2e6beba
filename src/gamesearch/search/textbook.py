"""The textbook searches by name, as the tree lab and ``gamesearch tree`` run them.

One selection for both faces: the name, the function, and the textbook configuration
(alpha-beta in the given order, with no move ordering, killers, history, table or
quiescence, so a trace shows exactly the prunings the lectures draw).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from typing import Any

from gamesearch.errors import GameSearchError, UnknownNameError

TEXTBOOK_ALGORITHMS = ("minimax", "alphabeta", "expectimax", "expectiminimax")
CHANCE_MODULE = "gamesearch.search.chance"


class Unavailable(GameSearchError):
    """An algorithm this build does not have (its module is missing)."""


def available(algorithm: str) -> bool:
    """True when the algorithm's module is present in this build."""
    if algorithm in ("expectimax", "expectiminimax"):
        try:
            return importlib.util.find_spec(CHANCE_MODULE) is not None
        except (ImportError, ValueError):
            return False
    return algorithm in TEXTBOOK_ALGORITHMS


def textbook_search(algorithm: str) -> Callable[..., Any]:
    """``search(game, state, depth=None, trace=None) -> SearchResult`` for an algorithm
    name; UnknownNameError for a name we lack, Unavailable for a missing module."""
    if algorithm == "minimax":
        from gamesearch.search.minimax import minimax

        return minimax
    if algorithm == "alphabeta":
        from gamesearch.search.alphabeta import alphabeta

        def textbook_alphabeta(game: Any, state: Any, depth: int | None = None,
                               trace: Callable[..., None] | None = None) -> Any:
            return alphabeta(game, state, depth=depth, trace=trace, order=False, tt=False,
                             killers=False, history=False, quiescence=False)

        return textbook_alphabeta
    if algorithm not in TEXTBOOK_ALGORITHMS:
        raise UnknownNameError(f"unknown algorithm {algorithm!r}; choose one of "
                               f"{', '.join(TEXTBOOK_ALGORITHMS)}")
    try:
        module = importlib.import_module(CHANCE_MODULE)
    except ImportError:
        raise Unavailable(f"{algorithm} is not available in this build "
                          f"({CHANCE_MODULE} is missing)") from None
    function = getattr(module, algorithm, None)
    if function is None:
        raise Unavailable(f"{algorithm} is not available in this build "
                          f"({CHANCE_MODULE} has no {algorithm})")
    return function
