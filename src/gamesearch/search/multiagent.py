"""Multi-agent search: MAX against several MIN agents, max^n, and the paranoid search.

Three lecture ideas for games with more than two players:

* **One MAX against several MIN agents** (Pacman against ghosts): every agent but the root
  player minimizes MAX's utility, and the depth limit counts *full rounds*, one move of
  every agent (:func:`multi_agent_minimax`, :func:`multi_agent_alphabeta`). They reuse
  :func:`~gamesearch.search.minimax.minimax` and :func:`~gamesearch.search.alphabeta.alphabeta`
  (which already treat every non-root player as MIN) over a view of the game that ends a
  line when the rounds are used up.
* **max^n** (Luckhardt & Irani 1986): in a general-sum game each player maximizes its own
  component of the utility vector (:func:`maxn`), optionally with Korf's shallow pruning.
* **Paranoid** (Sturtevant & Korf 2000): the root player assumes all others form a
  coalition against it, which makes the game two-player zero-sum and alpha-beta applies
  (:func:`paranoid`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, Game, State
from gamesearch.result import Clock, SearchResult, SearchStats
from gamesearch.search.alphabeta import alphabeta
from gamesearch.search.minimax import INFINITE_DEPTH, Trace, evaluator, minimax

Evaluate = Callable[[State, int], float]


# --- one MAX against several MIN agents, depth in full rounds -------------------------------


class RoundLimited(Game):
    """A view of ``game`` whose lines end after ``rounds`` full rounds.

    A state is ``(inner_state, rounds_left)``. A round ends whenever the turn comes back to
    ``root`` (the MAX agent): with N agents moving strictly in turn that is every N plies,
    but the count stays right when an agent is skipped or moves twice. A line that runs out
    of rounds is a leaf scored by ``evaluate(inner_state, root)``.
    """

    def __init__(self, game: Game, root: int, rounds: int,
                 evaluate: Evaluate | None = None) -> None:
        self.game, self.root, self.rounds = game, root, rounds
        self.cut = evaluator(game, evaluate)
        self.name = game.name
        self.num_players = game.num_players
        self.zero_sum = game.zero_sum
        order = getattr(game, "order_actions", None)
        if order is not None:
            self.order_actions = lambda s, actions: order(s[0], actions)
        key = getattr(game, "state_key", None)
        if key is not None:
            self.state_key = lambda s: (key(s[0]), s[1])

    def wrap(self, state: State) -> tuple[State, int]:
        """The view's state for a state of the game, with every round still to play."""
        return (state, self.rounds)

    def initial_state(self) -> tuple[State, int]:
        return self.wrap(self.game.initial_state())

    def to_move(self, state: tuple[State, int]) -> int:
        return self.game.to_move(state[0])

    def actions(self, state: tuple[State, int]) -> list:
        return list(self.game.actions(state[0]))

    def result(self, state: tuple[State, int], action: Any) -> tuple[State, int]:
        inner, left = state
        child = self.game.result(inner, action)
        if not self.game.is_terminal(child) and self.game.to_move(child) == self.root:
            left -= 1  # every agent has had its turn: a round is over
        return (child, left)

    def is_terminal(self, state: tuple[State, int]) -> bool:
        return state[1] <= 0 or self.game.is_terminal(state[0])

    def utilities(self, state: tuple[State, int]) -> tuple[float, ...]:
        inner = state[0]
        if self.game.is_terminal(inner):
            return tuple(self.game.utilities(inner))
        v = self.cut(inner, self.root)  # out of rounds: MAX's evaluation, MIN agents oppose it
        return tuple(v if p == self.root else -v for p in range(self.num_players))

    def evaluate(self, state: tuple[State, int], player: int) -> float:
        """The game's evaluation (for ply cut-offs inside the rounds, e.g. under a time
        budget, where alpha-beta deepens ply by ply)."""
        return self.cut(state[0], player)

    def chance_outcomes(self, state: tuple[State, int]) -> list:
        return [(o, p) for o, p in self.game.chance_outcomes(state[0])]


def _round_search(search: Callable[..., SearchResult], game: Game, state: State,
                  rounds: int | None, evaluate: Evaluate | None, trace: Trace | None,
                  **options: Any) -> SearchResult:
    if rounds is None:
        return search(game, state, evaluate=evaluate, trace=trace, **options)
    if rounds < 1:
        raise GameSearchError(f"rounds must be at least 1, got {rounds}")
    if game.is_terminal(state):
        raise GameSearchError("the game is over: there is nothing to search")
    view = RoundLimited(game, game.to_move(state), rounds, evaluate)
    inner_trace = None
    if trace is not None:
        def inner_trace(event: str, s: Any, **data: Any) -> None:
            trace(event, s[0], **data)
    result = search(view, view.wrap(state), trace=inner_trace, **options)
    result.stats.depth = rounds * game.num_players  # plies, like every search's depth
    result.stats.extra["rounds"] = rounds
    return result


def multi_agent_minimax(game: Game, state: State, rounds: int | None = None,
                        evaluate: Evaluate | None = None,
                        trace: Trace | None = None) -> SearchResult:
    """Minimax for one MAX (the player to move) against every other agent as MIN.

    ``rounds`` counts full rounds (one move of every agent), the Pacman convention:
    ``rounds=2`` with Pacman and two ghosts looks 6 plies ahead. ``None`` searches to the
    end. The value is MAX's utility (or evaluation at the cut-off).
    """
    return _round_search(minimax, game, state, rounds, evaluate, trace)


def multi_agent_alphabeta(game: Game, state: State, rounds: int | None = None,
                          evaluate: Evaluate | None = None, trace: Trace | None = None,
                          **options: Any) -> SearchResult:
    """Alpha-beta for one MAX against several MIN agents, depth in full rounds.

    Same value as :func:`multi_agent_minimax`; MAX raises alpha and *every* MIN agent
    lowers beta, so cut-offs happen between consecutive MIN layers too. ``options`` go to
    :class:`~gamesearch.search.alphabeta.AlphaBeta` (``tt``, ``order``, ``killers``, ...).
    """
    return _round_search(alphabeta, game, state, rounds, evaluate, trace, **options)


# --- max^n -----------------------------------------------------------------------------


def maxn(game: Game, state: State, depth: int | None = None,
         evaluate: Evaluate | None = None, bound: float | None = None,
         trace: Trace | None = None) -> SearchResult:
    """max^n (Luckhardt & Irani 1986): each player picks the child best for *itself*.

    The value of a node is the utility vector of the child that maximizes the mover's own
    component; ties go to the **first action in the game's order** (a later child must be
    strictly better). Chance nodes take the probability-weighted mean vector. ``depth``
    counts plies (chance included); at the cut-off the vector is
    ``(evaluate(s, 0), ..., evaluate(s, N-1))``. The value is returned as a tuple.

    ``bound``: shallow pruning (Korf 1991) for games whose utilities (and evaluations) are
    non-negative and sum to at most ``bound``: once the mover's best reaches
    ``bound - (the parent's best for the parent's mover)``, the parent cannot prefer this
    node and its remaining children are skipped. The root value is unchanged.
    """
    clock = Clock(None)
    stats = SearchStats()
    n = game.num_players
    cut = evaluator(game, evaluate)
    limit = INFINITE_DEPTH if depth is None else depth
    if game.is_terminal(state):
        stats.leaves = 1
        return SearchResult(tuple(game.utilities(state)), None, [], stats)
    if game.to_move(state) == CHANCE:
        raise GameSearchError("maxn: the root is a chance node; search each outcome instead")

    def leaf(s: State, vector: tuple) -> tuple[tuple, list]:
        stats.leaves += 1
        if trace:
            trace("leaf", s, value=vector)
        return vector, []

    def value(s: State, d: int, parent: int | None, parent_best: float | None,
              ) -> tuple[tuple, list]:
        if game.is_terminal(s):
            return leaf(s, tuple(game.utilities(s)))
        if d <= 0:
            return leaf(s, tuple(cut(s, p) for p in range(n)))
        player = game.to_move(s)
        stats.nodes += 1
        if trace:
            trace("enter", s, player=player)
        if player == CHANCE:  # the expected vector; the line stops where chance decides
            total = [0.0] * n
            for outcome, p in game.chance_outcomes(s):
                v, _ = value(game.result(s, outcome), d - 1, None, None)
                total = [t + p * x for t, x in zip(total, v)]
            if trace:
                trace("exit", s, value=tuple(total))
            return tuple(total), []
        actions = list(game.actions(s))
        best: tuple | None = None
        best_line: list = []
        for i, a in enumerate(actions):
            v, line = value(game.result(s, a), d - 1, player,
                            best[player] if best is not None else None)
            if best is None or v[player] > best[player]:
                best, best_line = v, [a, *line]
            if (bound is not None and parent_best is not None and parent != player
                    and best[player] >= bound - parent_best):
                stats.cutoffs += 1
                if trace:
                    trace("prune", s, pruned=actions[i + 1:], value=best)
                break
        if trace:
            trace("exit", s, value=best)
        return best, best_line

    root = game.to_move(state)
    stats.nodes += 1
    if trace:
        trace("enter", state, player=root)
    action_values: dict[Any, tuple] = {}
    best, pv = None, []
    for a in game.actions(state):
        v, line = value(game.result(state, a), limit - 1, root,
                        best[root] if best is not None else None)
        action_values[a] = v
        if best is None or v[root] > best[root]:
            best, pv = v, [a, *line]
    if trace:
        trace("exit", state, value=best)
    stats.depth = limit if depth is not None else len(pv)
    stats.seconds = clock.elapsed()
    # with shallow pruning a losing root action's vector may be a bound, not its value
    return SearchResult(best, pv[0], pv, stats, action_values if bound is None else None)


# --- paranoid ----------------------------------------------------------------------------


def paranoid(game: Game, state: State, depth: int | None = None,
             evaluate: Evaluate | None = None, **options: Any) -> SearchResult:
    """Paranoid search (Sturtevant & Korf 2000): the root player against a coalition of all
    the others, who minimize the root player's utility.

    The reduced game is two-player zero-sum, so this *is* alpha-beta in the MAX/MIN form
    (every non-root player is MIN), with all its options (``time``, ``tt``, ordering). The
    value is the root player's guaranteed utility: a lower bound on what it gets whatever
    the others do (so never above its component of the max^n value). ``depth`` in plies.
    """
    return alphabeta(game, state, depth=depth, evaluate=evaluate, **options)


__all__ = ["RoundLimited", "maxn", "multi_agent_alphabeta", "multi_agent_minimax",
           "paranoid"]
