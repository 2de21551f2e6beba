"""PUCT Monte Carlo tree search with a prior policy and a value function (AlphaGo Zero).

Each simulation walks down from the root choosing the action that maximizes
``Q(a) + c_puct * P(a) * sqrt(N) / (1 + N(a))``, where P is the network's prior, N(a) the
visits and Q(a) the mean value for the player to move; at a new node the network's value
replaces the random play-out, and its policy becomes the node's priors. Values are
backed up negated when the player to move changes. At the root, Dirichlet noise mixed
into the priors makes self-play explore; the visit counts are the improved policy.

The game may be any deterministic game of the protocol whose utilities have a sign
(win > 0, loss < 0); ``evaluator(state) -> ({action: prior}, value for the player to
move)`` is all this module knows of the network.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from gamesearch.game import Game, State

Evaluator = Callable[[State], tuple[dict[Any, float], float]]


class PUCTNode:
    """A state's priors, visit counts and value sums per action, and its children."""

    __slots__ = ("state", "player", "priors", "visits", "values", "children", "ends")

    def __init__(self, state: State, player: int) -> None:
        self.state, self.player = state, player
        self.priors: dict[Any, float] | None = None
        self.visits: dict[Any, int] = {}
        self.values: dict[Any, float] = {}
        self.children: dict[Any, PUCTNode] = {}
        self.ends: dict[Any, float] = {}  # action -> value of a terminal child for player


class PUCT:
    """PUCT search over ``game`` with ``evaluator``; :meth:`search` returns visit counts."""

    def __init__(self, game: Game, evaluator: Evaluator, c_puct: float = 1.5) -> None:
        self.game, self.evaluator, self.c_puct = game, evaluator, c_puct

    def search(self, state: State, simulations: int, noise: tuple[float, float] | None = None,
               rng: np.random.Generator | None = None) -> dict[Any, int]:
        """Run ``simulations`` simulations from ``state``; ``noise=(alpha, fraction)`` mixes
        Dirichlet(alpha) noise into the root priors. Returns {action: visits}."""
        root = PUCTNode(state, self.game.to_move(state))
        self._expand(root)
        if noise is not None:
            alpha, fraction = noise
            actions = list(root.priors)
            drawn = (rng or np.random.default_rng()).dirichlet([alpha] * len(actions))
            root.priors = {a: (1 - fraction) * root.priors[a] + fraction * d
                           for a, d in zip(actions, drawn)}
        for _ in range(simulations):
            self._simulate(root)
        self.root = root
        return dict(root.visits)

    def _expand(self, node: PUCTNode) -> float:
        priors, value = self.evaluator(node.state)
        node.priors = priors
        for a in priors:
            node.visits[a] = 0
            node.values[a] = 0.0
        return value

    def _simulate(self, node: PUCTNode) -> float:
        """One simulation below ``node``; returns its value for ``node.player``."""
        total = sum(node.visits.values())
        scale = self.c_puct * math.sqrt(max(total, 1))
        best, best_score = None, -math.inf
        for a, prior in node.priors.items():
            n = node.visits[a]
            q = node.values[a] / n if n else 0.0
            score = q + scale * prior / (1 + n)
            if score > best_score:
                best, best_score = a, score
        a = best
        if a in node.ends:
            value = node.ends[a]
        else:
            child = node.children.get(a)
            if child is None:
                game = self.game
                state = game.result(node.state, a)
                if game.is_terminal(state):
                    u = game.utilities(state)[node.player]
                    node.ends[a] = value = float((u > 0) - (u < 0))
                    node.visits[a] += 1
                    node.values[a] += value
                    return value
                child = PUCTNode(state, game.to_move(state))
                node.children[a] = child
                v = self._expand(child)
            else:
                v = self._simulate(child)
            value = v if child.player == node.player else -v
        node.visits[a] += 1
        node.values[a] += value
        return value


def visit_policy(visits: dict[Any, int], temperature: float) -> dict[Any, float]:
    """The move probabilities from visit counts: proportional to ``N^(1/T)``; T = 0 puts
    all the weight on the most visited move (the first on ties)."""
    if temperature <= 0:
        best = max(visits, key=visits.get)
        return {a: float(a == best) for a in visits}
    weights = {a: n ** (1.0 / temperature) for a, n in visits.items()}
    total = sum(weights.values())
    if total == 0:
        return {a: 1.0 / len(visits) for a in visits}
    return {a: w / total for a, w in weights.items()}


BatchEvaluator = Callable[[list[State]], list[tuple[dict[Any, float], float]]]


class BatchedPUCT(PUCT):
    """PUCT whose leaves are evaluated ``batch`` at a time, with a tree kept between moves.

    A network evaluates a batch of positions for little more than the cost of one, so each
    round walks down ``batch`` times before evaluating: every edge walked carries a
    *virtual loss* (counted as a visit lost for its player) until its leaf's value comes
    back, which steers the next walks of the round elsewhere (Chaslot et al. 2008; AlphaGo).
    :meth:`search` keeps its tree: the next search from a position two moves (or one) further
    down starts from that subtree with its visits (tree reuse)."""

    def __init__(self, game: Game, evaluate_batch: BatchEvaluator, c_puct: float = 1.5,
                 batch: int = 8, virtual_loss: float = 1.0) -> None:
        super().__init__(game, lambda s: evaluate_batch([s])[0], c_puct)
        self.evaluate_batch, self.batch, self.virtual_loss = evaluate_batch, batch, virtual_loss
        self.root: PUCTNode | None = None

    def _reused_root(self, state: State) -> PUCTNode:
        """The kept node of ``state`` (the root, a child or a grandchild), else a new one."""
        old = self.root
        if old is not None:
            near = [old, *old.children.values()]
            near += [g for c in old.children.values() for g in c.children.values()]
            for node in near:
                if node.priors is not None and node.state == state:
                    return node
        return PUCTNode(state, self.game.to_move(state))

    def search(self, state: State, simulations: int | None = None,  # type: ignore[override]
               seconds: float | None = None, stop: Callable[[], bool] | None = None,
               ) -> dict[Any, int]:
        """Simulate from ``state`` until ``simulations`` more simulations, ``seconds`` or
        ``stop()``; returns the root's {action: visits} (kept ones included)."""
        import time

        root = self._reused_root(state)
        self.root = root
        if root.priors is None:
            self._expand(root)
        deadline = None if seconds is None else time.monotonic() + seconds
        done = 0
        while simulations is None or done < simulations:
            if deadline is not None and time.monotonic() >= deadline:
                break
            if stop is not None and stop():
                break
            size = self.batch if simulations is None else min(self.batch, simulations - done)
            done += self._round(root, size)
        return dict(root.visits)

    def _round(self, root: PUCTNode, size: int) -> int:
        """Up to ``size`` walks, one batched evaluation; the simulations completed."""
        waiting: list[tuple[list[tuple[PUCTNode, Any]], PUCTNode]] = []
        completed = 0
        for _ in range(size):
            path, leaf, value = self._descend(root)
            if leaf is None and value is None:
                break                      # every walk would meet a leaf already waiting
            if leaf is None:
                self._backup(path, value)
                completed += 1
            else:
                waiting.append((path, leaf))
        if waiting:
            for (path, leaf), (priors, value) in zip(
                    waiting, self.evaluate_batch([leaf.state for _, leaf in waiting])):
                leaf.priors = priors
                for a in priors:
                    leaf.visits[a], leaf.values[a] = 0, 0.0
                self._backup(path, value, leaf.player)
                completed += 1
        return completed

    def _descend(self, root: PUCTNode):
        """Walk down under virtual loss: (path, a new leaf to evaluate, None), or (path,
        None, a terminal value for the last node's player), or (path undone, None, None)
        when the walk met a leaf already waiting."""
        node, path = root, []
        while True:
            total = sum(node.visits.values())
            scale = self.c_puct * math.sqrt(max(total, 1))
            a = max(node.priors, key=lambda b: (node.values[b] / node.visits[b]
                                                if node.visits[b] else 0.0)
                    + scale * node.priors[b] / (1 + node.visits[b]))
            path.append((node, a))
            node.visits[a] += 1
            node.values[a] -= self.virtual_loss
            if a in node.ends:
                return path, None, node.ends[a]
            child = node.children.get(a)
            if child is None:
                state = self.game.result(node.state, a)
                if self.game.is_terminal(state):
                    u = self.game.utilities(state)[node.player]
                    node.ends[a] = float((u > 0) - (u < 0))
                    return path, None, node.ends[a]
                child = PUCTNode(state, self.game.to_move(state))
                node.children[a] = child
                return path, child, None
            if child.priors is None:       # waiting for this round's evaluation
                for n, b in path:
                    n.visits[b] -= 1
                    n.values[b] += self.virtual_loss
                return path, None, None
            node = child

    def _backup(self, path: list[tuple[PUCTNode, Any]], value: float,
                player: int | None = None) -> None:
        """Add ``value`` (for ``player``; None: for the last node's player) along ``path``,
        lifting the virtual losses."""
        if player is None:
            player = path[-1][0].player
        for node, a in reversed(path):
            v = value if node.player == player else -value
            node.values[a] += self.virtual_loss + v
