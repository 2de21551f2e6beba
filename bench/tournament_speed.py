"""Tournament throughput: the same tournament with 1 and 2 worker processes (issue 20).

Run ``python bench/tournament_speed.py`` from the repository root (``--games 200`` games in
all, ``--players`` specs, ``--game``). Each row runs ``gamesearch tournament`` in a fresh
process into a new database in a temporary folder, wall-clocked around the whole command
(start-up, worker start, every game, the database), from random 4-ply openings, each
played with both colours; the speed-up is the 1-worker time over
the N-worker time measured in the same run. The target (issue 20): at least 1.8x with 2
workers on this 2-core machine. Per-game cost = wall time / games.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

from rich.console import Console
from rich.table import Table


def one_run(game: str, players: list[str], games: int, workers: int, backend: str,
            folder: str, address: str | None = None) -> float:
    """Seconds for the whole tournament command."""
    db = os.path.join(folder, f"{backend}-{workers}.sqlite")
    args = [sys.executable, "-c", "import sys; from gamesearch.cli.main import main; "
            "main(sys.argv[1:])", "tournament", game, "--games", str(games),
            "--db", db, "--concurrency", str(workers), "--backend", backend, "--seed", "1",
            "--random-openings", str(max(1, games // 2)), "--opening-plies", "4"]
    for spec in players:
        args += ["--players", spec]
    if backend == "ray" and address:
        args += ["--address", address]
    began = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="connect4")
    parser.add_argument("--players", nargs=2,
                        default=["alphabeta:depth=5,pure=true", "alphabeta:depth=4,pure=true"])
    parser.add_argument("--games", type=int, default=200, help="games in all (one pair)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--backends", nargs="+", default=["local"])
    parser.add_argument("--address", help="a running Ray head (host:port) for the ray rows; "
                        "without it each ray row starts Ray in its own process (seconds)")
    args = parser.parse_args()
    table = Table(title=f"{args.games} games of {args.game}: {' vs '.join(args.players)} "
                        f"(load {os.getloadavg()[0]:.1f})")
    for name in ("backend", "workers", "seconds", "ms per game", "speed-up"):
        table.add_column(name, justify="left" if name == "backend" else "right")
    with tempfile.TemporaryDirectory() as folder:
        for backend in args.backends:
            base = None
            for workers in args.workers:
                seconds = one_run(args.game, args.players, args.games, workers, backend, folder,
                                  args.address)
                base = base or seconds
                table.add_row(backend, str(workers), f"{seconds:.1f}",
                              f"{1000 * seconds / args.games:.0f}", f"{base / seconds:.2f}x")
    Console().print(table)


if __name__ == "__main__":
    main()
