"""How the chess engine's values read (its ENTRY's ``scale``): centipawns for the side to
move, a mate as ``MATE - plies``; a module of its own so that the ENTRY and the agents (ours
and the UCI adapter's) share it without importing each other."""

from __future__ import annotations

from typing import Any

from gamesearch.result import ValueScale

MATE = 30000
"""A mate found by the engine scores ``MATE - plies`` (engine.py's and search.py's MATE:
tests/test_score.py checks they agree)."""


def mate_in(value: Any, game: Any = None, state: Any = None) -> int | None:
    """Moves to mate that an engine score proves (negative: the side to move is mated), or
    None for an evaluation."""
    if abs(value) < MATE - 1000:
        return None
    plies = MATE - abs(int(value))
    return (plies + 1) // 2 if value > 0 else -((plies + 1) // 2)


MAX_THREADS = 64
"""The most search threads the engine takes (``set_threads``, UCI ``Threads``, the agent's
``threads``)."""
MAX_HASH_MB = 4096
"""The largest transposition table in MiB (UCI ``Hash``, the agent's ``hash``)."""


VALUE_SCALE = ValueScale("centipawns", 1 / 0.00368208, mate_in)
"""The win probability is lichess's fitted curve, 1 / (1 + e^(-0.00368 cp)): +1.00 reads
as 59%."""
