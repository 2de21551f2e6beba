"""The solvers of ``gamesearch solve`` that join a game with an algorithm, attached to the
games' registry entries: Connect Four's compiled solver, Pig's solved table, Pacman's
verdict, CFR for the poker games. Each imports its code only when it runs."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from gamesearch.game import Game
from gamesearch.games import REGISTRY


def _connect4_solver(game: Game, state: Any, options: dict) -> dict:
    from gamesearch.engines.connect4.solve import solve_entry

    return solve_entry(game, state, options)

def _othello_solver(game: Game, state: Any, options: dict) -> dict:
    from gamesearch.engines.othello.solver import solve_entry

    return solve_entry(game, state, options)


def _pig_solver(game: Game, state: Any, options: dict) -> dict:
    from gamesearch.engines.pig.agent import pig_solver

    return pig_solver(game, state, options)

def _pacman_verdict(game: Game, state: Any, options: dict) -> dict:
    from gamesearch.engines.pacman.agents import pacman_verdict

    return pacman_verdict(game, state, options)

def _poker_solver(game: Game, state: object, options: dict) -> dict:
    from gamesearch.imperfect.solve import solve_poker

    return solve_poker(game, state, options)


def attach(name: str, solver: Any) -> None:
    """Give a registered game its solver (the game keeps its own ``solver_options``)."""
    if name in REGISTRY and REGISTRY[name].solver is None:
        REGISTRY[name] = replace(REGISTRY[name], solver=solver)


attach("connect4", _connect4_solver)
attach("othello", _othello_solver)
attach("pig", _pig_solver)
attach("pacman", _pacman_verdict)
for _name in ("kuhn_poker", "leduc_poker", "strategy_fusion"):
    attach(_name, _poker_solver)
