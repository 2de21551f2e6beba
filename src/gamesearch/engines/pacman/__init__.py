"""The Pacman engine: searching Pacmen and three kinds of ghost, the exact verdict, the
course's tree test cases, and Pacman's ENTRY (what the command line and web app offer)."""

from __future__ import annotations

from typing import Any

from gamesearch.agent import Agent
from gamesearch.entry import AgentDecl, GameEntry


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
