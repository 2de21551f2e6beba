"""Tic-tac-toe's ENTRY: the rules, played by alpha-beta (the whole tree is small)."""

from __future__ import annotations

from typing import Any

from gamesearch.entry import GameEntry


def _tictactoe() -> Any:
    from gamesearch.games.tictactoe import TicTacToe

    return TicTacToe()


def _board(game: Any, state: Any) -> dict:
    x, o = state
    return {"cells": ["X" if x >> i & 1 else "O" if o >> i & 1 else "" for i in range(9)]}


def _svg(game: Any, state: Any, lastmove: Any, arrows: Any) -> Any:
    """X and O in the cells, each cell's number (1-9, the move that takes it) in its
    corner; the last move's cell highlighted, an arrow to a cell drawn as a dashed ring."""
    from gamesearch.drawing import Piece, grid_picture

    marks = _board(game, state)["cells"]
    cells = [marks[3 * r:3 * r + 3] for r in range(3)]
    labels = [[str(3 * r + c + 1) for c in range(3)] for r in range(3)]

    def cell(action: Any) -> tuple[int, int]:
        square = game.string_to_action(game.initial_state(), action) if isinstance(
            action, str) else action
        return divmod(square, 3)

    pieces = {"X": Piece("X", "#1f5fa8", text="X", kind="mark"),
              "O": Piece("O", "#c0392b", text="O", kind="mark")}
    return grid_picture(cells, pieces, labels=labels, light="#fff", dark="#fff", square=60,
                        lastmove=[cell(lastmove)] if lastmove is not None else (),
                        arrows=[(cell(a), cell(a)) for a in arrows])


ENTRY = GameEntry("tictactoe", "Tic-tac-toe on 3x3 (a draw)", _tictactoe,
                  defaults=("alphabeta",), board=_board, svg=_svg, title="Tic-tac-toe")
