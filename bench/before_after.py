"""Issue #37's benchmark rows before and after a change, two source trees interleaved in one
session: chess nodes per second and perft, the Connect Four solver, Othello FFO #40-#44,
MCTS simulations per second (the readable UCT and the compiled Go player) and backgammon's
Star2.

Run ``python bench/before_after.py --before /path/to/old/checkout --after . --repeats 5``
from the repository root. Each repeat runs every row once in a fresh process per tree,
alternating which tree goes first; before the first repeat each tree runs once untimed, so
that both numba caches (one per checkout) are warm. Every row is a fixed amount of work (a
fixed depth, fixed positions, a fixed number of simulations with a fixed seed), so both
trees must report the same work: a row whose counts differ is marked (a short row repeats
its work, e.g. the chess searches 4 times from a cleared table, so each takes a second or
more of processor time). The figure is work
per second of the measuring process's processor time; the table gives the median and the
best of each tree over the repeats and the ratios after/before. On a shared machine
contention only ever slows a run, so the best-of-N ratio is the robust figure.

``--one`` runs the rows once in this process (the tree on ``PYTHONPATH``) and prints JSON.
The modules moved in issue #37 (``catalog/`` and ``games/`` to ``engines/``) and the chess
engine's limits changed (``Limits``, ``go`` returning a pair, to ``Limit``): both
generations are understood, so any two checkouts from before and after can be compared.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
CHESS_MIDDLE = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8"
CONNECT4_SET = HERE / "tests" / "data" / "connect4" / "Test_L1_R2"
"""Pascal Pons' Begin-Medium set (strong solve; the first ``CONNECT4_POSITIONS``)."""
CONNECT4_POSITIONS = 20
FFO = HERE / "tests" / "data" / "othello_ffo_40_59.txt"
ROWS = ("chess start d10", "chess middlegame d10", "chess perft start d6",
        "connect4 solver Begin-Medium 20", "othello FFO #40-#44", "mcts connect4 UCT",
        "go-mcts 9x9", "backgammon Star2 d3")
UNITS = {"chess perft start d6": "leaves", "mcts connect4 UCT": "simulations",
         "go-mcts 9x9": "simulations"}
"""What a row counts when it is not nodes."""

Run = Callable[[], int]


def _module(*names: str):
    """The first of ``names`` that imports (the module's place after #37, then before)."""
    for name in names:
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    raise ImportError(f"none of {names}")


def _timed(run: Run) -> tuple[int, float, float]:
    """(work, processor seconds, wall seconds) of ``run()`` (which returns its work)."""
    cpu, wall = time.process_time(), time.perf_counter()
    work = run()
    return work, time.process_time() - cpu, time.perf_counter() - wall


def _chess(fen: str, depth: int, times: int = 4) -> Run:
    import chess

    E = _module("gamesearch.engines.chess.engine", "gamesearch.catalog.chess")
    eng = E.ChessEngine(hash_mb=16)
    eng.warm_up()

    def once() -> int:
        eng.new_game()  # a cleared table: the same tree every time
        eng.position(chess.Board(fen))
        if hasattr(E, "Limits"):
            _, report = eng.go(E.Limits(depth=depth))
            return report.nodes
        from gamesearch.result import Limit

        return eng.go(Limit(depth=depth)).stats.nodes
    return lambda: sum(once() for _ in range(times))


def _perft(depth: int, times: int = 3) -> Run:
    from gamesearch.games.chess.kernel import perft_fen

    perft_fen(CHESS_START, 3)  # load the compiled code
    return lambda: sum(perft_fen(CHESS_START, depth) for _ in range(times))


def _connect4_solver(times: int = 8) -> Run:
    from gamesearch.games.connect4 import ConnectFour

    S = _module("gamesearch.engines.connect4.solver", "gamesearch.games.connect4_solver")
    game = ConnectFour()
    lines = CONNECT4_SET.read_text().split("\n")[:CONNECT4_POSITIONS]
    rows = [(game.state_from_string(line.split()[0]), int(line.split()[1])) for line in lines]
    solver = S.Connect4Solver()
    solver.solve(game.state_from_string("4455443"))  # load the compiled code

    def run() -> int:
        nodes = 0
        for _ in range(times):
            solver.reset()  # the table kept across a set's positions, as Pons' benchmark does
            nodes += solve_all()
        return nodes

    def solve_all() -> int:
        nodes = 0
        for state, score in rows:
            solved = solver.solve(state)
            if solved.score != score:
                raise SystemExit(f"connect4 solver: {solved.score}, want {score}")
            nodes += solved.nodes
        return nodes
    return run


def _ffo(first: int = 40, last: int = 44) -> Run:
    from gamesearch.games import load_game
    from gamesearch.games.othello.kernel import encode_state

    S = _module("gamesearch.engines.othello.solver", "gamesearch.games.othello.solver")
    game = load_game("othello")
    positions = []
    for line in FFO.read_text().splitlines():
        if line.startswith("#") and line[1].isdigit() and \
                first <= int(line.split()[0][1:]) <= last:
            board, side = line.split()[1:3]
            best = int(line.split(";")[1].split(":")[1])
            me, opp, _ = encode_state(game.state_from_string(f"{board} {side.rstrip(';')}"), 8)
            positions.append((int(me), int(opp), best))
    S.solve_position(*positions[0][:2], table=S.Table(10), alpha=-1, beta=1)  # compile

    def run() -> int:
        nodes = 0
        for me, opp, best in positions:
            score, _, count = S.solve_position(me, opp, table=S.Table(22))
            if score != best:
                raise SystemExit(f"FFO: {score}, want {best}")
            nodes += count
        return nodes
    return run


def _uct(simulations: int = 2000, runs: int = 10) -> Run:
    from gamesearch.games.connect4 import ConnectFour
    from gamesearch.search import mcts

    game = ConnectFour()
    state = game.initial_state()

    def run() -> int:
        for seed in range(runs):
            mcts(game, state, iterations=simulations, c=1.4, seed=seed)
        return simulations * runs
    return run


def _go_mcts(simulations: int = 20_000) -> Run:
    from gamesearch.games.go.rules import Go

    M = _module("gamesearch.engines.go.mcts", "gamesearch.catalog.go_mcts")
    game = Go(size=9, komi=7.5)
    agent = M.GoMCTSAgent(playouts=simulations, seed=1, reuse=False)
    agent.prepare(game)

    def run() -> int:
        agent.calls = 0  # the same seeds every run: the same tree
        return agent.search(game, game.initial_state(), playouts=simulations)[3]
    return run


def _star2(depth: int = 3, count: int = 4, seed: int = 0) -> Run:
    import random

    from gamesearch.games.backgammon import Backgammon
    from gamesearch.games.backgammon_kernel import expectiminimax_kernel

    game, rng, positions = Backgammon(), random.Random(seed), []
    while len(positions) < count:  # decision positions of random games (bench/chance.py's)
        s, moves = game.initial_state(), 0
        while not game.is_terminal(s) and len(positions) < count:
            if s.dice is not None:
                moves += 1
                if moves > 8 and rng.random() < 0.15:
                    positions.append(s)
            s = game.result(s, rng.choice(game.actions(s)))
    expectiminimax_kernel(game, positions[0], 1, pruning="star2")  # load the compiled code

    def run() -> int:
        return sum(expectiminimax_kernel(game, s, depth, pruning="star2").stats.visited
                   for s in positions)
    return run


MAKERS: dict[str, Callable[[], Run]] = {
    ROWS[0]: lambda: _chess(CHESS_START, 10), ROWS[1]: lambda: _chess(CHESS_MIDDLE, 10),
    ROWS[2]: lambda: _perft(6), ROWS[3]: _connect4_solver, ROWS[4]: _ffo, ROWS[5]: _uct,
    ROWS[6]: _go_mcts, ROWS[7]: _star2}


def chosen(rows: str | None) -> list[str]:
    """The rows whose names contain one of the comma-separated texts of ``rows`` (all)."""
    if not rows:
        return list(ROWS)
    wanted = [text.strip() for text in rows.split(",")]
    return [row for row in ROWS if any(text in row for text in wanted)]


def one(rows: list[str]) -> dict[str, list[float]]:
    """The rows once in this process: {row: [work, processor s, wall s]}."""
    return {row: list(_timed(MAKERS[row]())) for row in rows}


def table(runs: dict[str, list[dict]], rows: list[str]) -> list[str]:
    """The Markdown table: each tree's median and best rate, and the ratios."""
    lines = ["| row | work | before, median (/s) | after, median | after/before | "
             "before, best | after, best | after/before |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        work = {name: {int(r[row][0]) for r in runs[name]} for name in runs}
        rate = {name: [r[row][0] / r[row][1] for r in runs[name]] for name in runs}
        median = {name: statistics.median(rate[name]) for name in runs}
        best = {name: max(rate[name]) for name in runs}
        same = "" if work["before"] == work["after"] else " (counts differ)"
        unit = UNITS.get(row, "nodes")
        lines.append(
            f"| {row} | {sorted(work['after'])[0]:,} {unit}{same} | {median['before']:,.0f} | "
            f"{median['after']:,.0f} | {median['after'] / median['before']:.3f} | "
            f"{best['before']:,.0f} | {best['after']:,.0f} | "
            f"{best['after'] / best['before']:.3f} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="the baseline checkout (its src/ is imported)")
    parser.add_argument("--after", default=".", help="the checkout under test")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rows", help="only the rows whose names contain one of these "
                                       "comma-separated texts")
    parser.add_argument("--no-warm", action="store_true",
                        help="skip the untimed first run of each tree")
    parser.add_argument("--save", type=Path, help="write every run's figures here (JSON)")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    rows = chosen(args.rows)
    if not rows:
        parser.error(f"--rows: no row matches {args.rows!r}; rows: {', '.join(ROWS)}")
    if args.one:
        print(json.dumps(one(rows)))
        return
    if not args.before:
        parser.error("--before: the baseline checkout to compare against")
    trees = {"before": os.path.abspath(args.before), "after": os.path.abspath(args.after)}
    for name, tree in trees.items():
        if not os.path.isdir(os.path.join(tree, "src", "gamesearch")):
            parser.error(f"--{name}: {tree} holds no src/gamesearch")

    def measure(name: str) -> dict:
        env = dict(os.environ, PYTHONPATH=os.path.join(trees[name], "src"))
        out = subprocess.run([sys.executable, __file__, "--one", "--rows", ",".join(rows)],
                             env=env, check=True, capture_output=True, text=True).stdout
        return json.loads(out.strip().splitlines()[-1])

    if not args.no_warm:
        for name in trees:
            measure(name)
            print(f"{name} warmed", file=sys.stderr)
    runs: dict[str, list[dict]] = {"before": [], "after": []}
    for rep in range(args.repeats):
        for name in (("before", "after") if rep % 2 == 0 else ("after", "before")):
            runs[name].append(measure(name))
            print(f"repeat {rep + 1} {name}: " + ", ".join(
                f"{row} {r[0] / r[1]:,.0f}/s" for row, r in runs[name][-1].items()),
                file=sys.stderr, flush=True)
            if args.save:
                args.save.write_text(json.dumps({"trees": trees, "runs": runs}))
    print("\n".join(table(runs, rows)))


if __name__ == "__main__":
    main()
