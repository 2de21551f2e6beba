"""Compile (or load from numba's disk cache) the kernels the web app uses, before it takes
requests: Connect Four's solver (its verdicts, the ``solver`` agent) and its search kernels
(``kernel-mcts``). A first compile takes seconds; a verdict's budget must not pay for it."""

from __future__ import annotations

import time
from collections.abc import Callable

WEB_KERNEL_GAMES = ("connect4",)
"""Game specs whose kernels the web app warms (their default sizes)."""


def warm_kernels(report: Callable[[str], None] | None = None) -> float:
    """Compile or load every kernel of ``WEB_KERNEL_GAMES``; ``report`` gets one line per
    kernel. Returns the seconds spent. Without numba the kernels are skipped (the games run
    their readable rules)."""
    start = time.perf_counter()
    try:
        from gamesearch.kernels.warmup import warmup_steps

        steps = warmup_steps(WEB_KERNEL_GAMES)
    except ImportError as err:
        if report is not None:
            report(f"kernels skipped ({err.name} is missing)")
        return 0.0
    steps.append(("matrix lab (support enumeration)", _timed_theory))
    for k, (name, step) in enumerate(steps, 1):
        if report is not None:
            report(f"[{k}/{len(steps)}] {name} ...")
        seconds = step()
        if report is not None:
            report(f"[{k}/{len(steps)}] {name}: {seconds:.1f} s")
    return time.perf_counter() - start


def _timed_theory() -> float:
    """Compile (or load) the theory package's kernels with a 2x2 game (skipped without it)."""
    from gamesearch.web import theory_api

    start = time.perf_counter()
    if theory_api.available():
        theory_api.analyze({"payoffs": [[1, -1], [-1, 1]]})
    return time.perf_counter() - start
