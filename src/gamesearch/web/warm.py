"""Compile (or load from numba's disk cache) the code the web app runs, before it takes
requests: every game entry's warm-ups (its kernel's searches, its engine, its solver: what
its default agents and its verdicts run) and the matrix lab's kernels. A first compile
takes seconds (Kuhn poker's first verdict took 5.7 s of a 5 s budget; a first chess move
fell back unsearched); no move's or verdict's budget may pay for it. Each entry says what
its own warm-ups are (``GameEntry.warmups``), so nothing here names a game."""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import Any


def _steps() -> list[tuple[str, Callable[[], object]]]:
    """Every game's warm-up steps and the algorithms' kernels (the warm-up command's)."""
    from gamesearch.catalog.warmup import warmup_steps

    return warmup_steps()


def warm_kernels(report: Callable[[str], None] | None = None) -> float:
    """Compile or load every game's and algorithm's compiled code; ``report`` gets one
    line per step. Returns the seconds spent. Without numba the kernels are skipped (the
    games run their readable rules)."""
    start = time.perf_counter()
    try:
        from gamesearch.kernels.warmup import timed

        steps = [(name, lambda step=step: timed(step)) for name, step in _steps()]
    except ImportError as err:
        if err.name != "numba":  # our own import broke: say so, never skip silently
            raise
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


def warm_worker() -> float:
    """Load (from the disk cache that :func:`warm_kernels` filled) the code a verdict or a
    move runs: a worker then answers its first request without loading anything. Returns
    the seconds spent."""
    start = time.perf_counter()
    warm_engines()
    _timed_theory()
    return time.perf_counter() - start


def warm_engines() -> float:
    """Run every game's warm-up steps in this process (cached code loads in milliseconds):
    a one-second move must not spend its second loading compiled code, and an ``alphabeta``
    agent uses the compiled search only once it is loaded."""
    start = time.perf_counter()
    try:
        steps = _steps()
    except ImportError:
        return 0.0
    for label, step in steps:
        try:
            step()
        except ImportError:  # an optional part (numba, jax) missing: that step only
            continue
        except Exception as err:  # noqa: BLE001  one game's failure must not leave the
            # others cold (their first move would then compile inside its budget)
            print(f"gamesearch web: warming {label} failed: {type(err).__name__}: {err}",
                  file=sys.stderr, flush=True)
    return time.perf_counter() - start


def _timed_theory() -> float:
    """Compile (or load) the theory package's kernels with a 2x2 game (skipped without it)."""
    from gamesearch.web import theory_api

    start = time.perf_counter()
    if theory_api.available():
        theory_api.analyze({"payoffs": [[1, -1], [-1, 1]]})
    return time.perf_counter() - start


def solver_needs_compile(game: Any) -> bool:
    """Whether a verdict on ``game`` would first compile its solver (its entry's verdict
    policy says: a Connect Four board size whose solver no cache holds yet takes about
    13 s, more than a verdict's budget)."""
    from gamesearch.games import game_entry

    needs = game_entry(game.name).verdict.needs_compile
    try:
        return needs is not None and needs(game)
    except ImportError:
        return False


def compile_solver(game: Any) -> None:
    """Compile ``game``'s solver by solving a position two plies from the end of a fixed
    play-out (any position compiles the same code; a late one solves in microseconds)."""
    from gamesearch.games import game_entry

    rng = random.Random(0)
    states = [game.initial_state()]
    while not game.is_terminal(states[-1]):
        states.append(game.result(states[-1], rng.choice(list(game.actions(states[-1])))))
    late = states[max(0, len(states) - 3)]
    game_entry(game.name).solver(game, late, {"depth": None, "budget": 60.0})
