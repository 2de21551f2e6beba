"""N-player Nash equilibria: simplicial subdivision against the logit branch on the same
seeded random games (normal payoffs), time per solve and the maximum regret of each answer.

    python bench/theory_nplayer.py [--games 10] [--shape 3,3,3] [--repeat 3]

Each game is solved ``--repeat`` times by each method and the best time is kept (the
machine is shared); a method that fails on a game is counted, not hidden.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from gamesearch.errors import GameSearchError
from gamesearch.theory.logit_nash import logit_nash, max_regret
from gamesearch.theory.normal_form import NormalFormGame
from gamesearch.theory.simpdiv import simpdiv

METHODS = {"simpdiv": simpdiv, "logit": logit_nash}


def solve(method, game: NormalFormGame, repeat: int) -> tuple[float, float | None]:
    """(best seconds, maximum regret of the answer or None when the method failed)."""
    best, regret = float("inf"), None
    for _ in range(repeat):
        began = time.perf_counter()
        try:
            found = method(game)
        except GameSearchError:
            return time.perf_counter() - began, None
        best = min(best, time.perf_counter() - began)
        regret = max_regret(game, found.equilibria[0])
    return best, regret


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--shape", default="3,3,3", help="strategies per player")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    shape = tuple(int(s) for s in args.shape.split(","))
    rows = {name: [] for name in METHODS}
    print(f"| seed | {' | '.join(f'{m} ms | {m} regret' for m in METHODS)} |")
    print("|---:|" + "---:|---:|" * len(METHODS))
    for seed in range(args.games):
        payoffs = np.random.default_rng(seed).standard_normal((len(shape), *shape))
        game = NormalFormGame(payoffs)
        cells = []
        for name, method in METHODS.items():
            seconds, regret = solve(method, game, args.repeat)
            rows[name].append((seconds, regret))
            cells += [f"{1000 * seconds:.1f}", "failed" if regret is None else f"{regret:.1e}"]
        print(f"| {seed} | {' | '.join(cells)} |")
    for name, found in rows.items():
        ok = [s for s, r in found if r is not None]
        failed = len(found) - len(ok)
        median = f"{1000 * statistics.median(ok):.1f} ms" if ok else "-"
        print(f"{name}: median {median}, worst {1000 * max(ok, default=0):.1f} ms, "
              f"{failed} failed of {len(found)}")


if __name__ == "__main__":
    main()
