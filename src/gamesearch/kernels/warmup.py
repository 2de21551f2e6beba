"""Warm-up steps: compile (or load from numba's on-disk cache) compiled code before it is
timed, so that ``gamesearch warmup`` pays every compilation once and later sessions start at
once. This module knows no game: :mod:`gamesearch.catalog_warmup` says what to warm up."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from gamesearch.kernels.contract import GameKernel

WarmupStep = tuple[str, Callable[[], object]]
"""A step's name and the call that compiles (or loads) one piece of compiled code."""


def timed(step: Callable[[], object]) -> float:
    """Run one step; the seconds it took."""
    start = time.perf_counter()
    step()
    return time.perf_counter() - start


def kernel_steps(kernel: GameKernel, state: object) -> list[WarmupStep]:
    """The generic searches (negamax, MCTS) compiled against a game's kernel, run briefly
    from ``state`` (a game state, e.g. the initial one)."""
    return [(f"{kernel.name} primitives + negamax", lambda: _negamax(kernel, state)),
            (f"{kernel.name} MCTS", lambda: _mcts(kernel, state))]


def _negamax(kernel: GameKernel, state: object) -> None:
    from gamesearch.kernels.negamax import N_STATS
    from gamesearch.kernels.search import KernelTable

    p = kernel.primitives
    s = kernel.encode(state)
    table = KernelTable(0.01)
    kernel.negamax.negamax(s, 1, -np.inf, np.inf, 0, True, True, *table.arrays(),
                           np.zeros((8, kernel.max_actions), np.int64),
                           np.zeros(N_STATS, np.int64), np.zeros(1, np.int64))
    p.evaluate(s)


def _mcts(kernel: GameKernel, state: object) -> None:
    n = kernel.max_actions
    kernel.mcts.mcts_run(kernel.encode(state), 10, 1.4, 64, 0,
                         np.zeros(n, np.int64), np.zeros(n), np.zeros(n))

