"""A Nash equilibrium of an N-player normal-form game by following the logit QRE branch
(qre.py) to a large lambda, then polishing on the support it points at, and verifying.

The branch's limit is a Nash equilibrium (McKelvey and Palfrey 1995; Turocy 2005), but it is
approached slowly. So at lambda = 10, 100, 1000, ... (scaled by the payoff range) the
strategies played with probability above a threshold are taken as the support, and Newton's
method solves the support's indifference equations
    u_i(j, sigma_-i) = v_i for j in S_i,  sum_j sigma_i(j) = 1
from the branch point. The result counts only if every probability is nonnegative and no
player gains more than 1e-9 (relative to the payoffs) by any pure deviation: every reported
equilibrium is checked against the definition and its maximum regret is kept.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from gamesearch.theory.equilibrium import EquilibriumSet, regret
from gamesearch.theory.normal_form import NormalFormGame, Profile
from gamesearch.theory.qre import payoffs_and_jacobian, trace_branch

REGRET_TOL = 1e-9
"""Largest gain from deviating accepted, relative to the payoff range (at least 1)."""


def max_regret(game: NormalFormGame, profile: Profile) -> float:
    """The largest gain any player has from its best pure deviation (0 at equilibrium)."""
    return float(max(float(g) for g in regret(game, profile)))


def polish(game: NormalFormGame, profile: Profile, supports: list[list[int]],
           iters: int = 50) -> Profile | None:
    """Newton on the support's indifference equations from ``profile``; None when it does
    not converge to probabilities."""
    payoffs = np.asarray(game.payoffs, dtype=float)
    n = game.num_players
    sizes = [len(s) for s in supports]
    offsets = np.r_[0, np.cumsum(sizes)]
    x = np.r_[np.concatenate([np.asarray(profile[i])[supports[i]] for i in range(n)]),
              np.asarray(game.expected_payoffs(profile), dtype=float)]
    for _ in range(iters):
        mixes = [np.zeros(game.shape[i]) for i in range(n)]
        for i in range(n):
            mixes[i][supports[i]] = x[offsets[i]:offsets[i + 1]]
        u, d = payoffs_and_jacobian(payoffs, mixes)
        eqs = offsets[-1] + n
        res = np.empty(eqs)
        jac = np.zeros((eqs, eqs))
        for i in range(n):
            lo, hi = offsets[i], offsets[i + 1]
            res[lo:hi] = u[i][supports[i]] - x[offsets[-1] + i]
            jac[lo:hi, offsets[-1] + i] = -1.0
            for k in range(n):
                if k != i:
                    jac[lo:hi, offsets[k]:offsets[k + 1]] = d[i][k][np.ix_(supports[i],
                                                                           supports[k])]
            res[offsets[-1] + i] = x[lo:hi].sum() - 1.0
            jac[offsets[-1] + i, lo:hi] = 1.0
        if not np.all(np.isfinite(res)):  # Newton diverged
            return None
        if np.abs(res).max() < 1e-14:
            break
        try:
            x = x - np.linalg.solve(jac, res)
        except np.linalg.LinAlgError:
            try:
                x = x - np.linalg.lstsq(jac, res, rcond=None)[0]
            except np.linalg.LinAlgError:  # the SVD did not converge
                return None
    if not np.all(np.isfinite(x)) or x[:offsets[-1]].min() < -1e-12:
        return None
    out = []
    for i in range(n):
        mix = np.zeros(game.shape[i])
        mix[supports[i]] = np.clip(x[offsets[i]:offsets[i + 1]], 0, None)
        out.append(tuple(float(p) for p in mix / mix.sum()))
    return tuple(out)


def supports_above(profile: Profile, thresholds: Iterable[float]) -> list[list[list[int]]]:
    """For each threshold, every player's strategies played with probability above it: the
    supports to polish on (a support reached twice is listed once)."""
    out: list[list[list[int]]] = []
    for threshold in thresholds:
        supports = [[j for j, p in enumerate(mix) if p > threshold] for mix in profile]
        if supports not in out:
            out.append(supports)
    return out


def polish_on_supports(game: NormalFormGame, profile: Profile,
                       candidates: Iterable[list[list[int]]], tol: float,
                       iters: int = 50) -> tuple[float, Profile] | None:
    """Polish ``profile`` on each candidate support in turn: the first result with maximum
    regret at most ``tol``, else the one with the least regret, as (regret, profile); None
    when Newton (``iters`` steps at most) never converged."""
    best: tuple[float, Profile] | None = None
    for supports in candidates:
        if not all(supports):  # a player left with no strategy at all
            continue
        with np.errstate(all="ignore"):  # a diverging Newton is rejected just below
            candidate = polish(game, profile, supports, iters)
        if candidate is None:
            continue
        gain = max_regret(game, candidate)
        if best is None or gain < best[0]:
            best = (gain, candidate)
        if gain <= tol:
            return gain, candidate
    return best


def logit_nash(game: NormalFormGame) -> EquilibriumSet:
    """One Nash equilibrium of an N-player game, from the logit branch, verified."""
    scale = max(1.0, float(np.ptp(game.payoffs)))
    tol = REGRET_TOL * scale
    best: tuple[float, Profile] | None = None
    for lam in (10.0, 100.0, 1e3, 1e4, 1e5):
        end = trace_branch(game, lam / scale)[-1]
        found = polish_on_supports(game, end.profile,
                                   supports_above(end.profile, (1e-2, 1e-4, 1e-6)), tol)
        if found is not None:
            gain, candidate = found
            if best is None or gain < best[0]:
                best = (gain, candidate)
            if gain <= tol:
                return EquilibriumSet("logit", [candidate], False,
                                      notes=[f"maximum regret {gain:.3g} (verified: at most "
                                             f"{tol:.3g})"])
        gain = max_regret(game, end.profile)
        if best is None or gain < best[0]:
            best = (gain, end.profile)
    assert best is not None
    return EquilibriumSet("logit", [], False, notes=[
        f"the logit branch did not lead to a verified equilibrium: the best profile "
        f"reached has maximum regret {best[0]:.3g}"])
