"""Backward induction: a subgame-perfect equilibrium of a perfect-information game with any
number of players and general-sum payoffs (Kuhn 1953; Selten 1965).

From the leaves up, the player to move at each decision point picks an action that maximizes
its *own* utility given the choices already fixed below (chance nodes average). The choices
at every decision point, reached or not, form a subgame-perfect equilibrium. When a mover is
indifferent between several actions the equilibrium is not unique, and the others' payoffs
may depend on the choice: such ties are reported, and the first tied action is taken.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gamesearch.errors import GameSearchError, LimitError
from gamesearch.game import CHANCE, Game, State
from gamesearch.theory.extensive import _exactish


@dataclass
class Tie:
    """At ``state`` the mover is indifferent between ``actions``; ``payoffs`` are everyone's
    utilities after each of them (they differ when the tie matters to someone else)."""

    state: State
    player: int
    actions: list
    payoffs: list[tuple]

    @property
    def matters(self) -> bool:
        """True when the tied actions give some other player different payoffs."""
        return len(set(self.payoffs)) > 1


@dataclass
class SubgamePerfect:
    """A subgame-perfect equilibrium: the chosen action at every decision point, the payoffs
    from the root, the path of play and the ties met."""

    payoffs: tuple
    strategy: dict[State, Any]
    path: list
    ties: list[Tie] = field(default_factory=list)
    values: dict[State, tuple] = field(default_factory=dict)


MOVES_PER_POSITION = 10
"""Moves followed per position of the limit: a game with thousands of moves in each
position reaches few positions per second, so the work is bounded by moves too."""


def backward_induction(game: Game, state: State | None = None,
                       limit: int = 1_000_000) -> SubgamePerfect:
    """A subgame-perfect equilibrium from ``state`` (default: the start).

    ``limit`` bounds the distinct positions, and ``MOVES_PER_POSITION`` times it the moves
    followed (a :class:`LimitError` beyond either); a game whose
    positions repeat along a line of play (Pig) has no finite tree to induct on and is
    refused, as is one deeper than Python's stack allows.
    """
    state = game.initial_state() if state is None else state
    strategy: dict[State, Any] = {}
    values: dict[State, tuple] = {}
    ties: list[Tie] = []
    on_path: set[State] = set()

    moves = 0  # every move followed, a position met again included: nim:piles=1000-1000
    most_moves = MOVES_PER_POSITION * limit  # has few positions per second, 2,000 moves each

    def solve(s: State) -> tuple:
        nonlocal moves
        moves += 1
        if moves > most_moves:
            raise LimitError(f"{game.name}: more than {most_moves:,} moves followed "
                             f"({MOVES_PER_POSITION} per position allowed); too large for "
                             "backward induction")
        if s in values:
            return values[s]
        if s in on_path:
            raise GameSearchError(f"{game.name}: a position repeats along a line of play, so "
                                  "the game tree is infinite: backward induction needs a "
                                  "finite one")
        if len(values) + len(on_path) >= limit:
            raise LimitError(f"{game.name}: more than {limit:,} positions; too large for "
                             "backward induction")
        on_path.add(s)
        try:
            return _solve(s)
        finally:
            on_path.discard(s)

    def _solve(s: State) -> tuple:
        if game.is_terminal(s):
            values[s] = tuple(game.utilities(s))
            return values[s]
        mover = game.to_move(s)
        if mover == CHANCE:
            total = None
            for outcome, p in game.chance_outcomes(s):
                u = solve(game.result(s, outcome))
                weighted = [_exactish(p) * v for v in u]
                total = weighted if total is None else [t + w for t, w in zip(total, weighted)]
            values[s] = tuple(total)
            return values[s]
        if not 0 <= mover < game.num_players:
            raise GameSearchError(f"{game.name}: player {mover} is not 0..{game.num_players - 1}")
        actions = list(game.actions(s))
        outcomes = [solve(game.result(s, a)) for a in actions]
        best = max(u[mover] for u in outcomes)
        tied = [k for k, u in enumerate(outcomes) if u[mover] == best]
        if len(tied) > 1:
            ties.append(Tie(s, mover, [actions[k] for k in tied], [outcomes[k] for k in tied]))
        strategy[s] = actions[tied[0]]
        values[s] = outcomes[tied[0]]
        return values[s]

    try:
        payoffs = solve(state)
    except RecursionError:
        raise GameSearchError(f"{game.name}: the game is deeper than backward induction can "
                              "follow (Python's stack)") from None
    path, s = [], state
    while not game.is_terminal(s) and game.to_move(s) != CHANCE:
        path.append(strategy[s])
        s = game.result(s, strategy[s])
    return SubgamePerfect(payoffs, strategy, path, ties, values)
