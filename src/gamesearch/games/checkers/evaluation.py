"""The hand-written checkers evaluation, written to be read and changed: features of a
position for one side, a weight per feature, the weighted sum squashed into (-1, 1).

The features are the ones Samuel's 1959 program and Chinook's hand-tuned evaluation start
from, each the side's count minus the opponent's:

==============  ==================================================================
``men``         men on the board
``kings``       kings on the board (a king is worth more than a man: it moves both ways)
``advance``     rows the men have advanced (a man near crowning is worth more)
``back_rank``   men still on their own back row (they keep the other side from crowning)
``centre``      pieces on the eight central squares (10, 11, 14, 15, 18, 19, 22, 23)
``mobility``    simple moves available (ignoring that a capture would be compulsory)
==============  ==================================================================

The compiled kernel (kernel.py) computes the same numbers; tests/test_checkers.py checks
that they agree, so this file is the specification of the engine's evaluation too.
"""

from __future__ import annotations

from gamesearch.games.checkers.notation import STEPS

FEATURES = ("men", "kings", "advance", "back_rank", "centre", "mobility")
HAND_WEIGHTS = (100.0, 160.0, 4.0, 12.0, 6.0, 2.0)
"""Typed in: a man is 100, a king 160; the rest are nudges worth a fraction of a man."""
SCALE = 400.0
"""The squashing constant: a margin of one man (100) evaluates to 100 / 500 = 0.2."""
CENTRE = frozenset((10, 11, 14, 15, 18, 19, 22, 23))


def features(cells: str, player: int) -> list[float]:
    """The feature values (module docstring) for ``player`` (0 Black, 1 White)."""
    men, kings = ("b", "w"), ("B", "W")
    values = [[0.0] * len(FEATURES) for _ in range(2)]
    for index, piece in enumerate(cells):
        if piece == ".":
            continue
        square = index + 1
        side = 0 if piece in ("b", "B") else 1
        row = index // 4
        v = values[side]
        if piece in men:
            v[0] += 1
            v[2] += row if side == 0 else 7 - row
            v[3] += (row == 0) if side == 0 else (row == 7)
        else:
            v[1] += 1
        v[4] += square in CENTRE
        rows = (-1, 1) if piece in kings else ((1,) if side == 0 else (-1,))
        for dr in rows:
            for dc in (-1, 1):
                to = STEPS[square, dr, dc][0]
                v[5] += to is not None and cells[to - 1] == "."
    return [a - b for a, b in zip(values[player], values[1 - player])]


def evaluate(cells: str, player: int, weights: tuple[float, ...] = HAND_WEIGHTS) -> float:
    """The weighted features for ``player``, squashed into (-1, 1) by x / (|x| + SCALE)."""
    x = sum(w * f for w, f in zip(weights, features(cells, player)))
    return x / (abs(x) + SCALE)
