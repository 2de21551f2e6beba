"""Learned against hand-written evaluation: the same Othello engine at equal depth.

``python bench/othello_match.py --pairs 50 --depth 4`` plays each of ``--pairs`` openings
(random first ``--opening`` plies, seeded) twice, colours swapped, between
``othello:evaluation=learned`` and ``othello:evaluation=hand`` (both solve exactly at 14
empties, so only the midgame evaluation differs). Prints the learned side's score with a
95% Wilson interval and the interval 200 games would give at the same score.
"""

from __future__ import annotations

import argparse
import random
import time

from gamesearch.agents import make_agent
from gamesearch.arena.match import play_game, wilson_interval
from gamesearch.games import load_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--opening", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = load_game("othello")
    learned = make_agent(f"othello:depth={args.depth},evaluation=learned")
    hand = make_agent(f"othello:depth={args.depth},evaluation=hand")
    points = 0.0
    played = 0
    began = time.perf_counter()
    for pair in range(args.pairs):
        rng = random.Random(args.seed * 10_007 + pair)
        start = game.initial_state()
        for _ in range(args.opening):
            start = game.result(start, rng.choice(game.actions(start)))
        for learned_seat in (0, 1):
            seats = [learned, hand] if learned_seat == 0 else [hand, learned]
            for agent in seats:
                agent.reset()
            final, _ = play_game(game, seats, start)
            u = game.utilities(final)[learned_seat]
            points += (u + 1) / 2
            played += 1
        low, high = wilson_interval(points / played, played)
        print(f"{played} games: learned {points:g} points ({points / played:.1%}, 95% CI "
              f"{low:.1%}-{high:.1%}), {time.perf_counter() - began:.0f} s", flush=True)
    p = points / played
    low, high = wilson_interval(p, 200)
    print(f"projection for 200 games at {p:.1%}: 95% CI {low:.1%}-{high:.1%}")


if __name__ == "__main__":
    main()
