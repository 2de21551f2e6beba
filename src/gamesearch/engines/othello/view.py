"""What the web page is shown of a othello position (its renderer draws ``squares``)."""

from __future__ import annotations

from typing import Any

from gamesearch.boards import grid_view


def board(game: Any, state: Any) -> dict:
    """Discs (``X`` black, ``O`` white) with row 1 at the top, as the notation counts."""
    cells, mover = state
    n = game.size
    grid = [[ch if ch in "XO" else "" for ch in cells[r * n:(r + 1) * n]] for r in range(n)]
    legal = [] if game.is_terminal(state) else [game.action_to_string(state, a)
                                                for a in game.actions(state)]
    return grid_view(grid, "abcdefgh"[:n], [str(r + 1) for r in range(n)], legal, "othello",
                      {"count": {"X": cells.count("X"), "O": cells.count("O")}})
