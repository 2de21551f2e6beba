"""Compile every registered kernel once (``gamesearch warmup``): numba caches the machine code
on disk, so later sessions load it instead of compiling."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np


def _timed(fn: Callable[[], object]) -> Callable[[], float]:
    def run() -> float:
        start = time.perf_counter()
        fn()
        return time.perf_counter() - start
    return run


def warmup_steps(games: Sequence[str] = ()) -> list[tuple[str, Callable[[], float]]]:
    """(name, step) pairs; each step compiles (or loads) one kernel and returns seconds.

    ``games``: game specs (``connect4:width=6,height=5``) whose kernels to compile; none:
    every registered kernel at its default size. Connect Four also gets its perfect solver.
    A game without a kernel is named in the error."""
    import gamesearch.games.connect4_kernel  # noqa: F401  (registers its kernel)
    from gamesearch.errors import GameSearchError
    from gamesearch.games import load_game
    from gamesearch.games.connect4 import ConnectFour
    from gamesearch.kernels.contract import KERNELS

    targets = []
    for spec in games or sorted(KERNELS):
        game = load_game(spec)
        kernel = getattr(game, "kernel", None)
        if kernel is None:
            raise GameSearchError(f"{spec}: this game has no compiled kernel to warm up")
        targets.append((kernel.name, game, kernel))
    steps = []
    for name, game, kernel in targets:
        steps.append((f"{name} primitives + negamax", _timed(lambda k=kernel: _negamax(k))))
        steps.append((f"{name} MCTS", _timed(lambda k=kernel: _mcts(k))))
        if isinstance(game, ConnectFour):
            steps.append((f"{name} perfect solver", _timed(lambda g=game: _solver(g))))
    return steps


def _negamax(kernel) -> None:
    from gamesearch.kernels.negamax import N_STATS
    from gamesearch.kernels.search import KernelTable

    p = kernel.primitives
    s = kernel.encode((0, 0, 0, False))
    table = KernelTable(0.01)
    kernel.negamax.negamax(s, 1, -np.inf, np.inf, 0, True, True, *table.arrays(),
                           np.zeros((8, kernel.max_actions), np.int64),
                           np.zeros(N_STATS, np.int64), np.zeros(1, np.int64))
    p.evaluate(s)


def _mcts(kernel) -> None:
    n = kernel.max_actions
    kernel.mcts.mcts_run(kernel.encode((0, 0, 0, False)), 10, 1.4, 64, 0,
                         np.zeros(n, np.int64), np.zeros(n), np.zeros(n))


def _solver(game) -> None:
    from gamesearch.games.connect4_solver import Connect4Solver

    state = game.initial_state()
    for column in (game.width // 2, game.width // 2, game.width // 2 - 1):
        state = game.result(state, column)
    Connect4Solver(game.width, game.height).solve(state, weak=True)
