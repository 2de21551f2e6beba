"""Handicap stones: where Black's fixed handicap stones go (GTP 2, section 4.1.1).

Black places ``n`` stones before the game and White then moves first. The fixed placements
are the star points: the 4th line on boards of 12 and more, the 3rd on smaller ones;
corners first (two opposite, then the other two), the centre for an odd count, then the
side midpoints. Boards under 7x7 take no fixed handicap; even boards and 7x7 at most 4
stones (no centre to balance them), odd boards from 9x9 at most 9. GNU Go places the same
points (tests/test_go_handicap.py asks it).
"""

from __future__ import annotations

from gamesearch.errors import GameSearchError


def max_fixed_handicap(size: int) -> int:
    """The most fixed handicap stones a ``size`` board takes (0: none)."""
    if size < 7:
        return 0
    return 4 if size % 2 == 0 or size == 7 else 9


def fixed_handicap_points(size: int, n: int) -> list[int]:
    """The points (row by row from the top) of ``n`` fixed handicap stones on a ``size``
    board, in the order GTP's table lists them; an error for a count the board cannot take."""
    most = max_fixed_handicap(size)
    if most == 0:
        raise GameSearchError(f"go: a {size}x{size} board takes no fixed handicap "
                              "(7x7 and larger do)")
    if not 2 <= n <= most:
        raise GameSearchError(f"go: a fixed handicap on {size}x{size} is 2-{most} stones, "
                              f"not {n}")
    edge = 3 if size >= 12 else 2
    lo, hi, mid = edge, size - 1 - edge, size // 2
    corners = [(lo, lo), (hi, hi), (lo, hi), (hi, lo)]  # (column, row from the bottom)
    sides = [(lo, mid), (hi, mid)]
    ends = [(mid, lo), (mid, hi)]
    centre = [(mid, mid)]
    layout = {2: corners[:2], 3: corners[:3], 4: corners, 5: corners + centre,
              6: corners + sides, 7: corners + sides + centre, 8: corners + sides + ends,
              9: corners + sides + ends + centre}[n]
    return [(size - 1 - row) * size + col for col, row in layout]
