"""What the equilibrium solvers return, and the check that an answer is an equilibrium.

A profile is one probability tuple per player. :func:`is_nash` checks the definition
directly: no player gains by deviating to any pure strategy (a mixed deviation cannot gain
more than the best pure one). Exact games are checked exactly; float games to ``tol``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from gamesearch.theory.exact import Number, json_number
from gamesearch.theory.normal_form import NormalFormGame, Profile

TOLERANCE = 1e-9
"""Float games: the largest gain from deviating that still counts as no gain (relative to
the largest absolute payoff, at least 1)."""


@dataclass
class EquilibriumSet:
    """Equilibria found by one method, with what the method could say about the game."""

    method: str
    equilibria: list[Profile]
    exact: bool
    degenerate: bool = False
    notes: list[str] = field(default_factory=list)

    def payoffs(self, game: NormalFormGame) -> list[tuple[Number, ...]]:
        """Each equilibrium's expected payoff for every player."""
        return [game.expected_payoffs(p) for p in self.equilibria]

    def as_dict(self, game: NormalFormGame) -> dict[str, Any]:
        """Plain data for JSON: probabilities as fraction strings where exact."""
        return {
            "method": self.method,
            "exact": self.exact,
            "degenerate": self.degenerate,
            "notes": self.notes,
            "players": game.players,
            "strategies": game.strategies,
            "equilibria": [[[json_number(p) for p in mix] for mix in profile]
                           for profile in self.equilibria],
            "payoffs": [[json_number(v) for v in pay] for pay in self.payoffs(game)],
        }


def regret(game: NormalFormGame, profile: Profile) -> list[Number]:
    """For each player, how much it would gain by its best pure deviation (0 at equilibrium)."""
    gains = []
    for i in range(game.num_players):
        values = game.strategy_payoffs(i, profile)
        current = sum((p * v for p, v in zip(profile[i], values) if p), start=values[0] * 0)
        gains.append(max(values) - current)
    return gains


def is_nash(game: NormalFormGame, profile: Profile, tol: float = TOLERANCE) -> bool:
    """True when ``profile`` is a Nash equilibrium: valid mixed strategies, no gain from
    deviating. Exact profiles of exact games are checked with no tolerance at all."""
    exact = game.exact and all(isinstance(p, (int, Fraction)) for mix in profile for p in mix)
    scale = max(1.0, float(abs(game.payoffs).max()))
    for i, mix in enumerate(profile):
        if len(mix) != game.shape[i]:
            return False
        if exact:
            if any(p < 0 for p in mix) or sum(mix) != 1:
                return False
        elif any(p < -tol for p in mix) or abs(sum(mix) - 1) > tol:
            return False
    gains = regret(game, profile)
    if exact:
        return all(g <= 0 for g in gains)
    return all(g <= tol * scale for g in gains)


def same_profile(a: Profile, b: Profile, tol: float = 1e-6) -> bool:
    """True when two profiles agree (exactly for fractions, to ``tol`` for floats)."""
    return all(abs(float(p) - float(q)) <= tol for x, y in zip(a, b) for p, q in zip(x, y))


def unique_profiles(profiles: list[Profile], tol: float = 1e-6) -> list[Profile]:
    """The profiles without repeats, in the order first found."""
    out: list[Profile] = []
    for p in profiles:
        if not any(same_profile(p, q, tol) for q in out):
            out.append(p)
    return out


def sort_profiles(profiles: list[Profile]) -> list[Profile]:
    """A canonical order (lexicographic, largest probability of the first strategy first)."""
    return sorted(profiles, key=lambda p: [-float(v) for mix in p for v in mix])
