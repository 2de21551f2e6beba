"""A Nash equilibrium of a two-player general-sum game with imperfect information: the
sequence-form linear complementarity problem (Koller, Megiddo and von Stengel, "Efficient
computation of equilibria for extensive two-person games", GEB 14, 1996) solved by Lemke's
complementary pivoting.

With A, B the players' sequence-form payoff matrices and E x = e, F y = f the
realization-plan constraints, (x, y) is an equilibrium when, for some free u, v,
    w = E^T u - A y >= 0, x >= 0, x^T w = 0;   t = F^T v - B^T x >= 0, y >= 0, y^T t = 0.
Lemke's algorithm adds an artificial z0 with covering vector d: w = E^T u - A y + d z0.
It starts from a pure strategy pair (the first action at every information set): the
sequences of the two pure strategies are basic, u and v (free: they never leave) solve
their rows, every other row gets d = 1 and z0 the least value that makes it feasible. Then
each pivot brings in the complement of the variable that just left, until z0 leaves.
Pivots are in floats; the plans become behaviour strategies (rounded to fractions in exact
games) and are checked with :func:`~gamesearch.theory.behaviour.behaviour_regret`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, Game
from gamesearch.theory.behaviour import behaviour_regret
from gamesearch.theory.extensive import _exactish
from gamesearch.theory.sequence_form import PlayerSequences, behaviour

MAX_SEQUENCES = 3_000
"""Largest total of both players' sequences the dense tableau takes."""


@dataclass
class LcpSolution:
    """An equilibrium in behaviour strategies with each player's verified regret."""

    strategies: tuple[dict, dict]
    regret: list[Any]
    exact: bool
    pivots: int


def general_sequence_form(game: Game) -> tuple[tuple[PlayerSequences, PlayerSequences],
                                               np.ndarray, np.ndarray, bool]:
    """Both players' sequences and payoff matrices (floats, shifted so every leaf pays
    at most -1: equilibria do not change) and whether the game is exact."""
    info_of = getattr(game, "information_set", None)
    if info_of is None or game.num_players != 2:
        raise GameSearchError(f"{game.name}: the sequence-form LCP needs a two-player game "
                              "with information sets")
    players = (PlayerSequences(), PlayerSequences())
    pay: dict[tuple[int, int], list] = {}
    exact = True
    stack = [(game.initial_state(), Fraction(1), (0, 0))]
    while stack:
        s, reach, seqs = stack.pop()
        if game.is_terminal(s):
            u = [v if isinstance(v, (int, Fraction)) else _exactish(v)
                 for v in game.utilities(s)]
            exact &= all(isinstance(v, (int, Fraction)) for v in u) and \
                not isinstance(reach, float)
            cell = pay.setdefault(seqs, [0, 0, 0])
            cell[0] += reach * u[0]
            cell[1] += reach * u[1]
            cell[2] += reach
            continue
        mover = game.to_move(s)
        if mover == CHANCE:
            for a, p in reversed(game.chance_outcomes(s)):
                stack.append((game.result(s, a), reach * _exactish(p), seqs))
            continue
        info = info_of(s, mover)
        actions = list(game.actions(s))
        players[mover].add_infoset(info, actions, seqs[mover], game.name)
        for a in reversed(actions):
            nxt = list(seqs)
            nxt[mover] = players[mover].index[(info, a)]
            stack.append((game.result(s, a), reach, (nxt[0], nxt[1])))
    n1, n2 = len(players[0].labels), len(players[1].labels)
    if n1 + n2 > MAX_SEQUENCES:
        raise GameSearchError(f"{game.name}: {n1 + n2:,} sequences; the sequence-form LCP "
                              f"here takes at most {MAX_SEQUENCES:,}")
    top = max(max(float(c[0]), float(c[1])) / float(c[2]) for c in pay.values() if c[2])
    a, b = np.zeros((n1, n2)), np.zeros((n1, n2))
    for (s, t), (u0, u1, reach) in pay.items():
        a[s, t] = float(u0) - (top + 1) * float(reach)
        b[s, t] = float(u1) - (top + 1) * float(reach)
    return players, a, b, exact


def _first_actions(seqs: PlayerSequences) -> list[int]:
    """The sequences of the pure strategy that takes the first action everywhere."""
    return [0] + [seqs.index[(info, acts[0])] for info, acts in seqs.infosets.items()]


def solve_sequence_lcp(game: Game, max_pivots: int = 100_000) -> LcpSolution:
    """One Nash equilibrium of a two-player imperfect-information game, verified."""
    players, a, b, exact = general_sequence_form(game)
    e_mat, e_vec = players[0].constraints()
    f_mat, f_vec = players[1].constraints()
    n1, n2 = a.shape
    k1, k2 = len(e_vec), len(f_vec)
    # Columns: x, y, u, v, w (x's slacks), t (y's slacks), z0.
    cx, cy, cu, cv = 0, n1, n1 + n2, n1 + n2 + k1
    cw, ct, cz = cv + k2, cv + k2 + n1, cv + k2 + n1 + n2
    rows = n1 + n2 + k1 + k2
    g = np.zeros((rows, cz + 1))
    rhs = np.zeros(rows)
    # x-rows: w - E^T u + A y - d z0 = 0;  y-rows: t - F^T v + B^T x - d z0 = 0.
    g[:n1, cw:cw + n1] = np.eye(n1)
    g[:n1, cu:cv] = -e_mat.T
    g[:n1, cy:cu] = a
    g[n1:n1 + n2, ct:ct + n2] = np.eye(n2)
    g[n1:n1 + n2, cv:cw] = -f_mat.T
    g[n1:n1 + n2, cx:cy] = b.T
    g[n1 + n2:n1 + n2 + k1, cx:cy], rhs[n1 + n2:n1 + n2 + k1] = e_mat, e_vec
    g[n1 + n2 + k1:, cy:cu], rhs[n1 + n2 + k1:] = f_mat, f_vec
    pure_x, pure_y = _first_actions(players[0]), _first_actions(players[1])
    d = np.zeros(rows)
    # Any positive covering vector works; distinct entries keep the ratio test from tying
    # in games with many equal payoffs (which can make Lemke's algorithm cycle).
    spread = np.random.default_rng(0).uniform(1.0, 2.0, rows)
    off = [s for s in range(n1) if s not in set(pure_x)] + \
        [n1 + t for t in range(n2) if t not in set(pure_y)]
    d[off] = spread[off]
    g[:, cz] = -d
    basis = ([cx + s for s in pure_x] + [cy + t for t in pure_y] + list(range(cu, cw))
             + [cw + s for s in range(n1) if s not in set(pure_x)]
             + [ct + t for t in range(n2) if t not in set(pure_y)])
    # Values at z0 = 0 of this basis (one too few variables: z0 is not yet in).
    values = np.linalg.solve(g[:, basis], rhs)
    slack_rows = [i for i, c in enumerate(basis) if c >= cw]
    coef = np.linalg.solve(g[:, basis], -g[:, cz])  # how the basics move as z0 grows
    need = []
    for i in slack_rows:
        if coef[i] > 1e-12:
            need.append(-values[i] / coef[i])
        elif values[i] < -1e-12:  # pragma: no cover - every slack row is covered by d
            raise GameSearchError("sequence-form LCP: no feasible start")
        else:
            need.append(-np.inf)
    leave_row = None  # None: the pure pair is already an equilibrium
    if need and max(need) > 1e-12:
        leave_row = slack_rows[int(np.argmax(need))]
    tab = np.hstack([g, rhs[:, None]])
    tab = np.linalg.solve(g[:, basis], tab)
    free = set(range(cu, cw))

    def pivot(row: int, col: int) -> None:
        tab[row] /= tab[row, col]
        others = np.arange(rows) != row
        tab[others] -= np.outer(tab[others, col], tab[row])

    def complement(c: int) -> int:
        if cx <= c < cu:
            return c - cx + cw
        return c - cw + cx

    pivots = 0
    if leave_row is not None:
        leaving = basis[leave_row]
        pivot(leave_row, cz)
        basis[leave_row] = cz
        while True:
            pivots += 1
            if pivots > max_pivots:
                raise GameSearchError(f"sequence-form LCP: no solution after {max_pivots} "
                                      "pivots")
            entering = complement(leaving)
            col = tab[:, entering]
            ok = np.array([c not in free for c in basis]) & (col > 1e-11)
            if not ok.any():
                raise GameSearchError("sequence-form LCP: Lemke's algorithm ended on a ray")
            ratios = np.full(rows, np.inf)
            ratios[ok] = np.maximum(tab[ok, -1], 0) / col[ok]
            best = ratios.min()
            ties = np.flatnonzero(ratios <= best + 1e-11 * max(1.0, best))
            row = next((int(i) for i in ties if basis[i] == cz), int(ties[0]))
            leaving = basis[row]
            pivot(row, entering)
            basis[row] = entering
            if leaving == cz:
                break
    z = np.zeros(cz + 1)
    for i, c in enumerate(basis):
        z[c] = tab[i, -1]
    plans = [np.clip(z[cx:cy], 0, None), np.clip(z[cy:cu], 0, None)]
    if exact:
        for denominator in (10, 100, 1000, 10**4, 10**6):
            strategies = tuple(behaviour(players[i], list(plans[i]), True, denominator)
                               for i in range(2))
            gains = behaviour_regret(game, list(strategies))
            if all(gain == 0 for gain in gains):
                return LcpSolution(strategies, gains, True, pivots)
    strategies = tuple(behaviour(players[i], list(plans[i]), False) for i in range(2))
    return LcpSolution(strategies, behaviour_regret(game, list(strategies)), False, pivots)
