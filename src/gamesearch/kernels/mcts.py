"""Generic compiled Monte Carlo tree search (UCT, random play-outs) against the kernel contract.

Written once; compiled per game by :func:`gamesearch.kernels.specialize.specialize` with the
primitives ``legal``, ``play``, ``is_terminal``, ``terminal_value``, ``to_move`` and
``MAX_ACTIONS``. The tree lives in flat numpy arrays of a fixed capacity (``max_nodes``);
when it is full, simulations still run (selection, play-out, back-up) but add no node.
States are not stored: selection replays the moves from the root, which for bitboard games
costs less than a copy.

Rewards are 1, 1/2, 0 (win, draw, loss by the sign of the terminal value) for the player who
made the move into each node, so UCB1 at a node maximizes the mover's win rate.
"""

from __future__ import annotations

import math

import numpy as np


def mcts_run(root, simulations, c, max_nodes, seed, child_moves, child_visits, child_wins):
    """Run ``simulations`` UCT simulations from ``root``; fill the root children's moves,
    visits and summed rewards; return the number of root children."""
    np.random.seed(seed)
    first = np.full(max_nodes, -1, np.int64)  # index of the first child; -1: not expanded
    count = np.zeros(max_nodes, np.int64)
    visits = np.zeros(max_nodes, np.float64)
    wins = np.zeros(max_nodes, np.float64)
    move = np.zeros(max_nodes, np.int64)
    mover = np.zeros(max_nodes, np.int64)
    path = np.zeros(4096, np.int64)
    buf = np.empty(MAX_ACTIONS, np.int64)  # noqa: F821  (bound by specialize)
    used = 1
    for _ in range(simulations):
        node = 0
        s = root
        length = 1
        path[0] = 0
        while first[node] >= 0 and not is_terminal(s):  # noqa: F821  selection
            log_n = math.log(visits[node] + 1.0)
            best = -1.0
            pick = first[node]
            for j in range(first[node], first[node] + count[node]):
                if visits[j] == 0:
                    pick = j
                    break
                u = wins[j] / visits[j] + c * math.sqrt(log_n / visits[j])
                if u > best:
                    best = u
                    pick = j
            node = pick
            s = play(s, move[node])  # noqa: F821
            path[length] = node
            length += 1
        if not is_terminal(s) and used + MAX_ACTIONS <= max_nodes:  # noqa: F821  expansion
            n = legal(s, buf)  # noqa: F821
            first[node] = used
            count[node] = n
            who = to_move(s)  # noqa: F821
            for j in range(n):
                move[used + j] = buf[j]
                mover[used + j] = who
            node = used + np.random.randint(n)
            used += n
            s = play(s, move[node])  # noqa: F821
            path[length] = node
            length += 1
        while not is_terminal(s):  # noqa: F821  play-out
            n = legal(s, buf)  # noqa: F821
            s = play(s, buf[np.random.randint(n)])  # noqa: F821
        v = terminal_value(s)  # noqa: F821  back-up
        end_player = to_move(s)  # noqa: F821
        for i in range(length):
            nd = path[i]
            visits[nd] += 1.0
            if v == 0:
                wins[nd] += 0.5
            elif (v > 0) == (mover[nd] == end_player):
                wins[nd] += 1.0
    n = count[0]
    for j in range(n):
        child_moves[j] = move[first[0] + j]
        child_visits[j] = visits[first[0] + j]
        child_wins[j] = wins[first[0] + j]
    return n


TEMPLATES = (mcts_run,)
