"""AlphaZero on Connect Four against its outside oracle and a baseline:

* the policy alone (no search): how often its move keeps the game-theoretic value, per
  the perfect solver, on Pons' test positions (tests/data/connect4/Test_L*_R*);
* PUCT with N simulations against our plain UCT MCTS at the same N (seats alternate);
* PUCT as the first player against the perfect solver (draws or wins count). The solver
  plays exact scores (a lost position is lost as late as possible) and picks among equal
  moves with a per-game seed, so the games differ.

    nice python bench/alphazero_eval.py CHECKPOINT.npz --simulations 200 --games 10
    nice python bench/alphazero_eval.py W.npz --labels c4-labels.jsonl --simulations 800 \
        --games 100 --solver-games 20

``--labels`` (from bench/connect4_labels.py) measures the policy on thousands of labelled
positions in a second, per set, instead of solving the 156 test positions.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from gamesearch.agents import make_agent
from gamesearch.engines.connect4.alphazero import load_labelled, load_policy_value, policy_accuracy
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


def labelled_accuracy(net, path: Path) -> None:
    """Print how often the policy's top move is perfect, per test set and in all."""
    import json

    x, legal, scores = load_labelled(path)
    sets = np.array([json.loads(line)["set"] for line in path.read_text().splitlines()
                     if line.strip()])
    best = np.where(legal, scores, -99).max(axis=1)
    perfect = (scores == best[:, None]) & legal
    policy, _ = net.predict(x.astype(float))
    good = perfect[np.arange(len(x)), np.where(legal, policy, -1.0).argmax(axis=1)]
    chance = perfect.sum(axis=1) / legal.sum(axis=1)
    print("| set | positions | policy alone perfect | a random move perfect |")
    print("|---|---|---|---|")
    for name in sorted(set(sets)):
        m = sets == name
        print(f"| {name} | {m.sum()} | {100 * good[m].mean():.1f}% | "
              f"{100 * chance[m].mean():.1f}% |")
    print(f"| all | {len(x)} | {100 * good.mean():.1f}% | {100 * chance.mean():.1f}% |",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("weights")
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--labels", type=Path, help="labelled positions (connect4_labels.py)")
    parser.add_argument("--solver-games", type=int, help="games as first player against the "
                        "solver (default: games / 5)")
    args = parser.parse_args()
    game = ConnectFour()
    net = load_policy_value(args.weights)
    began = time.perf_counter()
    if args.labels is not None:
        labelled_accuracy(net, args.labels)
    else:
        report = policy_accuracy(net, positions())
        print(f"policy alone keeps the value on {report['perfect_moves']}/"
              f"{report['positions']} Pons test positions = {100 * report['accuracy']:.1f}% "
              f"({time.perf_counter() - began:.0f} s)", flush=True)
    spec = f"alphazero:simulations={args.simulations},weights={args.weights}"
    az = make_agent(spec)
    results = []
    began = time.perf_counter()
    for g in range(args.games):  # none when --games 0
        mcts = make_agent(f"mcts:iterations={args.simulations},seed={g}")
        results.append(play(game, az, mcts) if g % 2 == 0 else -play(game, mcts, az))
    if results:
        wins = sum(r > 0 for r in results) + 0.5 * sum(r == 0 for r in results)
        score = Score(len(results), int(wins))
        lo, hi = score.interval()
        print(f"PUCT {args.simulations} sims vs UCT MCTS {args.simulations} iterations: "
              f"{wins}/{len(results)} = {100 * score.rate:.0f}% (95% CI {100 * lo:.0f}-"
              f"{100 * hi:.0f}%) ({time.perf_counter() - began:.0f} s)", flush=True)
    began = time.perf_counter()
    n = args.solver_games if args.solver_games is not None else max(1, args.games // 5)
    first = [play(game, az, make_agent(f"solver:seed={g}")) for g in range(n)]
    if first:
        print(f"PUCT as first player vs the perfect solver: {sum(r >= 0 for r in first)}/"
              f"{len(first)} drawn or won ({time.perf_counter() - began:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
