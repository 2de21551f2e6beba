"""Othello endgame: our exact solver on the FFO test positions #40-#59 against Edax.

Run ``python bench/othello_ffo.py [--first 40 --last 59] [--edax PATH]`` from the
repository root. Edax (github.com/abulmo/edax-reversi) is built from source in a temporary
folder, never committed: ``cd /tmp/edax/src && make build ARCH=x86-64-v3 CC=gcc``. Its
evaluation weights (``data/eval.dat``) are a release download, out of reach of the build
machine (searched for in public snapshots on 2026-11-26: sensuikan1973/pedax lists
``assets/libedax/data/eval.dat`` but its snapshot lacks the file's content, and no snapshot
of a fork that commits it could be had); ``--edax`` therefore writes an Edax weights file
of zeros beside the binary when there is none (a real ``eval.dat`` put there is used),
which keeps Edax exact (the endgame solver does not depend on the weights) but takes away
its evaluation-based move ordering at the highest depths: say so with the figures. Equal
settings: one thread each (``-n 1``), no book, a 2^22-slot table each, an exact solve from
scratch per position (Edax at ``-l 60``: its default level solves 25 empties or more only
selectively). Every score is checked against the file's. On a shared machine the wall
clock follows the load; the processor time of each (ours from
``time.process_time``, Edax's from the child's resource usage) is printed beside it and the
ratio of both is given.
"""

from __future__ import annotations

import argparse
import re
import resource
import struct
import subprocess
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from gamesearch.engines.othello.engine import first_guess
from gamesearch.engines.othello.solver import Table as SolverTable
from gamesearch.engines.othello.solver import solve_position
from gamesearch.games import load_game
from gamesearch.games.othello.kernel import encode_state

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "othello_ffo_40_59.txt"


def read_positions() -> list[tuple[int, str, int, str]]:
    """``(number, board string, best score, best moves)`` of each FFO line."""
    rows = []
    for line in DATA.read_text().splitlines():
        if not line.startswith("#") or not line[1].isdigit():
            continue
        number, board, side = line.split()[:3]
        fields = [f.strip() for f in line.split(";")[1:] if f.strip()]
        best = int(fields[0].split(":")[1])
        moves = [f.split(":")[0].lower() for f in fields if int(f.split(":")[1]) == best]
        rows.append((int(number[1:]), f"{board} {side.rstrip(';')}", best, "/".join(moves)))
    return rows


def edax_solve(binary: Path, board: str,
               timeout: float = 3600.0) -> tuple[int, int, float, float]:
    """``(score, nodes, seconds, processor seconds)`` of Edax's exact solve of one position
    (``subprocess.TimeoutExpired`` after ``timeout`` seconds, Edax stopped)."""
    data = binary.parent.parent / "data" / "eval.dat"
    if not data.exists():
        data.parent.mkdir(exist_ok=True)
        with data.open("wb") as f:
            f.write(struct.pack("<IIIIId", 0x45444158, 0x4556414C, 4, 6, 0, 0.0))
            f.write(bytes(2 * 114364 * 61))
    with tempfile.NamedTemporaryFile("w", suffix=".obf", delete=False) as f:
        f.write(board + ";\n")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    # -l 60: at its default level (21) Edax solves 25 empties and more only at 98% ProbCut
    # selectivity (the depth column reads 25@98%), not exactly
    try:
        out = subprocess.run([str(binary), "-solve", f.name, "-n", "1", "-h", "22", "-l",
                              "60", "-book-usage", "off"], capture_output=True, text=True,
                             cwd=binary.parent.parent, timeout=timeout).stdout
    finally:
        Path(f.name).unlink()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    row = re.search(r"^\s*1\|\s*\d+\s+([+-]\d+)\s+([\d:.]+)\s+(\d+)", out, re.M)
    if row is None:  # a selective depth (25@98%) is refused too: not an exact solve
        raise SystemExit(f"could not read an exact solve in Edax's answer:\n{out}")
    minutes, seconds = row.group(2).rsplit(":", 1)
    clock = float(seconds) + 60 * float(minutes.split(":")[-1] or 0)
    return int(row.group(1)), int(row.group(3)), clock, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=40)
    parser.add_argument("--last", type=int, default=59)
    parser.add_argument("--edax", type=Path, help="the Edax binary built in /tmp")
    parser.add_argument("--table", type=int, default=22, help="log2 of our table's slots")
    parser.add_argument("--edax-timeout", type=float, default=3600.0,
                        help="seconds Edax is given a position before it is stopped")
    parser.add_argument("--guess", choices=("patterns", "zero"), default="patterns",
                        help="our first null-window probe: the pattern search's value "
                             "(timed with the solve), or 0 (before 2026-11-28)")
    parser.add_argument("--order", choices=("patterns", "off"), default="patterns",
                        help="the solver's move order at many empties: the pattern "
                             "evaluation's (solver.ORDER_MIN), or fastest first alone "
                             "(before 2026-11-28)")
    args = parser.parse_args()
    game = load_game("othello")
    first = [int(x) for x in encode_state(game.state_from_string(read_positions()[0][1]), 8)[:2]]
    solve_position(*first, table=SolverTable(10), alpha=-1, beta=1)  # compile
    first_guess(*first)  # compile the pattern search, load its tables
    table = Table(title="FFO endgame positions: exact solve")
    for column in ("#", "empties", "want", "guess", "ours", "move", "s", "cpu s", "nodes",
                   "nodes/s",
                   "Edax", "Edax s", "Edax cpu s", "Edax nodes", "Edax nodes/s"):
        table.add_column(column, justify="right")
    total_ours = total_edax = cpu_ours = cpu_edax = 0.0
    nodes_ours = nodes_edax = 0
    wrong = 0
    skipped: list[int] = []  # positions Edax did not finish: left out of both totals
    for number, board, best, moves in read_positions():
        if not args.first <= number <= args.last:
            continue
        state = game.state_from_string(board)
        me, opp, _ = encode_state(state, 8)
        began, began_cpu = time.perf_counter(), time.process_time()
        guess = first_guess(int(me), int(opp)) if args.guess == "patterns" else 0
        score, move, nodes = solve_position(int(me), int(opp), table=SolverTable(args.table),
                                            guess=guess, ordering=args.order == "patterns")
        seconds, cpu = time.perf_counter() - began, time.process_time() - began_cpu
        name = game.action_to_string(state, (move // 8) * 8 + move % 8)
        wrong += score != best or name not in moves.split("/")
        cells = [str(number), str(state[0].count("-")), f"{best:+d}", f"{guess:+d}",
                 f"{score:+d}", name,
                 f"{seconds:.2f}", f"{cpu:.2f}", f"{nodes:,}", f"{nodes / seconds:,.0f}"]
        if args.edax:
            try:
                e_score, e_nodes, e_seconds, e_cpu = edax_solve(args.edax, board,
                                                                args.edax_timeout)
            except subprocess.TimeoutExpired:
                skipped.append(number)
                table.add_row(*cells, "", f"> {args.edax_timeout:.0f}", "", "", "")
                Console(width=170).print(" ".join(cells),
                                         f"Edax: no answer in {args.edax_timeout:.0f} s")
                continue
            total_edax += e_seconds
            cpu_edax += e_cpu
            nodes_edax += e_nodes
            wrong += e_score != best
            cells += [f"{e_score:+d}", f"{e_seconds:.2f}", f"{e_cpu:.2f}", f"{e_nodes:,}",
                      f"{e_nodes / max(e_seconds, 1e-3):,.0f}"]
        else:
            cells += ["", "", "", "", ""]
        total_ours += seconds
        cpu_ours += cpu
        nodes_ours += nodes
        table.add_row(*cells)
        Console(width=170).print(" ".join(cells))
    Console(width=170).print(table)
    print(f"ours: {total_ours:.1f} s ({cpu_ours:.1f} s cpu), {nodes_ours:,} nodes, "
          f"{nodes_ours / max(total_ours, 1e-9):,.0f} nodes/s")
    if args.edax and total_edax > 0:
        print(f"Edax: {total_edax:.1f} s ({cpu_edax:.1f} s cpu), {nodes_edax:,} nodes, "
              f"{nodes_edax / max(total_edax, 1e-3):,.0f} nodes/s; "
              f"time ours / Edax: {total_ours / max(total_edax, 1e-3):.2f}x wall, "
              f"{cpu_ours / max(cpu_edax, 1e-3):.2f}x cpu")
    if skipped:
        print(f"left out of both totals (Edax stopped after {args.edax_timeout:.0f} s): "
              + ", ".join(f"#{n}" for n in skipped))
    print("every score right" if not wrong else f"{wrong} WRONG answer(s)")


if __name__ == "__main__":
    main()
