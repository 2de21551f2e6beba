"""The agent logit QRE's sweeps over a tree compiled with numba (the readable form of the
sweep is agent_qre.py's :meth:`~gamesearch.theory.agent_qre.AgentLogit.action_values_reference`;
tests check they agree).

The tree is flat: nodes numbered parents before children; node k's edges are
``child_ptr[k]:child_ptr[k + 1]`` into ``child_node`` and ``edge_prob`` (chance
probabilities); at a decision node the edge's action is the information set's action
number ``offsets[slot[k]] + (e - child_ptr[k])``. ``payoff`` holds every leaf's payoffs.

:func:`residual_and_jacobian` gives, at the log-probabilities x and lambda, the residual
F(x) = x - log L(exp(x)), its Jacobian dF/dx (exact: forward-mode derivatives of the two
sweeps, one column per action) and dF/dlambda, for the path-following Newton steps.
"""

from __future__ import annotations

import numpy as np
from numba import njit

LEAF = -2
TINY = 1e-300
"""Added to each node's reach: an unreached information set weighs its nodes alike."""


@njit(cache=True)
def sweep(sigma, mover, child_ptr, child_node, edge_prob, slot, payoff, infoset_player,
          offsets):
    """(v(h, a) for every action, reach per node, value per node and player, information-set
    weights): one pass forward for the reach probabilities, one backward for the values."""
    n = mover.shape[0]
    players = payoff.shape[1]
    reach = np.zeros(n)
    reach[0] = 1.0
    for k in range(n):  # parents first
        if mover[k] == LEAF:
            continue
        lo = child_ptr[k]
        for e in range(lo, child_ptr[k + 1]):
            p = edge_prob[e] if slot[k] < 0 else sigma[offsets[slot[k]] + e - lo]
            reach[child_node[e]] = reach[k] * p
    value = np.zeros((n, players))
    for k in range(n - 1, -1, -1):  # children first
        if mover[k] == LEAF:
            for i in range(players):
                value[k, i] = payoff[k, i]
            continue
        lo = child_ptr[k]
        for e in range(lo, child_ptr[k + 1]):
            p = edge_prob[e] if slot[k] < 0 else sigma[offsets[slot[k]] + e - lo]
            c = child_node[e]
            for i in range(players):
                value[k, i] += p * value[c, i]
    sets = infoset_player.shape[0]
    total = np.zeros(offsets[sets])
    weight = np.zeros(sets)
    for k in range(n):
        h = slot[k]
        if h < 0:
            continue
        i = infoset_player[h]
        w = reach[k] + TINY
        weight[h] += w
        lo = child_ptr[k]
        for e in range(lo, child_ptr[k + 1]):
            total[offsets[h] + e - lo] += w * value[child_node[e], i]
    for h in range(sets):
        for a in range(offsets[h], offsets[h + 1]):
            total[a] /= weight[h]
    return total, reach, value, weight


@njit(cache=True)
def _logit_response(v, lam, offsets):
    """p = the logit response exp(lam v) / sum within each information set, and log p."""
    p = np.empty_like(v)
    log_p = np.empty_like(v)
    for h in range(offsets.shape[0] - 1):
        lo, hi = offsets[h], offsets[h + 1]
        top = lam * v[lo]
        for a in range(lo + 1, hi):
            top = max(top, lam * v[a])
        s = 0.0
        for a in range(lo, hi):
            s += np.exp(lam * v[a] - top)
        log_sum = top + np.log(s)
        for a in range(lo, hi):
            log_p[a] = lam * v[a] - log_sum
            p[a] = np.exp(log_p[a])
    return p, log_p


@njit(cache=True)
def residual(x, lam, mover, child_ptr, child_node, edge_prob, slot, payoff, infoset_player,
             offsets):
    """F(x) = x - log L_lambda(exp(x)): zero exactly at the agent QRE at ``lam``."""
    v = sweep(np.exp(x), mover, child_ptr, child_node, edge_prob, slot, payoff,
              infoset_player, offsets)[0]
    log_p = _logit_response(v, lam, offsets)[1]
    return x - log_p


@njit(cache=True)
def residual_and_jacobian(x, lam, mover, child_ptr, child_node, edge_prob, slot, payoff,
                          infoset_player, offsets):
    """(F(x), dF/dx, dF/dlambda) at the log-probabilities ``x``.

    dF_a/dx_c = [a = c] - lam sigma_c (dv_a/dsigma_c - sum_b p_b dv_b/dsigma_c), the sum
    over a's information set, p the logit response; dv/dsigma_c by forward-mode derivatives
    of the reach (below c's nodes) and the values (above them), one column at a time."""
    sigma = np.exp(x)
    v, reach, value, weight = sweep(sigma, mover, child_ptr, child_node, edge_prob, slot,
                                    payoff, infoset_player, offsets)
    p, log_p = _logit_response(v, lam, offsets)
    m = x.shape[0]
    n = mover.shape[0]
    players = payoff.shape[1]
    sets = infoset_player.shape[0]
    f = x - log_p
    dlam = np.empty(m)
    for h in range(sets):
        mean = 0.0
        for a in range(offsets[h], offsets[h + 1]):
            mean += p[a] * v[a]
        for a in range(offsets[h], offsets[h + 1]):
            dlam[a] = mean - v[a]
    jac = np.zeros((m, m))
    dreach = np.zeros(n)
    dvalue = np.zeros((n, players))
    dtotal = np.zeros(m)
    dweight = np.zeros(sets)
    dv = np.zeros(m)
    action_of = np.full(child_node.shape[0], -1)
    for k in range(n):
        if slot[k] >= 0:
            for e in range(child_ptr[k], child_ptr[k + 1]):
                action_of[e] = offsets[slot[k]] + e - child_ptr[k]
    for c in range(m):
        dreach[:] = 0.0
        for k in range(n):  # d reach / d sigma_c, parents first
            if mover[k] == LEAF:
                continue
            lo = child_ptr[k]
            for e in range(lo, child_ptr[k + 1]):
                if slot[k] < 0:
                    d = dreach[k] * edge_prob[e]
                else:
                    d = dreach[k] * sigma[action_of[e]]
                    if action_of[e] == c:
                        d += reach[k]
                dreach[child_node[e]] = d
        dvalue[:, :] = 0.0
        for k in range(n - 1, -1, -1):  # d value / d sigma_c, children first
            if mover[k] == LEAF:
                continue
            lo = child_ptr[k]
            for e in range(lo, child_ptr[k + 1]):
                q = edge_prob[e] if slot[k] < 0 else sigma[action_of[e]]
                ch = child_node[e]
                for i in range(players):
                    dvalue[k, i] += q * dvalue[ch, i]
                if action_of[e] == c:
                    for i in range(players):
                        dvalue[k, i] += value[ch, i]
        dtotal[:] = 0.0
        dweight[:] = 0.0
        for k in range(n):
            h = slot[k]
            if h < 0:
                continue
            i = infoset_player[h]
            w = reach[k] + TINY
            dweight[h] += dreach[k]
            lo = child_ptr[k]
            for e in range(lo, child_ptr[k + 1]):
                ch = child_node[e]
                dtotal[action_of[e]] += dreach[k] * value[ch, i] + w * dvalue[ch, i]
        for h in range(sets):
            mean = 0.0
            for a in range(offsets[h], offsets[h + 1]):
                dv[a] = (dtotal[a] - v[a] * dweight[h]) / weight[h]
                mean += p[a] * dv[a]
            for a in range(offsets[h], offsets[h + 1]):
                jac[a, c] = -lam * sigma[c] * (dv[a] - mean)
        jac[c, c] += 1.0
    return f, jac, dlam
