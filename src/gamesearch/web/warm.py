"""Compile (or load from numba's disk cache) the kernels the web app uses, before it takes
requests: Connect Four's solver (its verdicts, the ``solver`` agent) and its search kernels
(``kernel-mcts``), the chess and Othello engines (the default opponents), the CFR kernels
of the poker verdicts, the matrix lab's support enumeration. A first compile takes seconds
(Kuhn poker's first verdict took 5.7 s of a 5 s budget); a verdict's budget must not pay
for it."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

WEB_KERNEL_GAMES = ("connect4", "chess", "othello")
"""Game specs whose kernels the web app warms (their default sizes)."""


def warm_kernels(report: Callable[[str], None] | None = None) -> float:
    """Compile or load every kernel of ``WEB_KERNEL_GAMES``; ``report`` gets one line per
    kernel. Returns the seconds spent. Without numba the kernels are skipped (the games run
    their readable rules)."""
    start = time.perf_counter()
    try:
        from gamesearch.catalog.warmup import warmup_steps
        from gamesearch.kernels.warmup import timed

        steps = warmup_steps(WEB_KERNEL_GAMES)
    except ImportError as err:
        if err.name != "numba":  # our own import broke: say so, never skip silently
            raise
        if report is not None:
            report(f"kernels skipped ({err.name} is missing)")
        return 0.0
    # The warm-up command's solver step solves an opening (seconds of search, not of
    # compiling); the verdict path on a late position compiles the same code at once.
    steps = [(name, lambda step=step: timed(step)) for name, step in steps
             if "perfect solver" not in name]
    steps.append(("Connect Four verdicts (perfect solver)", _timed_connect4_verdict))
    steps.append(("poker verdicts (CFR)", _timed_poker))
    steps.append(("matrix lab (support enumeration)", _timed_theory))
    for k, (name, step) in enumerate(steps, 1):
        if report is not None:
            report(f"[{k}/{len(steps)}] {name} ...")
        seconds = step()
        if report is not None:
            report(f"[{k}/{len(steps)}] {name}: {seconds:.1f} s")
    return time.perf_counter() - start


LATE_CONNECT4 = (3, 3, 2, 2, 4, 4, 1, 1, 5, 5, 0, 0, 6, 6, 3, 3, 2, 2, 4, 4)
"""Columns of a Connect Four game near its end: solving it takes microseconds."""


def warm_worker() -> float:
    """Load (from the disk cache that :func:`warm_kernels` filled) the code a verdict runs,
    by running the verdict paths on small positions: a worker then answers its first
    verdict without loading anything. Returns the seconds spent."""
    start = time.perf_counter()
    _timed_connect4_verdict()
    _timed_poker()
    _timed_theory()
    warm_engines()
    return time.perf_counter() - start


def warm_engines() -> float:
    """Load the chess, Othello, checkers and Go engines and the compiled alpha-beta of
    Connect Four, Othello and checkers (a one-second move must not spend its second loading
    compiled code: with 3 helpers busy, the first chess move fell back unsearched, and so
    did a checkers move with the machine loaded; an ``alphabeta`` agent uses the compiled
    search only once it is loaded)."""
    from gamesearch.catalog.warmup import warmup_steps

    start = time.perf_counter()
    try:
        for name, step in warmup_steps(("connect4", "chess", "othello", "checkers", "go")):
            if "engine" in name or name.startswith("go ") or name.endswith("negamax"):
                step()
    except ImportError:
        pass
    return time.perf_counter() - start


def _timed_connect4_verdict() -> float:
    """Run Connect Four's verdict (its perfect solver) on a position near the end."""
    from gamesearch.games import game_entry, load_game

    start = time.perf_counter()
    try:
        game = load_game("connect4")
        state = game.initial_state()
        for column in LATE_CONNECT4:
            state = game.result(state, column)
        game_entry("connect4").solver(game, state, {"depth": None, "budget": 5.0})
    except ImportError:
        pass  # no numba: nothing to load
    return time.perf_counter() - start


def _timed_poker() -> float:
    """Compile (or load) the CFR kernels behind the poker games' verdicts (Kuhn poker)."""
    from gamesearch.games import game_entry, load_game

    start = time.perf_counter()
    try:
        game = load_game("kuhn_poker")
        game_entry("kuhn_poker").solver(game, game.initial_state(), {"depth": None,
                                                                      "budget": 5.0})
    except ImportError:
        pass
    return time.perf_counter() - start


def _timed_theory() -> float:
    """Compile (or load) the theory package's kernels with a 2x2 game (skipped without it)."""
    from gamesearch.web import theory_api

    start = time.perf_counter()
    if theory_api.available():
        theory_api.analyze({"payoffs": [[1, -1], [-1, 1]]})
    return time.perf_counter() - start


def solver_needs_compile(game: Any) -> bool:
    """Whether a verdict on ``game`` would first compile its solver (a Connect Four board
    size whose solver no cache holds yet: about 13 s, more than a verdict's budget)."""
    if getattr(game, "name", None) != "connect4":
        return False
    try:
        from gamesearch.engines.connect4.solve import is_cached
        from gamesearch.engines.connect4.solver import DEFAULT_LOG_TABLE, compiled

        return not is_cached(compiled(game.width, game.height, True, DEFAULT_LOG_TABLE).search)
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
