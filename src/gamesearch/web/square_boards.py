"""Board data for the games played on a grid of named squares (Othello, chess, checkers,
Go): what stands on each square, the labels of the files and ranks, and for each legal move the
squares a person clicks to make it (first and last). One renderer on the page draws them
all (``squares`` in static/js/squares.js)."""

from __future__ import annotations

import re
from typing import Any

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


def _grid_view(cells: list[list[str]], files: str, ranks: list[str], legal: list[str],
               style: str, extra: dict | None = None) -> dict:
    moves = {m: sq for m in legal if (sq := move_squares(m, files, ranks)) is not None}
    others = [m for m in legal if m not in moves]
    return {"squares": cells, "files": files, "ranks": ranks, "moves": moves,
            "other_moves": others, "style": style, **(extra or {})}


def othello(game: Any, state: Any) -> dict:
    """Discs (``X`` black, ``O`` white) with row 1 at the top, as the notation counts."""
    cells, mover = state
    n = game.size
    grid = [[ch if ch in "XO" else "" for ch in cells[r * n:(r + 1) * n]] for r in range(n)]
    legal = [] if game.is_terminal(state) else [game.action_to_string(state, a)
                                                for a in game.actions(state)]
    return _grid_view(grid, "abcdefgh"[:n], [str(r + 1) for r in range(n)], legal, "othello",
                      {"count": {"X": cells.count("X"), "O": cells.count("O")}})


def chess(game: Any, state: str) -> dict:
    """Pieces as FEN letters (upper case White), rank 8 at the top; the king in check is
    named so the page can mark it."""
    import chess as pychess

    board = pychess.Board(state)
    grid = [["" for _ in range(8)] for _ in range(8)]
    for square, piece in board.piece_map().items():
        grid[7 - pychess.square_rank(square)][pychess.square_file(square)] = piece.symbol()
    king = board.king(board.turn) if board.is_check() else None
    legal = [] if game.is_terminal(state) else list(game.actions(state))
    return _grid_view(grid, "abcdefgh", [str(8 - r) for r in range(8)], legal, "chess",
                      {"check": None if king is None else pychess.square_name(king)})


def checkers(game: Any, state: Any) -> dict:
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


def go(game: Any, state: Any) -> dict:
    """Stones (``X`` black, ``O`` white) on the points, the top row numbered ``size`` as GTP
    counts; moves are the vertices as GTP writes them (``D4``, the engines' notation too, so
    a person's moves and the AI's read alike), the pass a button; the area score so far,
    and when the game is over the territory: each empty point's owner (``X``, ``O``, or
    ``""`` for a neutral point), as the area count scores it."""
    from gamesearch.games.go.notation import COLUMNS
    from gamesearch.games.go.rules import area_owners

    cells, n = state[0], game.size
    grid = [[ch if ch in "XO" else "" for ch in cells[r * n:(r + 1) * n]] for r in range(n)]
    over = game.is_terminal(state)
    legal = [] if over else [game.action_to_string(state, a) for a in game.actions(state)]
    owners = area_owners(cells, n)
    extra: dict = {"count": {"X": owners.count("X"), "O": owners.count("O")}}
    if over:
        extra["territory"] = [[o if o in "XO" and c not in "XO" else ""
                               for o, c in zip(owners[r * n:(r + 1) * n],
                                               cells[r * n:(r + 1) * n])] for r in range(n)]
    return _grid_view(grid, COLUMNS[:n], [str(n - r) for r in range(n)], legal, "go", extra)
