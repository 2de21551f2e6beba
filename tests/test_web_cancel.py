"""Cancelling a chess analysis mid-search (issue 38): the engine cuts its running depth
itself (the worker passes its stop flag to ``ChessAgent.stop``), so the search ends at once
and the pool keeps its worker, instead of killing it after ``CANCEL_GRACE`` and warming a
new one. The pool is the real one, with the real worker and the compiled chess engine."""

from __future__ import annotations

import asyncio
import time

import pytest

pytest.importorskip("fastapi")

from gamesearch.web.pool import WorkerPool  # noqa: E402

DEPTH_SECONDS = 1.0
"""The test cancels once a depth took longer than this (the next one takes about twice as
long: the cancel comes well inside it, past the pool's 0.4 s grace)."""
COMPILE_SECONDS = 600
"""The first depth may wait for the chess engine's compile (minutes on a loaded machine)."""


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
            t0 = time.monotonic()
            pool.cancel(job)
            while not job.finished and time.monotonic() - t0 < 10:
                await asyncio.sleep(0.02)
            ended_in = time.monotonic() - t0
            await asyncio.sleep(1.0)  # a kill, had there been one, is counted by now
            return depths, before, pool.status(), ended_in
        finally:
            await pool.close()

    depths, before, after, ended_in = asyncio.run(main())
    assert len(depths) >= 2, depths
    assert after["replaced"] == before["replaced"] == 0, after
    assert after["recycled"] == before["recycled"] == 0, after
    assert ended_in < 5, ended_in
