"""AlphaZero on Connect Four against its outside oracle and a baseline:

* the policy alone (no search): how often its move keeps the game-theoretic value, per
  the perfect solver, on Pons' test positions (tests/data/connect4/Test_L*_R*);
* PUCT with N simulations against our plain UCT MCTS at the same N (seats alternate);
* PUCT as the first player against the perfect solver (draws or wins count).

    nice python bench/alphazero_eval.py CHECKPOINT.npz --simulations 200 --games 10
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from gamesearch.agents import make_agent
from gamesearch.catalog.connect4_az import load_policy_value, policy_accuracy
from gamesearch.games.connect4 import ConnectFour
from gamesearch.learn.selfplay import Score

SETS = Path(__file__).resolve().parent.parent / "tests" / "data" / "connect4"


def positions() -> list[str]:
    found = []
    for path in sorted(SETS.glob("Test_L*_R*")):
        found += [line.split()[0] for line in path.read_text().splitlines() if line.strip()]
    return found


def play(game, first, second) -> int:
    """+1 when the first agent wins, 0 draw, -1 loss."""
    state = game.initial_state()
    agents = (first, second)
    while not game.is_terminal(state):
        state = game.result(state, agents[game.to_move(state)](game, state).action)
    u = game.utilities(state)[0]
    return (u > 0) - (u < 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("weights")
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    game = ConnectFour()
    net = load_policy_value(args.weights)
    began = time.perf_counter()
    report = policy_accuracy(net, positions())
    print(f"policy alone keeps the value on {report['perfect_moves']}/{report['positions']} "
          f"Pons test positions = {100 * report['accuracy']:.1f}% "
          f"({time.perf_counter() - began:.0f} s)", flush=True)
    spec = f"alphazero:simulations={args.simulations},weights={args.weights}"
    az = make_agent(spec)
    results = []
    began = time.perf_counter()
    for g in range(args.games):
        mcts = make_agent(f"mcts:iterations={args.simulations},seed={g}")
        results.append(play(game, az, mcts) if g % 2 == 0 else -play(game, mcts, az))
    wins = sum(r > 0 for r in results) + 0.5 * sum(r == 0 for r in results)
    score = Score(len(results), int(wins))
    lo, hi = score.interval()
    print(f"PUCT {args.simulations} sims vs UCT MCTS {args.simulations} iterations: "
          f"{wins}/{len(results)} = {100 * score.rate:.0f}% (95% CI {100 * lo:.0f}-"
          f"{100 * hi:.0f}%) ({time.perf_counter() - began:.0f} s)", flush=True)
    solver = make_agent("solver")
    began = time.perf_counter()
    first = [play(game, az, solver) for _ in range(max(1, args.games // 5))]
    print(f"PUCT as first player vs the perfect solver: {sum(r >= 0 for r in first)}/"
          f"{len(first)} drawn or won ({time.perf_counter() - began:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
