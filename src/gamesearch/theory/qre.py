"""Logit quantal response equilibria (McKelvey and Palfrey 1995) of N-player normal-form
games: the principal branch traced from lambda = 0 (everyone uniform) towards a Nash
equilibrium, the equilibrium at a given lambda, and the maximum-likelihood lambda for
observed play.

At a logit QRE each player mixes sigma_i(j) proportional to exp(lambda * u_i(j, sigma_-i)).
In log-probabilities z the equilibria are the zeros of
    H(z, lambda): z_ij - z_i0 - lambda (u_ij - u_i0) = 0 (j >= 1),  sum_j exp(z_ij) = 1,
a curve in (z, lambda). It is followed by predictor-corrector continuation in arc length
(Turocy 2005, "A dynamic homotopy interpretation of the logistic quantal response
equilibrium correspondence"): step along the tangent (the null vector of H's Jacobian),
then Newton back onto the curve, halving the step when Newton fails. Arc length rather
than lambda is the parameter, so the branch may bend back in lambda without stopping the
trace. For generic games the branch ends at a Nash equilibrium as lambda grows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from gamesearch.errors import GameSearchError
from gamesearch.theory.normal_form import NormalFormGame

MAX_CELLS = 200_000
"""Largest payoff table (profiles) the tracer takes: each step contracts it N^2 times."""


@dataclass
class BranchPoint:
    """One point of the logit branch: lambda and every player's mixed strategy."""

    lam: float
    profile: tuple[tuple[float, ...], ...]


def payoffs_and_jacobian(payoffs: np.ndarray, mixes: Sequence[np.ndarray]
                         ) -> tuple[list[np.ndarray], list[list[np.ndarray | None]]]:
    """``u[i][j]`` = player i's payoff for pure j against the others' mixes, and
    ``d[i][k][j, l]`` = the derivative of ``u[i][j]`` in sigma_k(l) (None for k == i)."""
    n = len(mixes)
    u, d = [], []
    for i in range(n):
        row: list[np.ndarray | None] = []
        for k in range(n):
            if k == i:
                row.append(None)
                continue
            t = payoffs[i]
            for j in reversed(range(n)):  # contract from the last axis: the rest stay put
                if j not in (i, k):
                    t = np.tensordot(t, mixes[j], axes=([j], [0]))
            row.append(t if i < k else t.T)
        d.append(row)
        if n == 1:
            u.append(payoffs[i].astype(float))
        else:
            k = 1 if i == 0 else 0
            u.append(d[i][k] @ mixes[k])
    return u, d


class LogitSystem:
    """H(z, lambda) and its Jacobian for one game (float payoffs)."""

    def __init__(self, game: NormalFormGame) -> None:
        if int(np.prod(game.shape)) > MAX_CELLS:
            raise GameSearchError(f"logit QRE: the game has {int(np.prod(game.shape))} "
                                  f"profiles; at most {MAX_CELLS} are supported")
        self.payoffs = np.asarray(game.payoffs, dtype=float)
        self.shape = game.shape
        self.offsets = np.r_[0, np.cumsum(self.shape)]
        self.size = int(self.offsets[-1])

    def mixes(self, z: np.ndarray) -> list[np.ndarray]:
        """Each player's mixed strategy from the log-probabilities."""
        return [np.exp(z[self.offsets[i]:self.offsets[i + 1]]) for i in range(len(self.shape))]

    def h(self, x: np.ndarray) -> np.ndarray:
        """The residual of the QRE equations at x = (z, lambda)."""
        z, lam = x[:-1], x[-1]
        mixes = self.mixes(z)
        u, _ = payoffs_and_jacobian(self.payoffs, mixes)
        out = np.empty(self.size)
        for i, (lo, hi) in enumerate(zip(self.offsets[:-1], self.offsets[1:])):
            zi = z[lo:hi]
            out[lo] = mixes[i].sum() - 1.0
            out[lo + 1:hi] = zi[1:] - zi[0] - lam * (u[i][1:] - u[i][0])
        return out

    def jacobian(self, x: np.ndarray) -> np.ndarray:
        """dH/d(z, lambda), size x (size + 1)."""
        z, lam = x[:-1], x[-1]
        mixes = self.mixes(z)
        u, d = payoffs_and_jacobian(self.payoffs, mixes)
        jac = np.zeros((self.size, self.size + 1))
        off = self.offsets
        for i in range(len(self.shape)):
            lo, hi = off[i], off[i + 1]
            jac[lo, lo:hi] = mixes[i]
            for j in range(1, hi - lo):
                jac[lo + j, lo + j] = 1.0
                jac[lo + j, lo] = -1.0
            jac[lo + 1:hi, -1] = -(u[i][1:] - u[i][0])
            for k in range(len(self.shape)):
                if k != i:
                    diff = (d[i][k][1:] - d[i][k][0]) * mixes[k][None, :]
                    jac[lo + 1:hi, off[k]:off[k + 1]] = -lam * diff
        return jac

    def start(self) -> np.ndarray:
        """The centroid at lambda = 0."""
        z = np.concatenate([np.full(s, -np.log(s)) for s in self.shape])
        return np.r_[z, 0.0]

    def point(self, x: np.ndarray) -> BranchPoint:
        """The branch point of x, as probabilities."""
        return BranchPoint(float(x[-1]), tuple(tuple(float(p) for p in m / m.sum())
                                                for m in self.mixes(x[:-1])))


def _tangent(jac: np.ndarray, previous: np.ndarray | None) -> np.ndarray:
    """The unit null vector of the Jacobian, oriented along ``previous`` (or lambda up)."""
    q, _ = np.linalg.qr(jac.T, mode="complete")
    t = q[:, -1]
    if previous is None:
        return t if t[-1] > 0 else -t
    return t if t @ previous > 0 else -t


def _correct(system: LogitSystem, y: np.ndarray, fixed_lambda: bool = False,
             iters: int = 8) -> np.ndarray | None:
    """Newton back onto the curve (minimum-norm steps; lambda held when ``fixed_lambda``)."""
    for _ in range(iters):
        res = system.h(y)
        if not np.all(np.isfinite(res)):
            return None
        if np.abs(res).max() < 1e-11:
            return y
        jac = system.jacobian(y)
        if fixed_lambda:
            step = np.linalg.lstsq(jac[:, :-1], res, rcond=None)[0]
            y = y - np.r_[step, 0.0]
        else:
            y = y - np.linalg.lstsq(jac, res, rcond=None)[0]
    return y if np.abs(system.h(y)).max() < 1e-9 else None


def _trace(system: LogitSystem, max_lambda: float, max_steps: int = 20_000,
           stop: Callable[[BranchPoint], bool] | None = None) -> list[np.ndarray]:
    """The continuation steps (z, lambda) from the centroid up to ``max_lambda``."""
    if not max_lambda > 0 or not np.isfinite(max_lambda):
        raise GameSearchError("logit QRE: lambda must be a positive number")
    x = system.start()
    xs = [x]
    tangent = _tangent(system.jacobian(x), None)
    h = 0.03
    for _ in range(max_steps):
        y = _correct(system, x + h * tangent)
        if y is None:
            h /= 2
            if h < 1e-10:
                raise GameSearchError("logit QRE: the branch could not be followed "
                                      f"past lambda = {x[-1]:.6g}")
            continue
        if y[-1] >= max_lambda:  # land exactly on max_lambda
            frac = (max_lambda - x[-1]) / (y[-1] - x[-1])
            guess = x + frac * (y - x)
            guess[-1] = max_lambda
            end = _correct(system, guess, fixed_lambda=True)
            xs.append(end if end is not None else y)
            return xs
        tangent = _tangent(system.jacobian(y), tangent)
        x = y
        xs.append(x)
        if stop is not None and stop(system.point(x)):
            return xs
        h = min(h * 1.4, 1.0 + 0.1 * np.abs(x[:-1]).max())
    return xs


def trace_branch(game: NormalFormGame, max_lambda: float, max_steps: int = 20_000,
                 stop: Callable[[BranchPoint], bool] | None = None) -> list[BranchPoint]:
    """The principal logit branch from lambda = 0 up to ``max_lambda`` (or until ``stop``
    says so), one point per continuation step; the last point is at ``max_lambda``
    exactly when reached."""
    system = LogitSystem(game)
    return [system.point(x) for x in _trace(system, max_lambda, max_steps, stop)]


def qre_at(game: NormalFormGame, lam: float) -> BranchPoint:
    """The logit QRE on the principal branch at ``lam`` (the first point reaching it)."""
    if lam == 0:
        system = LogitSystem(game)
        return system.point(system.start())
    return trace_branch(game, lam)[-1]


def log_likelihood(point: BranchPoint, counts: Sequence[Sequence[float]]) -> float:
    """The log-likelihood of observed play (counts per player and strategy) at a point."""
    total = 0.0
    for mix, seen in zip(point.profile, counts):
        for p, c in zip(mix, seen):
            if c:
                total += c * np.log(max(p, 1e-300))
    return total


def golden_section_max(f: Callable[[float], float], a: float, b: float,
                       steps: int = 60) -> float:
    """Where ``f`` (unimodal on [a, b]) is largest, to 1e-9 relative: the lambda search of
    the maximum-likelihood fits (here and in agent_qre.py)."""
    golden = (np.sqrt(5) - 1) / 2
    for _ in range(steps):
        if b - a < 1e-9 * max(1.0, b):
            break
        c1, c2 = b - golden * (b - a), a + golden * (b - a)
        if f(c1) >= f(c2):
            b = c2
        else:
            a = c1
    return (a + b) / 2


def fit_lambda(game: NormalFormGame, counts: Sequence[Sequence[float]],
               max_lambda: float = 100.0) -> tuple[BranchPoint, float]:
    """The maximum-likelihood point of the principal branch for observed play, with its
    log-likelihood: the best traced point, refined by golden-section search in lambda."""
    if len(counts) != game.num_players or any(
            len(c) != s for c, s in zip(counts, game.shape)):
        raise GameSearchError("logit fit: give one count per strategy of every player "
                              f"(shape {list(game.shape)})")
    if any(c < 0 for row in counts for c in row) or not any(c for row in counts for c in row):
        raise GameSearchError("logit fit: counts must be nonnegative and not all zero")
    system = LogitSystem(game)
    xs = _trace(system, max_lambda)
    values = [log_likelihood(system.point(x), counts) for x in xs]
    best = int(np.argmax(values))

    def at(lam: float) -> tuple[BranchPoint, float]:
        near = min(xs[max(best - 1, 0):best + 2], key=lambda x: abs(x[-1] - lam))
        got = _correct(system, np.r_[near[:-1], lam], fixed_lambda=True, iters=30)
        if got is None:
            return system.point(near), -np.inf
        point = system.point(got)
        return point, log_likelihood(point, counts)

    a, b = xs[max(best - 1, 0)][-1], xs[min(best + 1, len(xs) - 1)][-1]
    point, value = at(golden_section_max(lambda lam: at(lam)[1], a, b))
    if value >= values[best]:
        return point, value
    return system.point(xs[best]), values[best]
