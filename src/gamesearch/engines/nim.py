"""Nim's ENTRIES: Nim with any piles, and the lectures' II-Nim (piles 2 and 2, misère)."""

from __future__ import annotations

from typing import Any

from gamesearch.entry import GameEntry
from gamesearch.spec import Range


def _nim(piles: tuple[int, ...] = (3, 4, 5), misere: bool = False) -> Any:
    from gamesearch.games.nim import Nim

    return Nim(piles=piles, misere=misere)


def _ii_nim() -> Any:
    from gamesearch.games.nim import Nim

    return Nim(piles=(2, 2), misere=True)


def _board(game: Any, state: Any) -> dict:
    return {"piles": list(state[0]), "misere": game.misere}


ENTRIES = (
    GameEntry("nim", "Nim with any piles; normal or misère play", _nim,
              ranges={"piles": Range(0, 1000)}, defaults=("alphabeta",),  # nim.MAX_PILE
              board=_board),
    GameEntry("ii-nim", "The lectures' II-Nim: piles 2 and 2, last stick loses", _ii_nim,
              defaults=("alphabeta",), board=_board),
)
