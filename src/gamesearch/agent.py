"""The agent protocol: ``agent(game, state) -> SearchResult`` (core, so that every layer
above, generic or game-specific, can define players without importing the agent registry)."""

from __future__ import annotations

import random
from collections.abc import Callable

from gamesearch.game import CHANCE, Game, State, sample_action
from gamesearch.result import Limit, SearchResult, SearchStats


class Agent:
    """Base class: subclasses implement ``__call__``; ``spec`` is how to make them again."""

    spec: str = "agent"
    interactive: bool = False
    limit: Limit = Limit()
    """What bounds its search (``make_agent`` sets it from the spec or a given Limit)."""
    on_progress: Callable[[SearchResult], bool | None] | None = None
    """Set by a caller that shows the search as it runs (the web's live view): an agent
    that can report calls it with its best answer so far (the chess engine after each
    depth, go-mcts a few times a second), and a true return asks it to stop there and
    answer with what it has (a person's stop, a server short of workers); the others never
    call it."""

    def __call__(self, game: Game, state: State) -> SearchResult:
        raise NotImplementedError

    def stop(self) -> None:
        """End the running search soon, from another thread (the web's cancel): an agent
        whose search can be cut inside an iteration overrides it; the others end at their
        next ``on_progress`` report, or when their time is up."""

    def reset(self) -> None:
        """Forget what was kept from the previous game."""

    def prepare(self, game: Game) -> None:
        """Get ready to play ``game`` before any clock runs (e.g. compile a kernel), so that
        a time budget measures thinking, not start-up."""

    def __repr__(self) -> str:
        return f"<agent {self.spec}>"


def act(agent: Agent, game: Game, state: State, rng: random.Random | None = None) -> SearchResult:
    """Let the agent move, or sample the outcome if chance is to move."""
    if game.to_move(state) == CHANCE:
        action = sample_action(game, state, rng or random.Random())
        return SearchResult(None, action, [action], SearchStats())
    return agent(game, state)
