"""Facts about the board that the readable rules and the compiled kernel share."""

from __future__ import annotations


def column_order(width: int) -> tuple[int, ...]:
    """Columns from the centre outwards (the left one first on a tie): the move order that
    makes alpha-beta prune most on Connect Four, since central discs join more lines."""
    centre = (width - 1) / 2
    return tuple(sorted(range(width), key=lambda c: (abs(c - centre), c)))


def windows(width: int, height: int) -> tuple[int, ...]:
    """Every line of four cells on the board (rows, columns, both diagonals) as a mask of the
    bitboard (column c, row r is bit c*(height+1) + r): the one list of windows that the
    rules' evaluation, the learned features and the compiled kernel read."""
    h1 = height + 1
    found = []
    for c in range(width):
        for r in range(height):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(0 <= x < width and 0 <= y < height for x, y in cells):
                    found.append(sum(1 << (x * h1 + y) for x, y in cells))
    return tuple(found)
