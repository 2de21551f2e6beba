"""A pool of worker processes that run searches off the event loop, in two lanes.

* The **play** lane runs the AI's moves (``think`` jobs). The **analysis** lane (verdicts,
  the labs) has its own worker(s), started at a lower CPU priority: a long verdict can never
  hold a worker that a move needs. An idle analysis worker may take a waiting move; a play
  worker never takes analysis work.
* Each worker has a job pipe (the server writes, blocking: the worker is idle and reading)
  and a result pipe that the event loop watches and reads without blocking
  (:mod:`gamesearch.web.channel`), so a result of any size arrives whole under asyncio and
  uvloop alike.
* A job carries two times counted from the request's arrival: its **search** time (what a
  move's agent is told to think, the page's clock) and its **hard** deadline, far later. A
  queued job starts with what is left of its search time, and at least ``MIN_SEARCH`` of
  it (a move that waited still gets a real search); at the hard deadline a running job is
  told to answer now, and a worker that overruns it by ``KILL_GRACE`` is killed and
  replaced. Only a job still queued at its hard deadline is dropped.
* **Every replacement is logged with its cause** (``gamesearch.web`` logger, WARNING) and
  counted by cause in :meth:`WorkerPool.status` (``/api/health``). A new worker warms every
  game's compiled code before it says ready, and only a ready worker takes a job: a
  replacement never makes a later move pay for a compile.
* **Cancel means stop.** A cancelled running job has its stop flag set; a worker that has not
  answered ``CANCEL_GRACE`` later (a solver that cannot be interrupted) is killed and
  replaced, so a stale verdict never holds a worker; where the system says, that grace is
  CPU time (a worker waiting for a CPU is stopping, not stuck; up to ``CANCEL_WALL``). A worker
  that said it is compiling a kernel is left alone until it says it is done: the compile
  lands in numba's disk cache.
* **Fair share under load.** When a move has waited half its budget and every worker is
  busy, the longest-running search that has completed at least one depth is asked to answer
  now with it (source ``shared``): each move gets a real search before anyone gets a
  fallback, and searches keep their whole budgets while the queue can wait.
* **Fair share between clients in the analysis lane.** Lab jobs and verdicts cannot answer
  early, so the analysis lane shares by order and by count instead: a free analysis worker
  takes the waiting job of the client with the fewest jobs running, then the one served
  longest ago (round robin), first come first served within a client; one client may have
  at most ``MAX_PER_CLIENT`` analysis jobs waiting or running (more is 429). A job
  submitted with ``wait`` may wait that long for a worker and then has its whole budget
  from its start: a small request queued behind a big one is never told it was too big.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import os
import sys
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable
from typing import Any

from gamesearch.web.channel import MessageReader
from gamesearch.web.worker import worker_main

KILL_GRACE = 1.5
"""Seconds past a job's hard deadline (when it is told to answer now) before its worker
is killed and replaced."""
MIN_SEARCH = 0.25
"""The share of its search time a move gets at least, however long it waited in the
queue (never past its hard deadline)."""
START_NOTICE = 30.0
"""Seconds between the lines that say how many workers are ready while the pool starts."""
CANCEL_GRACE = 0.4
"""Seconds a cancelled job's worker has to stop before it is killed and replaced: seconds
of CPU time where the system says (``Worker.cpu_state``), else of the wall clock. A worker
that waits for a CPU is stopping, not stuck: the analysis worker runs at a lower priority,
and at load 12 it got a few milliseconds a second and was recycled while its solver was
stopping as asked. One that sleeps (it cannot be waiting to run) gets wall seconds."""
CANCEL_WALL = 10.0
"""The most a starved worker's grace grows: a cancelled job's worker is replaced at the
latest this long after its grace began."""
MIN_SHARE = 0.05
"""Seconds a move's search runs at least before fair share may cut it."""
URGENT = 0.5
"""A waiting move claims a running search's worker once it has waited this share of its
budget: until then the running searches use their whole budgets."""
WATCH_EVERY = 0.05
MAX_EARLY_DEATHS = 5
"""Workers that may die before they are ready before the pool replaces them only after a
pause (``RESPAWN_PAUSE``, doubling up to ``MAX_RESPAWN_PAUSE``): never in a tight loop, and
never giving a lane up (a pool that stopped replacing lost its play lane for good, and
every move then waited for the low-priority analysis worker)."""
RESPAWN_PAUSE = 1.0
MAX_RESPAWN_PAUSE = 30.0
MAX_PER_CLIENT = 6
"""Analysis jobs one client may have waiting or running at once (a page that clicks through
a game's moves has a verdict or two in flight; a script that floods the lane gets 429)."""
SERVED_KEPT = 256
"""Clients whose last turn the pool remembers before it forgets those with nothing queued (a
forgotten client counts as served longest ago, as a new one does)."""
PLAY, ANALYSIS = "play", "analysis"
ANALYSIS_NICE = 10
"""How much lower the analysis workers' CPU priority is (``os.nice``)."""

log = logging.getLogger("gamesearch.web")


def _ticks() -> float:
    try:
        return float(os.sysconf("SC_CLK_TCK"))
    except (AttributeError, ValueError, OSError):
        return 100.0


TICKS = _ticks()
"""Clock ticks per second of ``/proc/PID/stat``'s CPU times."""


def cpu_seconds(worker: Worker) -> float | None:
    """The CPU seconds a worker has used, None where the system does not say."""
    seen = worker.cpu_state()
    return None if seen is None else seen[1]


def lane_of(kind: str) -> str:
    """The lane of a job kind: moves play, everything else is analysis."""
    return PLAY if kind == "think" else ANALYSIS


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

    def __init__(self, job_id: int, kind: str, payload: dict, deadline: float,
                 search: float | None = None, client: str | None = None) -> None:
        self.id, self.kind, self.payload, self.deadline = job_id, kind, payload, deadline
        self.client = client
        """Who asked (the web's client key): the analysis lane shares its workers fairly
        between clients; None is one anonymous client with no cap."""
        self.submitted = time.monotonic()
        self.budget = max(0.0, deadline - self.submitted if search is None else search)
        """The search time (``search``, else the whole time to the hard deadline)."""
        self.split = search is not None
        self.lane = lane_of(kind)
        self.events: asyncio.Queue = asyncio.Queue()
        self.worker: Worker | None = None
        self.cancelled = False
        self.finished = False
        self.started: float | None = None
        self.search_end: float | None = None  # when its search was told to answer
        self.result: Any = None  # the result it sent, once it has
        self.progressed = False  # a depth completed: it can answer now
        self.shared = False  # cut short by fair share
        self.stop_by: float | None = None  # cancelled while running: stop before this
        self.stop_cpu: float | None = None  # its worker's CPU time when that grace began
        self.compiling = False  # the worker compiles a kernel: never killed meanwhile
        self.overdue = False  # told to answer now at its hard deadline
        self.timed_from_start = False  # its budget runs from its start, not its arrival

    def search_seconds(self, now: float) -> float:
        """What the search may spend when it starts ``now``: what is left of its search time,
        at least ``MIN_SEARCH`` of it, and never past half the time to the hard deadline (a
        job with no search time of its own: all the time to its deadline)."""
        hard = self.deadline - now
        if not self.split:
            return max(0.001, hard)
        left = self.budget - (now - self.submitted)
        return max(0.001, min(max(left, MIN_SEARCH * self.budget), hard / 2))

    def stop(self) -> None:
        """Ask the running search to answer now with its best so far; wake the waiter."""
        self._raise_flag()
        self.events.put_nowait(("stopped", None))

    def _raise_flag(self) -> None:
        if self.worker is not None and self.worker.job is self:
            self.worker.stop_flag.value = 1

    async def stream(self, until: float) -> AsyncIterator[tuple[str, Any]]:
        """Yield (kind, data) events until the result, an error, or ``until`` (monotonic):
        then ("timeout", None). Errors raise JobFailed."""
        while True:
            left = until - time.monotonic()
            if left <= 0:
                yield "timeout", None
                return
            try:
                kind, data = await _get_within(self.events, left)
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


async def _get_within(queue: asyncio.Queue, seconds: float) -> Any:
    """The queue's next item, or asyncio.TimeoutError after ``seconds``. Not wait_for where
    asyncio.timeout exists: wait_for can swallow a cancellation that meets a result (a page
    closed its live view and the search ran on for its whole budget, 1 time in 6)."""
    if sys.version_info >= (3, 11):
        async with asyncio.timeout(seconds):
            return await queue.get()
    return await asyncio.wait_for(queue.get(), seconds)


class Worker:
    """A worker process, its two pipes (results watched by the event loop), its stop flag."""

    def __init__(self, pool: WorkerPool, lane: str) -> None:
        ctx = pool.context
        job_reader, job_writer = ctx.Pipe(duplex=False)
        result_reader, result_writer = ctx.Pipe(duplex=False)
        self.pool, self.lane = pool, lane
        self.stop_flag = ctx.Value("b", 0, lock=False)
        options = {"nice": ANALYSIS_NICE if lane == ANALYSIS else 0,
                   # verdicts: no compile in their budget; moves: the engines loaded
                   "warm": (ANALYSIS if lane == ANALYSIS else "engines") if pool.warm else None,
                   # the only outside programs this worker may start (outside/programs.py)
                   "programs": pool.programs}
        self.process = ctx.Process(target=pool.target,
                                   args=(job_reader, result_writer, self.stop_flag, options),
                                   daemon=True, name=f"gamesearch-web-{lane}")
        self.process.start()
        job_reader.close()
        result_writer.close()
        self.jobs, self.results = job_writer, result_reader
        self.reader = MessageReader(result_reader.fileno())
        self.job: Job | None = None
        self.dead = False
        self.ready = False
        self.cause: str | None = None  # why the pool ended it (None: it died by itself)
        self.replacement = pool.loop is not None and pool._watch is not None
        self.born = time.monotonic()
        pool.loop.add_reader(result_reader.fileno(), self._readable)

    def _readable(self) -> None:
        """The result pipe has data (or was closed): hand every complete message to the pool.
        The event loop reads the pipes itself: no threads, no hand-offs of the GIL."""
        try:
            messages = self.reader.read()
        except (EOFError, OSError):
            self.pool._died(self)
            return
        for message in messages:
            self.pool._message(self, message)

    def close(self) -> None:
        """Stop watching the result pipe and close both pipes."""
        if not self.results.closed:
            self.pool.loop.remove_reader(self.results.fileno())
            self.results.close()
        if not self.jobs.closed:
            self.jobs.close()

    def send(self, job: Job, seconds_left: float) -> None:
        self.job = job
        job.worker = self
        job.started = time.monotonic()
        job.search_end = job.started + seconds_left
        self.stop_flag.value = 0
        self.jobs.send({"id": job.id, "kind": job.kind, "payload": job.payload,
                        "seconds": seconds_left})

    def cpu_state(self) -> tuple[str, float] | None:
        """The worker's scheduling state ("R": running or waiting to run, "S": sleeping...)
        and the CPU seconds it has used (Linux's ``/proc/PID/stat``); None where the system
        does not say."""
        try:
            with open(f"/proc/{self.process.pid}/stat") as stat:
                text = stat.read()
            fields = text[text.rindex(")") + 2:].split()
            return fields[0], (int(fields[11]) + int(fields[12])) / TICKS
        except (OSError, ValueError, IndexError):
            return None

    def kill(self, cause: str | None = None) -> None:
        """End the process; ``cause`` is logged when the pool replaces it."""
        if cause is not None and self.cause is None:
            self.cause = cause
        if self.process.is_alive():
            self.process.kill()

    def death_cause(self) -> str:
        """Why the process ended, in words: the pool's reason, else its exit."""
        if self.cause is not None:
            return self.cause
        self.process.join(timeout=0.2)  # the pipe closed: the exit code follows at once
        code = self.process.exitcode
        if code is None:
            return "its result pipe closed"
        if code < 0:
            return f"it died by signal {-code} (out of memory, or killed from outside)"
        return f"it exited with code {code}"


class WorkerPool:
    """``size`` play workers and ``analysis`` analysis workers; :meth:`submit` queues a job
    in its lane, first come first served."""

    def __init__(self, size: int = 2, start_method: str = "spawn", analysis: int = 1,
                 warm: bool = False, target: Callable[..., None] = worker_main,
                 programs: dict[str, list[str]] | None = None) -> None:
        self.size, self.analysis = size, analysis
        self.programs = dict(programs or {})
        self.warm, self.target = warm, target
        self.context = multiprocessing.get_context(start_method)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.workers: list[Worker] = []
        self.idle: deque[Worker] = deque()
        self.pending: dict[str, deque[Job]] = {PLAY: deque(), ANALYSIS: deque()}
        self.ids = itertools.count(1)
        self.turns = itertools.count(1)
        self.served: dict[str, int] = {}
        """When each client's analysis job last got a worker (a turn number): round robin."""
        self.replaced = 0
        self.replacements: Counter[str] = Counter()
        """Replaced workers by cause (``overran``, ``recycled``, ``died``, ``send failed``)."""
        self.recycled = 0
        self.early_deaths = 0
        self._watch: asyncio.Task | None = None

    async def start(self, wait: float = 10.0) -> None:
        """Start the workers (call from the event loop that will use the pool) and wait up
        to ``wait`` seconds for them to be ready, saying every ``START_NOTICE`` seconds how
        many are."""
        self.loop = asyncio.get_running_loop()
        for _ in range(self.size):
            self._add_worker(PLAY)
        for _ in range(self.analysis):
            self._add_worker(ANALYSIS)
        self._watch = asyncio.create_task(self._watchdog())
        began = time.monotonic()
        notice = began + START_NOTICE
        while time.monotonic() < began + wait and not all(w.ready for w in self.workers):
            await asyncio.sleep(0.05)
            if time.monotonic() >= notice:
                notice += START_NOTICE
                log.warning("%d of %d workers ready after %.0f s (each loads or compiles "
                            "every engine first)", sum(w.ready for w in self.workers),
                            len(self.workers), time.monotonic() - began)

    async def close(self) -> None:
        """Stop the workers and the watchdog."""
        if self._watch is not None:
            self._watch.cancel()
        for worker in self.workers:
            worker.dead = True
            with contextlib.suppress(OSError):
                worker.jobs.send(None)
        for worker in self.workers:
            worker.process.join(timeout=1)
            worker.kill()
            worker.close()
        self.workers.clear()
        self.idle.clear()

    def submit(self, kind: str, payload: dict, seconds: float,
               search: float | None = None, client: str | None = None,
               wait: float | None = None) -> Job:
        """Queue a job that must be answered within ``seconds`` from now (its hard
        deadline); ``search``: the seconds its search is meant to take (a move's time),
        else all of them. ``client``: who asks (fair share and the per-client cap of the
        analysis lane). ``wait``: the job may wait that long for a worker and then gets its
        whole ``seconds`` from its start (lab jobs, which cannot answer early). Raises
        JobFailed (429) when the client already has ``MAX_PER_CLIENT`` analysis jobs."""
        now = time.monotonic()
        job = Job(next(self.ids), kind, payload, now + seconds, search, client)
        if job.lane == ANALYSIS and client is not None \
                and self._client_jobs(client) >= MAX_PER_CLIENT:
            raise JobFailed(f"too many analysis requests at once from this page "
                            f"({MAX_PER_CLIENT} waiting or running): wait for their answers",
                            429)
        if wait is not None:
            job.deadline, job.timed_from_start = now + wait, True
        self.pending[job.lane].append(job)
        self._dispatch()
        return job

    def cancel(self, job: Job) -> None:
        """The person moved on: drop the job if queued, stop it if running (the worker is
        recycled if it does not stop within ``CANCEL_GRACE``)."""
        job.cancelled = True
        if job.worker is None:
            with contextlib.suppress(ValueError):
                self.pending[job.lane].remove(job)
        elif not job.finished:
            job.stop_by = time.monotonic() + CANCEL_GRACE
            job.stop_cpu = cpu_seconds(job.worker)
            job.stop()

    def release(self, job: Job) -> None:
        """The job's move was answered with its search's answer so far: drop it if queued,
        else ask it to answer now and let it end in its own time (its search was told its
        time; the hard deadline still bounds it). Not a cancel: a worker starved of CPU may
        take longer than ``CANCEL_GRACE`` to read its flag, and recycling it cost a warm-up
        of every engine on a loaded machine (minutes without that worker)."""
        job.cancelled = True
        if job.worker is None:
            with contextlib.suppress(ValueError):
                self.pending[job.lane].remove(job)
        elif not job.finished:
            job._raise_flag()

    def _client_jobs(self, client: str) -> int:
        """The analysis jobs ``client`` has waiting or running."""
        waiting = sum(1 for j in self.pending[ANALYSIS] if j.client == client and not j.cancelled)
        return waiting + sum(1 for w in self.workers if w.job is not None
                             and w.job.lane == ANALYSIS and w.job.client == client
                             and not w.job.finished)

    def status(self) -> dict:
        """Counts for the health endpoint and tests."""
        def pids(lane: str) -> list[int]:
            return [w.process.pid for w in self.workers if w.lane == lane]

        return {"workers": len(self.workers), "idle": len(self.idle),
                "queued": sum(len(q) for q in self.pending.values()),
                "queued_analysis": len(self.pending[ANALYSIS]),
                "analysis_clients": len({j.client for j in self.pending[ANALYSIS]}),
                "replaced": self.replaced, "recycled": self.recycled,
                "replacements": dict(self.replacements),
                "pids": [w.process.pid for w in self.workers],
                "play": pids(PLAY), "analysis": pids(ANALYSIS),
                "ready": sum(w.ready for w in self.workers),
                "busy": [w.process.pid for w in self.workers if w.job is not None]}

    # --- internals -----------------------------------------------------------------------
    def _add_worker(self, lane: str) -> None:
        self.workers.append(Worker(self, lane))

    def _next_job(self, worker: Worker, now: float) -> Job | None:
        """The next live job for ``worker``: its own lane first; an analysis worker may take
        a waiting move. Jobs already past their deadline are answered "late"."""
        lanes = (PLAY,) if worker.lane == PLAY else (ANALYSIS, PLAY)
        for lane in lanes:
            queue = self.pending[lane]
            for job in [j for j in queue if j.cancelled or j.deadline - now <= 0.005]:
                queue.remove(job)
                if not job.cancelled:
                    job.events.put_nowait(("late", "no worker was free before the deadline"))
            if queue:
                job = self._fair_pick(queue) if lane == ANALYSIS else queue[0]
                queue.remove(job)
                if job.client is not None:
                    if len(self.served) >= SERVED_KEPT:  # forget clients with nothing queued
                        queued = {j.client for j in self.pending[ANALYSIS]}
                        self.served = {c: t for c, t in self.served.items() if c in queued}
                    self.served[job.client] = next(self.turns)
                return job
        return None

    def _fair_pick(self, queue: deque[Job]) -> Job:
        """The analysis job to run next: its client has the fewest analysis jobs running,
        then was served longest ago; first come first served within a client."""
        running = Counter(w.job.client for w in self.workers
                          if w.job is not None and w.job.lane == ANALYSIS and not w.job.finished)
        order = {id(job): i for i, job in enumerate(queue)}
        return min(queue, key=lambda j: (running[j.client], self.served.get(j.client, 0),
                                         order[id(j)]))

    def _dispatch(self) -> None:
        now = time.monotonic()
        for worker in sorted(self.idle, key=lambda w: w.lane != PLAY):
            job = self._next_job(worker, now)
            if job is None:
                continue
            self.idle.remove(worker)
            if job.timed_from_start:
                job.deadline = now + job.budget  # its budget runs from here
            try:
                worker.send(job, job.search_seconds(now))
            except OSError:
                job.worker = None
                self.pending[job.lane].appendleft(job)
                worker.cause = worker.cause or "send failed: its job pipe was closed"
                self._died(worker)
                return
        self._share(now)

    def _share(self, now: float) -> None:
        """Moves have waited ``URGENT`` of their budgets and no worker is free: ask the
        longest-running searches that can answer now (a depth completed) to do so, one per
        such move."""
        waiting = sum(1 for j in self.pending[PLAY]
                      if not j.cancelled and now - j.submitted >= URGENT * j.budget)
        waiting -= sum(1 for w in self.workers if w.job is not None and w.job.shared
                       and not w.job.finished)
        if waiting <= 0:
            return
        running = sorted((w.job for w in self.workers
                          if w.job is not None and w.job.kind == "think" and w.job.progressed
                          and not w.job.shared and not w.job.cancelled
                          and now - w.job.started >= MIN_SHARE),
                         key=lambda j: j.started)
        for job in running[:waiting]:
            job.shared = True
            job._raise_flag()

    def _message(self, worker: Worker, message: tuple) -> None:
        job_id, kind, data = message
        if kind == "ready":
            worker.ready = True
            self.early_deaths = 0  # a worker starts again: no pause before the next one
            if worker.replacement:
                log.warning("%s worker %s (a replacement) ready after %.1f s of warm-up",
                            worker.lane, worker.process.pid, time.monotonic() - worker.born)
            if not worker.dead:
                self.idle.append(worker)
                self._dispatch()
            return
        job = worker.job
        if job is None or job.id != job_id:
            return
        job.events.put_nowait((kind, data))
        if kind in ("compiling", "compiled"):
            job.compiling = kind == "compiling"
            if not job.compiling:
                # The worker now searches with its whole budget, timed from here: the
                # compile does not count against it (under load the watchdog killed the
                # worker as soon as the compile ended, its old deadline long past).
                job.deadline = max(job.deadline, time.monotonic() + job.budget)
                if job.stop_by is not None:
                    job.stop_by = time.monotonic() + CANCEL_GRACE  # stop it now, if it must
                    job.stop_cpu = cpu_seconds(worker)
        if kind == "progress" and not job.progressed:
            job.progressed = True
            self._share(time.monotonic())
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
        cause = worker.death_cause()
        if job is not None and not job.finished:
            job.finished = True
            job.events.put_nowait(("crashed", f"the search worker stopped ({cause}); it has "
                                              "been replaced"))
        worker.kill()
        worker.close()
        closing = self.loop is None or self.loop.is_closed() or self._watch is None \
            or self._watch.done()
        if closing:
            return
        doing = f" during a {job.kind} job ({job.payload.get('game', '')} " \
                f"{job.payload.get('agent', '')})" if job is not None else ""
        self.replaced += 1
        self.replacements[cause.split(":")[0].split(" (")[0]] += 1
        pause = 0.0
        if not worker.ready:  # died while starting: do not respawn in a loop
            self.early_deaths += 1
            if self.early_deaths > MAX_EARLY_DEATHS:
                pause = min(MAX_RESPAWN_PAUSE,
                            RESPAWN_PAUSE * 2 ** (self.early_deaths - MAX_EARLY_DEATHS - 1))
        log.warning("%s worker %s replaced%s after %.1f s: %s%s", worker.lane,
                    worker.process.pid, f" in {pause:g} s" if pause else "",
                    time.monotonic() - worker.born, cause, doing)
        if pause:
            self.loop.call_later(pause, self._respawn, worker.lane)
        else:
            self._respawn(worker.lane)

    def _respawn(self, lane: str) -> None:
        """Start a worker in ``lane`` (it takes jobs once warm and ready)."""
        if self.loop is None or self.loop.is_closed() or self._watch is None \
                or self._watch.done():
            return
        self._add_worker(lane)
        self._dispatch()

    def _recycle(self, worker: Worker) -> None:
        """Replace a worker whose cancelled job would not stop (its request is gone)."""
        job = worker.job
        if job is not None:
            job.finished = True  # nobody waits for it: no "crashed" message
        self.recycled += 1
        # the pipe reads EOF and the pool replaces the worker
        worker.kill(f"recycled: its cancelled job did not stop within {CANCEL_GRACE:g} s")

    @staticmethod
    def _stuck(worker: Worker, job: Job, now: float) -> bool:
        """Whether a cancelled job's worker, past its wall-clock grace, is to be replaced:
        it used ``CANCEL_GRACE`` of CPU since without stopping, or it is not waiting to run
        (asleep: no CPU would help it), or ``CANCEL_WALL`` passed; where the system says
        nothing, at once (the wall clock alone)."""
        if now > job.stop_by - CANCEL_GRACE + CANCEL_WALL:
            return True
        seen = worker.cpu_state()
        if seen is None or job.stop_cpu is None:
            return True
        state, cpu = seen
        return state != "R" or cpu - job.stop_cpu >= CANCEL_GRACE

    async def _watchdog(self) -> None:
        """Kill workers whose job ran past its deadline plus the grace period, or that did not
        stop a cancelled job in time; give waiting moves their fair share."""
        while True:
            await asyncio.sleep(WATCH_EVERY)
            now = time.monotonic()
            for queue in self.pending.values():  # queued past the hard deadline: answered
                for job in [j for j in queue if j.deadline - now <= 0.005]:
                    queue.remove(job)
                    if not job.cancelled:
                        job.events.put_nowait(("late", "no worker was free before the "
                                                       "deadline"))
            for worker in list(self.workers):
                job = worker.job
                if job is None or job.finished or job.compiling:
                    continue
                if job.stop_by is not None and now > job.stop_by and self._stuck(worker, job,
                                                                                 now):
                    self._recycle(worker)
                elif now > job.deadline + KILL_GRACE:
                    # the pipe reads EOF and the pool replaces it
                    worker.kill(f"overran: its job ran {now - (job.started or now):.1f} s, "
                                f"{KILL_GRACE:g} s past its hard deadline")
                elif now > job.deadline and not job.overdue:
                    job.overdue = True  # answer now with the best so far
                    job._raise_flag()
            self._share(now)
