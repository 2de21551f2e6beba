"""Dominated strategies: strict and weak, by pure and by mixed strategies; iterated
elimination; dominant strategies and dominant-strategy equilibria.

Strategy s of player i is *strictly dominated* by t when t pays i more than s against every
profile of the others; *weakly* when t pays at least as much everywhere and more somewhere.
Domination by a mixed strategy sigma is decided by a linear program (Gilboa, Kalai and
Zemel 1993; Shoham and Leyton-Brown, *Multiagent Systems*, sec. 4.5.2): maximize the
smallest (strict) or the total (weak) advantage of sigma over s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from scipy.optimize import linprog

from gamesearch.theory.exact import Number
from gamesearch.theory.normal_form import NormalFormGame

LP_TOLERANCE = 1e-9
"""An LP advantage above this (relative to the payoff scale) counts as positive."""


@dataclass
class Domination:
    """Strategy ``dominated`` of ``player`` is dominated by ``by`` (a mixed strategy over the
    player's strategies; a pure dominator has probability 1 on one strategy)."""

    player: int
    dominated: int
    by: tuple[Number, ...]
    strict: bool

    def describe(self, game: NormalFormGame) -> str:
        """``D is strictly dominated by C`` or ``... by 1/2 A + 1/2 B``."""
        names = game.strategies[self.player]
        parts = [f"{p} {names[k]}" if p != 1 else names[k]
                 for k, p in enumerate(self.by) if p != 0]
        kind = "strictly" if self.strict else "weakly"
        return (f"{game.players[self.player]}: {names[self.dominated]} is {kind} dominated by "
                f"{' + '.join(parts)}")


def _rows(game: NormalFormGame, player: int) -> np.ndarray:
    """Player's payoffs as a matrix: one row per own strategy, one column per profile of the
    others."""
    array = np.moveaxis(game.matrix(player), player, 0)
    return array.reshape(game.shape[player], -1)


def pure_dominator(game: NormalFormGame, player: int, s: int, strict: bool) -> int | None:
    """A pure strategy that dominates ``s`` (the first found), or None."""
    rows = _rows(game, player)
    for t in range(rows.shape[0]):
        if t == s:
            continue
        if strict and np.all(rows[t] > rows[s]):
            return t
        if not strict and np.all(rows[t] >= rows[s]) and np.any(rows[t] > rows[s]):
            return t
    return None


def mixed_dominator(game: NormalFormGame, player: int, s: int,
                    strict: bool) -> tuple[Number, ...] | None:
    """A mixed strategy (over the player's other strategies) that dominates ``s``, or None.

    Strict: maximize e subject to sum_t sigma_t u(t, c) >= u(s, c) + e for every profile c
    of the others; s is dominated when e > 0. Weak: maximize the total advantage subject to
    no disadvantage anywhere; dominated when it is positive.
    """
    rows = np.asarray(_rows(game, player), dtype=float)
    others = [t for t in range(rows.shape[0]) if t != s]
    if not others:
        return None
    u = rows[others]  # k x c
    k, c = u.shape
    scale = max(1.0, float(np.abs(rows).max()))
    if strict:
        # variables: sigma (k), e; minimize -e; -u^T sigma + e <= -u_s
        cost = np.r_[np.zeros(k), -1.0]
        a_ub = np.hstack([-u.T, np.ones((c, 1))])
        bounds = [(0, None)] * k + [(None, None)]
    else:
        # maximize sum_c (u^T sigma)_c subject to u^T sigma >= u_s
        cost = -u.sum(axis=1)
        a_ub = -u.T
        bounds = [(0, None)] * k
    b_ub = -rows[s]
    a_eq = np.r_[np.ones(k), np.zeros(len(cost) - k)][None, :]
    res = linprog(cost, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=[1.0], bounds=bounds,
                  method="highs")
    if res.status != 0:
        return None
    sigma = np.clip(res.x[:k], 0, None)
    sigma /= sigma.sum()
    advantage = sigma @ u - rows[s]
    if strict and advantage.min() <= LP_TOLERANCE * scale:
        return None
    if not strict and (advantage.min() < -LP_TOLERANCE * scale
                       or advantage.sum() <= LP_TOLERANCE * scale):
        return None
    full = np.zeros(rows.shape[0])
    full[others] = sigma
    if game.exact:
        exact = _exact_dominator(game, player, s, full, strict)
        if exact is not None:
            return exact
    return tuple(float(v) for v in full)


def _exact_dominator(game: NormalFormGame, player: int, s: int, sigma: np.ndarray,
                     strict: bool) -> tuple[Fraction, ...] | None:
    """The LP's dominator rounded to fractions, if it still dominates exactly."""
    rows = _rows(game, player)
    for denominator in (10, 100, 1000, 10**6):
        p = [Fraction(float(v)).limit_denominator(denominator) for v in sigma]
        if sum(p) == 0:
            continue
        p = [v / sum(p) for v in p]
        advantage = [sum(p[t] * rows[t, col] for t in range(len(p))) - rows[s, col]
                     for col in range(rows.shape[1])]
        if (strict and min(advantage) > 0) or (
                not strict and min(advantage) >= 0 and max(advantage) > 0):
            return tuple(p)
    return None


def dominated_strategies(game: NormalFormGame, strict: bool = True,
                         mixed: bool = False) -> list[Domination]:
    """Every strategy dominated by another pure strategy (or, with ``mixed``, by a mixed
    strategy), for every player."""
    found = []
    for player in range(game.num_players):
        for s in range(game.shape[player]):
            t = pure_dominator(game, player, s, strict)
            if t is not None:
                one = Fraction(1) if game.exact else 1.0
                zero = Fraction(0) if game.exact else 0.0
                by = tuple(one if k == t else zero for k in range(game.shape[player]))
                found.append(Domination(player, s, by, strict))
            elif mixed:
                by = mixed_dominator(game, player, s, strict)
                if by is not None:
                    found.append(Domination(player, s, by, strict))
    return found


@dataclass
class Elimination:
    """The result of iterated elimination: the surviving game, which original strategies
    survive, and the eliminations in order (indices refer to the original game)."""

    game: NormalFormGame
    survivors: list[list[int]]
    steps: list[tuple[int, Domination]] = field(default_factory=list)


def iterated_elimination(game: NormalFormGame, strict: bool = True,
                         mixed: bool = False) -> Elimination:
    """Remove dominated strategies until none is left; one strategy per step (the first found,
    in player order), so the order is reproducible. With strict dominance the result does
    not depend on the order; with weak dominance it may (the lectures' warning)."""
    survivors = [list(range(s)) for s in game.shape]
    current = game
    steps: list[tuple[int, Domination]] = []
    round_number = 0
    while True:
        round_number += 1
        found = dominated_strategies(current, strict, mixed)
        if not found:
            return Elimination(current, survivors, steps)
        d = found[0]
        if current.shape[d.player] == 1:  # pragma: no cover - a lone strategy is undominated
            return Elimination(current, survivors, steps)
        original = survivors[d.player]
        by = [Fraction(0) if game.exact else 0.0] * game.shape[d.player]
        for k, p in enumerate(d.by):
            by[original[k]] = p
        steps.append((round_number, Domination(d.player, original[d.dominated], tuple(by),
                                               d.strict)))
        survivors[d.player] = [s for k, s in enumerate(original) if k != d.dominated]
        current = game.restrict(survivors)


def dominant_strategies(game: NormalFormGame, player: int, strict: bool = True) -> list[int]:
    """The player's dominant strategies: each at least as good as (strict: better than)
    every other strategy against every profile of the others."""
    rows = _rows(game, player)
    out = []
    for s in range(rows.shape[0]):
        others = [t for t in range(rows.shape[0]) if t != s]
        if strict and all(np.all(rows[s] > rows[t]) for t in others):
            out.append(s)
        if not strict and all(np.all(rows[s] >= rows[t]) for t in others):
            out.append(s)
    return out


def dominant_strategy_equilibria(game: NormalFormGame, strict: bool = True) -> list[tuple]:
    """Profiles in which every player plays a dominant strategy (the prisoner's dilemma's
    (defect, defect)); empty when some player has none."""
    import itertools

    choices = [dominant_strategies(game, i, strict) for i in range(game.num_players)]
    return [tuple(p) for p in itertools.product(*choices)]
