"""Contract checks for games and their compiled kernels (core layer: knows no game).

``check_game(game)`` plays random play-outs and checks the protocol of game.py at every
position; ``check_kernel(game, kernel)`` checks a compiled kernel against the readable
rules; ``check_agent(game, agent)`` checks an agent's answers against the result contract.
All raise :class:`GameCheckError` naming the check, the game and the moves to a
reproducing position. docs/ADDING_A_GAME.md shows them at work on a new game.
"""

from gamesearch.testing.agent_checks import check_agent
from gamesearch.testing.failure import GameCheckError
from gamesearch.testing.game_checks import CheckReport, check_game
from gamesearch.testing.kernel_checks import check_kernel

__all__ = ["CheckReport", "GameCheckError", "check_agent", "check_game", "check_kernel"]
