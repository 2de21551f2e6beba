"""Determinization (Perfect Information Monte Carlo): sample deals, solve each, average.

The lectures' bridge program of its day: generate deals consistent with what the player
has seen (the bidding, the cards played), solve each deal as if every hand were visible,
and play the card that does best on average. It reads only the player's information set
(``game.information_set`` then ``game.sample_state``), never the true hidden cards.

Its known flaw, *strategy fusion* (docs/HIDDEN.md): on each sampled deal the solver may
choose later actions that depend on the hidden cards, which the real player cannot do, so
the average over deals can overrate a line of play.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from gamesearch.agent import Agent
from gamesearch.errors import GameSearchError
from gamesearch.game import Game, State
from gamesearch.imperfect.double_dummy import perfect_information_values
from gamesearch.result import SearchResult, SearchStats

Solver = Callable[[Game, State], dict]


def default_solver(game: Game) -> Solver:
    """The game's own solver of a visible deal where it has one (``perfect_information_solver``,
    e.g. whist's double dummy), the plain perfect-information recursion otherwise."""
    own = getattr(game, "perfect_information_solver", None)
    return own() if own is not None else perfect_information_values


def determinized_values(game: Game, state: State, samples: int, rng: random.Random,
                        solver: Solver | None = None) -> tuple[dict, int]:
    """The average perfect-information value of each action over ``samples`` deals drawn
    from the mover's information set (and the number of deals solved)."""
    player = game.to_move(state)
    if getattr(game, "sample_state", None) is None:
        raise GameSearchError(f"{game.name}: determinization needs sample_state")
    info = game.information_set(state, player)
    solve = solver or default_solver(game)
    totals: dict = {}
    for _ in range(samples):
        world = game.sample_state(info, player, rng)
        for action, value in solve(game, world).items():
            totals[action] = totals.get(action, 0.0) + value
    return {a: v / samples for a, v in totals.items()}, samples


class DeterminizationAgent(Agent):
    """Plays the action with the best average over ``samples`` sampled, solved deals."""

    def __init__(self, samples: int = 20, seed: int | None = None) -> None:
        if samples < 1:
            raise GameSearchError(f"determinization: samples must be >= 1, got {samples}")
        self.samples = samples
        self.rng = random.Random(seed)
        self.spec = f"pimc:samples={samples}"

    def __call__(self, game: Game, state: State) -> SearchResult:
        start = time.perf_counter()
        legal = list(game.actions(state))
        if len(legal) == 1:
            return SearchResult(None, legal[0], [legal[0]], SearchStats())
        values, solved = determinized_values(game, state, self.samples, self.rng)
        action = max(legal, key=lambda a: values[a])
        stats = SearchStats(iterations=solved, seconds=time.perf_counter() - start)
        return SearchResult(values[action], action, [action], stats, values,
                            pov=game.to_move(state))
