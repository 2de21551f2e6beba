"""The Pacman engine: searching Pacmen and three kinds of ghost, the exact verdict, the
course's tree test cases, and Pacman's ENTRY (what the command line and web app offer)."""

from __future__ import annotations

from typing import Any

from gamesearch.agent import Agent
from gamesearch.entry import AgentDecl, GameEntry
from gamesearch.spec import Option, Range

SOLVER_OPTIONS = {
    "depth": Option(int, "the look-ahead in plies (required: no exact verdict)",
                    Range(1, 1000)),
    "time": Option(float, "time budget in seconds", Range(0, 86_400, low_open=True)),
}
"""``solve pacman --depth N [--time T]``: the verdict is a depth-limited look-ahead, so the
command's limits go to it (without them ``solve`` would refuse --depth as meaningless for
an exact solver, and the solver refuses a request without a depth)."""


def _pacman(layout: str = "small", max_moves: int = 500, evaluation: str = "better",
            rules: str = "course", ghosts: int = 4) -> Any:
    from gamesearch.games.pacman import Pacman

    return Pacman(layout=layout, max_moves=max_moves, evaluation=evaluation, rules=rules,
                  ghosts=ghosts)


def _verdict(game: Any, state: Any, options: dict) -> dict:
    from gamesearch.engines.pacman.agents import pacman_verdict

    return pacman_verdict(game, state, options)


def _pacman_agent(algorithm: str = "expectimax", depth: int = 2, seed: int | None = None,
                  pruning: str = "course") -> Agent:
    from gamesearch.engines.pacman.agents import PacmanAgent

    return PacmanAgent(algorithm=algorithm, depth=depth, seed=seed, pruning=pruning)


def _ghost(kind: str = "random", depth: int = 1, seed: int | None = None,
           chase: float = 0.8) -> Agent:
    from gamesearch.engines.pacman.agents import GhostAgent

    return GhostAgent(kind=kind, depth=depth, seed=seed, chase=chase)


def _svg(game: Any, state: Any, lastmove: Any, arrows: Any) -> Any:
    from gamesearch.engines.pacman.view import picture

    return picture(game, state, lastmove, arrows)


def _board(game: Any, state: Any) -> dict:
    from gamesearch.engines.pacman.view import board

    return board(game, state)


ENTRY = GameEntry(
    "pacman", "Pacman against ghosts on a layout (layout=small|smallClassic|minimaxClassic|... "
    "or a .lay file; rules=course|simple; ghosts=N)", _pacman,
    solver=_verdict,
    solver_options=SOLVER_OPTIONS,
    agents=(
        AgentDecl("pacman", _pacman_agent, "Pacman searching depth=N full rounds "
                  "(algorithm=expectimax|minimax|alphabeta|greedy|random; alpha-beta "
                  "pruning=course|fast)", seats="first"),
        AgentDecl("ghost", _ghost, "a Pacman ghost: kind=random|directional|adversarial "
                  "(depth=N rounds for adversarial, chase=P for directional)", seats="others"),
    ),
    defaults=("pacman", "ghost"),
    svg=_svg,
    board=_board,
    title="Pacman",
)
