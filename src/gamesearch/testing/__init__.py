"""Contract checks for games and their compiled kernels (core layer: knows no game).

``check_game(game)`` plays random play-outs and checks the protocol of game.py at every
position; ``check_kernel(game, kernel)`` checks a compiled kernel against the readable
rules. Both raise :class:`GameCheckError` naming the check, the game and the moves to a
reproducing position. docs/ADDING_A_GAME.md shows them at work on a new game.
"""

from gamesearch.testing.failure import GameCheckError
from gamesearch.testing.game_checks import CheckReport, check_game
from gamesearch.testing.kernel_checks import check_kernel

__all__ = ["CheckReport", "GameCheckError", "check_game", "check_kernel"]
