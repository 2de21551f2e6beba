"""TD-Gammon's yardsticks: the trained network (0-ply and depth 2) against pubeval, our
hand-written evaluation at 0-ply, and each other; win rates with 95% Wilson intervals.

    nice python bench/td_gammon_eval.py WEIGHTS.npz --games 5000 --depth2-games 200 \
        --depth2-pubeval-games 100

Games are seeded (seat swapped every game); docs/LEARNING.md records the figures.
"""

from __future__ import annotations

import argparse
import time

from gamesearch.engines.backgammon.td import (
    GammonChooser,
    MatchGame,
    NetChooser,
    PubevalChooser,
    load_network,
)
from gamesearch.learn.selfplay import Score, play_games


def match(a, b, games: int, seed: int) -> tuple[Score, float]:
    began = time.perf_counter()
    points = play_games(MatchGame(a, b, seed=seed), range(games))
    return Score(games, sum(p > 0 for p in points), float(sum(points))), \
        time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("weights")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--depth2-games", type=int, default=100)
    parser.add_argument("--depth2-pubeval-games", type=int, default=None,
                        help="games of depth 2 against pubeval (default --depth2-games)")
    parser.add_argument("--seed", type=int, default=2024,
                        help="seed of the games' dice (chunks of a long match: vary it)")
    args = parser.parse_args()
    if args.depth2_pubeval_games is None:
        args.depth2_pubeval_games = args.depth2_games
    net = load_network(args.weights)
    zero = NetChooser(net, 0)
    rows = [("td-gammon 0-ply", "pubeval", zero, PubevalChooser(), args.games),
            ("td-gammon 0-ply", "gammon eval 0-ply", zero, GammonChooser(), args.games),
            ("pubeval", "gammon eval 0-ply", PubevalChooser(), GammonChooser(), args.games)]
    if args.depth2_games:
        rows.append(("td-gammon depth 2", "td-gammon 0-ply", NetChooser(net, 2), zero,
                     args.depth2_games))
    if args.depth2_pubeval_games:
        rows.append(("td-gammon depth 2", "pubeval", NetChooser(net, 2), PubevalChooser(),
                     args.depth2_pubeval_games))
    print("| A | B | games | A wins (95% CI) | points/game for A | seconds |")
    print("|---|---|---|---|---|---|")
    for name_a, name_b, a, b, games in rows:
        if games < 1:  # --games 0: the depth-2 rows only
            continue
        score, seconds = match(a, b, games, seed=args.seed)
        lo, hi = score.interval()
        print(f"| {name_a} | {name_b} | {games} | {100 * score.rate:.1f}% ({100 * lo:.1f}-"
              f"{100 * hi:.1f}) | {score.points / games:+.3f} | {seconds:.0f} |", flush=True)


if __name__ == "__main__":
    main()
