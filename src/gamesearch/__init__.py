"""gamesearch: adversarial search and game solving, from the lectures' algorithms to solvers."""

from gamesearch.errors import GameSearchError, IllegalActionError
from gamesearch.game import CHANCE, Game

__version__ = "0.1.0"

__all__ = ["CHANCE", "Game", "GameSearchError", "IllegalActionError", "__version__"]
