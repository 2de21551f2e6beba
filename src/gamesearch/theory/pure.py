"""Pure-strategy Nash equilibria of N-player games, and best responses.

A pure profile is an equilibrium when every player's strategy is a best response to the
others' (lecture: "no player can do better by changing strategy alone"). Vectorized: for
player i, the best payoff along axis i is computed for every profile of the others at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from gamesearch.theory.equilibrium import EquilibriumSet
from gamesearch.theory.normal_form import NormalFormGame, Profile


def best_response_mask(game: NormalFormGame, player: int) -> np.ndarray:
    """A boolean array over pure profiles: True where ``player``'s strategy is a best
    response to the others' strategies (exactly in exact games)."""
    array = game.matrix(player)
    if game.exact:
        best = np.max(array, axis=player, keepdims=True)
        return np.asarray(array == best, dtype=bool)
    best = np.max(array, axis=player, keepdims=True)
    scale = max(1.0, float(np.abs(game.payoffs).max()))
    return array >= best - 1e-12 * scale


def pure_equilibria(game: NormalFormGame) -> list[tuple[int, ...]]:
    """Every pure-strategy Nash equilibrium, as strategy-index tuples in profile order."""
    mask = np.ones(game.shape, dtype=bool)
    for i in range(game.num_players):
        mask &= best_response_mask(game, i)
    return [tuple(int(v) for v in idx) for idx in np.argwhere(mask)]


def pure_profile(game: NormalFormGame, pure: Sequence[int]) -> Profile:
    """The mixed-strategy form of a pure profile (probability 1 on each chosen strategy)."""
    one, zero = (Fraction(1), Fraction(0)) if game.exact else (1.0, 0.0)
    return tuple(tuple(one if k == pure[i] else zero for k in range(game.shape[i]))
                 for i in range(game.num_players))


def pure_nash(game: NormalFormGame) -> EquilibriumSet:
    """All pure equilibria, in the common result form."""
    found = [pure_profile(game, p) for p in pure_equilibria(game)]
    notes = [] if found else ["no pure-strategy equilibrium"]
    return EquilibriumSet("pure", found, game.exact, notes=notes)


def best_responses(game: NormalFormGame, player: int, profile: Sequence[Any]) -> list[int]:
    """The pure best responses of ``player`` to the others' strategies in ``profile`` (each a
    strategy index or a mixed strategy; the player's own entry is ignored)."""
    values = game.strategy_payoffs(player, profile)
    best = max(values)
    if game.exact and not isinstance(best, float):
        return [k for k, v in enumerate(values) if v == best]
    scale = max(1.0, float(np.abs(game.payoffs).max()))
    return [k for k, v in enumerate(values) if float(v) >= float(best) - 1e-12 * scale]
