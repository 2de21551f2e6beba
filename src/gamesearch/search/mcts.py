"""Monte Carlo tree search with UCT (Kocsis & Szepesvari 2006), the lectures' four steps.

Each iteration

1. **selects** a path from the root, at each fully expanded node taking the child with the
   highest upper confidence bound ``mean + c * sqrt(ln N(parent) / N(child))`` for the
   player *to move there* (chance nodes sample an outcome by its probability);
2. **expands** one untried action (a random one) into a new node;
3. **simulates** from it: a random play-out to the end (or a custom rollout policy, or
   the evaluation function at the new node);
4. **backs up** the utility vector along the path: every node keeps one reward sum per
   player, so the same tree serves two-player zero-sum, general-sum and N-player games.

Rewards are compared on a [0, 1] scale (rescaled by the smallest and largest utility seen so
far), so ``c`` means the same for Connect Four's scores as for tic-tac-toe's +1/-1; the
textbook constant is sqrt(2) ~ 1.4. The move played is the most visited root child (between
children of as many visits, the best mean for the player to move).

Under a time limit the answer is always a searched move, however short the time: the first
simulation runs whatever the clock says, and within its first ``MIN_SWEEP`` seconds the
clock ends the search only once every root move has had one simulation, so that even a
budget too small for one simulation compares the moves instead of taking the one move a
single random simulation happened to try. (A longer budget is kept as before: a play-out
still running at the deadline is dropped.)

:class:`MCTS` keeps its tree between calls: the next search starts from the subtree of the
new state (found among the descendants a few plies down) with its statistics intact.
"""

from __future__ import annotations

import gc
import math
import random
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, Game, State, sample_action
from gamesearch.result import Clock, SearchResult, SearchStats

Rollout = Callable[[Game, State, random.Random], Any]
"""``rollout(game, state, rng) -> action``: the play-out policy (default: uniform)."""

DEFAULT_ITERATIONS = 1000
MAX_ROLLOUT_MOVES = 100_000
MIN_SWEEP = 0.1
"""Seconds from a timed search's start within which it gives every root move one
simulation before its clock may end it (a tiny budget still compares the moves)."""


class Node:
    """One state in the search tree with its visit count and reward sums (one per player)."""

    __slots__ = ("state", "player", "children", "untried", "visits", "totals")

    def __init__(self, game: Game, state: State) -> None:
        self.state = state
        terminal = game.is_terminal(state)
        self.player: int | None = None if terminal else game.to_move(state)
        self.children: dict[Any, Node] = {}  # action (or chance outcome) -> child
        self.untried: list = (
            [] if terminal or self.player == CHANCE else list(game.actions(state))
        )
        self.visits = 0
        self.totals = [0.0] * game.num_players

    def mean(self, player: int) -> float:
        """The average reward of ``player`` over the simulations through this node."""
        return self.totals[player] / self.visits if self.visits else 0.0

    def most_visited(self) -> tuple[Any, Node] | None:
        """The child visited most often (between children of as many visits, the best mean
        for the player to move here; then the first in expansion order), or None."""
        best, best_key = None, None
        for action, child in self.children.items():
            key = (child.visits, child.mean(self.player) if self.player is not None
                   and self.player >= 0 else 0.0)
            if best_key is None or key > best_key:
                best, best_key = (action, child), key
        return best

    def size(self) -> int:
        """The number of nodes in the subtree below (and including) this one."""
        count, stack = 0, [self]
        while stack:
            node = stack.pop()
            count += 1
            stack.extend(node.children.values())
        return count


class MCTS:
    """A UCT searcher that keeps its tree between moves of one game.

    ``iterations`` and/or ``time`` (seconds) bound each search (default: 1000 iterations);
    ``c`` is the exploration constant; ``seed`` makes it reproducible; ``rollout`` is the
    play-out policy; ``evaluate`` (True: the game's, or a function ``(state, player)``)
    replaces the play-out by the evaluation at the new node; ``reuse_depth`` is how many
    plies below the old root the next state is looked for (-1: never reuse the tree).
    """

    def __init__(self, game: Game, *, iterations: int | None = None,
                 time: float | None = None, c: float = 1.4, seed: int | None = None,
                 rollout: Rollout | None = None,
                 evaluate: bool | Callable[[State, int], float] | None = None,
                 reuse_depth: int = 4) -> None:
        if iterations is not None and iterations < 1:
            raise GameSearchError(f"mcts: iterations={iterations} must be at least 1")
        if time is not None and time <= 0:
            raise GameSearchError(f"mcts: time={time} must be positive")
        if c < 0:
            raise GameSearchError(f"mcts: exploration constant c={c} must be non-negative")
        self.game = game
        self.iterations = iterations if iterations or time else DEFAULT_ITERATIONS
        self.time = time
        self.c = c
        self.rng = random.Random(seed)
        self.rollout = rollout or sample_action_policy
        if evaluate is True:
            evaluate = getattr(game, "evaluate", None)
            if evaluate is None:
                raise GameSearchError(f"mcts: {game.name} has no evaluation function")
        self.evaluate = evaluate or None
        self.reuse_depth = reuse_depth
        self.root: Node | None = None
        self.low, self.high = math.inf, -math.inf  # the range of rewards seen so far

    def reset(self) -> None:
        """Forget the tree (a new game starts)."""
        self.root = None
        self.low, self.high = math.inf, -math.inf

    # --- the search --------------------------------------------------------------------
    def search(self, state: State) -> SearchResult:
        """Run the iterations from ``state`` and return the most visited action.

        Under a time budget the objects that exist when the search starts (the kept tree,
        the program's modules) are left out of Python's garbage collections until it ends:
        a full collection over them took 50-110 ms on backgammon, past the budget."""
        with _older_objects_frozen(self.time is not None):
            return self._search(state)

    def _search(self, state: State) -> SearchResult:
        game = self.game
        clock = Clock(self.time)
        stats = SearchStats()
        if game.is_terminal(state):
            stats.leaves = 1
            return SearchResult(tuple(game.utilities(state)), None, [], stats)
        player = game.to_move(state)
        if player == CHANCE:
            raise GameSearchError("mcts: the root is a chance node; sample the outcome first")
        root = self._reuse(state)
        reused = root.visits
        size = root.size()
        deepest = 0
        done = 0
        self._stopped_by = "time"
        while True:
            # after the first iteration, a play-out still running at the deadline is
            # dropped (a backgammon play-out takes 20-40 ms: the budget would overshoot)
            sweeping = bool(root.untried) and clock.elapsed() < MIN_SWEEP
            step = self._iterate(root, clock if done and clock.limited and not sweeping
                                 else None)
            if step is None:
                break
            nodes_added, depth = step
            size += nodes_added
            deepest = max(deepest, depth)
            done += 1
            if self.iterations is not None and done >= self.iterations:
                self._stopped_by = "iterations"
                break
            if clock.expired() and (not root.untried or clock.elapsed() >= MIN_SWEEP):
                break
        self.root = root
        return self._result(root, player, stats, done, size, deepest, reused, clock)

    def _iterate(self, root: Node, clock: Clock | None = None) -> tuple[int, int] | None:
        """One selection-expansion-simulation-backup pass; returns (nodes added, depth), or
        None when ``clock`` expired during the play-out (the pass is undone: nothing kept)."""
        game, rng = self.game, self.rng
        node, path, added = root, [root], 0
        undo = None  # how to take the new node back: (parent, key, the untried action)
        while node.player is not None:  # not terminal
            if node.player == CHANCE:
                outcome = sample_action(game, node.state, rng)
                child = node.children.get(outcome)
                if child is None:
                    child = Node(game, game.result(node.state, outcome))
                    node.children[outcome] = child
                    undo = (node, outcome, None)
                    added = 1
                path.append(child)
                node = child
                if added:
                    break
            elif node.untried:
                action = node.untried.pop(rng.randrange(len(node.untried)))
                child = Node(game, game.result(node.state, action))
                node.children[action] = child
                undo = (node, action, action)
                node = child
                path.append(node)
                added = 1
                break
            else:
                node = self._select(node)
                path.append(node)
        rewards = self._simulate(node.state, clock)
        if rewards is None:
            if undo is not None:
                parent, key, untried = undo
                del parent.children[key]
                if untried is not None:
                    parent.untried.append(untried)
            return None
        self.low = min(self.low, *rewards)
        self.high = max(self.high, *rewards)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for p, r in enumerate(rewards):
                totals[p] += r
        return added, len(path) - 1

    def _select(self, node: Node) -> Node:
        """UCB1 over the children, from the viewpoint of the player to move at ``node``."""
        player = node.player
        low, span = self.low, (self.high - self.low) or 1.0
        log_n = math.log(node.visits)
        best, best_score = None, -math.inf
        for child in node.children.values():
            exploit = (child.totals[player] / child.visits - low) / span
            score = exploit + self.c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    def _simulate(self, state: State, clock: Clock | None = None) -> tuple[float, ...] | None:
        """The utility vector of a play-out from ``state`` (or its evaluation); None when
        ``clock`` expires on the way."""
        game = self.game
        if game.is_terminal(state):
            return tuple(game.utilities(state))
        if self.evaluate is not None:
            return tuple(self.evaluate(state, p) for p in range(game.num_players))
        for _ in range(MAX_ROLLOUT_MOVES):
            state = game.result(state, self.rollout(game, state, self.rng))
            if game.is_terminal(state):
                return tuple(game.utilities(state))
            if clock is not None and clock.expired():
                return None
        raise GameSearchError(f"mcts: a play-out of {game.name} did not end within "
                              f"{MAX_ROLLOUT_MOVES} moves; pass evaluate=True")

    # --- tree reuse --------------------------------------------------------------------
    def _reuse(self, state: State) -> Node:
        """The node of ``state`` in the kept tree (up to ``reuse_depth`` plies below the
        old root, shallowest first), or a fresh root. States are matched by equality, not
        by ``state_key``: a symmetric image's actions would not be this state's."""
        if self.root is not None and self.reuse_depth >= 0:
            queue = deque([(self.root, 0)])
            while queue:
                node, depth = queue.popleft()
                if node.state == state:
                    return node
                if depth < self.reuse_depth:
                    queue.extend((child, depth + 1) for child in node.children.values())
        return Node(self.game, state)

    # --- the answer --------------------------------------------------------------------
    def _result(self, root: Node, player: int, stats: SearchStats, done: int, size: int,
                deepest: int, reused: int, clock: Clock) -> SearchResult:
        game = self.game
        action, best = root.most_visited()
        pv: list = []
        node: Node | None = root
        while node is not None and node.children:
            step, node = node.most_visited()
            pv.append(step)
        stats.iterations = done
        stats.leaves = done
        stats.nodes = size
        stats.depth = deepest
        stats.seconds = clock.elapsed()
        show = game.action_to_string
        stats.extra = {
            "visits": {show(root.state, a): ch.visits for a, ch in root.children.items()},
            "values": {show(root.state, a): round(ch.mean(player), 6)
                       for a, ch in root.children.items()},
            "root_visits": root.visits,
            "reused_visits": reused,
            "value_vector": tuple(best.mean(p) for p in range(game.num_players)),
        }
        return SearchResult(best.mean(player), action, pv, stats, pov=player,
                            stopped_by=self._stopped_by)


@contextmanager
def _older_objects_frozen(freeze: bool) -> Iterator[None]:
    """Within the block (when ``freeze``), collections scan only objects made inside it
    (``gc.freeze``; both calls are O(1)). Reference counting frees objects as usual; what
    was frozen is scanned again afterwards. Nested or concurrent use leaves it frozen."""
    if not freeze or gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def sample_action_policy(game: Game, state: State, rng: random.Random) -> Any:
    """The default play-out policy: uniform over actions, chance by its probabilities."""
    return sample_action(game, state, rng)


def mcts(game: Game, state: State, iterations: int | None = None, time: float | None = None,
         c: float = 1.4, seed: int | None = None, rollout: Rollout | None = None,
         evaluate: bool | Callable[[State, int], float] | None = None) -> SearchResult:
    """UCT from ``state`` with a fresh tree: the most visited action, its estimated value
    for the player to move (the mean utility of the simulations through it), the most
    visited line and statistics (``extra``: visits and mean value per root action).

    Reproducible with a ``seed`` and an iteration budget; with ``time=T`` it stops after
    T seconds (anytime: it always returns a legal action).
    """
    searcher = MCTS(game, iterations=iterations, time=time, c=c, seed=seed, rollout=rollout,
                    evaluate=evaluate, reuse_depth=-1)
    return searcher.search(state)


__all__ = ["MCTS", "Node", "mcts", "sample_action_policy"]
