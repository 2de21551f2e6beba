"""Chess endgame tables: build figures, the published longest mates, and Stockfish's word.

Run from the repository root (Stockfish the Debian package at /usr/games/stockfish)::

    python bench/chess_tables.py --dir tables/chess                 # a folder a build made
    python bench/chess_tables.py --build 3 --dir /tmp/t3            # build 2-3 pieces first
    python bench/chess_tables.py --dir tables/chess --positions 100 --nodes 3000000

For every table in the folder: slots, real positions, wins/draws/losses, the build's
seconds and levels (passes, for a build by the older forward method; from the manifest),
the longest win in plies and as a mate in moves beside the published longest mate where
there is one (KQvK 10, KRvK 16, KBBvK 19, KBNvK 33), then Stockfish on ``--positions``
random positions of each table (seeded, both sides to move, ``--nodes`` nodes a position,
hash cleared): whether it agrees on win/draw/loss (a mate score, or beyond 1.5 pawns
either way where it announces none), and of the mates it announces, how many equal ours,
are longer (Stockfish found a slower mate) or shorter (which would mean our tables are
wrong).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import time
from pathlib import Path

import chess
import chess.engine
import numpy as np

from gamesearch.engines.chess.tables import LONGEST_MATES, Tables, random_positions, table_spec
from gamesearch.tables import store
from gamesearch.tables.build import build_tables
from gamesearch.tables.sweep import DRAW, LOSS, NO_POSITION_DISTANCE, WIN

STOCKFISH = shutil.which("stockfish") or "/usr/games/stockfish"

def table_rows(folder: Path) -> list[dict]:
    """Counts, build figures and longest wins of every table in ``folder``."""
    manifest = store.read_manifest(folder, "chess")
    rows = []
    for name, info in manifest["slices"].items():
        packed, dist = store.load_slice(folder, name, manifest, mmap=True)
        values = store.unpack(packed, info["slots"])
        dist = np.asarray(dist)
        real = dist != NO_POSITION_DISTANCE
        wins = (values == WIN) & real
        longest = int(dist[wins].max()) if wins.any() else 0
        rows.append({"table": name, "slots": info["slots"], "positions": int(real.sum()),
                     "wins": int(wins.sum()), "draws": int(((values == DRAW) & real).sum()),
                     "losses": int(((values == LOSS) & real).sum()),
                     "seconds": info.get("seconds"),
                     "levels": info.get("levels", info.get("passes")),
                     "longest_plies": longest, "longest_mate": (longest + 1) // 2,
                     "published": LONGEST_MATES.get(name)})
    return rows


def stockfish_rows(folder: Path, names: list[str], count: int, nodes: int,
                   seed: int) -> list[dict]:
    """Stockfish against the tables on ``count`` random positions of each table."""
    tables = Tables(folder)
    rng = random.Random(seed)
    rows = []
    with chess.engine.SimpleEngine.popen_uci(STOCKFISH) as engine:
        for name in names:
            if name == "KvK":
                continue
            row = {"table": name, "positions": 0, "agree": 0, "mates": 0, "equal": 0,
                   "longer": 0, "shorter": 0}
            boards = random_positions(name, count, rng)
            if not boards:
                continue  # a dead position everywhere: nothing to ask Stockfish
            for board in boards:
                value, plies = tables.probe_board(board)
                # a kept hash once gave a mate one move too short (KRvK, see TABLES.md)
                engine.configure({"Clear Hash": None})
                score = engine.analyse(board, chess.engine.Limit(nodes=nodes))["score"]
                pov = score.pov(board.turn)
                mate = pov.mate()
                if mate is not None:
                    theirs = "win" if mate > 0 else "loss"
                else:  # no mate announced: a decisive score means a win not yet seen
                    cp = pov.score()  # (KBNvK's wins score only +2 to +3.5 pawns)
                    theirs = "win" if cp > 150 else "loss" if cp < -150 else "draw"
                ours = {WIN: "win", LOSS: "loss", DRAW: "draw"}[value]
                row["positions"] += 1
                row["agree"] += ours == theirs
                if mate is not None and ours == theirs:
                    expected = (plies + 1) // 2 if value == WIN else -(plies // 2)
                    row["mates"] += 1
                    if mate == expected:
                        row["equal"] += 1
                    elif abs(mate) > abs(expected):
                        row["longer"] += 1
                    else:
                        row["shorter"] += 1
            rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", required=True, help="the tables folder")
    parser.add_argument("--build", type=int, default=0,
                        help="build 2..N pieces into --dir first (resumes a partial build)")
    parser.add_argument("--only", default="", help="these tables only (and with --build, "
                        "what they need), e.g. KQvKR")
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--nodes", type=int, default=3_000_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    folder = Path(args.dir)
    if args.build:
        start = time.perf_counter()
        only = [s for s in args.only.split(",") if s] or None
        build_tables(table_spec(args.build, only), folder)
        print(f"built in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    rows = table_rows(folder)
    if args.only:
        rows = [r for r in rows if r["table"] in args.only.split(",")]
    print(f"{'table':>7} {'slots':>11} {'positions':>11} {'wins':>11} {'draws':>10} "
          f"{'losses':>10} {'s':>7} {'levels':>6} {'longest':>8} {'mate in':>7} "
          f"{'published':>9}")
    for r in rows:
        pub = "" if r["published"] is None else str(r["published"])
        secs = "" if r["seconds"] is None else f"{r['seconds']:.1f}"
        print(f"{r['table']:>7} {r['slots']:>11,} {r['positions']:>11,} {r['wins']:>11,} "
              f"{r['draws']:>10,} {r['losses']:>10,} {secs:>7} {r['levels'] or '':>6} "
              f"{r['longest_plies']:>8} {r['longest_mate']:>7} {pub:>9}")
    sf = []
    if args.positions and Path(STOCKFISH).exists():
        sf = stockfish_rows(folder, [r["table"] for r in rows], args.positions, args.nodes,
                            args.seed)
        print(f"\nStockfish, {args.nodes:,} nodes a position:")
        print(f"{'table':>7} {'positions':>9} {'W/D/L agree':>11} {'mates':>6} "
              f"{'equal':>6} {'longer':>6} {'shorter':>7}")
        for r in sf:
            print(f"{r['table']:>7} {r['positions']:>9} {r['agree']:>11} {r['mates']:>6} "
                  f"{r['equal']:>6} {r['longer']:>6} {r['shorter']:>7}")
    elif args.positions:
        print("\nStockfish not found: its rows are skipped")
    if args.json:
        print(json.dumps({"tables": rows, "stockfish": sf}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
