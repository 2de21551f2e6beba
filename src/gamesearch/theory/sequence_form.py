"""The sequence form of a two-player zero-sum game with imperfect information, solved by one
linear program (Koller, Megiddo and von Stengel, "Fast algorithms for finding randomized
strategies in game trees", STOC 1994; von Stengel, GEB 14, 1996).

A player's strategy is written as a *realization plan*: the probability x(s) of each of its
sequences s (its own actions on the path from the root, each at an information set). Plans
are the x >= 0 with E x = e: x(empty) = 1 and, at each information set h, the probabilities
of the sequences leaving h sum to the probability of the sequence leading to h. The payoff
is bilinear, x^T A y, with A[s, t] the sum over leaves reached by sequences (s, t) of chance
probability times player 1's utility. Player 1's optimal plan solves

    max  f^T q   subject to   F^T q - A^T x <= 0,  E x = e,  x >= 0      (q free)

(the dual of player 2's best response inside). The game needs the protocol's optional
``information_set(state, player)`` and, at chance nodes, ``chance_outcomes``; the players
must have perfect recall (checked).

In exact games (integer utilities, chance probabilities simple fractions) the LP answer is
rounded to fractions and *proven* optimal: the exact best-response values against each
player's plan are computed, and they meet at the game's value.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
from scipy.optimize import linprog

from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, Game, State
from gamesearch.theory.extensive import _exactish

Sequence = int  # an index; 0 is the empty sequence


@dataclass
class PlayerSequences:
    """One player's sequences: index 0 is the empty sequence; the others are (information
    set, action) pairs."""

    labels: list[tuple[Hashable, Any]] = field(default_factory=lambda: [(None, None)])
    index: dict[tuple[Hashable, Any], int] = field(default_factory=dict)
    infosets: dict[Hashable, list] = field(default_factory=dict)  # infoset -> actions
    parent: dict[Hashable, int] = field(default_factory=dict)  # infoset -> sequence before it

    def add_infoset(self, info: Hashable, actions: list, parent: int, where: str) -> None:
        if info in self.infosets:
            if self.infosets[info] != actions:
                raise GameSearchError(f"{where}: information set {info!r} has different "
                                      "actions in different states")
            if self.parent[info] != parent:
                raise GameSearchError(f"{where}: information set {info!r} is reached by "
                                      "different own sequences: the player lacks perfect "
                                      "recall")
            return
        self.infosets[info] = actions
        self.parent[info] = parent
        for a in actions:
            self.index[(info, a)] = len(self.labels)
            self.labels.append((info, a))

    def constraints(self) -> tuple[np.ndarray, np.ndarray]:
        """E and e of the realization-plan constraints E x = e."""
        rows = [np.eye(1, len(self.labels), 0)[0]]
        for info, actions in self.infosets.items():
            row = np.zeros(len(self.labels))
            row[self.parent[info]] = -1
            for a in actions:
                row[self.index[(info, a)]] = 1
            rows.append(row)
        e = np.zeros(len(rows))
        e[0] = 1
        return np.array(rows), e


@dataclass
class SequenceForm:
    """The sequence form of a game: both players' sequences and the payoff matrix A
    (player 1's utility; player 2 receives -A)."""

    players: tuple[PlayerSequences, PlayerSequences]
    payoffs: dict[tuple[int, int], Any]
    exact: bool

    def matrix(self) -> np.ndarray:
        a = np.zeros((len(self.players[0].labels), len(self.players[1].labels)))
        for (s, t), v in self.payoffs.items():
            a[s, t] = float(v)
        return a


def sequence_form(game: Game, state: State | None = None) -> SequenceForm:
    """Walk the tree once, collecting sequences, information sets and the payoff matrix."""
    info_of = getattr(game, "information_set", None)
    if info_of is None:
        raise GameSearchError(f"{game.name}: the sequence form needs the game's "
                              "information_set(state, player)")
    if game.num_players != 2:
        raise GameSearchError(f"{game.name}: the sequence form here is for two players")
    state = game.initial_state() if state is None else state
    players = (PlayerSequences(), PlayerSequences())
    payoffs: dict[tuple[int, int], Any] = {}
    exact = [True]

    def walk(s: State, reach: Any, seqs: tuple[int, int]) -> None:
        if game.is_terminal(s):
            u = game.utilities(s)
            if abs(float(u[0]) + float(u[1])) > 1e-12:
                raise GameSearchError(f"{game.name}: utilities {u} do not sum to zero")
            value = u[0]
            if not isinstance(value, (int, Fraction)):
                value = _exactish(value)  # games often write a whole-chip payoff as -1.0
            if not isinstance(value, (int, Fraction)) or isinstance(reach, float):
                exact[0] = False
            payoffs[seqs] = payoffs.get(seqs, 0) + reach * value
            return
        mover = game.to_move(s)
        if mover == CHANCE:
            for outcome, p in game.chance_outcomes(s):
                walk(game.result(s, outcome), reach * _exactish(p), seqs)
            return
        info = info_of(s, mover)
        actions = list(game.actions(s))
        players[mover].add_infoset(info, actions, seqs[mover], game.name)
        for a in actions:
            nxt = list(seqs)
            nxt[mover] = players[mover].index[(info, a)]
            walk(game.result(s, a), reach, (nxt[0], nxt[1]))

    walk(state, Fraction(1), (0, 0))
    return SequenceForm(players, payoffs, exact[0])


@dataclass
class SequenceFormSolution:
    """The game's value (for player 1) and an optimal behaviour strategy for each player:
    information set -> {action: probability}."""

    value: Any
    strategies: tuple[dict, dict]
    exact: bool
    form: SequenceForm

    def as_dict(self, game: Game | None = None) -> dict:
        from gamesearch.theory.exact import json_number

        return {
            "value": json_number(self.value),
            "exact": self.exact,
            "strategies": [
                {str(info): {str(a): json_number(p) for a, p in probs.items()}
                 for info, probs in strategy.items()}
                for strategy in self.strategies
            ],
        }


def _optimal_plan(form: SequenceForm, player: int) -> np.ndarray:
    """Player's maximin realization plan by the sequence-form LP (HiGHS)."""
    a = form.matrix() if player == 0 else -form.matrix().T
    me, other = form.players[player], form.players[1 - player]
    e_mat, e_vec = me.constraints()
    f_mat, f_vec = other.constraints()
    nx, nq = e_mat.shape[1], f_mat.shape[0]
    cost = np.r_[np.zeros(nx), -f_vec]  # maximize f^T q
    a_ub = np.hstack([-a.T, f_mat.T])  # F^T q - A^T x <= 0
    a_eq = np.hstack([e_mat, np.zeros((e_mat.shape[0], nq))])
    bounds = [(0, None)] * nx + [(None, None)] * nq
    res = linprog(cost, A_ub=a_ub, b_ub=np.zeros(a_ub.shape[0]), A_eq=a_eq, b_eq=e_vec,
                  bounds=bounds, method="highs")
    if res.status != 0:  # pragma: no cover - the sequence-form LP is always feasible
        raise GameSearchError(f"sequence-form LP failed: {res.message}")
    return np.clip(res.x[:nx], 0, None)


def behaviour(seqs: PlayerSequences, plan: list, exact: bool,
              denominator: int | None = None) -> dict:
    """Behaviour strategy from a realization plan: p(a | h) = x(h, a) / x(parent(h)); at
    unreached sets, uniform. Optionally rounded to fractions (re-normalized exactly)."""
    out = {}
    for info, actions in seqs.infosets.items():
        reach = plan[seqs.parent[info]]
        if float(reach) <= 1e-12:
            probs = [Fraction(1, len(actions)) if exact else 1 / len(actions)] * len(actions)
        else:
            probs = [plan[seqs.index[(info, a)]] / reach for a in actions]
            if denominator is not None:
                probs = [Fraction(float(p)).limit_denominator(denominator) for p in probs]
                total = sum(probs)
                probs = [p / total for p in probs] if total else probs
        out[info] = dict(zip(actions, probs))
    return out


def realization(seqs: PlayerSequences, strategy: dict, one: Any) -> list:
    """The realization plan of a behaviour strategy (sequences in index order)."""
    plan = [one * 0] * len(seqs.labels)
    plan[0] = one
    # parents come before children in the index order (the tree was walked depth first)
    for info, actions in seqs.infosets.items():
        for a in actions:
            plan[seqs.index[(info, a)]] = plan[seqs.parent[info]] * strategy[info][a]
    return plan


def best_response_value(form: SequenceForm, player: int, plan: list) -> Any:
    """What ``player``'s opponent can hold it to against ``plan``: the opponent's best
    response, computed information set by information set from the leaves up (exact when the
    plan and payoffs are)."""
    other = 1 - player
    seqs = form.players[other]
    zero = plan[0] * 0
    contribution = [zero] * len(seqs.labels)
    for (s, t), v in form.payoffs.items():
        mine, theirs = (s, t) if player == 0 else (t, s)
        contribution[theirs] += plan[mine] * (v if player == 0 else -v)  # player's payoff
    children: dict[int, list] = {}
    for info, parent in seqs.parent.items():
        children.setdefault(parent, []).append(info)

    def value(sequence: int) -> Any:
        total = contribution[sequence]
        for info in children.get(sequence, []):
            options = [value(seqs.index[(info, a)]) for a in seqs.infosets[info]]
            total += min(options)  # the opponent minimizes the player's payoff
        return total

    return value(0)


def solve_sequence_form(game: Game, state: State | None = None) -> SequenceFormSolution:
    """Optimal strategies and the value of a two-player zero-sum imperfect-information game
    (the value is player 1's expected utility under optimal play)."""
    form = sequence_form(game, state)
    plans = [_optimal_plan(form, 0), _optimal_plan(form, 1)]
    if form.exact:
        for denominator in (10, 100, 1000, 10**4, 10**6):
            strategies = tuple(behaviour(form.players[i], plans[i], True, denominator)
                               for i in range(2))
            exact_plans = [realization(form.players[i], strategies[i], Fraction(1))
                           for i in range(2)]
            low = best_response_value(form, 0, exact_plans[0])
            high = -best_response_value(form, 1, exact_plans[1])
            if low == high:
                return SequenceFormSolution(low, strategies, True, form)
    strategies = tuple(behaviour(form.players[i], plans[i], False) for i in range(2))
    value = float(plans[0] @ form.matrix() @ plans[1])
    return SequenceFormSolution(value, strategies, False, form)
