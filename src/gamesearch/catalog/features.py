"""Weighted features for tic-tac-toe and Connect Four: open lines, centre control.

A line (tic-tac-toe) or a window of four cells (Connect Four) is *open* for a player when
the opponent has no mark in it: it can still become a win. Counting open lines holding
1, 2 or 3 of a player's marks, minus the opponent's, is the lectures' example of an
evaluation function for these games (AIMA 5.4.1 uses X2 and X1 for tic-tac-toe). The
weights below are set by hand (more marks in a line weigh more) and scaled so that every
evaluation stays strictly between a loss and a win.
"""

from __future__ import annotations

from functools import lru_cache

from gamesearch.games.connect4 import ConnectFour
from gamesearch.games.tictactoe import LINE_MASKS
from gamesearch.learn.features import WeightedFeatures

TICTACTOE_CENTRE = 1 << 4
TICTACTOE_CORNERS = (1 << 0) | (1 << 2) | (1 << 6) | (1 << 8)


@lru_cache(maxsize=1 << 14)
def _open_lines(lines: tuple[int, ...], mine: int, theirs: int, size: int) -> tuple[int, ...]:
    """counts[k] = (open lines with k of my marks) - (open lines with k of theirs)."""
    counts = [0] * size
    for line in lines:
        a = (line & mine).bit_count()
        b = (line & theirs).bit_count()
        if b == 0 and a:
            counts[a] += 1
        elif a == 0 and b:
            counts[b] -= 1
    return tuple(counts)


# --- tic-tac-toe: state (x, o), player 0 is X -----------------------------------------------


def _ttt_sides(state: tuple[int, int], player: int) -> tuple[int, int]:
    x, o = state
    return (x, o) if player == 0 else (o, x)


def ttt_open_one(state: tuple[int, int], player: int) -> float:
    """Open lines holding one of my marks, minus the opponent's (AIMA's X1 - O1)."""
    return _open_lines(LINE_MASKS, *_ttt_sides(state, player), 4)[1]


def ttt_open_two(state: tuple[int, int], player: int) -> float:
    """Open lines holding two of my marks (a threat), minus the opponent's (X2 - O2)."""
    return _open_lines(LINE_MASKS, *_ttt_sides(state, player), 4)[2]


def ttt_centre(state: tuple[int, int], player: int) -> float:
    """+1 if I hold the centre, -1 if the opponent does."""
    mine, theirs = _ttt_sides(state, player)
    return (1 if mine & TICTACTOE_CENTRE else 0) - (1 if theirs & TICTACTOE_CENTRE else 0)


def ttt_corners(state: tuple[int, int], player: int) -> float:
    """My corners minus the opponent's."""
    mine, theirs = _ttt_sides(state, player)
    return (mine & TICTACTOE_CORNERS).bit_count() - (theirs & TICTACTOE_CORNERS).bit_count()


def tictactoe_features() -> WeightedFeatures:
    """AIMA's 3*X2 + X1 - (3*O2 + O1), plus centre and corners; within (-1, 1)."""
    return WeightedFeatures(
        [("open_two", ttt_open_two, 3.0), ("open_one", ttt_open_one, 1.0),
         ("centre", ttt_centre, 1.0), ("corners", ttt_corners, 0.5)],
        scale=1 / 32, bound=0.99,
    )


# --- Connect Four: state (current, mask, moves, won) ---------------------------------------


def windows_of_four(game: ConnectFour) -> tuple[int, ...]:
    """Every line of four cells on the board as a mask of the game's bitboard: the game's
    own list (``ConnectFour.windows``), the one the evaluation and the kernel use."""
    return game.windows()


class _Connect4Features:
    """The feature functions of one board size (the windows depend on it)."""

    def __init__(self, game: ConnectFour) -> None:
        self.windows = windows_of_four(game)
        centre = game.width // 2
        self.centre = game.column_masks[centre]
        if game.width % 2 == 0:  # two middle columns on an even board
            self.centre |= game.column_masks[centre - 1]

    @staticmethod
    def sides(state: tuple, player: int) -> tuple[int, int]:
        current, mask, moves, _ = state
        mine = current if (moves & 1) == player else current ^ mask
        return mine, mine ^ mask

    def open_k(self, k: int):
        def feature(state: tuple, player: int) -> float:
            return _open_lines(self.windows, *self.sides(state, player), 5)[k]

        feature.__name__ = f"open_{k}"
        feature.__doc__ = f"Open windows of four holding {k} of my stones, minus theirs."
        return feature

    def centre_stones(self, state: tuple, player: int) -> float:
        """My stones in the centre column(s) minus the opponent's."""
        mine, theirs = self.sides(state, player)
        return (mine & self.centre).bit_count() - (theirs & self.centre).bit_count()


def connect4_features(game: ConnectFour | None = None) -> WeightedFeatures:
    """Open windows with 3, 2 and 1 stones (weights 16, 4, 1) and centre stones (3),
    scaled so that any evaluation stays within (-1, 1), below every win's score."""
    f = _Connect4Features(game or ConnectFour())
    return WeightedFeatures(
        [("open_three", f.open_k(3), 16.0), ("open_two", f.open_k(2), 4.0),
         ("open_one", f.open_k(1), 1.0), ("centre", f.centre_stones, 3.0)],
        scale=1 / 200, bound=0.99,
    )


__all__ = ["connect4_features", "tictactoe_features"]
