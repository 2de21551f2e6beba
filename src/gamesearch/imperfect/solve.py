"""``gamesearch solve kuhn_poker`` / ``leduc_poker``: CFR+ to a small exploitability.

The registry's solver for the poker games: it runs CFR+ (or CFR) on the whole game and
reports the game value for the first player under the average strategy, the strategy's
exact exploitability and the strategy itself (docs/HIDDEN.md gives the format).
"""

from __future__ import annotations

import time
from fractions import Fraction

from gamesearch.errors import GameSearchError
from gamesearch.game import Game, State
from gamesearch.imperfect.best_response import expected_value, exploitability
from gamesearch.imperfect.cfr import CFRSolver

DEFAULT_ITERATIONS = {"kuhn_poker": 10_000, "leduc_poker": 3_000}
KNOWN_VALUES = {"kuhn_poker": Fraction(-1, 18)}
"""Published game values for the first player: Kuhn (1950)."""


def solve_poker(game: Game, state: State, options: dict) -> dict:
    """Run CFR+ (``--algorithm cfr`` for plain CFR) for ``--iterations N`` and report."""
    if state != game.initial_state():
        raise GameSearchError(f"{game.name}: CFR solves the whole game; drop --position")
    iterations = _int_option(options, "iterations", DEFAULT_ITERATIONS.get(game.name, 1000))
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
    if game.name in KNOWN_VALUES:
        known = KNOWN_VALUES[game.name]
        report["published_value"] = f"{known} = {float(known):.6f} (Kuhn 1950)"
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
