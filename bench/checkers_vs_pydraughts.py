"""Our checkers engine against py-draughts' own alpha-beta engine (``SimpleEngine``: negamax
PVS, TT, quiescence, killers, history) at equal time per move, over paired openings.

Run ``python bench/checkers_vs_pydraughts.py`` (``--pairs 50 --time 0.1``: 100 games) in
an environment with ``pip install py-draughts``. Each opening is two random moves from the
start (seeded), played twice with the colours swapped.

py-draughts' American board makes captures optional and lets White move first; English
draughts (ours, the official rules) makes captures compulsory and Black moves first. So
its engine searches a board class that only changes ``legal_moves`` to compulsory
captures (its own move generator, ``captures_optional=False``), and every position is
given to it by FEN with the side to move. Its chosen move is mapped to ours by the
position it leads to. A game with no result after ``--max-plies`` is a draw; so is one
the 40-move rule ends.
"""

from __future__ import annotations

import argparse
import random
import time

from rich.console import Console
from rich.table import Table

from gamesearch.agents import make_agent
from gamesearch.arena.match import wilson_interval
from gamesearch.games import load_game
from gamesearch.games.checkers.notation import fen


def compulsory_board():
    """py-draughts' American board with compulsory captures (the official rule)."""
    from draughts.boards import american

    class Board(american.Board):
        @property
        def legal_moves(self):
            return self._legal_moves_from_core(american._CORE, max_capture=False,
                                               captures_optional=False)

    return Board


def their_move(game, state, engine, board_class) -> str:
    """py-draughts' move in ``state``, as our move string (matched by the position)."""
    board = board_class.from_fen(fen(state[0], state[1]))
    move = engine.get_best_move(board)
    board.push(move)
    after = board.fen.split('"')[1] if '"' in board.fen else board.fen
    target = game.state_from_string(after)[0]
    for action in game.actions(state):
        if game.result(state, action)[0] == target:
            return action
    raise RuntimeError(f"py-draughts played {move} in {fen(state[0], state[1])}: not legal "
                       "here")


def play(game, opening: list[str], ours_black: bool, seconds: float, max_plies: int,
         board_class) -> float:
    """One game; our points (1, 1/2, 0)."""
    from draughts import SimpleEngine

    ours = make_agent(f"checkers-engine:time={seconds:g}")
    ours.prepare(game)
    theirs = SimpleEngine(depth_limit=30, time_limit=seconds)
    state = game.initial_state()
    for move in opening:
        state = game.result(state, move)
    for _ in range(max_plies):
        if game.is_terminal(state):
            break
        our_turn = (state[1] == 0) == ours_black
        move = ours(game, state).action if our_turn else \
            their_move(game, state, theirs, board_class)
        state = game.result(state, move)
    if not game.is_terminal(state):
        return 0.5
    u = game.utilities(state)[0 if ours_black else 1]
    return 1.0 if u > 0 else (0.0 if u < 0 else 0.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--time", type=float, default=0.1)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = load_game("checkers")
    board_class = compulsory_board()
    rng = random.Random(args.seed)
    results = []
    began = time.perf_counter()
    for _ in range(args.pairs):
        state, opening = game.initial_state(), []
        for _ in range(2):
            move = rng.choice(game.actions(state))
            opening.append(move)
            state = game.result(state, move)
        for ours_black in (True, False):
            results.append(play(game, opening, ours_black, args.time, args.max_plies,
                                board_class))
        done = len(results)
        print(f"{done} games: {sum(results):g} points ({time.perf_counter() - began:.0f} s)",
              flush=True)
    n, points = len(results), sum(results)
    low, high = wilson_interval(points / n, n)
    table = Table(title=f"checkers-engine vs py-draughts SimpleEngine, {args.time:g} s a move")
    for column in ("games", "wins", "draws", "losses", "score", "95% interval"):
        table.add_column(column, justify="right")
    table.add_row(str(n), str(results.count(1.0)), str(results.count(0.5)),
                  str(results.count(0.0)), f"{points / n:.1%}", f"{low:.1%} - {high:.1%}")
    Console().print(table)


if __name__ == "__main__":
    main()
