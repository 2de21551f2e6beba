"""The compiled searches' transposition table: fixed-size numpy arrays (its memory never
grows), and the deepest ply a compiled search may reach."""

from __future__ import annotations

import numpy as np

BYTES_PER_ENTRY = 8 + 8 + 2 + 1 + 8  # key, value, depth, bound kind, move
# (a move is a full int64: checkers spells a whole jump path in one action)
DEFAULT_TABLE_MB = 64
MAX_PLY = 512


def table_entries(megabytes: float) -> int:
    """The largest power of two of entries that fits in ``megabytes`` (at least 1024)."""
    entries = 1024
    while entries * 2 * BYTES_PER_ENTRY <= megabytes * 2**20:
        entries *= 2
    return entries


class KernelTable:
    """A fixed-size transposition table in numpy arrays: its memory never grows."""

    def __init__(self, megabytes: float = DEFAULT_TABLE_MB) -> None:
        n = table_entries(megabytes)
        self.keys = np.full(n, -1, np.int64)
        self.values = np.zeros(n, np.float64)
        self.depth = np.zeros(n, np.int16)
        self.flag = np.zeros(n, np.int8)
        self.move = np.zeros(n, np.int64)

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.keys, self.values, self.depth, self.flag, self.move))

    def arrays(self) -> tuple[np.ndarray, ...]:
        return self.keys, self.values, self.depth, self.flag, self.move
