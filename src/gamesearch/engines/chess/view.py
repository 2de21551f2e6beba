"""What the web page is shown of a chess position (its renderer draws ``squares``)."""

from __future__ import annotations

from typing import Any

from gamesearch.boards import grid_view


def board(game: Any, state: str) -> dict:
    """Pieces as FEN letters (upper case White), rank 8 at the top; the king in check is
    named so the page can mark it."""
    import chess as pychess

    board = pychess.Board(state)
    grid = [["" for _ in range(8)] for _ in range(8)]
    for square, piece in board.piece_map().items():
        grid[7 - pychess.square_rank(square)][pychess.square_file(square)] = piece.symbol()
    king = board.king(board.turn) if board.is_check() else None
    legal = [] if game.is_terminal(state) else list(game.actions(state))
    return grid_view(grid, "abcdefgh", [str(8 - r) for r in range(8)], legal, "chess",
                      {"check": None if king is None else pychess.square_name(king)})
