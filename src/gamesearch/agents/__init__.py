"""Agents: players built from spec strings such as ``alphabeta:depth=8,time=1.5``.

An agent is a callable ``agent(game, state) -> SearchResult``: the chosen action is
``result.action``, and what the agent thought (value, principal variation, statistics) comes
with it, never through a side attribute. ``agent.reset()`` starts a new game (an agent may
keep a transposition table or an MCTS tree between moves of one game).

Register new kinds with :func:`register_agent`; their factories' annotated keyword
parameters are the spec's parameters, checked and converted by :mod:`gamesearch.spec`.
"""

from __future__ import annotations

import inspect
import random
import sys
from collections.abc import Callable
from typing import Any

from gamesearch.agent import Agent, act
from gamesearch.entry import DETERMINISTIC, PERFECT, AgentKind, Needs
from gamesearch.errors import GameSearchError, SpecError, UnknownNameError
from gamesearch.game import Game, State
from gamesearch.plugins import load_catalog
from gamesearch.result import Limit, SearchResult, SearchStats
from gamesearch.spec import agent_ranges, call_with_params, check_params, parse_spec


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


ANY_GAME = Needs()
"""No needs: the kind fits every game."""

AGENTS: dict[str, AgentKind] = {}
"""Every agent kind by name: its factory, summary, what it needs of a game, and whether it
starts an outside program."""


def register_agent(name: str, factory: Callable[..., Agent], summary: str, *,
                   needs: Needs = ANY_GAME, outside: bool = False) -> None:
    """Make ``name:params`` specs build agents with ``factory(**params)``; ``needs``: what it
    needs of a game (the catalog refuses the games it does not fit); ``outside``: the agent
    starts the program its ``cmd`` parameter names."""
    AGENTS[name] = AgentKind(factory, summary, needs, outside)


def outside_agents() -> set[str]:
    """The kinds that start an outside program named by their ``cmd`` parameter (UCI and GTP
    engines, gnubg): a server offers them only with the programs its operator named."""
    load_catalog()
    return {name for name, kind in AGENTS.items() if kind.outside}


def make_agent(spec: str, limit: Limit | None = None, **extra: Any) -> Agent:
    """Build an agent from a spec string; unknown names and parameters are named.

    ``limit`` bounds its search the same way for every kind: its fields are the spec's
    ``depth``, ``time``, ``nodes`` and ``iterations`` parameters (a bound the kind cannot
    honour is refused by name); ``agent.limit`` says what the agent was given."""
    name, params = parse_spec(spec)
    if name not in AGENTS:
        load_catalog()  # game-specific kinds (gammon, pacman, ...) are registered there
    if name not in AGENTS:
        raise UnknownNameError(f"unknown agent {name!r}; known agents: {', '.join(sorted(AGENTS))}")
    factory = AGENTS[name].factory
    if limit is not None:
        accepted = inspect.signature(factory).parameters
        refused = sorted(set(limit.params()) - set(accepted))
        if refused:
            raise SpecError(f"agent {name!r} cannot honour a {', '.join(refused)} limit")
        params = {**params, **{k: str(v) for k, v in limit.params().items()}}
        spec = f"{name}:" + ",".join(f"{k}={v}" for k, v in params.items())
    try:
        # the ranges bound what a person typed; ``extra`` comes from code (a match's seeds)
        ranges = {k: r for k, r in agent_ranges(factory).items() if k in params}
        agent = call_with_params(factory, {**params, **extra}, f"agent {spec!r}", ranges)
    except (ValueError, TypeError) as err:  # a factory's own check, in its own words
        if isinstance(err, GameSearchError):
            raise
        raise SpecError(f"agent {spec!r}: {err}") from None
    agent.spec = spec.strip()
    agent.limit = _limit_of({**params, **extra})
    return agent


def check_agent_spec(spec: str) -> Callable[..., Agent]:
    """The factory of the agent ``spec`` names, its parameters checked as :func:`make_agent`
    checks them but no agent built (no network loaded, no program started); an unknown
    name or parameter, or a bad value, raises the same error."""
    name, params = parse_spec(spec)
    if name not in AGENTS:
        load_catalog()
    if name not in AGENTS:
        raise UnknownNameError(f"unknown agent {name!r}; known agents: {', '.join(sorted(AGENTS))}")
    factory = AGENTS[name].factory
    ranges = {k: r for k, r in agent_ranges(factory).items() if k in params}
    check_params(factory, params, f"agent {spec!r}", ranges)
    return factory


def accepts(spec: str, parameter: str) -> bool:
    """Whether the agent kind ``spec`` names takes ``parameter`` (a match's per-game
    ``seed``, a tournament's move ``time``); an unknown kind takes none."""
    name, _ = parse_spec(spec)
    if name not in AGENTS:
        load_catalog()
    return name in AGENTS and parameter in inspect.signature(AGENTS[name].factory).parameters


def _limit_of(params: dict[str, Any]) -> Limit:
    """The spec's limit parameters as a :class:`Limit` (already checked by the factory)."""
    kinds = {"depth": int, "time": float, "nodes": int, "iterations": int}
    try:
        return Limit(**{k: kinds[k](v) for k, v in params.items()
                        if k in kinds and v is not None and str(v).strip().lower() != "none"})
    except (TypeError, ValueError):  # a kind that reads the parameter its own way
        return Limit()


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

    def uses_kernel(self, game: Game) -> bool:
        """The one choice between the compiled and the readable engine (the CLI, matches and
        the web ask here): the game's kernel unless ``pure``; under a time budget only once
        this process has loaded it (:meth:`prepare`, or a web worker's warm-up), as loading
        would eat the budget."""
        if self.pure:
            return False
        if self.time is not None and "numba" not in sys.modules:
            return False  # a game's kernel imports numba first: 0.4 s of a small budget
        kernel = getattr(game, "kernel", None)
        return kernel is not None and (self.time is None or kernel.ready())

    def prepare(self, game: Game) -> None:
        kernel = None if self.pure else getattr(game, "kernel", None)
        if kernel is not None:
            from gamesearch.kernels.search import KernelTable, kernel_alphabeta

            kernel_alphabeta(game, game.initial_state(), depth=1)  # compiles, or loads the cache
            self.kernel_table = KernelTable()  # filling 40 MB is no part of the first move

    def __call__(self, game: Game, state: State) -> SearchResult:
        if self.uses_kernel(game):
            from gamesearch.kernels.search import KernelTable, kernel_alphabeta

            self.kernel_table = self.kernel_table or KernelTable()
            return kernel_alphabeta(game, state, depth=self.depth, time=self.time,
                                    table=self.kernel_table)
        return self.search(game, state, depth=self.depth, time=self.time,
                           null_window=self.null_window, tt=self.table)

    def reset(self) -> None:
        self.table = self.table_type(self.table_capacity)
        if self.kernel_table is not None:  # a new table now, not during the first move
            from gamesearch.kernels.search import KernelTable

            self.kernel_table = KernelTable()


register_agent("random", _random, "a uniformly random legal move (seed=N)")
register_agent("human", _human, "a person typing moves")
register_agent("minimax", _minimax, "minimax to depth=N plies (no limit: to the end)",
               needs=DETERMINISTIC)
register_agent("alphabeta", _alphabeta,
               "alpha-beta to depth=N plies and/or time=T seconds (iterative deepening)",
               needs=DETERMINISTIC)

from gamesearch.agents.kernel_mcts import kernel_mcts_agent  # noqa: E402

register_agent("kernel-mcts", kernel_mcts_agent,
               "compiled MCTS for games with a kernel (simulations=N, c=C, seed=N)",
               needs=Needs(kernel=True))

__all__ = ["AGENTS", "Agent", "FunctionAgent", "HumanAgent", "RandomAgent", "act",
           "check_agent_spec", "make_agent", "register_agent"]


# --- multi-agent search and MCTS (search/multiagent.py, search/mcts.py) ---------------------


class MCTSAgent(Agent):
    """UCT keeping its tree between the moves of one game; ``reset()`` drops it."""

    def __init__(self, iterations: int | None, time: float | None, c: float,
                 seed: int | None, evaluate: bool = False) -> None:
        self.options = {"iterations": iterations, "time": time, "c": c, "seed": seed,
                        "evaluate": evaluate}
        self.searcher = None
        self.spec = "mcts"

    def __call__(self, game: Game, state: State) -> SearchResult:
        from gamesearch.search.mcts import MCTS

        if self.searcher is None or self.searcher.game is not game:
            self.searcher = MCTS(game, **self.options)
        return self.searcher.search(state)

    def reset(self) -> None:
        if self.searcher is not None:
            self.searcher.reset()


def _mcts(iterations: int | None = None, time: float | None = None, c: float = 1.4,
          seed: int | None = None, evaluate: bool = False) -> Agent:
    if iterations is None and time is None:
        iterations = 2000
    return MCTSAgent(iterations, time, c, seed, evaluate)


def _maxn(depth: int | None = None) -> Agent:
    from gamesearch.search.multiagent import maxn

    return FunctionAgent("maxn", maxn, depth=depth)


def _paranoid(depth: int | None = None, time: float | None = None) -> Agent:
    from gamesearch.search.multiagent import paranoid

    return FunctionAgent("paranoid", paranoid, depth=depth, time=time)


register_agent("mcts", _mcts, "UCT Monte Carlo tree search: iterations=N and/or time=T, c=1.4, "
               "seed=N, evaluate=true (the game's evaluation instead of play-outs); keeps its tree",
               needs=PERFECT)
register_agent("maxn", _maxn, "max^n for N-player games to depth=N plies: each player "
               "maximizes its own utility", needs=PERFECT)
register_agent("paranoid", _paranoid, "paranoid alpha-beta to depth=N plies (time=T): the "
               "others form a coalition against the mover", needs=DETERMINISTIC)

def _pimc(samples: int = 20, seed: int | None = None) -> Agent:
    from gamesearch.imperfect.determinization import DeterminizationAgent

    return DeterminizationAgent(samples=samples, seed=seed)


def _ismcts(iterations: int = 1000, c: float = 0.7, seed: int | None = None) -> Agent:
    from gamesearch.imperfect.ismcts import ISMCTSAgent

    return ISMCTSAgent(iterations=iterations, c=c, seed=seed)


register_agent("pimc", _pimc, "determinization: solve samples=N deals, best average (hidden info)",
               needs=Needs(hidden_information=True))
register_agent("ismcts", _ismcts, "information-set MCTS, iterations=N (hidden information)",
               needs=Needs(hidden_information=True))


def _expectimax(depth: int | None = None, samples: int | None = None,
                seed: int | None = None) -> Agent:
    from gamesearch.search.chance import expectimax

    return FunctionAgent("expectimax", expectimax, depth=depth, samples=samples, seed=seed)


def _expectiminimax(depth: int | None = None, pruning: str | None = None,
                    samples: int | None = None, seed: int | None = None) -> Agent:
    from gamesearch.search.chance import expectiminimax

    return FunctionAgent("expectiminimax", expectiminimax, depth=depth,
                         pruning=None if pruning in (None, "none") else pruning,
                         samples=samples, seed=seed)


register_agent("expectimax", _expectimax,
               "expectimax to depth=N plies: opponents play at random (samples=K at chance)",
               needs=PERFECT)
register_agent("expectiminimax", _expectiminimax,
               "expectiminimax to depth=N plies (pruning=star1|star2, samples=K)",
               needs=PERFECT)
