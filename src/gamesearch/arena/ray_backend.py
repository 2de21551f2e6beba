"""The Ray backend: tournament games (or any independent tasks) as Ray tasks on a cluster.

``pip install -e ".[cluster]"`` adds Ray; the core install never needs it. The driver (the
process that runs ``gamesearch tournament``) keeps the database: workers only play games
and send back their outcomes. Ray's fault tolerance re-runs a task whose worker process
died (``max_retries``), so a killed worker costs a replayed game, never a lost or doubled
one (the driver stores each game once, by its schedule index).

Workers import gamesearch: on one machine they share the driver's environment; on a
cluster every node needs the same gamesearch installed (docs/ARENA.md).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from gamesearch.errors import GameSearchError

RETRIES = 3
"""Times Ray re-runs a task whose worker died before giving up on it."""
NICENESS_VARIABLE = "RAY_worker_niceness"
"""Ray's setting, spelt as Ray reads it (its settings are case-sensitive)."""
WORKER_NICENESS = "0"
"""Ray starts its worker processes at nice 15 unless told otherwise (``RAY_worker_niceness``):
on a machine shared with anything else they then yield the cores and games run slower than
in the process pool, whose workers run at the driver's priority. A Ray started here for the
run uses the driver's priority too; a cluster started with ``ray start`` keeps its own
setting (``RAY_worker_niceness=0 ray start --head ...`` gives the same)."""
PROBE_SECONDS = 5.0
"""How long to wait for the cluster's address to answer before saying it does not (Ray's
own client waits minutes on a dead address)."""


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise GameSearchError("--backend ray needs Ray: pip install -e '.[cluster]' "
                              "(or pip install ray)") from None
    return ray


def check_address(address: str, seconds: float = PROBE_SECONDS) -> None:
    """One line, within ``seconds``, when nothing listens at ``host:port``."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isascii() or not port.isdigit() \
            or not 0 < int(port) < 65536:
        raise GameSearchError(f"--address {address!r}: expected HOST:PORT of a Ray cluster's "
                              "head (ray start --head prints it)")
    try:
        with socket.create_connection((host, int(port)), timeout=seconds):
            pass
    except OSError as err:
        raise GameSearchError(f"no Ray cluster answers at {address} ({err.strerror or err}); "
                              "start one with: ray start --head --port PORT") from None


class RayBackend:
    """Tasks on a Ray cluster: ``address`` is its head (``host:port``), or None for a Ray
    started in this process for the run. ``workers`` tasks are in flight (the games played
    at once: give the cluster's CPU count), so Ctrl-C or a closed iterator leaves the rest
    unstarted."""

    def __init__(self, address: str | None = None, workers: int = 1) -> None:
        ray = _ray()
        if address is not None:
            check_address(address)
        self.workers = workers
        self.started_here = False
        if not ray.is_initialized():
            saved = os.environ.get(NICENESS_VARIABLE)
            if address is None and saved is None:  # Ray's processes inherit it
                os.environ[NICENESS_VARIABLE] = WORKER_NICENESS
            try:
                ray.init(address=address, include_dashboard=False, logging_level="ERROR",
                         log_to_driver=False, num_cpus=None if address else workers)
            except Exception as err:  # noqa: BLE001  Ray raises many kinds; one line
                raise GameSearchError(f"cannot join the Ray cluster at {address or 'local'}: "
                                      f"{str(err).splitlines()[0] if str(err) else err}") \
                    from None
            finally:
                if saved is None:
                    os.environ.pop(NICENESS_VARIABLE, None)
            self.started_here = True
        self._remote: dict[Callable, Any] = {}

    def _task(self, fn: Callable[[Any], Any]) -> Any:
        if fn not in self._remote:
            self._remote[fn] = _ray().remote(max_retries=RETRIES, retry_exceptions=False)(fn)
        return self._remote[fn]

    def imap_unordered(self, fn: Callable[[Any], Any],
                       tasks: Iterable[Any]) -> Iterator[tuple[int, Any]]:
        """(position, result) pairs as the tasks finish on the cluster."""
        ray = _ray()
        remote = self._task(fn)
        pending: dict[Any, int] = {}
        items = enumerate(tasks)
        try:
            for i, task in items:
                pending[remote.remote(task)] = i
                if len(pending) >= self.workers:
                    break
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    i = pending.pop(ref)
                    for j, task in items:
                        pending[remote.remote(task)] = j
                        break
                    try:
                        result = ray.get(ref)
                    except Exception as err:  # noqa: BLE001  the task failed RETRIES times
                        raise GameSearchError(f"task {i} failed on the Ray cluster after "
                                              f"{RETRIES} retries: "
                                              f"{str(err).splitlines()[0]}") from None
                    yield i, result
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)

    def map(self, fn: Callable[[Any], Any], tasks: Iterable[Any]) -> list[Any]:
        """The results in the order of ``tasks``."""
        results = dict(self.imap_unordered(fn, tasks))
        return [results[i] for i in range(len(results))]

    def close(self) -> None:
        """Leave the cluster (and stop the Ray this run started)."""
        if self.started_here:
            _ray().shutdown()
            self.started_here = False
