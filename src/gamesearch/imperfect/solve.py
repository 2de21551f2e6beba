"""``gamesearch solve`` for small hidden-information games: CFR+ to a small exploitability.

The solver that the poker games' entries use: it runs CFR+ (or CFR) on the whole game and
reports the game value for the first player under the average strategy, the strategy's
exact exploitability and the strategy itself (docs/HIDDEN.md gives the format).
"""

from __future__ import annotations

import time
from fractions import Fraction

from gamesearch.errors import GameSearchError
from gamesearch.game import Game, State
from gamesearch.spec import Option, Range

CFR_OPTIONS = {
    "iterations": Option(int, "CFR iterations", Range(1, 10**9)),
    "algorithm": Option(str, "cfr+ (default) or cfr"),
}
"""The options of :func:`solve_poker` for ``gamesearch solve``."""


def solve_poker(game: Game, state: State, options: dict, iterations: int = 1000,
                known_value: Fraction | None = None, source: str = "Kuhn 1950") -> dict:
    """Run CFR+ (``--algorithm cfr`` for plain CFR) for ``--iterations N`` (default
    ``iterations``) and report; ``known_value``: the published value for the first player
    (from ``source``), shown beside ours."""
    from gamesearch.imperfect.best_response import expected_value, exploitability
    from gamesearch.imperfect.cfr import CFRSolver

    if state != game.initial_state():
        raise GameSearchError(f"{game.name}: CFR solves the whole game; drop --position")
    iterations = _int_option(options, "iterations", iterations)
    algorithm = str(options.get("algorithm") or "cfr+").lower()
    if algorithm not in ("cfr", "cfr+"):
        raise GameSearchError(f"unknown algorithm {algorithm!r}; use cfr or cfr+")
    start = time.perf_counter()
    solver = CFRSolver(game, plus=algorithm == "cfr+")
    solver.run(iterations)
    probs = solver.average()
    report: dict = {
        "game": game.name,
        "algorithm": algorithm,
        "iterations": iterations,
        "value": round(expected_value(solver.tree, probs), 6),
        "exploitability": float(f"{exploitability(solver.tree, probs):.3g}"),
        "seconds": round(time.perf_counter() - start, 3),
    }
    if known_value is not None:
        report["published_value"] = f"{known_value} = {float(known_value):.6f} ({source})"
    report["strategy"] = solver.average_strategy(digits=4)
    return report


def _int_option(options: dict, name: str, default: int) -> int:
    raw = options.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except (TypeError, ValueError):
        raise GameSearchError(f"--{name} must be a whole number, got {raw!r}") from None
    if value < 1:
        raise GameSearchError(f"--{name} must be at least 1, got {value}")
    return value


def cfr_warmup(game: Game) -> None:
    """Compile (or load) the CFR and best-response loops on ``game`` (the same compiled
    loops serve every game, so the smallest game is enough)."""
    from gamesearch.imperfect.best_response import best_response_value
    from gamesearch.imperfect.cfr import CFRSolver
    from gamesearch.imperfect.tree import build_tree

    tree = build_tree(game)
    solver = CFRSolver(tree)
    solver.run(1)
    best_response_value(tree, tree.uniform(), 0)
