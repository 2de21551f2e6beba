"""The sequential probability ratio test for "is A stronger than B by elo1 rather than elo0?",
with the stopping rule fishtest (Stockfish's testing framework) uses.

After each game the log-likelihood ratio (LLR) of H1 (A's Elo advantage is ``elo1``)
against H0 (it is ``elo0``) is compared with Wald's bounds ``log(beta / (1 - alpha))``
and ``log((1 - beta) / alpha)``: below the lower one H0 is accepted, above the upper one
H1, in between the test goes on. alpha is the chance of accepting H1 when H0 is true,
beta of accepting H0 when H1 is.

The LLR is the generalized SPRT's normal approximation (M. Van den Bergh's, as in
fishtest's ``stat_util``): with N games, mean score m and per-game score variance v (from
the observed wins, draws and losses, so draws are handled without a draw model),
``LLR = N (s1 - s0) (2 m - s0 - s1) / (2 v)`` where s0, s1 are the expected scores at
elo0 and elo1 on the logistic Elo curve.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from gamesearch.arena.ratings import expected_score
from gamesearch.errors import GameSearchError


@dataclass(frozen=True)
class SprtResult:
    """Where the test stands."""

    llr: float
    lower: float
    upper: float
    verdict: str
    """'H1' (A is better by elo1), 'H0' (by elo0 at most), or 'continue'."""
    games: int


def sprt(wins: int, draws: int, losses: int, elo0: float = 0.0, elo1: float = 5.0,
         alpha: float = 0.05, beta: float = 0.05) -> SprtResult:
    """The SPRT of H1: A - B = ``elo1`` against H0: A - B = ``elo0`` after A's W/D/L."""
    if min(wins, draws, losses) < 0:
        raise GameSearchError("wins, draws and losses cannot be negative")
    if not (0 < alpha < 1 and 0 < beta < 1) or alpha + beta >= 1:
        raise GameSearchError("alpha and beta must be in (0, 1) with alpha + beta < 1")
    if elo1 <= elo0:
        raise GameSearchError(f"elo1 ({elo1}) must be above elo0 ({elo0})")
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    n = wins + draws + losses
    llr = 0.0
    if n:
        mean = (wins + draws / 2) / n
        var = (wins + draws / 4) / n - mean * mean
        if var > 0:
            s0, s1 = expected_score(elo0), expected_score(elo1)
            llr = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    verdict = "H1" if llr >= upper else "H0" if llr <= lower else "continue"
    return SprtResult(llr, lower, upper, verdict, n)
