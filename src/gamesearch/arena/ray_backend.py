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

import contextlib
import importlib.util
import os
import socket
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
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
AUTH_VARIABLE = "RAY_AUTH_MODE"
TOKEN_FILE = Path.home() / ".ray" / "auth_token"
"""Ray (2.5x and later) protects a cluster with a token: ``ray.init()`` writes one here the
first time it starts a local Ray, and ``ray start --head`` turns token checks on whenever
this file exists, while a driver given an explicit address never turns them on by itself.
So once any local Ray has run on a machine, joining its ``ray start`` cluster failed
("InvalidAuthToken") until the user set ``RAY_AUTH_MODE=token``. A driver that has a token
now sends it (a cluster without token checks accepts it too)."""
PROBE_SECONDS = 5.0
"""How long to wait for the cluster's address to answer before saying it does not (Ray's
own client waits minutes on a dead address)."""


def _init_environment(address: str | None) -> dict[str, str]:
    """The settings Ray's start (or join) should see, where the user set none: the workers'
    priority for a Ray started here, the token mode for a cluster joined with a token."""
    if address is None:
        return {NICENESS_VARIABLE: WORKER_NICENESS}
    if os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH") \
            or TOKEN_FILE.exists():
        return {AUTH_VARIABLE: "token"}
    return {}


@contextlib.contextmanager
def _scoped_environment(settings: dict[str, str]) -> Iterator[None]:
    """Set each of ``settings`` the user has not set, for the block only (the processes Ray
    starts inherit them)."""
    added = [name for name in settings if name not in os.environ]
    for name in added:
        os.environ[name] = settings[name]
    try:
        yield
    finally:
        for name in added:
            os.environ.pop(name, None)


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
        if importlib.util.find_spec("ray") is None:
            _ray()  # the one line saying how to install it
        if address is not None:
            check_address(address)
        self.workers = workers
        self.started_here = False
        self._remote: dict[Callable, Any] = {}
        # set before Ray is imported: it reads its token mode once, at import
        with _scoped_environment(_init_environment(address)):
            ray = _ray()
            if not ray.is_initialized():
                try:
                    ray.init(address=address, include_dashboard=False, logging_level="ERROR",
                             log_to_driver=False, num_cpus=None if address else workers)
                except Exception as err:  # noqa: BLE001  Ray raises many kinds; one line
                    first = str(err).splitlines()[0] if str(err) else err
                    raise GameSearchError(f"cannot join the Ray cluster at "
                                          f"{address or 'local'}: {first}") from None
                self.started_here = True

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
