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


def picture(game: Any, state: str, lastmove: Any = None, arrows: Any = ()) -> Any:
    """The position drawn by python-chess (``chess.svg.board``, whose conventions every
    board picture follows): ``lastmove`` and ``arrows`` are moves in UCI (``e2e4``)."""
    import chess as pychess
    import chess.svg

    from gamesearch.drawing import Svg, action_text

    board = pychess.Board(state)
    last = pychess.Move.from_uci(action_text(game, state, lastmove)) if lastmove else None
    drawn = []
    for action in arrows:
        move = pychess.Move.from_uci(action_text(game, state, action))
        drawn.append(chess.svg.Arrow(move.from_square, move.to_square))
    check = board.king(board.turn) if board.is_check() else None
    return Svg(chess.svg.board(board, lastmove=last, arrows=drawn, check=check, size=360))
