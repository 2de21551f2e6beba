"""How the Connect Four solver's values read (its ENTRY's ``scale``): a module of its own so
that the ENTRY, the solver agent and ``solve connect4`` share it without importing each
other."""

from __future__ import annotations

from typing import Any

from gamesearch.result import ValueScale


def win_in(value: Any, game: Any, state: Any) -> int | None:
    """The winner's moves to the end that a solver score proves, from the mover's viewpoint
    (negative: the mover loses), or None (a draw, or no position to count from). A score
    is ``max_score`` less the winner's stones at the end (Pascal Pons's convention); a value
    under 1 in size is the search's heuristic estimate (the kernel's evaluation keeps inside
    (-1, 1)) and proves nothing."""
    if abs(value) < 1 or game is None or state is None:
        return None
    stones = state[2]
    if value > 0:
        return int(game.max_score - value - stones // 2)
    return -int(game.max_score + value - (stones + 1) // 2)


VALUE_SCALE = ValueScale("moves-to-win", 1.0, win_in)
"""Positive when the mover wins, larger for a sooner win (the rules' utility); a weak
solve's is only the sign, and says no distance."""
