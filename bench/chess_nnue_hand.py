"""A warm start for the chess network: positions near our games, scored by the hand-written
evaluation.

``python bench/chess_nnue_hand.py nnue.jsonl --out hand.jsonl`` takes the training
positions of a data file of ``bench/chess_nnue_data.py`` (never those of the games that
``train nnue`` holds out: the same ``--holdout`` rule), plays from each ``--variants``
short random lines (1 to ``--plies`` plies, no captures, so the positions stay near the
quiet ones), keeps those not in check and not over, and scores them with the hand-written
evaluation (``terms.py``'s dot product, as ``bench/chess_tune.py`` does; centipawns for
the side to move). The rows are the data file's (``game`` is the game they came from), so

    gamesearch train nnue --data hand.jsonl --holdout 0 --epochs 6 --out pre
    gamesearch train nnue --data nnue.jsonl --init-from pre/nnue.npz --out run

first teaches the network what the hand evaluation knows from many cheap positions, then
fits it to Stockfish's scores: with a first session's few thousand Stockfish-scored
positions that starts it where the hand evaluation stands instead of from nothing
(docs/BENCHMARKS.md, "NNUE: data and trainer").
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import chess

from bench.chess_tune import hand_scores
from gamesearch.durable import atomic_write

LIMIT_CP = 5000
"""Hand scores are clipped to this (a lost position needs no finer value)."""


def variants(fen: str, rng: random.Random, count: int, plies: int) -> list[chess.Board]:
    """Up to ``count`` boards a few random quiet plies from ``fen``."""
    out = []
    for _ in range(count):
        board = chess.Board(fen)
        for _ in range(rng.randrange(1, plies + 1)):
            moves = [m for m in board.legal_moves if not board.is_capture(m)]
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_check() and not board.is_game_over():
            out.append(board)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--out", type=Path, default=Path("hand.jsonl"))
    parser.add_argument("--positions", type=int, default=None, help="the first N rows")
    parser.add_argument("--variants", type=int, default=8)
    parser.add_argument("--plies", type=int, default=6)
    parser.add_argument("--holdout", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--force", action="store_true", help="replace --out")
    args = parser.parse_args()
    if not 1 <= args.variants <= 1000 or not 1 <= args.plies <= 100 or args.holdout == 1 \
            or args.holdout < 0 or args.positions is not None and args.positions < 1:
        parser.error("--variants 1..1000, --plies 1..100, --holdout 0 or 2+, --positions > 0")
    if args.out.exists() and not args.force:
        parser.exit(2, f"chess_nnue_hand: {args.out} exists (--force replaces it)\n")
    import numpy as np

    from gamesearch.engines.chess.nnue.dataset import DataError, read_positions
    from gamesearch.learn.split import held_out

    try:
        count = len(read_positions(args.data, args.positions))  # checks every row
    except DataError as err:
        parser.exit(2, f"chess_nnue_hand: {err}\n")
    rng = random.Random(args.seed)
    lines = []
    with args.data.open() as fh:
        for index in range(count):
            row = json.loads(next(fh))
            if held_out(np.array([row["game"]]), args.holdout)[0]:
                continue  # a validation game: its neighbours stay out of training
            boards = variants(row["fen"], rng, args.variants, args.plies)
            for board, cp in zip(boards, hand_scores(boards) if boards else []):
                cp = max(-LIMIT_CP, min(LIMIT_CP, int(round(float(cp)))))
                lines.append(json.dumps({"game": row["game"], "fen": board.fen(),
                                         "score": cp, "result": 0.5}) + "\n")
            if index % 500 == 0:
                print(f"\r{index:,} / {count:,} rows, {len(lines):,} positions", end="",
                      file=sys.stderr, flush=True)
    atomic_write(args.out, "".join(lines))
    print(f"\r{len(lines):,} hand-scored positions from {count:,} rows in {args.out}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
