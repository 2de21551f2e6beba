"""Detecting degenerate bimatrix games, where support and vertex enumeration and
Lemke-Howson lose their guarantees.

A bimatrix game is nondegenerate when no mixed strategy with support of size k has more than
k pure best responses (von Stengel 2002, def. 2.6). The check here looks where degeneracy
shows: a pure strategy with two pure best responses, and an equilibrium found with more best
responses than its support (or a zero probability inside a solved support). It reports what
it saw; it does not claim a game is nondegenerate.
"""

from __future__ import annotations

from gamesearch.theory.normal_form import NormalFormGame, Profile
from gamesearch.theory.pure import best_responses


def pure_ties(game: NormalFormGame) -> list[str]:
    """Pure strategies of one player with more than one pure best response."""
    notes = []
    for player in range(2):
        other = 1 - player
        for s in range(game.shape[other]):
            profile = [s, s]
            brs = best_responses(game, player, profile)
            if len(brs) > 1:
                names = ", ".join(game.strategies[player][k] for k in brs)
                notes.append(f"against {game.players[other]}'s {game.strategies[other][s]}, "
                             f"{game.players[player]} has several best responses ({names})")
    return notes


def degeneracy_notes(game: NormalFormGame, equilibria: list[Profile]) -> list[str]:
    """Why the game is degenerate (empty when no sign of degeneracy was found)."""
    if game.num_players != 2:
        return []
    notes = pure_ties(game)
    for profile in equilibria:
        for player in range(2):
            other = 1 - player
            support = sum(1 for p in profile[other] if p > 1e-12)
            brs = best_responses(game, player, list(profile))
            if len(brs) > support:
                notes.append(f"at the equilibrium {_short(profile)}, {game.players[player]} has "
                             f"{len(brs)} best responses to a mixed strategy on {support} "
                             "strategies")
    if notes:
        notes.append("the game is degenerate: the equilibria listed are extreme points and "
                     "may not be all (equilibria can form continua)")
    return notes


def _short(profile: Profile) -> str:
    return "; ".join(",".join(f"{float(p):.3g}" for p in mix) for mix in profile)


def is_degenerate(game: NormalFormGame, equilibria: list[Profile] | None = None) -> bool:
    """True when degeneracy was detected."""
    return bool(degeneracy_notes(game, equilibria or []))
