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


def picture(game: Any, state: Any, lastmove: Any = None, arrows: Any = ()) -> Any:
    """Men and kings (a crown ``K``) on the dark squares, each square's number in its
    corner; a move is drawn from its first to its last square."""
    from gamesearch.drawing import Piece, grid_picture
    from gamesearch.games.checkers.notation import square_row_col

    view = board(game, state)

    def ends(move: str) -> tuple:
        path = [int(n) for n in re.findall(r"\d+", move)]
        return square_row_col(path[0]), square_row_col(path[-1])

    pieces = {"b": Piece("black man", "#222", "#000"), "B": Piece("black king", "#222", "#000",
                                                                     "K", "#f5d76e"),
              "w": Piece("white man", "#f3efe0"), "W": Piece("white king", "#f3efe0",
                                                              text="K", text_fill="#a33")}
    count = view["count"]
    return grid_picture(view["squares"], pieces, lastmove=ends(lastmove) if lastmove else (),
                        arrows=[ends(a) for a in arrows], labels=view["labels"],
                        light="#f3e3c3", dark="#7a9a5a",
                        caption=f"black {count['b']}  white {count['w']}")
