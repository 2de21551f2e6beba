"""The built-in games, loaded by name: ``load_game("nim:piles=3-4-5,misere=true")``.

Each game registers a :class:`GameEntry`: its name, a one-line summary and a factory whose
annotated keyword parameters are the game's parameters. A game may add a ``solver``: a
callable ``solver(game, state, options) -> dict`` used by ``gamesearch solve`` instead of
the generic search (Connect Four's compiled solver, Pig's value iteration, CFR for poker).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gamesearch.errors import UnknownNameError
from gamesearch.game import Game
from gamesearch.spec import call_with_params, parse_spec


@dataclass(frozen=True)
class GameEntry:
    """A registered game."""

    name: str
    summary: str
    factory: Callable[..., Game]
    solver: Callable[..., dict] | None = None


REGISTRY: dict[str, GameEntry] = {}


def register(entry: GameEntry) -> GameEntry:
    """Add a game to the registry (names are unique)."""
    REGISTRY[entry.name] = entry
    return entry


def _tictactoe() -> Game:
    from gamesearch.games.tictactoe import TicTacToe

    return TicTacToe()


def _nim(piles: tuple[int, ...] = (3, 4, 5), misere: bool = False) -> Game:
    from gamesearch.games.nim import Nim

    return Nim(piles=piles, misere=misere)


def _ii_nim() -> Game:
    from gamesearch.games.nim import Nim

    return Nim(piles=(2, 2), misere=True)


def _connect4(width: int = 7, height: int = 6) -> Game:
    from gamesearch.games.connect4 import ConnectFour

    return ConnectFour(width=width, height=height)


def _tree(file: str = "") -> Game:
    from gamesearch.games.tree import TreeGame, load_tree_source

    if not file:
        return TreeGame([[3, 12, 8], [2, 4, 6], [14, 5, 2]], source="classic tree")
    return load_tree_source(file)


register(GameEntry("tictactoe", "Tic-tac-toe on 3x3 (a draw)", _tictactoe))
register(GameEntry("nim", "Nim with any piles; normal or misère play", _nim))
register(GameEntry("ii-nim", "The lectures' II-Nim: piles 2 and 2, last stick loses", _ii_nim))
def _connect4_solver(game: Game, state: Any, options: dict) -> dict:
    from gamesearch.games.connect4_perfect import solve_entry

    return solve_entry(game, state, options)


register(GameEntry("connect4", "Connect Four, 7x6 by default (other sizes too)", _connect4,
                   solver=_connect4_solver))
register(GameEntry("tree", "An explicit game tree from a JSON file (file=PATH)", _tree))


def load_game(spec: str, **params: Any) -> Game:
    """A game by name with parameters: ``load_game("nim", piles=(2, 2), misere=True)`` or
    ``load_game("nim:piles=2-2,misere=true")``."""
    name, raw = parse_spec(spec)
    entry = game_entry(name)
    return call_with_params(entry.factory, {**raw, **params}, f"game {name!r}")


def game_entry(name: str) -> GameEntry:
    """The registry entry of a game; the error lists the known names."""
    key = name.strip().lower()
    if key not in REGISTRY:
        raise UnknownNameError(f"unknown game {name!r}; known games: {', '.join(sorted(REGISTRY))}")
    return REGISTRY[key]


__all__ = ["REGISTRY", "GameEntry", "game_entry", "load_game", "register"]
