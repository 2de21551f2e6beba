"""Where independent tasks run: a backend maps a picklable function over tasks.

The interface is two methods, so that any embarrassingly parallel job (tournament games,
opening-book solves, self-play games: ``learn.selfplay.play_games(..., executor_map=
backend.map)``) can use it:

* ``imap_unordered(fn, tasks)``: the results as the tasks finish, each with its task's
  position in ``tasks`` (the driver stores each one at once);
* ``map(fn, tasks)``: the results in order.

:class:`LocalBackend` (the default) runs in this process (one worker) or in a pool of
``workers`` processes; :class:`gamesearch.arena.ray_backend.RayBackend` runs on a Ray
cluster (the optional ``[cluster]`` extra).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Protocol

from gamesearch.errors import GameSearchError

MAX_WORKERS = 1024


class Backend(Protocol):
    """A way to run independent tasks (module docstring)."""

    workers: int

    def imap_unordered(self, fn: Callable[[Any], Any],
                       tasks: Iterable[Any]) -> Iterator[tuple[int, Any]]: ...

    def map(self, fn: Callable[[Any], Any], tasks: Iterable[Any]) -> list[Any]: ...

    def close(self) -> None: ...


class LocalBackend:
    """This machine: in this process with one worker, else a pool of worker processes.

    At most ``2 * workers`` tasks are handed out at a time, so Ctrl-C (or a closed
    iterator) stops soon and leaves the rest unstarted.
    """

    def __init__(self, workers: int = 1) -> None:
        if not 1 <= workers <= MAX_WORKERS:
            raise GameSearchError(f"--concurrency must be 1..{MAX_WORKERS}, not {workers}")
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None

    def imap_unordered(self, fn: Callable[[Any], Any],
                       tasks: Iterable[Any]) -> Iterator[tuple[int, Any]]:
        """(position, result) pairs as the tasks finish."""
        if self.workers == 1:
            for i, task in enumerate(tasks):
                yield i, fn(task)
            return
        if self.pool is None:  # spawn: safe whatever threads (numba, rich) this process has
            self.pool = ProcessPoolExecutor(self.workers,
                                            mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_leave_with_parent,
                                            initargs=(os.getpid(),))
        pending: dict[Future, int] = {}
        items = enumerate(tasks)
        try:
            for i, task in items:
                pending[self.pool.submit(fn, task)] = i
                if len(pending) >= 2 * self.workers:
                    break
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    i = pending.pop(future)
                    for j, task in items:  # keep the pool busy: one new task per result
                        pending[self.pool.submit(fn, task)] = j
                        break
                    yield i, future.result()
        finally:
            for future in pending:
                future.cancel()

    def map(self, fn: Callable[[Any], Any], tasks: Iterable[Any]) -> list[Any]:
        """The results in the order of ``tasks``."""
        results = dict(self.imap_unordered(fn, tasks))
        return [results[i] for i in range(len(results))]

    def close(self) -> None:
        """Stop the worker processes (unstarted tasks are dropped)."""
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None


PARENT_CHECK_SECONDS = 0.5
"""How often a worker process looks whether the process that started it is still there."""


def _leave_with_parent(parent: int) -> None:
    """In each worker: exit once the driver is gone. A driver killed with -9 cannot stop its
    pool, and the workers would otherwise wait for work for ever (holding its output pipes,
    so whoever waits for the driver's output waits too)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="leave-with-parent", daemon=True).start()


def make_backend(name: str, workers: int = 1, address: str | None = None) -> Backend:
    """The backend called ``name``: 'local' (process pool) or 'ray' (needs the extra)."""
    if name == "local":
        if address is not None:
            raise GameSearchError("--address goes with --backend ray")
        return LocalBackend(workers)
    if name == "ray":
        from gamesearch.arena.ray_backend import RayBackend

        return RayBackend(address, workers)
    raise GameSearchError(f"unknown backend {name!r}; known: local, ray")
