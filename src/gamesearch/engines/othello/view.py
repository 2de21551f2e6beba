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


def picture(game: Any, state: Any, lastmove: Any = None, arrows: Any = ()) -> Any:
    """Black (``X``) and white (``O``) discs on green, row 1 at the top; the disc count
    under the board."""
    from gamesearch.drawing import Piece, action_text, board_picture

    view = board(game, state)
    pieces = {"X": Piece("black", "#111"), "O": Piece("white", "#f8f8f8")}
    count = view["count"]
    return board_picture(view, pieces, action_text(game, state, lastmove) if lastmove is not None
                         else None, [action_text(game, state, a) for a in arrows],
                         light="#2e8b57", dark="#2e8b57",
                         caption=f"black {count['X']}  white {count['O']}")
