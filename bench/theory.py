"""Benchmark: gamesearch's support enumeration and Lemke-Howson against Nashpy, same run.

    python bench/theory.py            # the full table (a few minutes)
    python bench/theory.py --quick    # small sizes only

Random games with standard-normal payoffs (nondegenerate with probability 1), one fixed
seed per size; both libraries solve the very same game. Nashpy runs in a child process that
is stopped after --cap seconds (default 60): such sizes are reported as not finished.
Support enumeration: Nashpy with ``non_degenerate=True`` (equal-size supports only, the same
work as ours; its default also tries every pair of unequal supports). Lemke-Howson: from
label 0; Nashpy gets the payoffs shifted to be positive, which it assumes.
Needs nashpy (``pip install nashpy``; a benchmark/test dependency, never a runtime one).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import time
import warnings

import numpy as np
from rich.console import Console
from rich.table import Table

from gamesearch.theory import NormalFormGame
from gamesearch.theory.equilibrium import is_nash, same_profile
from gamesearch.theory.lemke_howson import lemke_howson
from gamesearch.theory.support_enumeration import support_enumeration

ENUMERATION_SIZES = (4, 6, 8, 10, 11, 12)
LEMKE_HOWSON_SIZES = (10, 25, 50, 75, 100, 150, 200)
QUICK_ENUMERATION = (4, 6, 8)
QUICK_LEMKE_HOWSON = (10, 25, 50)


def random_game(size: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return rng.standard_normal((size, size)), rng.standard_normal((size, size))


def _nashpy_job(kind: str, a: np.ndarray, b: np.ndarray, queue: mp.Queue) -> None:
    import nashpy

    warnings.simplefilter("ignore")
    best, total = float("inf"), 0.0
    while total < 1.0 and best == best:  # repeat runs under a second; keep the fastest
        start = time.perf_counter()
        if kind == "support":
            found = [tuple(map(tuple, e)) for e in
                     nashpy.Game(a, b).support_enumeration(non_degenerate=True)]
        else:
            shifted = nashpy.Game(a - a.min() + 1, b - b.min() + 1)
            found = [tuple(map(tuple, shifted.lemke_howson(0)))]
        elapsed = time.perf_counter() - start
        best, total = min(best, elapsed), total + elapsed
        if elapsed > 0.3:
            break
    queue.put((best, found))


def nashpy_time(kind: str, a: np.ndarray, b: np.ndarray, cap: float):
    """(seconds, equilibria) for Nashpy, or (None, None) when it did not finish in ``cap``."""
    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    proc = ctx.Process(target=_nashpy_job, args=(kind, a, b, queue))
    proc.start()
    try:
        seconds, found = queue.get(timeout=cap)
    except Exception:  # queue.Empty: it ran past the cap
        seconds, found = None, None
    proc.terminate()
    proc.join()
    return seconds, found


def ours_time(kind: str, a: np.ndarray, b: np.ndarray):
    """(seconds, equilibria) for gamesearch: the fastest of repeated runs (up to a second)."""
    game = NormalFormGame.bimatrix(a, b)
    best, total, found = float("inf"), 0.0, None
    while total < 1.0:
        start = time.perf_counter()
        if kind == "support":
            found = support_enumeration(game).equilibria
        else:
            found = [lemke_howson(game, 0)[0]]
        elapsed = time.perf_counter() - start
        best, total = min(best, elapsed), total + elapsed
        if elapsed > 0.3:
            break
    return best, found


def agree(game: NormalFormGame, ours: list, theirs: list | None) -> str:
    """How Nashpy's answers compare with ours (and whether its odd ones are equilibria)."""
    if theirs is None:
        return "-"
    if any(not is_nash(game, p, 1e-6) for p in theirs):
        return "nashpy's is not an equilibrium"
    mine_in_theirs = all(any(same_profile(p, q, 1e-6) for q in theirs) for p in ours)
    theirs_in_mine = all(any(same_profile(p, q, 1e-6) for q in ours) for p in theirs)
    if mine_in_theirs and theirs_in_mine:
        return "same"
    if theirs_in_mine:
        return f"superset (+{len(ours) - len(theirs)})"
    return "DIFFERENT"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes only")
    parser.add_argument("--cap", type=float, default=60.0, help="seconds per Nashpy run")
    args = parser.parse_args()
    console = Console(width=130)
    # Warm up (numba compiles or loads its cache) before anything is timed.
    lemke_howson(NormalFormGame.bimatrix(*random_game(3, 0)), 0)
    support_enumeration(NormalFormGame.bimatrix(*random_game(3, 0)))

    table = Table(title=f"Nash equilibria: gamesearch vs Nashpy (cap {args.cap:g} s per run)")
    for col in ("method", "size", "equilibria", "gamesearch s", "nashpy s", "speed-up",
                "answers"):
        table.add_column(col, justify="right" if col not in ("method", "answers") else "left")
    plan = [("support", s) for s in (QUICK_ENUMERATION if args.quick else ENUMERATION_SIZES)]
    plan += [("lemke-howson", s)
             for s in (QUICK_LEMKE_HOWSON if args.quick else LEMKE_HOWSON_SIZES)]
    for kind, size in plan:
        a, b = random_game(size, seed=size)
        ours, found = ours_time(kind, a, b)
        theirs, their_found = nashpy_time(kind, a, b, args.cap)
        speed = f"{theirs / ours:.0f}x" if theirs else f"> {args.cap / ours:.0f}x"
        table.add_row(
            "support enumeration" if kind == "support" else "Lemke-Howson, label 0",
            f"{size}x{size}", str(len(found)), f"{ours:.3g}",
            f"{theirs:.3g}" if theirs else f"> {args.cap:g} (stopped)", speed,
            agree(NormalFormGame.bimatrix(a, b), found, their_found))
        their_text = f"{theirs:.3g} s" if theirs else "did not finish"
        console.print(f"{kind} {size}x{size}: ours {ours:.3g} s, nashpy {their_text}")
    console.print(table)


if __name__ == "__main__":
    main()
