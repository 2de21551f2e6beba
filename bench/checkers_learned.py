"""Samuel's test: the learned checkers weights against the hand-written ones, same engine,
equal depth, over paired random openings (each played with both colours).

Run ``python bench/checkers_learned.py`` (``--pairs 100 --depths 4 6``: 200 games a
depth). ``--seed`` picks the openings; the default (99) is not the seed the training's own
evaluations used (``train samuel`` evaluates on seed + 1 = 1), so this match is on
openings the run never chose by. ``--weights FILE`` tests a ``train samuel`` run's
weights.json instead of the shipped ones.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from gamesearch.arena.match import elo_difference, wilson_interval
from gamesearch.engines.checkers.engine import learned_weights
from gamesearch.engines.checkers.learn import match
from gamesearch.games.checkers.evaluation import HAND_WEIGHTS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--depths", type=int, nargs="+", default=[4, 6])
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--weights", help="a weights.json from 'gamesearch train samuel'")
    args = parser.parse_args()
    learned = np.array(json.loads(Path(args.weights).read_text())["weights"] if args.weights
                       else learned_weights())
    hand = np.array(HAND_WEIGHTS)
    table = Table(title="checkers: learned weights vs hand-written, equal depth")
    for column in ("depth", "games", "learned score", "95% interval", "Elo", "seconds"):
        table.add_column(column, justify="right")
    for depth in args.depths:
        began = time.perf_counter()
        points, games = match(learned, hand, args.pairs, depth, args.seed)
        low, high = wilson_interval(points / games, games)
        elo = elo_difference(points / games)
        table.add_row(str(depth), str(games), f"{points / games:.1%}",
                      f"{low:.1%} - {high:.1%}", f"{elo:+.0f}",
                      f"{time.perf_counter() - began:.0f}")
    Console().print(table)
    print("learned:", " ".join(f"{w:.1f}" for w in learned), " hand:",
          " ".join(f"{w:g}" for w in hand))


if __name__ == "__main__":
    main()
