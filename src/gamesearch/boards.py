"""Board data for a position drawn on a grid of named squares (Othello, chess, checkers,
Go, and any game of that shape): what stands on each square, the labels of the files and
ranks, and for each legal move the squares a person clicks to make it (first and last). One
renderer on the web page draws them all (``squares`` in web/static/js/squares.js); each
engine's entry builds its board with :func:`grid_view`. Knows no game."""

from __future__ import annotations

import re

SQUARE = re.compile(r"([A-Za-z])(\d+)")


def move_squares(move: str, files: str, ranks: list[str]) -> list[list[int]] | None:
    """The ``[row, column]`` of the first and last square named in ``move`` (``e2e4``,
    ``d3``), rows counted from the top of the picture; ``None`` for a move without a
    square on this board (``pass``)."""
    cells = []
    for letter, number in SQUARE.findall(move):
        if letter in files and number in ranks:
            cells.append([ranks.index(number), files.index(letter)])
    if not cells:
        return None
    return [cells[0], cells[-1]]


def grid_view(cells: list[list[str]], files: str, ranks: list[str], legal: list[str],
              style: str, extra: dict | None = None) -> dict:
    """The board data of a grid: ``cells`` row by row from the top, the files' letters and
    ranks' labels, every legal move's squares (moves naming none, such as a pass, are
    listed apart), the page's renderer ``style`` and any ``extra`` fields."""
    moves = {m: sq for m in legal if (sq := move_squares(m, files, ranks)) is not None}
    others = [m for m in legal if m not in moves]
    return {"squares": cells, "files": files, "ranks": ranks, "moves": moves,
            "other_moves": others, "style": style, **(extra or {})}
