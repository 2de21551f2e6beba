"""Judging a time budget on a shared machine: a search that got under half a core while it
ran is judged by the CPU time its thread got, not by the wall clock it waited through."""

from __future__ import annotations

import time


class Clock:
    """Wall and this thread's CPU time from its start; ``kept(budget, margin)`` asserts."""

    def __init__(self) -> None:
        self.began, self.cpu_began = time.perf_counter(), time.thread_time()

    def kept(self, budget: float, margin: float) -> None:
        """The call kept ``budget`` seconds, within ``margin``: by the wall clock, or, where
        the thread got under half a core meanwhile (one suite run in ten on a loaded machine
        failed so), by its CPU time. The thread's, not the process's: threads that earlier
        tests left in the same worker (a web app's) would count in the process's."""
        wall = time.perf_counter() - self.began
        cpu = time.thread_time() - self.cpu_began
        if wall > budget + margin and cpu < 0.5 * wall:
            assert cpu <= budget + margin, (budget, wall, cpu)
        else:
            assert wall <= budget + margin, (budget, wall, cpu)


def process_cpu(pid: int) -> float | None:
    """The CPU seconds process ``pid`` has used (all its threads), from /proc; None where
    there is no /proc (then a test falls back to :func:`load_factor`)."""
    import os

    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


class ProcessClock:
    """:class:`Clock` for a search in another process (an engine over UCI): wall time, and
    that process's CPU time where /proc has it."""

    def __init__(self, pid: int) -> None:
        self.pid, self.began, self.cpu_began = pid, time.perf_counter(), process_cpu(pid)

    def kept(self, budget: float, margin: float) -> None:
        """As :meth:`Clock.kept`, the other process's CPU time standing for the thread's
        (its helper threads idle, a search uses one core); without /proc, the margin is
        stretched by the load."""
        wall = time.perf_counter() - self.began
        now = process_cpu(self.pid)
        if now is None or self.cpu_began is None:
            assert wall <= budget + margin * load_factor(), (budget, wall)
            return
        cpu = now - self.cpu_began
        if wall > budget + margin and cpu < 0.5 * wall:
            assert cpu <= budget + margin, (budget, wall, cpu)
        else:
            assert wall <= budget + margin, (budget, wall, cpu)


def load_factor() -> float:
    """How many times over this machine's cores are asked for right now (1 when idle or
    lightly loaded): the tests that time a server answering (another process, whose CPU time
    the test cannot read) stretch their margins by it, and only by it."""
    import os

    try:
        load = os.getloadavg()[0]
    except OSError:  # not on this platform
        return 1.0
    return max(1.0, load / (os.cpu_count() or 1))
