"""A bounded transposition table storing exact values and lower/upper bounds.

At most ``capacity`` entries are held (the stated memory cap). When the table is full, it
keeps the half most worth keeping (the current search's entries first, then the deepest)
and drops the rest: depth-preferred replacement with aging, amortized O(log n) a store.
Values are stored from the viewpoint of one player, the root player of the searches that
use it; a table handed to a search for another player or another game is cleared first,
so a stale viewpoint can never leak in.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

EXACT, LOWER, UPPER = 0, 1, 2
"""Entry kinds: the exact value, a lower bound (fail high) or an upper bound (fail low)."""


class TranspositionTable:
    """Bounded map from state key to ``(depth, value, kind, best action, age)``."""

    __slots__ = ("capacity", "entries", "age", "player", "game", "stores", "evictions")

    def __init__(self, capacity: int = 1 << 20) -> None:
        if capacity < 2:
            raise ValueError(f"transposition table capacity must be at least 2, got {capacity}")
        self.capacity = capacity
        self.entries: dict[Hashable, tuple] = {}
        self.age = 0
        self.player: int | None = None
        self.game: Any = None
        self.stores = 0
        self.evictions = 0

    def prepare(self, player: int, game: Any = None) -> None:
        """Start a new search of ``game`` for ``player``: age the entries; clear them when the
        viewpoint or the game changed (a table never mixes two games' states)."""
        if (self.player is not None and self.player != player) or self.game is not game:
            self.clear()
        self.player = player
        self.game = game
        self.age += 1

    def clear(self) -> None:
        """Forget every entry."""
        self.entries.clear()

    def get(self, key: Hashable) -> tuple | None:
        """The entry ``(depth, value, kind, action, age)`` for ``key``, or None."""
        return self.entries.get(key)

    def put(self, key: Hashable, depth: int, value: float, kind: int, action: Any) -> None:
        """Store a search result; make room first when the table is full."""
        entries = self.entries
        if len(entries) >= self.capacity and key not in entries:
            self._make_room()
        entries[key] = (depth, value, kind, action, self.age)
        self.stores += 1

    def _make_room(self) -> None:
        ranked = sorted(self.entries.items(), key=lambda kv: (kv[1][4], kv[1][0]), reverse=True)
        keep = ranked[: self.capacity // 2]
        self.evictions += len(self.entries) - len(keep)
        self.entries = dict(keep)

    def __len__(self) -> int:
        return len(self.entries)
