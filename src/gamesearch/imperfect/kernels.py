"""Compiled loops over a flattened game tree (numba): CFR iterations and best responses.

The readable recursions in :mod:`~gamesearch.imperfect.cfr` and
:mod:`~gamesearch.imperfect.best_response` are the specification; tests check these loops
against them. Node arrays are in breadth-first order (children after parents), so a forward
loop computes reach probabilities and a backward loop computes values.
"""

from __future__ import annotations

import numpy as np
from numba import njit

TERMINAL, CHANCE_NODE, DECISION = 0, 1, 2


@njit(cache=True)
def regret_matching(regrets, num_actions, sigma):
    """sigma(I, a) proportional to the positive regrets; uniform when none is positive."""
    for i in range(regrets.shape[0]):
        n = num_actions[i]
        total = 0.0
        for k in range(n):
            if regrets[i, k] > 0.0:
                total += regrets[i, k]
        for k in range(n):
            if total > 0.0:
                sigma[i, k] = regrets[i, k] / total if regrets[i, k] > 0.0 else 0.0
            else:
                sigma[i, k] = 1.0 / n


@njit(cache=True)
def compute_reach(node_type, player, infoset, parent, action_index, edge_prob, sigma, reach):
    """reach[n, 0], reach[n, 1], reach[n, 2]: the contributions of players 1, 2 and chance."""
    reach[0, 0] = 1.0
    reach[0, 1] = 1.0
    reach[0, 2] = 1.0
    for n in range(1, node_type.shape[0]):
        p = parent[n]
        reach[n, 0] = reach[p, 0]
        reach[n, 1] = reach[p, 1]
        reach[n, 2] = reach[p, 2]
        if node_type[p] == CHANCE_NODE:
            reach[n, 2] *= edge_prob[n]
        else:
            reach[n, player[p]] *= sigma[infoset[p], action_index[n]]


@njit(cache=True)
def compute_values(node_type, infoset, first_child, num_children, edge_prob, utility, sigma,
                   values):
    """values[n]: player 1's expected utility below n when everyone plays sigma."""
    for n in range(node_type.shape[0] - 1, -1, -1):
        t = node_type[n]
        if t == TERMINAL:
            values[n] = utility[n]
            continue
        v = 0.0
        c0 = first_child[n]
        for k in range(num_children[n]):
            if t == CHANCE_NODE:
                v += edge_prob[c0 + k] * values[c0 + k]
            else:
                v += sigma[infoset[n], k] * values[c0 + k]
        values[n] = v


@njit(cache=True)
def cfr_iterations(node_type, player, infoset, parent, action_index, edge_prob, first_child,
                   num_children, utility, num_actions, regrets, strategy_sum, start, count,
                   plus):
    """Run ``count`` iterations of CFR (CFR+ when ``plus``) with alternating updates.

    Iteration t updates player 1 then player 2: the current strategy comes from regret
    matching, each history of the updated player adds its counterfactual regrets
    (opponent-and-chance reach times the action's value minus the node's value) and its
    own-reach-weighted strategy to the sums (weight t under CFR+, 1 under CFR).
    Regrets are clipped at zero after each update under CFR+ (regret matching+).
    """
    n_nodes = node_type.shape[0]
    sigma = np.zeros_like(regrets)
    instant = np.zeros_like(regrets)
    reach = np.zeros((n_nodes, 3))
    values = np.zeros(n_nodes)
    for t in range(start, start + count):
        weight = float(t) if plus else 1.0
        for updating in range(2):
            regret_matching(regrets, num_actions, sigma)
            compute_reach(node_type, player, infoset, parent, action_index, edge_prob, sigma,
                          reach)
            compute_values(node_type, infoset, first_child, num_children, edge_prob, utility,
                           sigma, values)
            instant[:, :] = 0.0
            sign = 1.0 if updating == 0 else -1.0
            for n in range(n_nodes):
                if node_type[n] != DECISION or player[n] != updating:
                    continue
                i = infoset[n]
                cf = reach[n, 1 - updating] * reach[n, 2]
                own = reach[n, updating]
                c0 = first_child[n]
                for k in range(num_children[n]):
                    instant[i, k] += sign * cf * (values[c0 + k] - values[n])
                    strategy_sum[i, k] += weight * own * sigma[i, k]
            for i in range(regrets.shape[0]):
                for k in range(num_actions[i]):
                    r = regrets[i, k] + instant[i, k]
                    regrets[i, k] = r if (r > 0.0 or not plus) else 0.0


@njit(cache=True)
def best_response(node_type, player, infoset, parent, action_index, edge_prob, first_child,
                  num_children, utility, depth_start, num_actions, sigma, responder):
    """The value of a best response for ``responder`` against sigma, and its actions.

    Depth by depth from the bottom: at the responder's information sets the action with
    the highest opponent-and-chance-reach-weighted value is chosen (all the nodes of a set
    lie at one depth, so their children's values are known), and it is played at every
    node of the set. Values are the responder's utilities.
    """
    n_nodes = node_type.shape[0]
    reach = np.zeros((n_nodes, 3))
    compute_reach(node_type, player, infoset, parent, action_index, edge_prob, sigma, reach)
    values = np.zeros(n_nodes)
    q = np.zeros_like(sigma)
    best = np.zeros(sigma.shape[0], dtype=np.int64)
    sign = 1.0 if responder == 0 else -1.0
    for d in range(depth_start.shape[0] - 2, -1, -1):
        lo, hi = depth_start[d], depth_start[d + 1]
        for n in range(lo, hi):
            t = node_type[n]
            c0 = first_child[n]
            if t == TERMINAL:
                values[n] = sign * utility[n]
            elif t == CHANCE_NODE:
                v = 0.0
                for k in range(num_children[n]):
                    v += edge_prob[c0 + k] * values[c0 + k]
                values[n] = v
            elif player[n] != responder:
                v = 0.0
                for k in range(num_children[n]):
                    v += sigma[infoset[n], k] * values[c0 + k]
                values[n] = v
            else:
                cf = reach[n, 1 - responder] * reach[n, 2]
                for k in range(num_children[n]):
                    q[infoset[n], k] += cf * values[c0 + k]
        for n in range(lo, hi):
            if node_type[n] == DECISION and player[n] == responder:
                i = infoset[n]
                b = 0
                for k in range(1, num_actions[i]):
                    if q[i, k] > q[i, b]:
                        b = k
                best[i] = b
                values[n] = values[first_child[n] + b]
    return values[0], best
