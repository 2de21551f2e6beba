"""Python entry points to the compiled searches: plain arguments in, a SearchResult out.

:func:`kernel_alphabeta` is iterative-deepening negamax with a fixed-size table and principal
variation search (null windows after the first move), :func:`kernel_deepening` the same
search yielding every completed depth (the web's live view), both on the shared anytime
driver (:mod:`gamesearch.anytime`); :func:`kernel_mcts` is UCT with random play-outs. All
take any game whose ``kernel`` attribute is a :class:`~gamesearch.kernels.contract.GameKernel`.
"""

from __future__ import annotations

import time as _time
from collections.abc import Iterator
from typing import Any

import numpy as np

from gamesearch.anytime import STEADY, Budget, Pace, Stop, StopWatcher, as_callable, iterations
from gamesearch.errors import GameSearchError
from gamesearch.game import Game, State
from gamesearch.kernels.contract import GameKernel
from gamesearch.kernels.negamax import (
    ABORTED,
    DEADLINE,
    N_STATS,
    NODES,
    PROVEN_DEPTH,
    UNPROVEN,
)
from gamesearch.kernels.table import (  # noqa: F401  (re-exported: callers import them here)
    DEFAULT_TABLE_MB,
    MAX_PLY,
    KernelTable,
    table_entries,
)
from gamesearch.result import Limit, SearchResult, SearchStats


def game_kernel(game: Game) -> GameKernel:
    """The game's kernel, or an error naming the game."""
    kernel = getattr(game, "kernel", None)
    if not isinstance(kernel, GameKernel):
        raise GameSearchError(f"{game.name} has no compiled kernel; use the pure search")
    return kernel


def kernel_alphabeta(game: Game, state: State, depth: int | None = None,
                     time: float | None = None, pvs: bool = True, tt: bool = True,
                     table: KernelTable | None = None) -> SearchResult:
    """Compiled alpha-beta: iterative deepening to ``depth`` (None: to the end of the game)
    within ``time`` seconds. The compiled search reads the clock every few thousand nodes;
    an iteration that runs out of time is abandoned (nothing of it is stored) and the
    deepest finished iteration is returned. The first iteration always finishes."""
    *_, last = kernel_deepening(game, state, depth, time, pvs=pvs, tt=tt, table=table)
    return last


def kernel_deepening(game: Game, state: State, depth: int | None = None,
                     time: float | None = None, stop: Stop | None = None,
                     pvs: bool = True, tt: bool = True, table: KernelTable | None = None,
                     pace: Pace = STEADY) -> Iterator[SearchResult]:
    """Compiled iterative deepening on the shared anytime driver
    (:func:`gamesearch.anytime.iterations`), yielding each completed depth's result
    (the live view streams them); the last result yielded says why it stopped
    (``stopped_by``).

    ``time`` is the hard budget: the compiled search reads its clock every 1,024 nodes and
    abandons the iteration (nothing of it is stored); ``stop`` (a callable or an Event,
    polled every 10 ms by a watcher thread that moves the compiled search's deadline to the
    past) ends it the same way. The first iteration always finishes; with a depth and no
    time or stop, the search goes straight to that depth."""
    if game.is_terminal(state):
        raise GameSearchError("the game is over: there is nothing to search")
    kernel = game_kernel(game)
    code = kernel.negamax
    s = kernel.encode(state)
    table = table if table is not None else KernelTable(DEFAULT_TABLE_MB if tt else 0.001)
    moves_buf = np.zeros((MAX_PLY, max(kernel.max_actions, 1)), np.int64)
    stats = np.zeros(N_STATS, np.int64)
    root_move = np.zeros(1, np.int64)
    start = _time.perf_counter()
    limit = PROVEN_DEPTH - 1 if depth is None else depth
    asked = as_callable(stop)
    depths = None if (time is not None or depth is None or asked is not None) else [limit]

    def on_stop() -> None:
        stats[DEADLINE] = 1

    def step(d: int, budget: Budget) -> SearchResult:
        if budget.limited:  # the kernel reads the clock (a stop moves the deadline)
            stats[DEADLINE] = budget.deadline_us or FAR_DEADLINE
            if watcher is not None:
                watcher.arm()
        unproven0 = stats[UNPROVEN]
        value = code.negamax(s, d, -np.inf, np.inf, 0, tt, pvs, *table.arrays(),
                             moves_buf, stats, root_move)
        if stats[ABORTED]:  # this iteration did not fit: the driver keeps the previous one
            return SearchResult(None, None, [], _stats(kernel, table, stats, d, start),
                                stopped_by="stop" if asked is not None and asked() else "time")
        exact = bool(stats[UNPROVEN] == unproven0)  # every leaf was the end of the game
        result = _result(game, state, kernel, table, value, int(root_move[0]), d, stats,
                         start, tt, exact)
        result.stopped_by = "end" if exact else None
        return result

    watcher = StopWatcher(asked, on_stop, name="kernel-stop-watcher") if asked is not None else None
    bound = Limit(depth=limit, time=time)
    if watcher is None:
        yield from iterations(step, bound, pace=pace, stop=asked, depths=depths)
        return
    with watcher:
        yield from iterations(step, bound, pace=pace, stop=asked, depths=depths)


FAR_DEADLINE = 1 << 62
"""A deadline that never comes (microseconds): set so that a stop can move it."""


def _stats(kernel: GameKernel, table: KernelTable, stats: np.ndarray, depth: int,
           start: float) -> SearchStats:
    """The compiled search's counters so far as SearchStats."""
    return SearchStats(nodes=int(stats[NODES]), leaves=int(stats[1]), cutoffs=int(stats[3]),
                       tt_hits=int(stats[2]), depth=depth,
                       seconds=_time.perf_counter() - start,
                       extra={"kernel": kernel.name, "table_bytes": table.nbytes,
                              "abandoned": bool(stats[ABORTED])})


def _result(game: Game, state: State, kernel: GameKernel, table: KernelTable, value: float,
            move: int, depth: int, stats: np.ndarray, start: float, tt: bool,
            exact: bool) -> SearchResult:
    """One completed iteration as a SearchResult (the principal variation from the table)."""
    action = kernel.decode(move)
    pv = _principal_variation(game, state, kernel, table, action, depth) if tt else [action]
    search_stats = _stats(kernel, table, stats, depth, start)
    return SearchResult(_plain(value), action, pv, search_stats, pov=game.to_move(state),
                        exact=exact)


def kernel_mcts(game: Game, state: State, simulations: int = 10_000, c: float = 1.4142,
                seed: int = 0, max_nodes: int = 1 << 20) -> SearchResult:
    """Compiled UCT: ``simulations`` random play-outs; the most visited move is chosen and
    its value is the mover's win rate (draws count one half)."""
    if game.is_terminal(state):
        raise GameSearchError("the game is over: there is nothing to search")
    kernel = game_kernel(game)
    n_act = max(kernel.max_actions, 1)
    moves = np.zeros(n_act, np.int64)
    visits = np.zeros(n_act, np.float64)
    wins = np.zeros(n_act, np.float64)
    start = _time.perf_counter()
    n = kernel.mcts.mcts_run(kernel.encode(state), simulations, c,
                             max(max_nodes, n_act + 1), seed, moves, visits, wins)
    seconds = _time.perf_counter() - start
    best = int(np.argmax(visits[:n]))
    action = kernel.decode(int(moves[best]))
    values = {kernel.decode(int(moves[i])): float(wins[i] / visits[i]) if visits[i] else 0.0
              for i in range(n)}
    stats = SearchStats(nodes=simulations, seconds=seconds, iterations=simulations,
                        extra={"kernel": kernel.name})
    return SearchResult(values[action], action, [action], stats, action_values=values,
                        pov=game.to_move(state), stopped_by="iterations")


def _principal_variation(game: Game, state: State, kernel: GameKernel, table: KernelTable,
                         first: Any, depth: int = MAX_PLY) -> list:
    """The best move, then the table's best moves (an exact entry's, or a bound's from the
    null-window searches of PVS) as far as they go, at most ``depth`` moves in all."""
    line = [first]
    s = game.result(state, first)
    size = table.keys.shape[0]
    code = kernel.negamax
    for _ in range(min(MAX_PLY, depth) - 1):
        if game.is_terminal(s):
            break
        k = kernel.primitives.key(kernel.encode(s))
        slot = code.tt_slot(k, size)
        if table.keys[slot] != k:
            break
        a = kernel.decode(int(table.move[slot]))
        if a not in game.actions(s):
            break
        line.append(a)
        s = game.result(s, a)
    return line


def _plain(value: Any) -> Any:
    value = float(value)
    return int(value) if value.is_integer() else value
