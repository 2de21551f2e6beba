"""Fit the Othello evaluation by regression on self-play positions (resumable).

``python bench/othello_train.py --games 300 --checkpoint /tmp/othello_train.npz`` gathers
self-play games (Ctrl-C stops after saving; the same command resumes), fits the weights and
with ``--ship`` writes them to src/gamesearch/data/othello/weights.npz (a few hundred bytes).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from gamesearch.engines.othello import engine as E
from gamesearch.engines.othello.train import save_atomic, train


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--checkpoint", type=Path, required=True)
    parser.add_argument("--ship", action="store_true", help="write the shipped weights")
    args = parser.parse_args()
    began = time.perf_counter()

    def progress(done: int, total: int) -> None:
        if done % 10 == 0 or done == total:
            print(f"{done}/{total} games, {time.perf_counter() - began:.0f} s", flush=True)

    try:
        weights = train(args.checkpoint, args.games, args.seed, progress=progress)
    except KeyboardInterrupt:
        print("interrupted: checkpoint saved; run the same command to resume")
        return
    np.set_printoptions(precision=2, suppress=True, linewidth=120)
    print(weights)
    if args.ship:
        E.WEIGHTS_FILE.parent.mkdir(parents=True, exist_ok=True)
        save_atomic(E.WEIGHTS_FILE, weights=weights.astype(np.float32),
                    games=np.int64(args.games), seed=np.int64(args.seed))
        print(f"shipped {E.WEIGHTS_FILE.name}")


if __name__ == "__main__":
    main()
