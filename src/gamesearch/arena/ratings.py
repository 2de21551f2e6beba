"""Ratings from game results: Elo by maximum likelihood over all games, with confidence
intervals and the likelihood of superiority (as BayesElo and Ordo report them).

Model: player i scores against j with expectation ``p = 1 / (1 + 10^((r_j - r_i) / 400))``
(the logistic Elo curve). A game's score s (1, 1/2, 0) enters the log-likelihood as
``s log p + (1 - s) log(1 - p)``, so a draw counts as half a win, as in Ordo. The ratings
maximise it (Newton's method), centred on a mean of 0.

Intervals: the covariance of the ratings is the inverse of the Fisher information (a
pseudo-inverse: only differences are measured), scaled by ``1 - D / (4 sum p(1-p))`` for
D draws. A draw scores 1/2 with no spread, so a game's score varies by ``p(1-p) - d/4``
for a draw rate d, not by the Bernoulli ``p(1-p)``; without draws the factor is 1. Each
rating's 95% interval is +-1.96 standard errors. The likelihood of superiority of i over
j is ``Phi((r_i - r_j) / sd(r_i - r_j))``.

A player who won (or lost) every game has no finite maximum-likelihood rating; then (and
for players in separate groups that never met) every pair of players that met gets one
virtual draw, BayesElo's prior, and :attr:`Ratings.notes` says so.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from gamesearch.errors import GameSearchError

C = math.log(10) / 400
"""d/dr of the logistic Elo curve's exponent: p = 1 / (1 + exp(-C (r_i - r_j)))."""
Z95 = 1.959963984540054


@dataclass
class Ratings:
    """Ratings (mean 0), their covariance, and what they rest on."""

    players: list[str]
    elo: np.ndarray
    covariance: np.ndarray
    games: np.ndarray
    points: np.ndarray
    draws: int = 0
    notes: list[str] = field(default_factory=list)

    def error(self, i: int) -> float:
        """The standard error of player i's rating."""
        return math.sqrt(max(self.covariance[i, i], 0.0))

    def interval(self, i: int, z: float = Z95) -> tuple[float, float]:
        """Player i's confidence interval (95% by default)."""
        return (self.elo[i] - z * self.error(i), self.elo[i] + z * self.error(i))

    def los(self, i: int, j: int) -> float:
        """The likelihood that i is stronger than j (the normal approximation)."""
        var = self.covariance[i, i] + self.covariance[j, j] - 2 * self.covariance[i, j]
        if var <= 0:
            return 0.5
        return normal_cdf((self.elo[i] - self.elo[j]) / math.sqrt(var))

    def table(self) -> list[dict]:
        """One row per player, best first: rating, 95% interval, games, points."""
        order = sorted(range(len(self.players)), key=lambda i: -self.elo[i])
        rows = []
        for rank, i in enumerate(order, 1):
            lo, hi = self.interval(i)
            rows.append({"rank": rank, "player": self.players[i], "elo": round(self.elo[i], 1),
                         "low": round(lo, 1), "high": round(hi, 1),
                         "error": round(self.error(i), 1), "games": int(self.games[i]),
                         "points": float(self.points[i])})
        return rows


def normal_cdf(x: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * math.erfc(-x / math.sqrt(2))


def expected_score(diff: float) -> float:
    """The logistic Elo curve: the expected score of a player ``diff`` Elo stronger."""
    return 1 / (1 + 10 ** (-diff / 400))


def fit_ratings(players: list[str], results: Iterable[tuple[int, int, float]],
                prior_draws: float = 0.0) -> Ratings:
    """Maximum-likelihood Elo from ``(i, j, score of i)`` results (module docstring)."""
    n = len(players)
    rows = np.array([(i, j, s) for i, j, s in results], dtype=float).reshape(-1, 3)
    if n < 2 or len(rows) == 0:
        raise GameSearchError("ratings need at least two players and one finished game")
    a, b, s = rows[:, 0].astype(int), rows[:, 1].astype(int), rows[:, 2]
    if a.min() < 0 or max(a.max(), b.max()) >= n or np.any(a == b):
        raise GameSearchError("a result names a player that is not in the list")
    games = np.bincount(a, minlength=n) + np.bincount(b, minlength=n)
    points = np.bincount(a, s, n) + np.bincount(b, 1 - s, n)
    draws = int(np.sum(s == 0.5))
    notes: list[str] = []
    elo = _newton(n, a, b, s, prior_draws)
    if elo is None:  # a perfect score, or groups that never met: the estimate runs away
        notes.append("a player won or lost every game (or groups never met): one virtual "
                     "draw added between players who met (BayesElo's prior)")
        prior_draws = max(prior_draws, 1.0)
        elo = _newton(n, a, b, s, prior_draws)
        if elo is None:
            raise GameSearchError("the ratings do not converge (players who never met?)")
    info = _information(n, a, b, elo, prior_draws)
    p = _expect(elo, a, b)
    spread = float(np.sum(p * (1 - p)))
    factor = max(1.0 - draws / (4 * spread), 0.05) if spread > 0 else 1.0
    covariance = _centred_inverse(info) * factor
    return Ratings(list(players), elo, covariance, games, points, draws, notes)


def _centred_inverse(info: np.ndarray) -> np.ndarray:
    """The pseudo-inverse of an information matrix whose null space is the all-ones vector
    (ratings are measured up to a constant): ``inv(I + J/n) - J/n``, exact and stable where
    a generic pseudo-inverse may keep a rounding error of the zero eigenvalue."""
    n = len(info)
    ones = np.full((n, n), 1.0 / n)
    try:
        return np.linalg.inv(info + ones) - ones
    except np.linalg.LinAlgError:
        return np.linalg.pinv(info)


def _expect(elo: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-C * (elo[a] - elo[b])))


def _pairs(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The distinct pairs of players that met (for the prior)."""
    return np.unique(np.sort(np.stack([a, b], 1), axis=1), axis=0)


def _information(n: int, a: np.ndarray, b: np.ndarray, elo: np.ndarray,
                 prior: float) -> np.ndarray:
    """The Fisher information (minus the Hessian of the log-likelihood)."""
    info = np.zeros((n, n))
    sources = [(a, b, np.ones(len(a)))]
    if prior > 0:
        pa, pb = _pairs(a, b).T
        sources.append((pa, pb, np.full(len(pa), prior)))
    for x, y, w in sources:
        p = _expect(elo, x, y)
        h = w * C * C * p * (1 - p)
        np.add.at(info, (x, x), h)
        np.add.at(info, (y, y), h)
        np.add.at(info, (x, y), -h)
        np.add.at(info, (y, x), -h)
    return info


def _newton(n: int, a: np.ndarray, b: np.ndarray, s: np.ndarray,
            prior: float) -> np.ndarray | None:
    """The maximum-likelihood ratings (mean 0), or None if they do not converge."""
    x, y, score, weight = a, b, s, np.ones(len(a))
    if prior > 0:
        pa, pb = _pairs(a, b).T
        x, y = np.concatenate([a, pa]), np.concatenate([b, pb])
        score = np.concatenate([s, np.full(len(pa), 0.5)])
        weight = np.concatenate([weight, np.full(len(pa), prior)])
    elo = np.zeros(n)
    for _ in range(100):
        p = _expect(elo, x, y)
        grad = np.bincount(x, weight * C * (score - p), n) - np.bincount(
            y, weight * C * (score - p), n)
        info = _information(n, a, b, elo, prior)
        step = _centred_inverse(info) @ grad
        step = np.clip(step, -400, 400)
        elo = elo + step
        elo -= elo.mean()
        if np.max(np.abs(elo)) > 4000:
            return None
        if np.max(np.abs(step)) < 1e-6:
            return elo
    return None
