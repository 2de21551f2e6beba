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


ENTRY = GameEntry("tictactoe", "Tic-tac-toe on 3x3 (a draw)", _tictactoe,
                  defaults=("alphabeta",), board=_board)
