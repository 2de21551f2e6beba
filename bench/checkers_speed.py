"""The checkers engine's search speed: nodes a second and time to a fixed depth on a few
positions, for one or more checkouts of gamesearch, interleaved, best of N.

``python bench/checkers_speed.py --src src --src /tmp/base/src --depth 11 --rounds 3``
runs, for each round, every source folder in turn in its own process (so each imports its
own gamesearch and compiles its own search; a warm-up search runs before any clock), and
searches each position to ``--depth`` from a fresh engine (empty table). It prints, for
each folder and position, the nodes, the best (least) seconds over the rounds and the
nodes a second of that best run, then the totals. The nodes differ between folders where
the search itself changed (ordering, reductions): then time to depth is the figure that
counts; where only the speed changed they are equal and nodes a second says it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BALLOTS = HERE / "openings" / "checkers-3move-ballots.txt"


def positions() -> list[tuple[str, str]]:
    """(name, moves from the start) of the positions searched."""
    lines = [line.split("#", 1)[0].strip() for line in BALLOTS.read_text().splitlines()]
    ballots = [line for line in lines if line]
    return [("start", "")] + [(f"ballot {i + 1}", ballots[i]) for i in (0, 29, 59)]


def worker(depth: int) -> None:
    """In the folder's process: one line of JSON per position, {name, nodes, seconds}."""
    from gamesearch.engines.checkers.engine import CheckersEngine
    from gamesearch.games import load_game
    from gamesearch.games.checkers.kernel import encode_state
    from gamesearch.result import Limit

    game = load_game("checkers")
    CheckersEngine(hash_mb=4).warm_up()
    for name, moves in positions():
        state = game.initial_state()
        for move in moves.split():
            state = game.result(state, game.string_to_action(state, move))
        engine = CheckersEngine(hash_mb=32)
        began = time.perf_counter()
        result = engine.go(encode_state(state), Limit(depth=depth))
        seconds = time.perf_counter() - began
        print(json.dumps({"name": name, "nodes": result.stats.nodes, "seconds": seconds,
                          "depth": result.stats.depth}), flush=True)


def run(src: str, depth: int) -> list[dict]:
    """One round of one folder."""
    env = dict(os.environ, PYTHONPATH=str(Path(src).resolve()))
    out = subprocess.run([sys.executable, __file__, "--worker", "--depth", str(depth)],
                         env=env, capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", action="append", default=[],
                        help="a folder holding the gamesearch package (repeat to compare)")
    parser.add_argument("--depth", type=int, default=11)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not 1 <= args.depth <= 40:
        parser.error("--depth must be 1 to 40")
    if args.worker:
        worker(args.depth)
        return
    srcs = args.src or ["src"]
    for src in srcs:
        if not (Path(src) / "gamesearch").is_dir():
            parser.error(f"--src {src}: no gamesearch package there")
    best: dict[tuple[str, str], dict] = {}
    for _ in range(max(1, args.rounds)):
        for src in srcs:
            for row in run(src, args.depth):
                key = (src, row["name"])
                if key not in best or row["seconds"] < best[key]["seconds"]:
                    best[key] = row
    print(f"depth {args.depth}, best of {args.rounds} rounds")
    print(f"{'source':<28} {'position':<10} {'nodes':>10} {'seconds':>8} {'knodes/s':>9}")
    for src in srcs:
        nodes = seconds = 0.0
        for name, _ in positions():
            row = best[(src, name)]
            nodes += row["nodes"]
            seconds += row["seconds"]
            print(f"{src:<28} {name:<10} {row['nodes']:>10} {row['seconds']:>8.2f} "
                  f"{row['nodes'] / row['seconds'] / 1e3:>9.0f}")
        print(f"{src:<28} {'total':<10} {int(nodes):>10} {seconds:>8.2f} "
              f"{nodes / seconds / 1e3:>9.0f}")


if __name__ == "__main__":
    main()
