"""Tic-tac-toe and Connect Four written for easyAI's ``TwoPlayerGame`` API (benchmark only).

Our own code, using easyAI's documented protocol: ``possible_moves``, ``make_move``,
``unmake_move`` (easyAI's Negamax detects it and then mutates one board instead of copying),
``lose``, ``is_over``, ``scoring`` and ``ttentry`` (the transposition-table key). Written the
way a careful easyAI user would: flat lists, and a Connect Four loss test that only looks at
the lines through the last stone played. :func:`counting` gives a subclass whose
``make_move`` counts its calls, used in an untimed run, so nodes are counted as for our search
(the root plus every child state made).
"""

from __future__ import annotations

from easyAI import TwoPlayerGame

TTT_LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6),
)


class EasyTicTacToe(TwoPlayerGame):
    """Squares 0-8 row by row; 0 empty, 1 or 2 the player's mark; player 1 starts."""

    def __init__(self, players=None) -> None:
        self.players = players or [None, None]
        self.board = [0] * 9
        self.current_player = 1

    def possible_moves(self) -> list[int]:
        return [i for i in range(9) if self.board[i] == 0]

    def make_move(self, move: int) -> None:
        self.board[move] = self.current_player

    def unmake_move(self, move: int) -> None:
        self.board[move] = 0

    def lose(self) -> bool:
        """The opponent (who just moved) owns a whole line."""
        b, p = self.board, self.opponent_index
        return any(b[i] == p and b[j] == p and b[k] == p for i, j, k in TTT_LINES)

    def is_over(self) -> bool:
        return self.lose() or 0 not in self.board

    def scoring(self) -> int:
        return -100 if self.lose() else 0

    def ttentry(self) -> tuple:
        return tuple(self.board)


W, H = 7, 6
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


class EasyConnectFour(TwoPlayerGame):
    """7x6 board as a flat list (cell c*H + r, r=0 at the bottom) with column heights."""

    def __init__(self, players=None) -> None:
        self.players = players or [None, None]
        self.board = [0] * (W * H)
        self.heights = [0] * W
        self.history: list[int] = []
        self.current_player = 1

    def possible_moves(self) -> list[int]:
        return [c for c in range(W) if self.heights[c] < H]

    def make_move(self, column: int) -> None:
        r = self.heights[column]
        self.board[column * H + r] = self.current_player
        self.heights[column] = r + 1
        self.history.append(column)

    def unmake_move(self, column: int) -> None:
        self.history.pop()
        self.heights[column] -= 1
        self.board[column * H + self.heights[column]] = 0

    def lose(self) -> bool:
        """The opponent's last stone completed four in a row."""
        if not self.history:
            return False
        c = self.history[-1]
        r = self.heights[c] - 1
        b, p = self.board, self.opponent_index
        for dc, dr in DIRECTIONS:
            run = 1
            for sign in (1, -1):
                x, y = c + sign * dc, r + sign * dr
                while 0 <= x < W and 0 <= y < H and b[x * H + y] == p:
                    run += 1
                    x, y = x + sign * dc, y + sign * dr
            if run >= 4:
                return True
        return False

    def is_over(self) -> bool:
        return len(self.history) == W * H or self.lose()

    def scoring(self) -> int:
        return -100 if self.lose() else 0

    def ttentry(self) -> tuple:
        return tuple(self.board)


def counting(cls: type) -> type:
    """A subclass of ``cls`` whose ``make_move`` counts its calls in the class attribute
    ``made`` (a class attribute, so that easyAI's copies of a game count too)."""

    class Counting(cls):
        made = 0

        def make_move(self, move):
            Counting.made += 1
            super().make_move(move)

    return Counting


def play_moves(game: TwoPlayerGame, moves: str) -> TwoPlayerGame:
    """Play Connect Four ``moves`` (columns 1-7) on an easyAI game and return it."""
    for ch in moves:
        game.make_move(int(ch) - 1)
        game.switch_player()
    return game


def bundled_connect_four_class() -> type:
    """easyAI's own ConnectFour example class (a numpy board, copied for every child): the
    class behind the issue's figure of about 6,000 nodes per second."""
    from easyAI.games import ConnectFour

    return ConnectFour
