"""From a game tree to its normal form: pure strategies as plans, one action per decision
point (the lectures: "a pure strategy says what the player does at every node where it is
to move").

Any perfect-information game of the protocol works (an explicit tree file, Nim, ...): a
decision point is a state where the player is to move, so a plan is a map state -> action,
and a profile of plans is played out from the start (chance nodes by expectation) to give
each cell of the matrix.

* ``reduced=False``: the full set of plans, the product of the action sets over every
  decision point of the player (the lectures' example: A has 4 pure strategies, B has 3);
* ``reduced=True``: the reduced normal form, where plans that differ only at decision points
  the player's own earlier moves rule out are one strategy (there A has 3).

Both have the same equilibrium outcomes; maximin equals minimax for a two-player zero-sum
tree (Zermelo, Kuhn 1953: a finite perfect-information game has a pure equilibrium, found by
backward induction), and the value is the tree's minimax value.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from gamesearch.errors import GameSearchError, LimitError
from gamesearch.game import CHANCE, Game, State

Plan = dict
"""A pure strategy of the tree: decision state -> action."""

MAX_PLANS = 20_000
"""Refuse trees with more plans than this for one player (the matrix would not fit)."""

MAX_CELLS = 1_000_000
"""Refuse normal forms with more cells than this (each cell is one play of the tree)."""

MAX_STEPS = 2_000_000
"""Moves followed (and partial plans combined) while listing decision points and plans,
before the tree is refused as too large: a few seconds of work. A game with a million
positions (``nim:piles=1000-1000``) or Connect Four is refused at once, not after hours."""


class _Steps:
    """A count of work done, refused with a :class:`LimitError` past :data:`MAX_STEPS`."""

    def __init__(self, game: Game) -> None:
        self.game, self.done = game, 0

    def add(self, n: int = 1) -> None:
        self.done += n
        if self.done > MAX_STEPS:
            raise LimitError(f"{self.game.name}: the tree is too large for a normal form "
                             f"(more than {MAX_STEPS:,} moves and plans to go through; a "
                             f"normal form has one row per plan, at most {MAX_PLANS:,})")


@dataclass
class TreeNormalForm:
    """The normal form of a tree: the matrix game and, per player, the plan behind each
    strategy (in the order of the game's strategy names)."""

    game: Any  # NormalFormGame
    plans: list[list[Plan]]
    tree: Game


def decision_points(game: Game, state: State, player: int,
                    steps: _Steps | None = None) -> list[State]:
    """Every state below ``state`` (inclusive) where ``player`` is to move, in depth-first
    order, each once (each position is walked once; past :data:`MAX_STEPS` moves the tree
    is refused)."""
    steps = steps or _Steps(game)
    seen: dict[State, None] = {}
    walked: set[State] = set()

    def walk(s: State) -> None:
        if s in walked:
            return
        walked.add(s)
        if game.is_terminal(s):
            return
        if game.to_move(s) == player and s not in seen:
            seen[s] = None
        actions = game.actions(s)
        steps.add(len(actions))
        for a in actions:
            walk(game.result(s, a))

    walk(state)
    return list(seen)


def full_plans(game: Game, state: State, player: int) -> list[Plan]:
    """All plans: one action at every decision point of the player."""
    points = decision_points(game, state, player)
    choices = [list(game.actions(s)) for s in points]
    count = math.prod(len(c) for c in choices)  # exact: numpy's product would overflow
    if count > MAX_PLANS:
        raise GameSearchError(f"{game.name}: player {player + 1} has {_count(count)} pure "
                              f"strategies (more than {MAX_PLANS:,}); try the reduced "
                              "normal form")
    return [dict(zip(points, combo)) for combo in itertools.product(*choices)]


def _count(n: int) -> str:
    """A count as a person reads it: ``1,234`` or ``about 10^20`` (any size)."""
    if n < 10**12:
        return f"{n:,}"
    return f"about 10^{int((n.bit_length() - 1) * math.log10(2))}"


def reduced_plans(game: Game, state: State, player: int) -> list[Plan]:
    """The reduced plans: actions only at decision points the player's own plan can reach."""
    steps = _Steps(game)
    decision_points(game, state, player, steps)  # refuses a huge tree before any plan
    known: dict[State, list[Plan]] = {}

    def plans(s: State) -> list[Plan]:
        if s not in known:
            known[s] = _plans(s)
        return known[s]

    def _plans(s: State) -> list[Plan]:
        if game.is_terminal(s):
            return [{}]
        actions = list(game.actions(s))
        children = [game.result(s, a) for a in actions]
        if game.to_move(s) == player:
            out = []
            for a, child in zip(actions, children):
                below = plans(child)
                steps.add(len(below))
                for rest in below:
                    if rest.get(s, a) != a:
                        continue  # a transposition back to s would need another action
                    out.append({s: a, **rest})
            if len(out) > MAX_PLANS:
                raise GameSearchError(f"{game.name}: player {player + 1} has more than "
                                      f"{MAX_PLANS:,} reduced pure strategies")
            return _unique(out)
        combined: list[Plan] = [{}]
        for child in children:
            below = plans(child)
            steps.add(len(combined) * len(below))
            combined = [merged for left in combined for right in below
                        if (merged := _merge(left, right)) is not None]
            if len(combined) > MAX_PLANS:
                raise GameSearchError(f"{game.name}: player {player + 1} has more than "
                                      f"{MAX_PLANS:,} reduced pure strategies")
        return _unique(combined)

    return plans(state)


def _merge(left: Plan, right: Plan) -> Plan | None:
    """Two partial plans as one, or None if they disagree at a shared state."""
    for s, a in right.items():
        if left.get(s, a) != a:
            return None
    return {**left, **right}


def _unique(plans: list[Plan]) -> list[Plan]:
    seen, out = set(), []
    for p in plans:
        key = frozenset(p.items())
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def play(game: Game, state: State, profile: list[Plan]) -> tuple:
    """Every player's (expected) utility when each follows its plan from ``state``."""
    if game.is_terminal(state):
        return tuple(game.utilities(state))
    mover = game.to_move(state)
    if mover == CHANCE:
        total = None
        for outcome, p in game.chance_outcomes(state):
            u = play(game, game.result(state, outcome), profile)
            weighted = [_exactish(p) * v for v in u]
            total = weighted if total is None else [t + w for t, w in zip(total, weighted)]
        return tuple(total)
    plan = profile[mover]
    if state not in plan:
        raise GameSearchError(f"{game.name}: a plan of player {mover + 1} has no action at "
                              f"{game.render(state)!r}")
    return play(game, game.result(state, plan[state]), profile)


def _exactish(p: float) -> Any:
    """Chance probabilities as Fractions when they are simple (1/2, 1/3), else floats."""
    f = Fraction(p).limit_denominator(1000)
    return f if float(f) == p else p


def plan_name(game: Game, plan: Plan) -> str:
    """A plan written as its actions in depth-first order of its decision points: ``L.x``
    (separated by spaces when actions contain dots or colons), ``-`` for no moves at all."""
    if not plan:
        return "-"
    moves = [game.action_to_string(s, a) for s, a in plan.items()]
    separator = " " if any("." in m or ":" in m for m in moves) else "."
    return separator.join(moves)


def to_normal_form(game: Game, state: State | None = None, reduced: bool = False):
    """The normal form of a perfect-information game from ``state`` (default: the start)."""
    from gamesearch.theory.normal_form import NormalFormGame

    state = game.initial_state() if state is None else state
    if game.is_terminal(state):
        raise GameSearchError(f"{game.name}: the position is terminal; no strategies")
    n = game.num_players
    maker = reduced_plans if reduced else full_plans
    plans = [maker(game, state, i) for i in range(n)]
    shape = [len(p) for p in plans]
    cells = math.prod(shape)
    if cells > MAX_CELLS:
        raise LimitError(f"{game.name}: the normal form would have {_count(cells)} cells "
                         f"({' x '.join(map(str, shape))}); at most {MAX_CELLS:,}")
    payoffs = np.empty([n, *shape], dtype=object)
    for index in itertools.product(*[range(s) for s in shape]):
        u = play(game, state, [plans[i][k] for i, k in enumerate(index)])
        for i in range(n):
            payoffs[(i, *index)] = u[i]
    names = _distinct_names(game, plans)
    players = [game.player_name(i) for i in range(n)]
    normal = NormalFormGame(payoffs, players, names, title=f"{game.name} (normal form)")
    return TreeNormalForm(normal, plans, game)


def _distinct_names(game: Game, plans: list[list[Plan]]) -> list[list[str]]:
    out = []
    for player_plans in plans:
        names = [plan_name(game, p) for p in player_plans]
        if len(set(names)) != len(names):
            names = [f"{k + 1}:{name}" for k, name in enumerate(names)]
        out.append(names)
    return out
