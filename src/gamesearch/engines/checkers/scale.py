"""How the checkers engine's values read (its ENTRY's ``scale``): hundredths of a man for the
side to move, a win found by search as ``MATE - plies``; a module of its own so that the
ENTRY and the agent share it without importing each other."""

from __future__ import annotations

from typing import Any

from gamesearch.result import ValueScale

MATE = 30000
"""A win found by search scores ``MATE - plies`` (search.py's MATE: tests/test_score.py
checks they agree); a database's verdict ``TB_WIN - plies`` lies far below."""


def win_in(value: Any, game: Any = None, state: Any = None) -> int | None:
    """Moves to the end that an engine score proves (negative: the side to move loses), or
    None (an evaluation, or a database's verdict: proven, its distance unknown)."""
    if abs(value) <= MATE - 1000:
        return None
    plies = MATE - abs(int(value))
    return (plies + 1) // 2 if value > 0 else -((plies + 1) // 2)


VALUE_SCALE = ValueScale("centipawns", 150.0, win_in)
"""A man is about 100: a man up reads as a 66% chance."""
