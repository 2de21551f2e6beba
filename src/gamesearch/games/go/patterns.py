"""MoGo's 3x3 play-out patterns (Gelly, Wang, Munos and Teytaud, "Modification of UCT
with patterns in Monte-Carlo Go", INRIA RR-6062, 2006): hane, cut and edge shapes around
an empty point, matched in any rotation, reflection and with the colours swapped.

Written as the paper draws them: the centre is the candidate move; ``X`` and ``O`` are
stones of the two colours, ``.`` empty, ``x`` anything but ``X`` (empty, ``O`` or off the
board), ``o`` anything but ``O``, ``?`` anything, and a blank the edge of the board.

:data:`TABLE` holds, for every 3x3 neighbourhood (eight neighbours, each empty, black,
white or off the board: ``code = sum(value_i * 4 ** i)`` in :data:`NEIGHBOURS` order),
whether some pattern matches; the compiled play-outs (kernel.py) read it.
"""

from __future__ import annotations

import numpy as np

EMPTY, BLACK, WHITE, EDGE = 0, 1, 2, 3
PATTERNS = [
    # hane: enclosing, non-cutting, magari; and the diagonal attachment
    ["XOX", "...", "???"],
    ["XO.", "...", "?.?"],
    ["XO?", "X..", "x.?"],
    [".O.", "X..", "..."],
    # cuts: unprotected, peeped, the second cut, the keima cut
    ["XO?", "O.o", "?o?"],
    ["XO?", "O.X", "???"],
    ["?X?", "O.O", "ooo"],
    ["OX?", "o.O", "???"],
    # on the edge (the blank row is off the board): chase, block a cut, block a
    # connection, sagari, cut
    ["X.?", "O.?", "   "],
    ["OX?", "X.O", "   "],
    ["?X?", "x.O", "   "],
    ["?XO", "x.x", "   "],
    ["?OX", "X.O", "   "],
]
NEIGHBOURS = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)]
"""The eight neighbours as (row, column) of the 3x3 square, top row first."""
ALLOWED = {"X": {BLACK}, "O": {WHITE}, ".": {EMPTY}, " ": {EDGE},
           "x": {EMPTY, WHITE, EDGE}, "o": {EMPTY, BLACK, EDGE},
           "?": {EMPTY, BLACK, WHITE, EDGE}}


def variants(pattern: list[str]) -> set[tuple[str, ...]]:
    """The pattern in its 8 orientations, each also with the colours swapped."""
    found = set()
    grid = [list(row) for row in pattern]
    for _ in range(4):
        grid = [list(row) for row in zip(*grid[::-1])]  # a quarter turn
        for g in (grid, [row[::-1] for row in grid]):
            rows = tuple("".join(row) for row in g)
            found.add(rows)
            found.add(tuple(r.translate(str.maketrans("XOxo", "OXox")) for r in rows))
    return found


def build_table() -> np.ndarray:
    """Whether each of the 4**8 neighbourhoods matches a pattern."""
    table = np.zeros(4 ** 8, np.bool_)
    for pattern in PATTERNS:
        for rows in variants(pattern):
            if rows[1][1] != ".":
                continue
            codes = np.zeros(1, np.int64)  # every code the wildcards allow, digit by digit
            for i, (r, c) in enumerate(NEIGHBOURS):
                digit = np.array(sorted(ALLOWED[rows[r][c]]), np.int64) * 4 ** i
                codes = (codes[:, None] + digit[None, :]).ravel()
            table[codes] = True
    return table


TABLE = build_table()
