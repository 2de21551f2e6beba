"""Detecting degenerate bimatrix games, where support and vertex enumeration and
Lemke-Howson lose their guarantees.

A bimatrix game is nondegenerate when no mixed strategy with support of size k has more than
k pure best responses (von Stengel 2002, def. 2.6). The check here looks where degeneracy
shows: a pure strategy with two pure best responses, and an equilibrium found with more best
responses than its support (or a zero probability inside a solved support). It reports what
it saw; it does not claim a game is nondegenerate.
"""

from __future__ import annotations

import numpy as np

from gamesearch.theory.normal_form import NormalFormGame, Profile


def _ties(values: np.ndarray, exact: bool, tol: float) -> np.ndarray:
    """For each row of ``values``, how many entries equal the row's maximum."""
    best = values.max(axis=1, keepdims=True)
    hits = (values == best) if exact else (values >= best - tol)
    return np.asarray(hits, dtype=bool).sum(axis=1)


def pure_ties(game: NormalFormGame) -> list[str]:
    """Pure strategies of one player with more than one pure best response."""
    a, b = game.matrix(0), game.matrix(1)
    tol = 1e-9 * max(1.0, float(np.abs(game.payoffs).max()))
    notes = []
    for player, values in ((0, a.T), (1, b)):  # rows: the other player's pure strategies
        other = 1 - player
        for s in np.flatnonzero(_ties(values, game.exact, tol) > 1):
            row = values[s]
            best = [k for k in range(len(row)) if (row[k] == row.max() if game.exact
                                                   else row[k] >= row.max() - tol)]
            names = ", ".join(game.strategies[player][k] for k in best)
            notes.append(f"against {game.players[other]}'s {game.strategies[other][s]}, "
                         f"{game.players[player]} has several best responses ({names})")
    return notes


def degeneracy_notes(game: NormalFormGame, equilibria: list[Profile]) -> list[str]:
    """Why the game is degenerate (empty when no sign of degeneracy was found)."""
    if game.num_players != 2:
        return []
    notes = pure_ties(game)
    tol = 1e-9 * max(1.0, float(np.abs(game.payoffs).max()))
    a, b = game.matrix(0), game.matrix(1)
    for profile in equilibria:
        x = np.array(profile[0], dtype=object if game.exact else float)
        y = np.array(profile[1], dtype=object if game.exact else float)
        for player, values, mix in ((0, a.dot(y), y), (1, x.dot(b), x)):
            support = sum(1 for p in mix if p > 1e-12)
            best = _ties(values[None, :], game.exact, tol)[0]
            if best > support:
                notes.append(f"at the equilibrium {_short(profile)}, {game.players[player]} "
                             f"has {best} best responses to a mixed strategy on {support} "
                             "strategies")
    if notes:
        notes.append("the game is degenerate: the equilibria listed may not be all "
                     "(equilibria can form continua); vertex enumeration lists every "
                     "extreme equilibrium")
    return notes


def _short(profile: Profile) -> str:
    return "; ".join(",".join(f"{float(p):.3g}" for p in mix) for mix in profile)


def is_degenerate(game: NormalFormGame, equilibria: list[Profile] | None = None) -> bool:
    """True when degeneracy was detected."""
    return bool(degeneracy_notes(game, equilibria or []))
