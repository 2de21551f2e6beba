"""Agents: players built from spec strings such as ``alphabeta:depth=8,time=1.5``.

An agent is a callable ``agent(game, state) -> SearchResult``: the chosen action is
``result.action``, and what the agent thought (value, principal variation, statistics) comes
with it, never through a side attribute. ``agent.reset()`` starts a new game (an agent may
keep a transposition table or an MCTS tree between moves of one game).

Register new kinds with :func:`register_agent`; their factories' annotated keyword
parameters are the spec's parameters, checked and converted by :mod:`gamesearch.spec`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from gamesearch.errors import UnknownNameError
from gamesearch.game import CHANCE, Game, State, sample_action
from gamesearch.search.result import SearchResult, SearchStats
from gamesearch.spec import call_with_params, parse_spec


class Agent:
    """Base class: subclasses implement ``__call__``; ``spec`` is how to make them again."""

    spec: str = "agent"
    interactive: bool = False

    def __call__(self, game: Game, state: State) -> SearchResult:
        raise NotImplementedError

    def reset(self) -> None:
        """Forget what was kept from the previous game."""

    def __repr__(self) -> str:
        return f"<agent {self.spec}>"


class RandomAgent(Agent):
    """Plays a uniformly random legal action (seeded: reproducible)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.spec = "random" if seed is None else f"random:seed={seed}"

    def __call__(self, game: Game, state: State) -> SearchResult:
        action = self.rng.choice(list(game.actions(state)))
        return SearchResult(None, action, [action], SearchStats())


class FunctionAgent(Agent):
    """Wraps a search function ``search(game, state, **options) -> SearchResult``."""

    def __init__(self, spec: str, search: Callable[..., SearchResult], **options: Any) -> None:
        self.spec = spec
        self.search = search
        self.options = options

    def __call__(self, game: Game, state: State) -> SearchResult:
        return self.search(game, state, **self.options)


class HumanAgent(Agent):
    """Asks a person for a move through ``ask(game, state) -> str`` (the CLI supplies it)."""

    interactive = True

    def __init__(self, ask: Callable[[Game, State], str] | None = None) -> None:
        self.spec = "human"
        self.ask = ask

    def __call__(self, game: Game, state: State) -> SearchResult:
        if self.ask is None:
            raise UnknownNameError("the human agent needs a way to ask for moves (use the CLI)")
        action = game.string_to_action(state, self.ask(game, state))
        return SearchResult(None, action, [action], SearchStats())


AGENTS: dict[str, tuple[Callable[..., Agent], str]] = {}


def register_agent(name: str, factory: Callable[..., Agent], summary: str) -> None:
    """Make ``name:params`` specs build agents with ``factory(**params)``."""
    AGENTS[name] = (factory, summary)


def make_agent(spec: str, **extra: Any) -> Agent:
    """Build an agent from a spec string; unknown names and parameters are named."""
    name, params = parse_spec(spec)
    if name not in AGENTS:
        raise UnknownNameError(f"unknown agent {name!r}; known agents: {', '.join(sorted(AGENTS))}")
    factory, _ = AGENTS[name]
    agent = call_with_params(factory, {**params, **extra}, f"agent {spec!r}")
    agent.spec = spec.strip()
    return agent


def act(agent: Agent, game: Game, state: State, rng: random.Random | None = None) -> SearchResult:
    """Let the agent move, or sample the outcome if chance is to move."""
    if game.to_move(state) == CHANCE:
        action = sample_action(game, state, rng or random.Random())
        return SearchResult(None, action, [action], SearchStats())
    return agent(game, state)


# --- the built-in kinds ---------------------------------------------------------------------


def _random(seed: int | None = None) -> Agent:
    return RandomAgent(seed)


def _human() -> Agent:
    return HumanAgent()


def _minimax(depth: int | None = None) -> Agent:
    from gamesearch.search.minimax import minimax

    return FunctionAgent("minimax", minimax, depth=depth)


def _alphabeta(depth: int | None = None, time: float | None = None, pvs: bool = False,
               tt: int = 1 << 18, pure: bool = False) -> Agent:
    from gamesearch.search.alphabeta import alphabeta
    from gamesearch.search.tt import TranspositionTable

    agent = AlphaBetaAgent(alphabeta, depth=depth, time=time,
                           null_window="pvs" if pvs else None, table_capacity=tt,
                           table_type=TranspositionTable)
    agent.pure = pure
    return agent


class AlphaBetaAgent(Agent):
    """Alpha-beta keeping its transposition table between the moves of one game."""

    def __init__(self, search: Callable[..., SearchResult], depth: int | None,
                 time: float | None, null_window: str | None, table_capacity: int,
                 table_type: type) -> None:
        self.search, self.depth, self.time = search, depth, time
        self.null_window = null_window
        self.table_capacity, self.table_type = table_capacity, table_type
        self.table = table_type(table_capacity)
        self.spec = "alphabeta"

    pure = False  # True: never the game's compiled kernel (docs/KERNELS.md)
    kernel_table = None

    def __call__(self, game: Game, state: State) -> SearchResult:
        if not self.pure and getattr(game, "kernel", None) is not None:
            from gamesearch.kernels.search import KernelTable, kernel_alphabeta

            self.kernel_table = self.kernel_table or KernelTable()
            return kernel_alphabeta(game, state, depth=self.depth, time=self.time,
                                    table=self.kernel_table)
        return self.search(game, state, depth=self.depth, time=self.time,
                           null_window=self.null_window, tt=self.table)

    def reset(self) -> None:
        self.table = self.table_type(self.table_capacity)
        self.kernel_table = None


register_agent("random", _random, "a uniformly random legal move (seed=N)")
register_agent("human", _human, "a person typing moves")
register_agent("minimax", _minimax, "minimax to depth=N plies (no limit: to the end)")
register_agent("alphabeta", _alphabeta,
               "alpha-beta to depth=N plies and/or time=T seconds (iterative deepening)")

from gamesearch.agents.perfect import kernel_mcts_agent, solver_agent  # noqa: E402

register_agent("solver", solver_agent,
               "perfect play from a game's exact solver (connect4; weak=true, seed=N)")
register_agent("kernel-mcts", kernel_mcts_agent,
               "compiled MCTS for games with a kernel (simulations=N, c=C, seed=N)")

__all__ = ["AGENTS", "Agent", "FunctionAgent", "HumanAgent", "RandomAgent", "act",
           "make_agent", "register_agent"]
