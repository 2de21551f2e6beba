"""Benchmark: *-minimax savings and expectiminimax speed on backgammon positions.

    python bench/chance.py [--positions 4] [--deep-positions 2] [--seed 7] [--no-deep]

Prints two tables.

1. Nodes visited by plain expectiminimax, Star1 and Star2 (the hand-written evaluation,
   bounds [-3, 3]) at depth 2 and 3 on the same positions: pure Python at depth 2, the
   compiled kernel at depth 3 (its node counts equal the pure-Python search's for all three:
   tests/test_backgammon_kernel.py).
2. Nodes per second of plain expectiminimax at depth 2: our pure-Python search, our numba
   kernel, and OpenSpiel's Python ``expectiminimax`` over its C++ backgammon states (when
   ``pyspiel`` is importable: install open_spiel in a benchmark environment only), on the
   same positions: they are reached by random play in OpenSpiel and copied into ours.
   OpenSpiel's value function is a constant (its fastest case); ours evaluates every leaf.
"""

from __future__ import annotations

import argparse
import random
import re
import time

from gamesearch.games.backgammon import Backgammon, BackgammonState
from gamesearch.games.backgammon_kernel import expectiminimax_kernel
from gamesearch.search.chance import expectiminimax


def openspiel_positions(count: int, seed: int):
    """Positions from random OpenSpiel games: (OpenSpiel state, our equal state)."""
    import numpy as np
    import pyspiel

    game = pyspiel.load_game("backgammon")
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal() and len(found) < count:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
                continue
            moves += 1
            if moves > 8 and rng.random() < 0.15 and "Extra turn: 0" in str(state):
                found.append((state.clone(), from_openspiel(state)))
            actions = state.legal_actions()
            state.apply_action(actions[rng.integers(len(actions))])
    return found


def from_openspiel(state) -> BackgammonState:
    """Our state equal to an OpenSpiel backgammon decision state.

    OpenSpiel's player 1 ('o') moves from its point 24 at index 23 down, like our player 1
    (index 0 here), and its player 0 ('x') like our player 2."""
    text = str(state)
    points = tuple(state.board(1, i) - state.board(0, i) for i in range(24))
    bar_line = re.search(r"Bar:(.*)", text).group(1)
    scores = re.search(r"Scores, X: (\d+), O: (\d+)", text)
    dice = [int(c) for c in re.search(r"Dice: (\d+)", text).group(1)]
    bar = (bar_line.count("o"), bar_line.count("x"))
    off = (int(scores.group(2)), int(scores.group(1)))
    player = 1 - state.current_player()
    return BackgammonState(points, bar, off, player, (max(dice), min(dice)))


def our_positions(count: int, seed: int) -> list[BackgammonState]:
    """Positions from random games of our own (where OpenSpiel is not installed)."""
    game, rng, found = Backgammon(), random.Random(seed), []
    while len(found) < count:
        s = game.initial_state()
        moves = 0
        while not game.is_terminal(s) and len(found) < count:
            if s.dice is not None:
                moves += 1
                if moves > 8 and rng.random() < 0.15:
                    found.append(s)
            s = game.result(s, rng.choice(game.actions(s)))
    return found


def openspiel_speed(states, depth: int) -> tuple[int, float]:
    """Nodes (every call of OpenSpiel's recursive expectiminimax) and seconds."""
    from open_spiel.python.algorithms import minimax

    original = minimax.expectiminimax
    calls = [0]

    def counted(*args, **kwargs):
        calls[0] += 1
        return original(*args, **kwargs)

    minimax.expectiminimax = counted  # the recursion looks the name up: every node counts
    try:
        start = time.perf_counter()
        for state in states:
            counted(state, depth, lambda s: 0.0, state.current_player())
        return calls[0], time.perf_counter() - start
    finally:
        minimax.expectiminimax = original


def timed(run, at_least: float = 1.0) -> tuple[int, float]:
    """Repeat ``run()`` (which returns a node count) for at least ``at_least`` seconds."""
    nodes, start = 0, time.perf_counter()
    while True:
        nodes += run()
        seconds = time.perf_counter() - start
        if seconds >= at_least:
            return nodes, seconds


def star_table(game: Backgammon, positions: list, depth: int) -> list:
    """Visited nodes and seconds of plain, Star1 and Star2 at one depth."""
    rows = []
    for name in ("plain", "star1", "star2"):
        visited, seconds = 0, 0.0
        for s in positions:
            start = time.perf_counter()
            if depth >= 3:  # the kernel: the same counts (tested), at compiled speed
                r = expectiminimax_kernel(game, s, depth,
                                          pruning=None if name == "plain" else name)
            else:
                r = expectiminimax(game, s, depth=depth,
                                   pruning=None if name == "plain" else name)
            seconds += time.perf_counter() - start
            visited += r.stats.visited
        rows.append((depth, name, len(positions), visited, seconds))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--deep-positions", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-deep", action="store_true", help="skip depth 3")
    args = parser.parse_args()
    game = Backgammon()
    try:
        pairs = openspiel_positions(args.positions, args.seed)
        have_openspiel = True
    except ImportError:
        pairs = [(None, s) for s in our_positions(args.positions, args.seed)]
        have_openspiel = False
    ours = [s for _, s in pairs]
    expectiminimax_kernel(game, ours[0], 1)  # compile (cached after the first run)

    print("*-minimax on backgammon (hand-written evaluation, bounds [-3, 3])")
    print(f"{'depth':>5} {'search':>7} {'positions':>9} {'nodes':>12} {'vs plain':>9} "
          f"{'seconds':>9}")
    rows = star_table(game, ours, 2)
    if not args.no_deep:
        rows += star_table(game, ours[:args.deep_positions], 3)
    plain = {d: v for d, n, _, v, _ in rows if n == "plain"}
    for depth, name, count, visited, seconds in rows:
        print(f"{depth:>5} {name:>7} {count:>9} {visited:>12,} "
              f"{visited / plain[depth]:>9.3f} {seconds:>9.2f}")

    print()
    print("expectiminimax nodes per second, depth 2, same positions")
    print(f"{'search':>40} {'nodes':>10} {'seconds':>8} {'nodes/s':>11} {'vs OpenSpiel':>12}")
    speed = []
    speed.append(("gamesearch expectiminimax (pure Python)",
                  *timed(lambda: sum(expectiminimax(game, s, depth=2).stats.visited
                                     for s in ours))))
    speed.append(("gamesearch backgammon kernel (numba)",
                  *timed(lambda: sum(expectiminimax_kernel(game, s, 2).stats.visited
                                     for s in ours))))
    if have_openspiel:
        speed.append(("OpenSpiel expectiminimax (C++ states)",
                      *timed(lambda: openspiel_speed([st for st, _ in pairs], 2)[0])))
    reference = speed[-1][1] / speed[-1][2] if have_openspiel else None
    for name, nodes, secs in speed:
        rate = nodes / secs
        ratio = f"{rate / reference:.2f}x" if reference else "n/a"
        print(f"{name:>40} {nodes:>10,} {secs:>8.2f} {rate:>11,.0f} {ratio:>12}")
    if not have_openspiel:
        print("(OpenSpiel is not installed here: pip install open_spiel in a bench venv)")


if __name__ == "__main__":
    main()
