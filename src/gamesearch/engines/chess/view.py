"""What the web page is shown of a chess position (its renderer draws ``squares``)."""

from __future__ import annotations

from typing import Any

from gamesearch.boards import grid_view


def board(game: Any, state: str) -> dict:
    """Pieces as FEN letters (upper case White), rank 8 at the top; the king in check is
    named so the page can mark it; ``also``: a castling move is made by dropping the king
    on its rook too (as on lichess), so each castling move names its rook's square."""
    import chess as pychess

    board = pychess.Board(state)
    grid = [["" for _ in range(8)] for _ in range(8)]
    for square, piece in board.piece_map().items():
        grid[7 - pychess.square_rank(square)][pychess.square_file(square)] = piece.symbol()
    king = board.king(board.turn) if board.is_check() else None
    legal = [] if game.is_terminal(state) else list(game.actions(state))
    also = {}
    for text in legal:
        move = pychess.Move.from_uci(text)
        if board.is_castling(move):
            rook = pychess.square(7 if board.is_kingside_castling(move) else 0,
                                  pychess.square_rank(move.from_square))
            also[text] = [7 - pychess.square_rank(rook), pychess.square_file(rook)]
    return grid_view(grid, "abcdefgh", [str(8 - r) for r in range(8)], legal, "chess",
                      {"check": None if king is None else pychess.square_name(king),
                       "also": also})


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


def ending(game: Any, state: str) -> str | None:
    """How a finished game ended: checkmate, stalemate, insufficient material or the
    fifty-move rule (repetition is the drivers' to say: the state keeps no history)."""
    import chess as pychess

    board = pychess.Board(state)
    if board.is_checkmate():
        return "by checkmate"
    if board.is_stalemate():
        return "by stalemate"
    if board.is_insufficient_material():
        return "by insufficient material"
    if board.halfmove_clock >= 100:
        return "by fifty moves without a capture or a pawn move"
    return None


def read_pgn_game(text: str) -> tuple[dict[str, str], list[str]]:
    """The first game of a PGN text: its start (``fen``, where the game sets one up) and
    its moves in UCI, each checked by the rules."""
    from gamesearch.errors import GameSearchError
    from gamesearch.games.chess.pgn import read_pgn

    records = read_pgn(text)
    if not records:
        raise GameSearchError("no PGN game in the text (tag pairs, then moves: 1. e4 e5)")
    record = records[0]
    record.final_board()  # every move checked
    return ({"fen": record.start} if record.start else {}), list(record.moves)


def check_fen(text: str) -> str:
    """A FEN checked by the rules (a legal, possible position), normalised."""
    from gamesearch.games.chess.rules import board_of

    return board_of(" ".join(text.split())).fen()
