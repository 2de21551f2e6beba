"""The shared anytime driver (issue #37) against the drivers before it: fixed-depth nodes per
second of every search that moved onto it, two source trees interleaved in one session.

Run ``python bench/anytime_ab.py --before /path/to/old/checkout --after . --repeats 5``
from the repository root: each repeat runs every row once in a fresh process per tree,
alternating which tree goes first, and the table gives the median and the best nodes per
second of each tree over the repeats (processor time of the searching process: the machine
may be shared, and contention only ever slows a run, so the best is the steadier figure)
and the ratios after/before. The node counts of both trees must agree (the same search):
a row whose counts differ is marked. ``--one`` runs the rows once in this process (the
tree on ``PYTHONPATH``) and prints them as JSON; the two API generations (the chess
``Limits`` and checkers ``go(depth=)`` before, ``Limit`` after) are both understood.
``--overhead`` measures the driver's own cost in one tree: the chess search through it
against a bare loop of the same iterations.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
CHESS_MIDDLE = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8"
ROWS = ("chess start d10", "chess middlegame d10", "checkers start d11", "othello start d13",
        "connect4 kernel d14", "connect4 readable d9")


def _timed(run) -> tuple[int, float, float]:
    """(nodes, processor seconds, wall seconds) of ``run()`` (which returns its nodes)."""
    cpu, wall = time.process_time(), time.perf_counter()
    nodes = run()
    return nodes, time.process_time() - cpu, time.perf_counter() - wall


def _chess(fen: str, depth: int):
    import chess

    from gamesearch.engines.chess import engine as E

    eng = E.ChessEngine(hash_mb=16)
    eng.warm_up()

    def run() -> int:
        eng.new_game()
        eng.position(chess.Board(fen))
        if hasattr(E, "Limits"):
            _, report = eng.go(E.Limits(depth=depth))
            return report.nodes
        from gamesearch.result import Limit

        return eng.go(Limit(depth=depth)).stats.nodes
    return run


def _checkers(depth: int):
    from gamesearch.engines.checkers import engine as E
    from gamesearch.games.checkers.kernel import encode_state

    eng = E.CheckersEngine(hash_mb=16)
    eng.warm_up()
    s = encode_state(("bbbbbbbbbbbb........wwwwwwwwwwww", 0, 0))

    def run() -> int:
        eng.new_game()
        if hasattr(E, "Report"):
            return eng.go(s, depth=depth).nodes
        from gamesearch.result import Limit

        return eng.go(s, Limit(depth=depth)).stats.nodes
    return run


def _othello(depth: int):
    from gamesearch.engines.othello.engine import HAND_WEIGHTS, Engine

    def run() -> int:
        eng = Engine(HAND_WEIGHTS, 18)
        return eng.best(0x810000000, 0x1008000000, depth)[2]
    run()
    return run


def _connect4_kernel(depth: int):
    from gamesearch.games import load_game
    from gamesearch.kernels.search import KernelTable, kernel_deepening

    game = load_game("connect4")
    state = game.initial_state()

    def run() -> int:
        *_, last = kernel_deepening(game, state, depth, time=600, table=KernelTable(16))
        return last.stats.nodes + last.stats.leaves
    run()
    return run


def _connect4_readable(depth: int):
    from gamesearch.games import load_game
    from gamesearch.search import iterative_deepening

    game = load_game("connect4")
    state = game.initial_state()

    def run() -> int:
        *_, last = iterative_deepening(game, state, depth)
        return last.stats.nodes + last.stats.leaves
    return run


def one(only: str | None = None) -> dict[str, list[float]]:
    """Every row (or those named ``only``) once in this process:
    {row: [nodes, processor s, wall s]}."""
    makers = {ROWS[0]: lambda: _chess(CHESS_START, 10), ROWS[1]: lambda: _chess(CHESS_MIDDLE, 10),
              ROWS[2]: lambda: _checkers(11), ROWS[3]: lambda: _othello(13),
              ROWS[4]: lambda: _connect4_kernel(14), ROWS[5]: lambda: _connect4_readable(9)}
    return {row: list(_timed(make())) for row, make in makers.items()
            if only is None or only in row}


def overhead(repeats: int) -> None:
    """The driver's own cost, one tree, one process: the chess middlegame to depth 10
    through ``ChessEngine.go`` (on the driver) against a bare loop over the same
    ``_iterate`` calls, alternating; median and best nodes per processor second."""
    import chess

    from gamesearch.engines.chess.engine import ChessEngine, age_history
    from gamesearch.result import Limit

    eng = ChessEngine(hash_mb=16)
    eng.warm_up()

    def driver() -> int:
        eng.new_game()
        eng.position(chess.Board(CHESS_MIDDLE))
        return eng.go(Limit(depth=10)).stats.nodes

    def bare() -> int:
        eng.new_game()
        eng.position(chess.Board(CHESS_MIDDLE))
        eng.info[:] = 0
        age_history(eng.hist)
        arrays, score = eng._arrays(), 0
        for depth in range(1, 11):
            score = eng._iterate(arrays, eng.killers, eng.hist, eng.info, depth, score)
        return int(eng.info[0])

    rates: dict[str, list[float]] = {"driver": [], "bare": []}
    for rep in range(repeats):
        for name, run in (("driver", driver), ("bare", bare))[::1 if rep % 2 else -1]:
            nodes, cpu, _ = _timed(run)
            rates[name].append(nodes / cpu)
    for name, got in rates.items():
        print(f"{name}: median {statistics.median(got):,.0f}, best {max(got):,.0f} nodes/s")
    median = statistics.median(rates["driver"]) / statistics.median(rates["bare"])
    print(f"driver/bare: median {median:.3f}, best {max(rates['driver']) / max(rates['bare']):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="the baseline checkout (its src/ is imported)")
    parser.add_argument("--after", default=".", help="the checkout under test")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rows", help="only the rows whose names contain this text")
    parser.add_argument("--overhead", action="store_true",
                        help="the driver against a bare loop, in this process's tree")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.rows)))
        return
    if args.overhead:
        overhead(args.repeats)
        return
    if not args.before:
        parser.error("--before: the baseline checkout to compare against")
    trees = {"before": os.path.abspath(args.before), "after": os.path.abspath(args.after)}
    runs: dict[str, list[dict]] = {"before": [], "after": []}
    for rep in range(args.repeats):
        for name in (("before", "after") if rep % 2 == 0 else ("after", "before")):
            env = dict(os.environ, PYTHONPATH=os.path.join(trees[name], "src"))
            out = subprocess.run([sys.executable, __file__, "--one",
                                  *(["--rows", args.rows] if args.rows else [])],
                                 env=env, check=True, capture_output=True, text=True).stdout
            runs[name].append(json.loads(out.strip().splitlines()[-1]))
            print(f"repeat {rep + 1} {name} done", file=sys.stderr)
    print("| row | nodes | before, median (nodes/s) | after, median | after/before | "
          "before, best | after, best | after/before |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for row in [r for r in ROWS if r in runs["after"][0]]:
        for name in runs:
            rates = sorted(round(r[row][0] / r[row][1] / 1000) for r in runs[name])
            print(f"{row} {name}: knodes/s {rates}", file=sys.stderr)
        nodes = {name: {r[row][0] for r in runs[name]} for name in runs}
        rate = {name: statistics.median(r[row][0] / r[row][1] for r in runs[name])
                for name in runs}
        best = {name: max(r[row][0] / r[row][1] for r in runs[name]) for name in runs}
        same = "" if nodes["before"] == nodes["after"] else " (node counts differ)"
        print(f"| {row} | {sorted(nodes['after'])[0]:,}{same} | {rate['before']:,.0f} | "
              f"{rate['after']:,.0f} | {rate['after'] / rate['before']:.3f} | "
              f"{best['before']:,.0f} | {best['after']:,.0f} | "
              f"{best['after'] / best['before']:.3f} |")


if __name__ == "__main__":
    main()
