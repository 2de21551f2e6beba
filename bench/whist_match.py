"""Determinization, IS-MCTS, a random player and a cheating double-dummy player at whist.

    python bench/whist_match.py                 # 16-card whist, 30 duplicate deals a pair
    python bench/whist_match.py --deals 4 --ranks 3

Each pair plays duplicate (every deal twice, seats swapped); the table gives the mean
tricks per deal each side took (out of ``ranks`` tricks, 4 suits), the mean difference
with its standard error over deals, and the seconds used.
"double-dummy" sees every card (it is not a fair player): it marks what perfect
information would be worth.
"""

from __future__ import annotations

import argparse
import time

from gamesearch.agents import Agent, RandomAgent, make_agent
from gamesearch.games import load_game
from gamesearch.games.whist_double_dummy import DoubleDummy
from gamesearch.imperfect.match import duplicate_match
from gamesearch.search.result import SearchResult


class DoubleDummyAgent(Agent):
    """Cheats: plays the double-dummy best card of the true deal."""

    spec = "double-dummy"

    def __call__(self, game, state) -> SearchResult:
        values = DoubleDummy(game).card_values(state)
        action = max(values, key=values.get)
        return SearchResult(values[action], action, [action])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--ranks", type=int, default=4)
    parser.add_argument("--samples", type=int, default=20, help="determinization samples")
    parser.add_argument("--iterations", type=int, default=300, help="IS-MCTS iterations")
    args = parser.parse_args()
    game = load_game("whist", suits=4, ranks=args.ranks)

    def pimc() -> Agent:
        return make_agent(f"pimc:samples={args.samples},seed=1")

    def ismcts() -> Agent:
        return make_agent(f"ismcts:iterations={args.iterations},seed=1")

    pairs = [(pimc(), RandomAgent(7)), (ismcts(), RandomAgent(7)), (pimc(), ismcts()),
             (DoubleDummyAgent(), pimc()), (DoubleDummyAgent(), ismcts())]
    print(f"whist, 4 suits x {args.ranks} ranks ({game.hand_size} tricks), "
          f"{args.deals} deals played twice (duplicate)")
    print(f"{'A':<26} {'B':<26} {'A tricks':>9} {'B tricks':>9} {'A-B +- s.e.':>13} "
          f"{'seconds':>8}")
    for a, b in pairs:
        start = time.perf_counter()
        result = duplicate_match(game, a, b, args.deals, seed=2026)
        diffs = [(x - y) / 2 for x, y in result.per_deal]  # per deal, both seatings
        mean = sum(diffs) / len(diffs)
        se = (sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1) / len(diffs)) ** 0.5
        print(f"{a.spec:<26} {b.spec:<26} {result.a_mean:>9.2f} {result.b_mean:>9.2f} "
              f"{mean:>+6.2f} +- {se:4.2f} {time.perf_counter() - start:>8.1f}")


if __name__ == "__main__":
    main()
