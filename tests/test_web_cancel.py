"""Cancelling a chess analysis mid-search (issue 38): the engine cuts its running depth
itself (the worker passes its stop flag to ``ChessAgent.stop``), so the search ends at once
and the pool keeps its worker, instead of killing it after ``CANCEL_GRACE`` and warming a
new one. The pool is the real one, with the real worker and the compiled chess engine."""

from __future__ import annotations

import asyncio
import time

import pytest

pytest.importorskip("fastapi")

from gamesearch.web.pool import Job, WorkerPool  # noqa: E402

DEPTH_SECONDS = 1.0
"""The test cancels once a depth took longer than this (the next one takes about twice as
long: the cancel comes well inside it, past the pool's 0.4 s grace)."""
COMPILE_SECONDS = 600
"""The first depth may wait for the chess engine's compile (minutes on a loaded machine)."""


async def cancel_and_wait(pool: WorkerPool, job: Job, every: float,
                          most: float = 10.0) -> float:
    """Cancel ``job`` and wait (looking every ``every`` seconds, at most ``most``) until
    the pool says it finished; the seconds that took (``most`` or more: it did not)."""
    t0 = time.monotonic()
    pool.cancel(job)
    while not job.finished and time.monotonic() - t0 < most:
        await asyncio.sleep(every)
    return time.monotonic() - t0


def test_a_cancelled_chess_analysis_stops_inside_its_depth_and_keeps_its_worker():
    async def main():
        pool = WorkerPool(1, "fork", analysis=1)
        await pool.start()
        try:
            # a long analysis: on a loaded machine depths from about 9 on take seconds
            job = pool.submit("analyse", {"game": "chess", "moves": [], "lines": 1,
                                          "agent": "chess-engine:time=60", "time": 60},
                              COMPILE_SECONDS + 60)
            depths, ended, last = [], None, None
            async for kind, data in job.stream(job.deadline + 1):
                if kind != "progress":
                    ended = (kind, data)
                    break
                depths.append(data["stats"]["depth"])
                now = time.monotonic()
                if last is not None and now - last > DEPTH_SECONDS:
                    break  # the next depth takes longer still: cancel inside it
                last = now
            await asyncio.sleep(0.3)
            assert depths and ended is None, (depths, ended)
            before = pool.status()
            ended_in = await cancel_and_wait(pool, job, every=0.02)
            await asyncio.sleep(1.0)  # a kill, had there been one, is counted by now
            return depths, before, pool.status(), ended_in
        finally:
            await pool.close()

    depths, before, after, ended_in = asyncio.run(main())
    assert len(depths) >= 2, depths
    assert after["replaced"] == before["replaced"] == 0, after
    assert after["recycled"] == before["recycled"] == 0, after
    assert ended_in < 5, ended_in


SLOW_OPENING = ["4", "4", "4", "4"]
"""Four stones in the centre column: past the shipped book (depth 2), a solve of about 20 s
on this machine (millions of nodes); a verdict of it runs far past any cancel."""


def test_a_cancelled_connect4_verdict_stops_and_keeps_its_worker():
    """The solver reads a halt flag every thousand nodes (set from the worker's stop flag):
    a verdict the page dropped ends within the pool's grace instead of having its worker
    replaced (the soak recycled the analysis worker 23 times), and one past its budget ends
    with "not solved" by itself, before the pool would kill it."""
    async def main():
        pool = WorkerPool(1, "fork", analysis=1)
        await pool.start()
        try:
            # a quick verdict first: the worker loads (or compiles) the solver
            warm = pool.submit("verdict", {"game": "connect4", "moves": ["4"] * 6 + ["3"]},
                               COMPILE_SECONDS)
            ready = None
            async for kind, data in warm.stream(warm.deadline + 1):
                if kind == "result":
                    ready = data
                    break
            assert ready is not None and ready["kind"] == "solver", ready
            pid = pool.status()["analysis"]
            job = pool.submit("verdict", {"game": "connect4", "moves": SLOW_OPENING}, 60)
            await asyncio.sleep(0.5)
            assert not job.finished and job.worker is not None  # it is solving
            stopped_in = await cancel_and_wait(pool, job, every=0.01)
            await asyncio.sleep(1.0)  # a recycle, had there been one, is counted by now
            cancelled = pool.status()
            # past its budget: the verdict answers "not solved" by itself
            late = pool.submit("verdict", {"game": "connect4", "moves": SLOW_OPENING}, 1.0)
            answer = None
            async for kind, data in late.stream(late.deadline + 5):
                if kind == "result":
                    answer = data
                    break
            await asyncio.sleep(0.5)
            return pid, cancelled, stopped_in, answer, pool.status()
        finally:
            await pool.close()

    pid, cancelled, stopped_in, answer, after = asyncio.run(main())
    assert stopped_in < 1.0, stopped_in  # the pool's grace is 0.4 s; a loaded machine
    assert cancelled["recycled"] == cancelled["replaced"] == 0, cancelled
    assert cancelled["analysis"] == pid, (pid, cancelled)
    assert answer is not None and answer["kind"] == "unknown", answer
    assert "not solved" in answer["message"], answer
    assert after["replaced"] == 0 and after["analysis"] == pid, after
