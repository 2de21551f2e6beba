"""Nodes per second of the chess search with the network (``eval=nnue``) against the
hand-written evaluation, the same engine at a fixed depth (issue #42's target: the network
at least half the hand-written speed).

Run ``python bench/chess_nnue_speed.py`` from the repository root (``--repeats``,
``--depth``, ``--net FILE``; without ``--net`` the shipped network, else a stand-in of
``--widths H,L1,L2``: the cost of a node depends on the widths, not on the weights, but
the tree does, so the stand-in (``engines/chess/nnue/material.py``) counts material through
one unit of each layer, with small random weights in the rest: a purely random network
makes quiescence search nearly every capture sequence, ten million nodes at depth 1 on
kiwipete at 256-32-32). Each repeat
searches every position once with each evaluation, interleaved (hand, nnue, hand, ...,
the table cleared before each search), so a machine that gets busier slows both alike.
Nodes per second are counted on processor time (the search runs on one thread; a shared
machine's other work only ever slows a run, so the best of the repeats is the steadier
figure); the table gives the best and the median per position and evaluation, and the
ratios nnue / hand. ``--evals hand`` measures one evaluation only (to compare the
hand-written search of two source trees: run it with each tree on ``PYTHONPATH``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

POSITIONS = {
    "start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "middlegame": "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
    "kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "endgame": "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
}


def _network(path: str | None, widths: tuple[int, int, int], folder: str) -> str:
    """The network file to measure: ``path``, the shipped one, or a random one."""
    from gamesearch.engines.chess.engine import default_network
    from gamesearch.engines.chess.nnue import network as N

    if path:
        return path
    if default_network().is_file():
        return str(default_network())
    from gamesearch.engines.chess.nnue.material import material_network

    out = Path(folder) / "material.npz"
    N.save(material_network(*widths), out)
    return str(out)


def _searcher(evaluation: str, net: str | None, depth: int):
    """A function that searches a FEN to ``depth`` with a cleared table and returns
    (nodes, processor seconds)."""
    import chess

    from gamesearch.engines.chess.engine import ChessEngine
    from gamesearch.result import Limit

    engine = ChessEngine(64) if evaluation == "hand" else \
        ChessEngine(64, evaluation=evaluation, network=net)
    engine.warm_up()

    def run(fen: str) -> tuple[int, float]:
        engine.new_game()
        engine.position(chess.Board(fen))
        cpu = time.process_time()
        result = engine.go(Limit(depth=depth))
        return result.stats.nodes, time.process_time() - cpu

    return run


def main(argv: list[str] | None = None) -> int:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--net", default=None, help="network file (default: shipped, "
                        "else a material stand-in of --widths)")
    parser.add_argument("--widths", default="128,32,32", help="H,L1,L2 of the stand-in")
    parser.add_argument("--evals", default="hand,nnue", help="which evaluations (hand,nnue)")
    args = parser.parse_args(argv)
    widths = tuple(int(w) for w in args.widths.split(","))
    evals = [e for e in args.evals.split(",") if e]
    with tempfile.TemporaryDirectory() as folder:
        net = _network(args.net, widths, folder) if "nnue" in evals else None
        if net:
            from gamesearch.engines.chess.nnue import network as N

            print(f"network: {net} widths {N.load(net).widths}")
        runs = {e: _searcher(e, net, args.depth) for e in evals}
        nps: dict[tuple[str, str], list[float]] = {}
        nodes: dict[tuple[str, str], int] = {}
        for repeat in range(args.repeats):
            for name, fen in POSITIONS.items():
                for e in evals:
                    n, seconds = runs[e](fen)
                    nps.setdefault((name, e), []).append(n / max(seconds, 1e-9))
                    nodes[(name, e)] = n
            print(f"repeat {repeat + 1}/{args.repeats} done", file=sys.stderr, flush=True)
    header = f"{'position':<11}" + "".join(
        f"{e + ' nodes':>12}{e + ' best':>12}{e + ' median':>13}" for e in evals)
    if len(evals) == 2:
        header += f"{'ratio best':>12}{'ratio median':>14}"
    print(f"depth {args.depth}, {args.repeats} repeats, nodes/s on processor time")
    print(header)
    ratios: list[tuple[float, float]] = []
    for name in POSITIONS:
        row = f"{name:<11}"
        for e in evals:
            row += f"{nodes[(name, e)]:>12,}{max(nps[(name, e)]):>12,.0f}" \
                   f"{statistics.median(nps[(name, e)]):>13,.0f}"
        if len(evals) == 2:
            best = max(nps[(name, evals[1])]) / max(nps[(name, evals[0])])
            median = statistics.median(nps[(name, evals[1])]) / \
                statistics.median(nps[(name, evals[0])])
            ratios.append((best, median))
            row += f"{best:>12.2f}{median:>14.2f}"
        print(row)
    if ratios:
        print(f"{'mean':<11}" + " " * (37 * len(evals)) +
              f"{statistics.mean(r[0] for r in ratios):>12.2f}"
              f"{statistics.mean(r[1] for r in ratios):>14.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
