"""CFR and CFR+ speed on Kuhn poker and Leduc hold'em, against OpenSpiel in the same run.

    python bench/cfr.py            # full table (about a minute)
    python bench/cfr.py --quick    # fewer iterations

Ours: the compiled kernel on the flattened tree (gamesearch.imperfect.cfr.CFRSolver).
OpenSpiel (only in a benchmark environment: ``pip install open_spiel``): its Python
``CFRSolver`` / ``CFRPlusSolver`` (open_spiel.python.algorithms.cfr) and its C++ solvers
through pyspiel. Every solver updates the players alternately, so after the same number of
iterations the average strategies, hence the exploitabilities, should agree: the last
columns check that the fast loop computes the same thing.
"""

from __future__ import annotations

import argparse
import time

from gamesearch.games import load_game
from gamesearch.imperfect.best_response import exploitability
from gamesearch.imperfect.cfr import CFRSolver
from gamesearch.imperfect.tree import build_tree


def time_ours(name: str, plus: bool, iterations: int) -> tuple[float, float]:
    """Milliseconds per iteration of our solver, and its exploitability afterwards."""
    tree = build_tree(load_game(name))
    CFRSolver(tree, plus=plus).run(2)  # compile (or load the cache) outside the timing
    solver = CFRSolver(tree, plus=plus)
    start = time.perf_counter()
    solver.run(iterations)
    ms = 1000 * (time.perf_counter() - start) / iterations
    return ms, exploitability(tree, solver.average())


def time_openspiel(name: str, plus: bool, iterations: int, cpp: bool
                   ) -> tuple[float, float] | None:
    """Milliseconds per iteration of OpenSpiel's Python (or C++) CFR, and exploitability."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import cfr
        from open_spiel.python.algorithms import exploitability as os_exploitability
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    if cpp:
        solver = pyspiel.CFRPlusSolver(game) if plus else pyspiel.CFRSolver(game)
    else:
        solver = cfr.CFRPlusSolver(game) if plus else cfr.CFRSolver(game)
    start = time.perf_counter()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    ms = 1000 * (time.perf_counter() - start) / iterations
    policy = solver.average_policy()
    if cpp:
        value = pyspiel.exploitability(game, policy)
    else:
        value = os_exploitability.exploitability(game, policy)
    return ms, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer iterations")
    args = parser.parse_args()
    plans = {  # iterations: ours, OpenSpiel Python, OpenSpiel C++
        "kuhn_poker": (20_000, 300, 3_000),
        "leduc_poker": (2_000, 20, 200),
    }
    if args.quick:
        plans = {k: (max(1, a // 10), max(2, b // 4), max(2, c // 10))
                 for k, (a, b, c) in plans.items()}
    header = (f"{'game':<12} {'algorithm':<5} {'implementation':<22} {'iters':>6} "
              f"{'ms/iter':>9} {'iters/s':>10} {'vs OS Python':>12} {'exploitability':>15}")
    print(header)
    print("-" * len(header))
    for name, (ours_n, py_n, cpp_n) in plans.items():
        for plus in (False, True):
            algo = "cfr+" if plus else "cfr"
            python = time_openspiel(name, plus, py_n, cpp=False)
            rows = [("gamesearch (numba)", ours_n, time_ours(name, plus, ours_n)),
                    ("gamesearch (numba)", py_n, time_ours(name, plus, py_n)),
                    ("OpenSpiel Python", py_n, python),
                    ("OpenSpiel C++", cpp_n, time_openspiel(name, plus, cpp_n, cpp=True))]
            for label, n, measured in rows:
                if measured is None:
                    print(f"{name:<12} {algo:<5} {label:<22} {'open_spiel not installed':>40}")
                    continue
                ms, expl = measured
                ratio = f"{python[0] / ms:,.0f}x" if python else "-"
                print(f"{name:<12} {algo:<5} {label:<22} {n:>6} {ms:>9.4f} {1000 / ms:>10,.0f} "
                      f"{ratio:>12} {expl:>15.3e}")
    print("\nvs OS Python: how many times faster than OpenSpiel's Python CFR in this run; "
          "exploitability of the average strategy after that many iterations.")


if __name__ == "__main__":
    main()
