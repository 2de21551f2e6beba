"""TD-leaf(lambda): learning the weights of a linear evaluation by self-play with search
(Baxter, Tridgell & Weaver 1998, KnightCap; the successor of Samuel's checkers learning).

Each move is chosen by a depth-limited alpha-beta with the current evaluation, and the
*leaf* of its principal variation is remembered: the position whose evaluation the search
actually backed up. After the game, with P_t the evaluation of leaf t (for the first
player, in [-1, 1]) and P_T the outcome (+1, 0, -1), the temporal differences
d_t = P_{t+1} - P_t update the weights:

    w <- w + alpha * sum_t  grad P_t * sum_{j >= t} lambda^(j - t) d_j

For a :class:`~gamesearch.learn.features.WeightedFeatures` the gradient is the feature
vector times the scale (zero where the evaluation is clipped at its bound). Any game with
a ``WeightedFeatures`` evaluation can learn this way (Connect Four in the tests, checkers
for Samuel's learning).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from gamesearch.errors import GameSearchError
from gamesearch.game import Game, State
from gamesearch.learn.features import WeightedFeatures


@dataclass
class TDLeafResult:
    """The learned evaluation and, per game, the weights after it."""

    features: WeightedFeatures
    history: list[list[float]] = field(default_factory=list)


def pv_leaf(game: Game, state: State, pv: list) -> State:
    """The position at the end of a principal variation (as far as it stays legal)."""
    for action in pv:
        if game.is_terminal(state) or action not in game.actions(state):
            break
        state = game.result(state, action)
    return state


def td_leaf_update(weights: list[float], predictions: list[float],
                   gradients: list[list[float]], outcome: float, alpha: float,
                   lam: float) -> list[float]:
    """One game's TD(lambda) step: ``predictions[t]`` (for the first player) with its
    gradient ``gradients[t]``, then the ``outcome``; returns the new weights."""
    values = [*predictions, outcome]
    weights = list(weights)
    credit = 0.0
    for t in range(len(predictions) - 1, -1, -1):  # sum_j lambda^(j-t) d_j, from the end
        credit = (values[t + 1] - values[t]) + lam * credit
        for k, g in enumerate(gradients[t]):
            weights[k] += alpha * g * credit
    return weights


def td_leaf(game: Game, features: WeightedFeatures, games: int, search: Callable,
            depth: int = 2, alpha: float = 0.05, lam: float = 0.7, epsilon: float = 0.1,
            seed: int = 0) -> TDLeafResult:
    """Learn ``features``' weights by ``games`` games of self-play TD-leaf(lambda), each
    move chosen by ``search(game, state, depth=, evaluate=)`` (an alpha-beta, passed in:
    learn/ imports no search layer) returning a principal variation; ``epsilon`` of the
    moves are random (exploration)."""
    if games < 0 or depth < 1:
        raise GameSearchError(f"td_leaf needs games >= 0 and depth >= 1, got {games}, {depth}")
    if not 0.0 <= lam <= 1.0 or not 0.0 <= epsilon <= 1.0:
        raise GameSearchError("td_leaf: lambda and epsilon must lie in [0, 1]")
    rng = random.Random(seed)
    result = TDLeafResult(features)
    for _ in range(games):
        wf = result.features
        state = game.initial_state()
        leaves: list[State] = []
        while not game.is_terminal(state):
            found = search(game, state, depth=depth, evaluate=wf)
            leaves.append(pv_leaf(game, state, list(found.pv or [found.action])))
            legal = list(game.actions(state))
            action = rng.choice(legal) if rng.random() < epsilon else found.action
            state = game.result(state, action)
        u = game.utilities(state)[0]
        outcome = float((u > 0) - (u < 0))
        predictions, gradients = [], []
        for leaf in leaves:
            if game.is_terminal(leaf):
                lu = game.utilities(leaf)[0]
                predictions.append(float((lu > 0) - (lu < 0)))
                gradients.append([0.0] * len(wf.features))
                continue
            value = wf(leaf, 0)
            predictions.append(value)
            clipped = wf.bound is not None and abs(value) >= wf.bound
            gradients.append([0.0 if clipped else wf.scale * v for v in wf.values(leaf, 0)])
        weights = td_leaf_update(list(wf.weights), predictions, gradients, outcome, alpha, lam)
        result.features = wf.with_weights(weights)
        result.history.append(weights)
    return result
