"""Connect Four benchmark: our compiled solver against Pascal Pons' C++ solver on his six sets.

    python bench/connect4.py --data PATH/TO/connect4 --cpp-src DIR [--limit-scale 1.0]

``--data``: the folder with Pons' Test_L*_R* files. ``--cpp-src``: a folder holding a
single-file build of Pons' solver (``pons.cpp``, from github.com/PascalPons/connect4, no
opening book, 2^24-entry table, printing "moves score nodes microseconds" per line); it is
compiled with g++ -O3 into a temporary folder in this run. Never committed here (AGPL).
Both solvers keep their table across the positions of a file, as Pons' own benchmark does.
Also measured: the pure-Python alpha-beta (the specification) beside the compiled generic
negamax on the same positions, and compiled MCTS simulations per second.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from gamesearch.engines.connect4.solver import Connect4Solver
from gamesearch.games.connect4 import ConnectFour
from gamesearch.kernels.search import kernel_alphabeta, kernel_mcts
from gamesearch.search.alphabeta import alphabeta

SETS = [("Test_L3_R1", "End-Easy", 1000), ("Test_L2_R1", "Middle-Easy", 1000),
        ("Test_L2_R2", "Middle-Medium", 200), ("Test_L1_R1", "Begin-Easy", 1000),
        ("Test_L1_R2", "Begin-Medium", 200), ("Test_L1_R3", "Begin-Hard", 20)]


def read(path: Path, limit: int) -> list[tuple[str, int]]:
    rows = []
    for line in path.read_text().splitlines()[:limit]:
        moves, score = line.split()
        rows.append((moves, int(score)))
    return rows


def ours(game: ConnectFour, rows, weak: bool = False) -> dict:
    solver = Connect4Solver()
    solver.solve(game.state_from_string("4455443"))  # load the compiled code first
    solver.reset()
    seconds = nodes = correct = 0
    for moves, score in rows:
        state = game.state_from_string(moves)
        start = time.perf_counter()
        solved = solver.solve(state, weak)
        seconds += time.perf_counter() - start
        nodes += solved.nodes
        correct += solved.score == ((score > 0) - (score < 0) if weak else score)
    return {"mean_s": seconds / len(rows), "nps": nodes / seconds, "correct": correct}


def build_cpp(src: Path, folder: Path) -> Path:
    binary = folder / "c4pons"
    subprocess.run(["g++", "--std=c++11", "-O3", "-DNDEBUG", "-o", str(binary),
                    str(src / "pons.cpp")], check=True)
    return binary


def cpp(binary: Path, rows, weak: bool = False) -> dict:
    text = "".join(f"{m} {s}\n" for m, s in rows)
    out = subprocess.run([str(binary)] + (["-w"] if weak else []), input=text,
                         capture_output=True, text=True, check=True).stdout.split("\n")
    seconds = nodes = correct = 0
    for line, (_, score) in zip(out, rows):
        _, got, n, micros = line.split()
        seconds += float(micros) / 1e6
        nodes += int(n)
        value = int(got)
        if weak:  # Pons prints a fail-soft bound in weak mode: compare the signs
            value, score = (value > 0) - (value < 0), (score > 0) - (score < 0)
        correct += value == score
    return {"mean_s": seconds / len(rows), "nps": nodes / seconds, "correct": correct}


def pure_vs_kernel(game: ConnectFour, rows, depth: int = 6) -> dict:
    """The generic alpha-beta, pure Python and compiled, to ``depth`` plies without a table
    (the same tree), on the same positions; the values must agree."""
    result, values = {}, {}
    for name, run in (("pure", lambda s: alphabeta(game, s, depth=depth, tt=False)),
                      ("kernel", lambda s: kernel_alphabeta(game, s, depth=depth, tt=False,
                                                            pvs=False))):
        nodes = seconds = 0
        for moves, _ in rows:
            r = run(game.state_from_string(moves))
            values.setdefault(moves, r.value)
            assert abs(values[moves] - r.value) < 1e-9, (moves, values[moves], r.value)
            nodes += r.stats.nodes
            seconds += r.stats.seconds
        result[name] = nodes / seconds
    return result


def mcts_rate(game: ConnectFour, simulations: int = 300_000) -> float:
    kernel_mcts(game, game.initial_state(), 1000)  # load the compiled code
    start = time.perf_counter()
    kernel_mcts(game, game.initial_state(), simulations, seed=1)
    return simulations / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default="../shared/data/connect4")
    parser.add_argument("--cpp-src", default=None)
    parser.add_argument("--limit-scale", type=float, default=1.0)
    parser.add_argument("--weak", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    game = ConnectFour()
    data = Path(args.data)
    console = Console()
    rows_out = []
    with tempfile.TemporaryDirectory() as tmp:
        binary = build_cpp(Path(args.cpp_src), Path(tmp)) if args.cpp_src else None
        for file, name, limit in SETS:
            rows = read(data / file, max(1, int(limit * args.limit_scale)))
            mine = ours(game, rows, args.weak)
            ref = cpp(binary, rows, args.weak) if binary else None
            rows_out.append({"set": name, "positions": len(rows), "ours": mine, "cpp": ref})
    pure_rows = read(data / "Test_L2_R1", 5)
    speeds = pure_vs_kernel(game, pure_rows)
    mcts = mcts_rate(game)
    if args.json:
        print(json.dumps({"sets": rows_out, "pure_vs_kernel_nps": speeds,
                          "mcts_simulations_per_s": mcts}, indent=2))
        return
    table = Table(title=f"Connect Four, {'weak' if args.weak else 'strong'} solve, "
                        "mean time per position")
    for col in ("set", "positions", "ours", "ours nodes/s", "C++", "C++ nodes/s",
                "ours / C++", "correct (ours, C++)"):
        table.add_column(col, justify="right")
    for r in rows_out:
        o, c = r["ours"], r["cpp"]
        table.add_row(r["set"], str(r["positions"]), f"{o['mean_s'] * 1e3:.3f} ms",
                      f"{o['nps'] / 1e6:.2f} M",
                      f"{c['mean_s'] * 1e3:.3f} ms" if c else "-",
                      f"{c['nps'] / 1e6:.2f} M" if c else "-",
                      f"{o['mean_s'] / c['mean_s']:.2f}" if c else "-",
                      f"{o['correct']}, {c['correct'] if c else '-'}")
    console.print(table)
    console.print("generic alpha-beta, depth 6, no table, first 5 Middle-Easy positions: "
                  f"pure Python {speeds['pure']:,.0f} nodes/s, "
                  f"compiled kernel {speeds['kernel']:,.0f} nodes/s "
                  f"(x{speeds['kernel'] / speeds['pure']:.0f})")
    console.print(f"compiled MCTS (UCT, random play-outs) from the empty board: "
                  f"{mcts:,.0f} simulations/s on one core")


if __name__ == "__main__":
    main()
