"""Checkers perft: our compiled bitboard count against py-draughts (the fastest pure-Python
checkers library on PyPI, ``pip install py-draughts``), same run.

Run ``python bench/checkers_perft.py`` from the repository root (``--depth 12`` by default,
388,623,673 leaves; py-draughts is installed only in a benchmark environment). Both count
the last ply in bulk (the number of legal moves, no move made). py-draughts' depth is
smaller (``--reference-depth``, default 7): leaves per second is the figure compared.
Note: py-draughts' American board does not reproduce Aart Bik's counts from depth 3 on
(379 against 302), so only its speed is compared, not its counts.
"""

from __future__ import annotations

import argparse
import time

from rich.console import Console
from rich.table import Table

from gamesearch.games import load_game
from gamesearch.games.checkers.kernel import kernel_perft

BIK = [7, 49, 302, 1_469, 7_361, 36_768, 179_740, 845_931, 3_963_680, 18_391_564,
       85_242_128, 388_623_673]
"""Aart Bik's perft counts for English draughts, depths 1-12."""


def draughts_perft(board, depth: int) -> int:
    """Leaves ``depth`` plies below a py-draughts board (push/pop)."""
    moves = list(board.legal_moves)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += draughts_perft(board, depth - 1)
        board.pop()
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--reference-depth", type=int, default=7)
    args = parser.parse_args()
    game = load_game("checkers")
    start = game.initial_state()
    kernel_perft(game, start, 2)  # compile (or load the cache) outside the timing
    table = Table(title="checkers perft from the start")
    for column in ("engine", "depth", "leaves", "Bik", "seconds", "leaves/s"):
        table.add_column(column, justify="right")
    began = time.perf_counter()
    ours = kernel_perft(game, start, args.depth)
    our_s = time.perf_counter() - began
    table.add_row("gamesearch", str(args.depth), f"{ours:,}", f"{BIK[args.depth - 1]:,}",
                  f"{our_s:.2f}", f"{ours / our_s:,.0f}")
    try:
        import draughts
    except ImportError:
        Console().print(table)
        print("py-draughts is not installed: no reference figure")
        return
    began = time.perf_counter()
    theirs = draughts_perft(draughts.AmericanBoard(), args.reference_depth)
    their_s = time.perf_counter() - began
    table.add_row("py-draughts", str(args.reference_depth), f"{theirs:,}",
                  f"{BIK[args.reference_depth - 1]:,}", f"{their_s:.2f}",
                  f"{theirs / their_s:,.0f}")
    Console().print(table)
    print(f"ratio (leaves/s): {(ours / our_s) / (theirs / their_s):.1f}x")


if __name__ == "__main__":
    main()
