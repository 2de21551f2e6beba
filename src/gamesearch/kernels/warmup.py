"""Compile every registered kernel once (``gamesearch warmup``): numba caches the machine code
on disk, so later sessions load it instead of compiling."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np


def _timed(fn: Callable[[], object]) -> Callable[[], float]:
    def run() -> float:
        start = time.perf_counter()
        fn()
        return time.perf_counter() - start
    return run


def warmup_steps() -> list[tuple[str, Callable[[], float]]]:
    """(name, step) pairs; each step compiles (or loads) one kernel and returns seconds."""
    import gamesearch.games.connect4_kernel  # noqa: F401  (registers its kernel)
    from gamesearch.kernels.contract import KERNELS

    steps = []
    for name, maker in sorted(KERNELS.items()):
        steps.append((f"{name} primitives + negamax", _timed(lambda m=maker: _negamax(m()))))
        steps.append((f"{name} MCTS", _timed(lambda m=maker: _mcts(m()))))
    steps.append(("connect4 perfect solver", _timed(_solver)))
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


def _solver() -> None:
    from gamesearch.games.connect4 import ConnectFour
    from gamesearch.games.connect4_solver import Connect4Solver

    game = ConnectFour()
    Connect4Solver().solve(game.state_from_string("4455443"))
