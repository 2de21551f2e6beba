"""The rules of Othello, written to be read: they are the specification the compiled kernel
(kernel.py) is tested against.

A state is ``(cells, mover)``: ``cells`` a string of ``size*size`` squares from a1
along the rows (``X`` black, ``O`` white, ``-`` empty), ``mover`` 0 for black (who starts)
and 1 for white. A move puts a disc on an
empty square so that it brackets, along at least one of the eight lines, a run of the
opponent's discs ending at one of the mover's; every bracketed run turns over. A side with
no such move passes (a pass is a ply, written ``pass``); the game ends when neither side can
move, and the side with more discs wins (utilities +1/-1, 0 for a draw). The exact score,
as in the endgame literature, is the disc difference with the empty squares given to the
winner (:meth:`Othello.final_score`).
"""

from __future__ import annotations

from gamesearch.errors import GameSearchError, IllegalActionError
from gamesearch.game import Game
from gamesearch.games.othello.notation import (
    BLACK,
    EMPTY,
    PASS,
    WHITE,
    board_string,
    parse_board,
    parse_square,
    square_name,
)

DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
PASS_MOVE = -1
"""The action of a side that has no move."""

State = tuple[str, int]


class Othello(Game):
    """Othello on a ``size`` x ``size`` board (8, or 6 for a smaller game)."""

    name = "othello"
    num_players = 2
    zero_sum = True

    def __init__(self, size: int = 8) -> None:
        if size not in (4, 6, 8):
            raise GameSearchError(f"othello: size is 4, 6 or 8, not {size}")
        self.size = size

    def __repr__(self) -> str:
        return f"Othello(size={self.size})"

    # --- the formalization ---------------------------------------------------------------
    def initial_state(self) -> State:
        n, h = self.size, self.size // 2
        cells = [EMPTY] * (n * n)
        cells[(h - 1) * n + h - 1] = cells[h * n + h] = WHITE  # d4 and e5 on 8x8
        cells[(h - 1) * n + h] = cells[h * n + h - 1] = BLACK  # e4 and d5
        return ("".join(cells), 0)

    def to_move(self, state: State) -> int:
        return state[1]

    def flips(self, cells: str, mover: int, square: int) -> list[int]:
        """The squares turned over when ``mover`` plays on the empty ``square``."""
        me, them = (BLACK, WHITE) if mover == 0 else (WHITE, BLACK)
        n = self.size
        row, col = divmod(square, n)
        turned: list[int] = []
        for dr, dc in DIRECTIONS:
            run: list[int] = []
            r, c = row + dr, col + dc
            while 0 <= r < n and 0 <= c < n and cells[r * n + c] == them:
                run.append(r * n + c)
                r, c = r + dr, c + dc
            if run and 0 <= r < n and 0 <= c < n and cells[r * n + c] == me:
                turned.extend(run)
        return turned

    def moves(self, cells: str, mover: int) -> list[int]:
        """The squares where ``mover`` may put a disc, in square order."""
        return [sq for sq in range(self.size * self.size)
                if cells[sq] == EMPTY and self.flips(cells, mover, sq)]

    def actions(self, state: State) -> list[int]:
        cells, mover = state
        return self.moves(cells, mover) or [PASS_MOVE]

    def result(self, state: State, action: int) -> State:
        cells, mover = state
        if action == PASS_MOVE:
            return (cells, 1 - mover)
        board = list(cells)
        for sq in [action, *self.flips(cells, mover, action)]:
            board[sq] = BLACK if mover == 0 else WHITE
        return ("".join(board), 1 - mover)

    def is_terminal(self, state: State) -> bool:
        cells, mover = state
        return not self.moves(cells, mover) and not self.moves(cells, 1 - mover)

    def final_score(self, state: State) -> int:
        """Black's discs minus white's, the empty squares going to the winner."""
        cells = state[0]
        black, white = cells.count(BLACK), cells.count(WHITE)
        empty = len(cells) - black - white
        diff = black - white
        return diff + empty if diff > 0 else diff - empty if diff < 0 else 0

    def utilities(self, state: State) -> tuple[int, int]:
        score = self.final_score(state)
        sign = (score > 0) - (score < 0)
        return (sign, -sign)

    def evaluate(self, state: State, player: int) -> float:
        """Corners and mobility for ``player``, squashed into (-1, 1): what the generic
        searches use at a depth cut-off (the kernel's ``evaluate`` is this one; the Othello
        engine has its own learned evaluation)."""
        cells, _ = state
        n = self.size
        corners = [cells[i] for i in (0, n - 1, n * (n - 1), n * n - 1)]
        mine, theirs = (BLACK, WHITE) if player == 0 else (WHITE, BLACK)
        x = 3.0 * (corners.count(mine) - corners.count(theirs)) \
            + 0.3 * (len(self.moves(cells, player)) - len(self.moves(cells, 1 - player)))
        return x / (abs(x) + 10.0)

    @property
    def kernel(self):
        """The compiled bitboard kernel (docs/KERNELS.md), made on first use."""
        from gamesearch.games.othello.kernel import make_kernel

        return make_kernel(self.size)

    # --- for learning libraries (docs/INTEROP.md) -------------------------------------------
    def num_distinct_actions(self) -> int:
        """One action per square, then the pass: an action's number is its square's."""
        return self.size * self.size + 1

    def action_index(self, action: int) -> int:
        """The square's number; the pass is the last number."""
        return self.size * self.size if action == PASS_MOVE else action

    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """Rows, columns, and two planes: the observer's discs, the other's."""
        return (self.size, self.size, 2)

    def observation_tensor(self, state: tuple, player: int) -> list[float]:
        """The board as :attr:`observation_shape`: 1 where the observer has a disc (plane
        0), where the other has one (plane 1)."""
        mine, theirs = (BLACK, WHITE) if player == 0 else (WHITE, BLACK)
        return [float(c == colour) for c in state[0] for colour in (mine, theirs)]

    # --- notation --------------------------------------------------------------------------
    def action_to_string(self, state: State, action: int) -> str:
        return PASS if action == PASS_MOVE else square_name(action, self.size)

    def string_to_action(self, state: State, text: str) -> int:
        legal = self.actions(state)
        if text.strip().lower() == PASS:
            if legal != [PASS_MOVE]:
                raise IllegalActionError(f"illegal move {text.strip()!r}: a side may pass only "
                                         "when it has no move")
            return PASS_MOVE
        square = parse_square(text, self.size)
        if square not in legal:
            shown = ", ".join(self.action_to_string(state, a) for a in legal)
            raise IllegalActionError(f"illegal move {text.strip()!r}; legal moves: {shown}")
        return square

    def state_to_string(self, state: State) -> str:
        """The FFO board string."""
        return board_string(state[0], state[1])

    def state_from_string(self, text: str) -> State:
        """A board string (``O--OOOOX...X X``) or the moves from the start (``d3 c5``)."""
        squeezed = "".join(text.split())
        is_moves = any(ch.isdigit() for ch in squeezed) or PASS in squeezed.lower()
        if squeezed and not is_moves:  # every move but a pass holds a digit
            cells, mover = parse_board(squeezed, self.size)
            return (cells, mover)
        return super().state_from_string(text)

    def player_name(self, player: int) -> str:
        """Black (player 0, who starts; X) and White (O)."""
        return ("Black", "White")[player] if player in (0, 1) else super().player_name(player)

    def render(self, state: State) -> str:
        cells, mover = state
        n = self.size
        lines = ["  " + " ".join("abcdefgh"[:n])]
        for r in range(n):
            lines.append(f"{r + 1} " + " ".join(cells[r * n:(r + 1) * n]))
        black, white = cells.count(BLACK), cells.count(WHITE)
        lines.append(f"{'X' if mover == 0 else 'O'} to move   X {black}  O {white}")
        return "\n".join(lines)
