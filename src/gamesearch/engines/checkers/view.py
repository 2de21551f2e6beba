"""What the web page is shown of a checkers position (its renderer draws ``squares``)."""

from __future__ import annotations

import re
from typing import Any


def board(game: Any, state: Any) -> dict:
    """Men and kings (``b``/``B`` black, ``w``/``W`` white) on the dark squares, square 1
    at the top as the notation counts; each square's number is drawn in its corner, and a
    move is clicked as its first and last square (several jump paths between the same two
    squares get a button each, showing every landing square)."""
    from gamesearch.games.checkers.notation import square_at, square_row_col

    cells = state[0]
    grid = [["" for _ in range(8)] for _ in range(8)]
    labels = [["" for _ in range(8)] for _ in range(8)]
    for row in range(8):
        for col in range(8):
            square = square_at(row, col)
            if square is not None:
                grid[row][col] = "" if cells[square - 1] == "." else cells[square - 1]
                labels[row][col] = str(square)
    legal = [] if game.is_terminal(state) else list(game.actions(state))
    moves = {}
    for move in legal:
        path = [int(n) for n in re.findall(r"\d+", move)]
        moves[move] = [list(square_row_col(path[0])), list(square_row_col(path[-1]))]
    return {"squares": grid, "files": "abcdefgh", "ranks": [str(8 - r) for r in range(8)],
            "labels": labels, "moves": moves, "other_moves": [], "style": "checkers",
            "count": {"b": sum(c in "bB" for c in cells), "w": sum(c in "wW" for c in cells)}}
