"""Weighted linear evaluation functions: Eval(s) = w1 f1(s) + w2 f2(s) + ... + wn fn(s).

The lectures' evaluation function for depth-limited search: named features of a state
(material, open lines, mobility), each multiplied by a weight. A :class:`WeightedFeatures`
is a plain callable ``(state, player) -> float``, so it goes wherever an evaluation goes:
``alphabeta(game, s, depth=4, evaluate=wf)``, ``maxn(..., evaluate=wf)``,
``mcts(..., evaluate=wf)``, or into the game itself with :func:`with_evaluation`.
Because the weights are separate from the features, learning (TD, self-play) only has to
produce new weights: :meth:`WeightedFeatures.with_weights`.

Each feature is computed from the viewpoint of ``player``; in a zero-sum game a feature is
usually "mine minus theirs", so the evaluation of one player is minus the other's.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from gamesearch.errors import GameSearchError
from gamesearch.game import Game, State

FeatureFunction = Callable[[State, int], float]


@dataclass(frozen=True)
class Feature:
    """A named feature ``function(state, player) -> float`` and its weight."""

    name: str
    function: FeatureFunction
    weight: float


@dataclass(frozen=True)
class Contribution:
    """What one feature added to an evaluation: ``weight * value = contribution``."""

    name: str
    value: float
    weight: float
    contribution: float


class WeightedFeatures:
    """A linear evaluation ``scale * sum(w_i * f_i(state, player))``, clipped to ``bound``.

    ``features``: ``(name, function, weight)`` triples (or :class:`Feature` objects).
    ``scale`` brings the sum onto the game's utility scale; ``bound`` (if given) clips the
    result into ``[-bound, bound]`` so that no evaluation looks as good as a won game.
    """

    def __init__(self, features: Iterable[Feature | tuple[str, FeatureFunction, float]],
                 scale: float = 1.0, bound: float | None = None) -> None:
        self.features: tuple[Feature, ...] = tuple(
            f if isinstance(f, Feature) else Feature(*f) for f in features
        )
        names = [f.name for f in self.features]
        if not names:
            raise GameSearchError("WeightedFeatures needs at least one feature")
        if len(set(names)) != len(names):
            raise GameSearchError(f"WeightedFeatures: feature names repeat: {names}")
        if bound is not None and bound <= 0:
            raise GameSearchError(f"WeightedFeatures: bound={bound} must be positive")
        self.scale = scale
        self.bound = bound

    @property
    def names(self) -> list[str]:
        """The feature names, in order."""
        return [f.name for f in self.features]

    @property
    def weights(self) -> list[float]:
        """The weights, in the order of the features."""
        return [f.weight for f in self.features]

    def values(self, state: State, player: int) -> list[float]:
        """The feature vector f(s) from ``player``'s viewpoint (what learning needs)."""
        return [f.function(state, player) for f in self.features]

    def __call__(self, state: State, player: int) -> float:
        """Eval(s) for ``player``: the weighted sum, scaled and clipped."""
        total = 0.0
        for f in self.features:
            total += f.weight * f.function(state, player)
        return self._finish(total)

    def _finish(self, total: float) -> float:
        value = total * self.scale
        if self.bound is not None:
            value = max(-self.bound, min(self.bound, value))
        return value

    def contributions(self, state: State, player: int) -> list[Contribution]:
        """Why a state scores what it scores: each feature's value, weight and share
        (``weight * value * scale``; they add up to the evaluation unless it is clipped)."""
        out = []
        for f in self.features:
            v = f.function(state, player)
            out.append(Contribution(f.name, v, f.weight, f.weight * v * self.scale))
        return out

    def explain(self, state: State, player: int) -> str:
        """The contributions as a small text table, ending with the evaluation."""
        rows = self.contributions(state, player)
        width = max(len(r.name) for r in rows)
        lines = [f"{'feature':<{width}}  {'value':>8}  {'weight':>8}  {'adds':>9}"]
        lines += [f"{r.name:<{width}}  {r.value:>8g}  {r.weight:>8g}  {r.contribution:>9.4f}"
                  for r in rows]
        lines.append(f"{'Eval':<{width}}  {'':>8}  {'':>8}  {self(state, player):>9.4f}")
        return "\n".join(lines)

    def with_weights(self, weights: Sequence[float]) -> WeightedFeatures:
        """The same features with new weights (learning produces these)."""
        if len(weights) != len(self.features):
            raise GameSearchError(f"WeightedFeatures: {len(weights)} weights given for "
                                  f"{len(self.features)} features ({', '.join(self.names)})")
        return WeightedFeatures(
            [Feature(f.name, f.function, float(w)) for f, w in zip(self.features, weights)],
            scale=self.scale, bound=self.bound,
        )

    def __repr__(self) -> str:
        terms = " + ".join(f"{f.weight:g}*{f.name}" for f in self.features).replace("+ -", "- ")
        extra = "" if self.scale == 1 else f", scale={self.scale:g}"
        extra += "" if self.bound is None else f", bound={self.bound:g}"
        return f"WeightedFeatures({terms}{extra})"


def with_evaluation(game: Game, evaluate: Callable[[State, int], float]) -> Game:
    """A copy of ``game`` whose ``evaluate`` capability is ``evaluate`` (the original game is
    not changed): every search that reads the game's evaluation then uses it."""
    evaluated: Any = copy.copy(game)
    evaluated.evaluate = evaluate
    return evaluated


__all__ = ["Contribution", "Feature", "WeightedFeatures", "with_evaluation"]
