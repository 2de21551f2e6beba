"""The hand-written checkers evaluation, written to be read and changed: features of a
position for one side, a weight per feature, the weighted sum squashed into (-1, 1).

The features are the ones Samuel's 1959 program and Chinook's hand-tuned evaluation start
from, each the side's count minus the opponent's:

===================  ==============================================================
``men``              men on the board
``kings``            kings on the board (a king is worth more than a man: it moves both
                     ways)
``advance``          rows the men have advanced (a man near crowning is worth more)
``back_rank``        men still on their own back row (they keep the other side from
                     crowning)
``centre``           pieces on the eight central squares (10, 11, 14, 15, 18, 19, 22, 23)
``mobility``         simple moves available (ignoring that a capture would be compulsory)
``exchange``         the side's share of the material (a man 100, a king 130) times 100:
                     the difference is 100 (a - b) / (a + b), which grows as pieces come
                     off while one side is ahead, so the side ahead trades down
``advance_opening``  ``advance`` while 16 or more men are on the board (men kept back
                     early keep the formation: a negative weight)
``advance_middle``   ``advance`` with 12 to 15 men on the board
``advance_end``      ``advance`` with fewer than 9 men (then men must go and crown)
``guard``            the shape of the men on the own back row, a value for each of the
                     16 ways (GUARD): the bridge (squares 1 and 3 for Black) and the
                     triangle hold the other side's men off the crowning squares with
                     the fewest men
``double_corner``    the man on the own double corner (square 1 for Black) backed by one
                     in front of it (5 or 6): the corner stays shut
``cramp``            a man on the fourth row of the single-corner side (20 for Black)
                     facing the other's man (24): it cramps the other's left wing
``king_centre``      kings on the central squares (a king there reaches both wings)
``edge_men``         men on the board's border squares (they guard less)
``edge_kings``       kings on the border squares (a king on the edge is half a king)
``hiding_king``      kings in a double corner (1, 5, 28, 32) of the side that has fewer
                     pieces and fewer than three kings: there the weaker side draws
===================  ==============================================================

Black's squares are 1-32 from its own back row; White's features count the same shapes
turned round (square ``s`` as ``33 - s``). The compiled kernel (kernel.py) computes the
same numbers; tests/test_checkers.py checks that they agree, so this file is the
specification of the engine's evaluation too.
"""

from __future__ import annotations

from gamesearch.games.checkers.notation import STEPS

FEATURES = ("men", "kings", "advance", "back_rank", "centre", "mobility", "exchange",
            "advance_opening", "advance_middle", "advance_end", "guard", "double_corner",
            "cramp", "king_centre", "edge_men", "edge_kings", "hiding_king")
HAND_WEIGHTS = (100.0, 130.0, 0.0, 0.0, 1.0, 1.0, 2.5,
                -2.0, -1.0, 2.0, 3.0, 3.0,
                5.0, 4.0, -1.0, -5.0, 15.0)
"""Typed in: a man is 100, a king 130 (worth 1.3 men, as classic programs have it); the
rest are nudges worth a fraction of a man (the six first features' older weights were
100, 160, 4, 12, 6, 2: men rushed forward and kings were overvalued)."""
SCALE = 400.0
"""The squashing constant: a margin of one man (100) evaluates to 100 / 500 = 0.2."""
CENTRE = frozenset((10, 11, 14, 15, 18, 19, 22, 23))
EDGE = frozenset((1, 2, 3, 4, 5, 12, 13, 20, 21, 28, 29, 30, 31, 32))
HIDING = frozenset((1, 5, 28, 32))
GUARD = (0, 1, 1, 2, 1, 7, 2, 9, -1, 0, 1, 2, 0, 4, 1, 8)
"""The back-row shape's value by which of the side's own back squares hold its men: bit 0
the corner square (1 for Black), bits 1, 2, 3 the next ones (2, 3, 4). 5 (1 and 3, the
bridge) is 7; 7 (1, 2, 3) is 9; all four are 8; the single corner square 4 alone is -1."""
KING_VALUE = 130
"""A king in ``exchange``'s material count (a man is 100)."""


def features(cells: str, player: int) -> list[float]:
    """The feature values (module docstring) for ``player`` (0 Black, 1 White)."""
    men, kings = ("b", "w"), ("B", "W")
    values = [[0.0] * len(FEATURES) for _ in range(2)]
    counts = [[0, 0], [0, 0]]  # men, kings of each side
    for piece in cells:
        if piece != ".":
            counts[0 if piece in ("b", "B") else 1][piece in kings] += 1
    total_men = counts[0][0] + counts[1][0]
    for index, piece in enumerate(cells):
        if piece == ".":
            continue
        square = index + 1
        side = 0 if piece in ("b", "B") else 1
        row = index // 4
        v = values[side]
        if piece in men:
            advanced = row if side == 0 else 7 - row
            v[0] += 1
            v[2] += advanced
            v[3] += (row == 0) if side == 0 else (row == 7)
            v[7] += advanced if total_men >= 16 else 0
            v[8] += advanced if 12 <= total_men <= 15 else 0
            v[9] += advanced if total_men < 9 else 0
            v[14] += square in EDGE
        else:
            v[1] += 1
            v[13] += square in CENTRE
            v[15] += square in EDGE
            mine, theirs = counts[side], counts[1 - side]
            v[16] += (square in HIDING and sum(mine) < sum(theirs) and mine[1] < 3)
        v[4] += square in CENTRE
        rows = (-1, 1) if piece in kings else ((1,) if side == 0 else (-1,))
        for dr in rows:
            for dc in (-1, 1):
                to = STEPS[square, dr, dc][0]
                v[5] += to is not None and cells[to - 1] == "."
    for side in (0, 1):
        v = values[side]

        def at(own: int, piece: str, side: int = side) -> bool:
            """Is ``piece`` (a man of ``side``'s, or the other's) on the side's square?"""
            return cells[(own if side == 0 else 33 - own) - 1] == piece

        man, their_man = men[side], men[1 - side]
        material = [100 * m + KING_VALUE * k for m, k in counts]
        if sum(material):
            v[6] = 100 * material[side] / sum(material)
        v[10] = GUARD[sum(1 << i for i, own in enumerate((1, 2, 3, 4)) if at(own, man))]
        v[11] = at(1, man) and (at(5, man) or at(6, man))
        v[12] = at(20, man) and at(24, their_man)
    return [a - b for a, b in zip(values[player], values[1 - player])]


def evaluate(cells: str, player: int, weights: tuple[float, ...] = HAND_WEIGHTS) -> float:
    """The weighted features for ``player``, squashed into (-1, 1) by x / (|x| + SCALE)."""
    x = sum(w * f for w, f in zip(weights, features(cells, player)))
    return x / (abs(x) + SCALE)
