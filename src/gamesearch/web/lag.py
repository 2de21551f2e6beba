"""How late the event loop runs: a request that waits for the loop waits about as long
before it is even read, so the AI's deadline keeps that much in reserve (see docs/WEB.md)."""

from __future__ import annotations

import asyncio
import collections
import time

TICK = 0.025
WINDOW = 40
"""Ticks remembered (about one second)."""


class LagMonitor:
    """Measures how late a short sleep wakes up; :meth:`estimate` is the worst recent lag."""

    def __init__(self) -> None:
        self.samples: collections.deque[float] = collections.deque(maxlen=WINDOW)
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._run())

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()

    async def _run(self) -> None:
        while True:
            t0 = time.monotonic()
            await asyncio.sleep(TICK)
            self.samples.append(max(0.0, time.monotonic() - t0 - TICK))

    def estimate(self) -> float:
        """Seconds: the largest lag of about the last second (0 when idle)."""
        return max(self.samples, default=0.0)
