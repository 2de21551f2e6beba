"""Go play-outs per second on an empty 9x9 board, one core: our compiled board against
OpenSpiel's Go (C++ rules) in the same run.

Run ``python bench/go_playouts.py --reference-python /path/to/venv/bin/python`` where that
interpreter has ``pip install open_spiel``. Three figures, each a play-out from the empty
board to the end of the game:

* gamesearch: ``games/go/kernel.py``'s play-outs (random legal points, never an own eye,
  two passes end) and the ``go-mcts`` agent's simulations (tree walk + play-out + RAVE).
* OpenSpiel, Python API: ``open_spiel.python.algorithms.mcts.RandomRolloutEvaluator``'s
  play-out (random legal actions through the Python bindings), what its Python MCTS does.
* OpenSpiel, C++: ``pyspiel.MCTSBot`` with a C++ random roll-out evaluator, simulations
  per second over one search of the empty board.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time


def openspiel_rates(seconds: float) -> dict[str, float]:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("go", {"board_size": 9, "komi": 7.5})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    state = game.new_initial_state()
    done, began = 0, time.perf_counter()
    while time.perf_counter() - began < seconds:
        evaluator.evaluate(state)
        done += 1
    python_rate = done / (time.perf_counter() - began)
    sims = 2000
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, sims, 10**9,
                          False, 1, False)
    began = time.perf_counter()
    bot.step(game.new_initial_state())
    cpp_rate = sims / (time.perf_counter() - began)
    return {"python": python_rate, "cpp_bot": cpp_rate}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--reference-python", help="an interpreter with open_spiel")
    parser.add_argument("--openspiel-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.openspiel_only:
        print(json.dumps(openspiel_rates(args.seconds)))
        return
    from rich.console import Console
    from rich.table import Table

    from gamesearch.engines.go.mcts import GoMCTSAgent
    from gamesearch.games.go import kernel as K
    from gamesearch.games.go.rules import Go

    board = K.new_board(9)
    K.playouts(board, 10, 400, 1)  # compile outside the timing
    began = time.perf_counter()
    K.playouts(board, 2000, 400, 2)  # a first estimate of the rate sizes the timed run
    n = max(2000, int(2000 / (time.perf_counter() - began) * args.seconds))
    began = time.perf_counter()
    K.playouts(board, n, 400, 3)
    ours = n / (time.perf_counter() - began)
    agent = GoMCTSAgent(time=args.seconds, seed=1)
    agent.prepare(None)
    game = Go(size=9, komi=7.5)
    sims = agent(game, game.initial_state()).stats.iterations / args.seconds
    reference = {}
    python = args.reference_python or sys.executable
    out = subprocess.run([python, __file__, "--openspiel-only", "--seconds", str(args.seconds)],
                         capture_output=True, text=True)
    if out.returncode == 0:
        reference = json.loads(out.stdout.strip().splitlines()[-1])
    table = Table(title="Go 9x9 play-outs per second from the empty board, one core")
    for column in ("system", "play-outs/s", "ours / it"):
        table.add_column(column, justify="right")
    table.add_row("gamesearch kernel play-outs", f"{ours:,.0f}", "")
    table.add_row("gamesearch go-mcts simulations", f"{sims:,.0f}", "")
    for name, label in (("python", "OpenSpiel Python MCTS roll-outs"),
                        ("cpp_bot", "OpenSpiel C++ MCTSBot simulations")):
        if name in reference:
            table.add_row(label, f"{reference[name]:,.0f}",
                          f"{ours / reference[name]:.1f}x / {sims / reference[name]:.1f}x")
    Console().print(table)
    if not reference:
        print("OpenSpiel not found: give --reference-python (pip install open_spiel)")


if __name__ == "__main__":
    main()
