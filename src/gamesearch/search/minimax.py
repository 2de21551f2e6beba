"""Minimax: the reference every other search is checked against (AIMA fig. 5.3).

MAX is the player to move at the root; every other player is a MIN agent that minimizes
MAX's utility. With two players this is the textbook minimax; with several opponents it is
the lectures' Pacman-against-ghosts search and the *paranoid* assumption for N-player games.
Depth-limited search scores the cut-off states with the game's ``evaluate`` (lecture:
"replace the terminal test by a cut-off test and the utility by an evaluation function").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, Game, State
from gamesearch.result import Clock, SearchResult, SearchStats

Trace = Callable[..., None]
"""``trace(event, state, **data)``: events "enter", "leaf", "exit" and "prune"."""

INFINITE_DEPTH = 10**9


def evaluator(game: Game, evaluate: Callable[[State, int], float] | None = None):
    """The cut-off evaluation: the given function, else the game's ``evaluate``."""
    if evaluate is not None:
        return evaluate
    method = getattr(game, "evaluate", None)
    if method is None:
        def missing(state: State, player: int) -> float:
            raise GameSearchError(
                f"{game.name} has no evaluation function: search it without a depth limit "
                "or pass evaluate="
            )
        return missing
    return method


def finished_root(game: Game, state: State, stats: SearchStats,
                  name: str) -> SearchResult | None:
    """The answer at a finished root (the root mover's utility, one leaf), or None; a chance
    root is refused, naming the search: the two-player searches share this start."""
    root = game.to_move(state)
    if game.is_terminal(state):
        stats.leaves = 1
        return SearchResult(game.utilities(state)[max(root, 0)], None, [], stats)
    if root == CHANCE:
        raise GameSearchError(f"{name}: the root is a chance node; use expectiminimax")
    return None


def minimax(
    game: Game,
    state: State,
    depth: int | None = None,
    evaluate: Callable[[State, int], float] | None = None,
    trace: Trace | None = None,
) -> SearchResult:
    """Exhaustive (``depth=None``) or depth-limited minimax from the root mover's viewpoint.

    ``depth`` counts plies (moves of any player). The returned value is the utility for
    the player to move at ``state``; every other player minimizes it.
    """
    clock = Clock(None)
    stats = SearchStats()
    root = game.to_move(state)
    finished = finished_root(game, state, stats, "minimax")
    if finished is not None:
        return finished
    cut = evaluator(game, evaluate)
    limit = INFINITE_DEPTH if depth is None else depth

    deepest = cut_offs = 0

    def value(s: State, d: int, ply: int) -> tuple[float, list]:
        nonlocal deepest, cut_offs
        if ply > deepest:
            deepest = ply
        if game.is_terminal(s):
            stats.leaves += 1
            v = game.utilities(s)[root]
            if trace:
                trace("leaf", s, value=v)
            return v, []
        if d <= 0:
            stats.leaves += 1
            cut_offs += 1
            v = cut(s, root)
            if trace:
                trace("leaf", s, value=v)
            return v, []
        player = game.to_move(s)
        if player == CHANCE:
            raise GameSearchError("minimax met a chance node; use expectiminimax")
        stats.nodes += 1
        if trace:
            trace("enter", s, player=player)
        maximizing = player == root
        best, best_line = None, []
        for a in game.actions(s):
            v, line = value(game.result(s, a), d - 1, ply + 1)
            if best is None or (v > best if maximizing else v < best):
                best, best_line = v, [a, *line]
        if trace:
            trace("exit", s, value=best)
        return best, best_line

    stats.nodes += 1
    if trace:
        trace("enter", state, player=root)
    action_values: dict[Any, float] = {}
    best, pv = None, []
    for a in game.actions(state):
        v, line = value(game.result(state, a), limit - 1, 1)
        action_values[a] = v
        if best is None or v > best:
            best, pv = v, [a, *line]
    if trace:
        trace("exit", state, value=best)
    stats.depth = deepest
    stats.seconds = clock.elapsed()
    exact = cut_offs == 0  # every leaf was the end of the game
    return SearchResult(best, pv[0], pv, stats, action_values, pov=root, exact=exact,
                        stopped_by="end" if exact else "depth")
