"""Self-play and evaluation games written against a plain ``map``.

Generating games is the parallel part of learning: each game is a pure function of its
seed and the (frozen) players. So every batch of games here is
``executor_map(play_one, seeds)``, with the built-in ``map`` by default; a process pool's
``map`` (or a cluster's) can be passed unchanged, since ``play_one`` is a picklable
callable object and each game seeds its own generator.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

MapLike = Callable[[Callable[[int], Any], Iterable[int]], Iterable[Any]]
"""Anything with the built-in ``map``'s signature: ``map``, ``Pool.map``, ``executor.map``."""


def play_games(play_one: Callable[[int], Any], seeds: Iterable[int],
               executor_map: MapLike = map) -> list[Any]:
    """The results of ``play_one(seed)`` for each seed, in order, computed by
    ``executor_map`` (sequentially with the default ``map``)."""
    return list(executor_map(play_one, seeds))


@dataclass(frozen=True)
class Score:
    """A match result with a 95% confidence interval on the win rate (Wilson's interval)."""

    games: int
    wins: int
    points: float = 0.0

    @property
    def rate(self) -> float:
        """The fraction of games won."""
        return self.wins / self.games if self.games else 0.0

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """Wilson's score interval for the win rate (95% by default)."""
        n = self.games
        if n == 0:
            return 0.0, 1.0
        p = self.rate
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def __str__(self) -> str:
        lo, hi = self.interval()
        return (f"{self.wins}/{self.games} won = {100 * self.rate:.1f}% "
                f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%), {self.points / max(1, self.games):+.3f}"
                " points/game")
