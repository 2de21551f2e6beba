"""MCTS benchmark: our pure-Python UCT against OpenSpiel's Python MCTSBot, same budget.

Run ``python bench/mcts_speed.py`` from the repository root (OpenSpiel installed only in a
benchmark environment; without it only our figures are printed). Both engines run UCT with
c = 1.4 and one uniformly random play-out per simulation from the same positions; OpenSpiel's
bot searches over its C++ game states (``solve=False``: no MCTS-Solver, like ours). Each
figure is the best of ``--repeat`` runs; the last column is our simulations per second as
a ratio of OpenSpiel's, measured in the same run.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from rich.console import Console
from rich.table import Table

from gamesearch.games.connect4 import ConnectFour
from gamesearch.games.tictactoe import TicTacToe
from gamesearch.search import mcts

CASES = (
    # (label, our game, OpenSpiel game name, moves from the start (0-based), simulations)
    ("tic-tac-toe, empty board", TicTacToe, "tic_tac_toe", [], 4000),
    ("Connect Four, empty board", ConnectFour, "connect_four", [], 2000),
    ("Connect Four, after 4 4 5 5", ConnectFour, "connect_four", [3, 3, 4, 4], 2000),
)


def best_time(run, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def ours(game_type, moves: list[int], simulations: int, repeat: int) -> float:
    game = game_type()
    state = game.initial_state()
    for m in moves:
        state = game.result(state, m)
    return best_time(lambda: mcts(game, state, iterations=simulations, c=1.4, seed=1), repeat)


def openspiel(name: str, moves: list[int], simulations: int, repeat: int) -> float | None:
    try:
        import pyspiel
        from open_spiel.python.algorithms import mcts as os_mcts
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    for m in moves:
        state.apply_action(m)

    def run() -> None:
        rng = np.random.RandomState(1)
        evaluator = os_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        bot = os_mcts.MCTSBot(game, uct_c=1.4, max_simulations=simulations,
                              evaluator=evaluator, solve=False, random_state=rng)
        bot.mcts_search(state)

    return best_time(run, repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (best kept)")
    args = parser.parse_args()
    table = Table(title="MCTS (UCT, c=1.4, random play-outs): simulations per second")
    for column in ("position", "simulations", "gamesearch s", "gamesearch sims/s",
                   "OpenSpiel s", "OpenSpiel sims/s", "ours / OpenSpiel"):
        table.add_column(column, justify="right" if column != "position" else "left")
    for label, game_type, os_name, moves, sims in CASES:
        t_ours = ours(game_type, moves, sims, args.repeat)
        t_os = openspiel(os_name, moves, sims, args.repeat)
        row = [label, f"{sims:,}", f"{t_ours:.3f}", f"{sims / t_ours:,.0f}"]
        if t_os is None:
            row += ["-", "not installed", "-"]
        else:
            row += [f"{t_os:.3f}", f"{sims / t_os:,.0f}", f"{t_os / t_ours:.2f}x"]
        table.add_row(*row)
    Console(width=130).print(table)


if __name__ == "__main__":
    main()
