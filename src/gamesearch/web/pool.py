"""A pool of worker processes that run searches off the event loop.

Each worker is a process with its own pipe, which the event loop watches and reads. A job
carries a deadline counted from the request's arrival: a job still queued at its deadline is
dropped (the caller answers with a fallback move), a running job is told its remaining time,
a worker that overruns its job's hard deadline is killed and replaced, and a worker that
dies fails its job cleanly and is replaced. One slow search therefore holds one worker for
at most its budget plus a grace period, never the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import multiprocessing
import time
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

from gamesearch.web.worker import worker_main

KILL_GRACE = 1.5
"""Seconds past a job's deadline before its worker is killed and replaced."""
WATCH_EVERY = 0.1
MAX_EARLY_DEATHS = 5
"""Workers that may die before they are ready before the pool stops replacing them."""


class JobFailed(Exception):
    """A job ended without a result: the message says why (shown to the person)."""

    def __init__(self, message: str, status: int = 500) -> None:
        super().__init__(message)
        self.status = status


class WorkerCrashed(JobFailed):
    """The worker running the job died; the pool has replaced it."""

    def __init__(self, message: str) -> None:
        super().__init__(message, 503)


class Job:
    """One request's search: events arrive on ``events``; ``deadline`` is monotonic."""

    def __init__(self, job_id: int, kind: str, payload: dict, deadline: float) -> None:
        self.id, self.kind, self.payload, self.deadline = job_id, kind, payload, deadline
        self.events: asyncio.Queue = asyncio.Queue()
        self.worker: Worker | None = None
        self.cancelled = False
        self.finished = False

    def stop(self) -> None:
        """Ask the running search to answer now with its best so far; wake the waiter."""
        if self.worker is not None and self.worker.job is self:
            self.worker.stop_flag.value = 1
        self.events.put_nowait(("stopped", None))

    async def stream(self, until: float) -> AsyncIterator[tuple[str, Any]]:
        """Yield (kind, data) events until the result, an error, or ``until`` (monotonic):
        then ("timeout", None). Errors raise JobFailed."""
        while True:
            left = until - time.monotonic()
            if left <= 0:
                yield "timeout", None
                return
            try:
                kind, data = await asyncio.wait_for(self.events.get(), left)
            except asyncio.TimeoutError:
                yield "timeout", None
                return
            if kind == "crashed":
                raise WorkerCrashed(data)
            if kind == "error":
                raise JobFailed(data["message"], data["status"])
            yield kind, data
            if kind in ("result", "late", "stopped"):
                return


class Worker:
    """A worker process, its pipe (watched by the event loop) and its stop flag."""

    def __init__(self, pool: WorkerPool) -> None:
        ctx = pool.context
        parent, child = ctx.Pipe()
        self.pool = pool
        self.stop_flag = ctx.Value("b", 0, lock=False)
        self.process = ctx.Process(target=worker_main, args=(child, self.stop_flag),
                                   daemon=True, name="gamesearch-web-worker")
        self.process.start()
        child.close()
        self.conn = parent
        self.job: Job | None = None
        self.dead = False
        self.ready = False
        pool.loop.add_reader(self.conn.fileno(), self._readable)

    def _readable(self) -> None:
        """The pipe has data (or was closed): hand every waiting message to the pool. The
        event loop reads the pipes itself: no threads, no hand-offs of the interpreter lock."""
        try:
            while self.conn.poll():
                self.pool._message(self, self.conn.recv())
        except (EOFError, OSError):
            self.pool._died(self)

    def close(self) -> None:
        """Stop watching the pipe and close it."""
        if not self.conn.closed:
            self.pool.loop.remove_reader(self.conn.fileno())
            self.conn.close()

    def send(self, job: Job, seconds_left: float) -> None:
        self.job = job
        job.worker = self
        self.stop_flag.value = 0
        self.conn.send({"id": job.id, "kind": job.kind, "payload": job.payload,
                        "seconds": seconds_left})

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()


class WorkerPool:
    """``size`` worker processes; :meth:`submit` queues a job, first come first served."""

    def __init__(self, size: int = 2, start_method: str = "spawn") -> None:
        self.size = size
        self.context = multiprocessing.get_context(start_method)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.workers: list[Worker] = []
        self.idle: deque[Worker] = deque()
        self.pending: deque[Job] = deque()
        self.ids = itertools.count(1)
        self.replaced = 0
        self.early_deaths = 0
        self._watch: asyncio.Task | None = None

    async def start(self) -> None:
        """Start the workers (call from the event loop that will use the pool)."""
        self.loop = asyncio.get_running_loop()
        for _ in range(self.size):
            self._add_worker()
        self._watch = asyncio.create_task(self._watchdog())
        for _ in range(200):  # wait for the workers' imports (at most 10 s)
            if all(w.ready for w in self.workers):
                break
            await asyncio.sleep(0.05)

    async def close(self) -> None:
        """Stop the workers and the watchdog."""
        if self._watch is not None:
            self._watch.cancel()
        for worker in self.workers:
            worker.dead = True
            with contextlib.suppress(OSError):
                worker.conn.send(None)
        for worker in self.workers:
            worker.process.join(timeout=1)
            worker.kill()
            worker.close()
        self.workers.clear()
        self.idle.clear()

    def submit(self, kind: str, payload: dict, seconds: float) -> Job:
        """Queue a job that must be answered within ``seconds`` from now."""
        job = Job(next(self.ids), kind, payload, time.monotonic() + seconds)
        self.pending.append(job)
        self._dispatch()
        return job

    def cancel(self, job: Job) -> None:
        """The person moved on: drop the job if queued, stop it if running."""
        job.cancelled = True
        if job.worker is None:
            with contextlib.suppress(ValueError):
                self.pending.remove(job)
        else:
            job.stop()

    def status(self) -> dict:
        """Counts for the health endpoint and tests."""
        return {"workers": len(self.workers), "idle": len(self.idle),
                "queued": len(self.pending), "replaced": self.replaced,
                "pids": [w.process.pid for w in self.workers],
                "busy": [w.process.pid for w in self.workers if w.job is not None]}

    # --- internals -----------------------------------------------------------------------
    def _add_worker(self) -> None:
        self.workers.append(Worker(self))

    def _dispatch(self) -> None:
        now = time.monotonic()
        while self.pending and self.idle:
            job = self.pending.popleft()
            left = job.deadline - now
            if job.cancelled:
                continue
            if left <= 0.005:
                job.events.put_nowait(("late", "no worker was free before the deadline"))
                continue
            worker = self.idle.popleft()
            try:
                worker.send(job, left)
            except OSError:
                self.pending.appendleft(job)
                self._died(worker)
                return

    def _message(self, worker: Worker, message: tuple) -> None:
        job_id, kind, data = message
        if kind == "ready":
            worker.ready = True
            if not worker.dead:
                self.idle.append(worker)
                self._dispatch()
            return
        job = worker.job
        if job is None or job.id != job_id:
            return
        job.events.put_nowait((kind, data))
        if kind in ("result", "error"):
            job.finished = True
            worker.job = None
            if not worker.dead:
                self.idle.append(worker)
            self._dispatch()

    def _died(self, worker: Worker) -> None:
        if worker.dead and worker not in self.workers:
            return
        worker.dead = True
        if worker in self.workers:
            self.workers.remove(worker)
        if worker in self.idle:
            self.idle.remove(worker)
        job, worker.job = worker.job, None
        if job is not None and not job.finished:
            job.finished = True
            job.events.put_nowait(("crashed", "the search worker stopped unexpectedly; "
                                              "it has been replaced, please try again"))
        worker.kill()
        worker.close()
        if not worker.ready:  # died while starting: do not respawn in a loop
            self.early_deaths += 1
            if self.early_deaths > MAX_EARLY_DEATHS:
                return
        if self.loop is not None and not self.loop.is_closed() and self._watch is not None \
                and not self._watch.done():
            self.replaced += 1
            self._add_worker()
            self._dispatch()

    async def _watchdog(self) -> None:
        """Kill workers whose job ran past its deadline plus the grace period."""
        while True:
            await asyncio.sleep(WATCH_EVERY)
            now = time.monotonic()
            for worker in list(self.workers):
                job = worker.job
                if job is not None and now > job.deadline + KILL_GRACE:
                    worker.kill()  # the pipe reads EOF and the pool replaces it
