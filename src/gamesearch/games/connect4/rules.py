"""Connect Four rules in plain Python, on bitboards (any width and height).

The board is kept as two integers, as in Pascal Pons' solver: ``mask`` has a bit for every
stone, ``current`` for the stones of the player to move. Column c owns bits
c*(H+1) .. c*(H+1)+H-1, bottom up, plus one spare bit on top so that shifts never wrap.
A state is ``(current, mask, moves, won)``: ``won`` says the last move made four in a row.

Utilities follow the public benchmark sets' score (shared/data/connect4/README.md): a win
is worth ``(W*H)/2 + 1 - k`` to the winner, k being the number of stones the winner played,
so early wins count more; the loser gets the negation; a draw is 0. The exact value of a
position is then the score the benchmarks list. Columns are written 1..W for people.
"""

from __future__ import annotations

from gamesearch.errors import GameSearchError, IllegalActionError
from gamesearch.game import Game
from gamesearch.games.connect4.geometry import column_order, windows

C4State = tuple[int, int, int, bool]


def open_window_score(x: int, x1: int, x2: int, x3: int, x_any: int, open_: int) -> int:
    """Sum over the windows in ``open_`` of 1, 4, 16 or 64 for 1, 2, 3 or 4 stones of ``x``.

    Windows are named by their first cell p; bit p of ``xk`` (``x`` shifted by k steps) is
    the window's k-th cell, so the four boards hold every window's cells side by side and
    half adders count them for all windows at once: "at least 1, 2, 3, 4 stones", weighted
    1 + 3 + 12 + 48 so that a window scores 1, 4, 16 or 64. ``x_any`` is x | x1 | x2 | x3.
    """
    at1 = x_any & open_
    if not at1:
        return 0
    one01, both01 = x ^ x1, x & x1  # cells 0 and 1: exactly one of them, both
    one23, both23 = x2 ^ x3, x2 & x3  # cells 2 and 3
    at2 = (both01 | both23 | (one01 & one23)) & open_
    if not at2:
        return at1.bit_count()
    at3 = ((both01 & (one23 | both23)) | (both23 & one01)) & open_
    at4 = both01 & both23 & open_
    return (at1.bit_count() + 3 * at2.bit_count() + 12 * at3.bit_count()
            + 48 * at4.bit_count())


class ConnectFour(Game):
    """Drop stones into columns; four in a row (any direction) wins."""

    name = "connect4"

    def __init__(self, width: int = 7, height: int = 6) -> None:
        if not (4 <= width <= 9 and 4 <= height <= 8):
            raise GameSearchError(f"connect4: board {width}x{height} not supported "
                                  "(width 4-9, height 4-8)")
        self.width, self.height = width, height
        h1 = height + 1
        self.h1 = h1
        self.cells = width * height
        self.bottom = [1 << (c * h1) for c in range(width)]
        self.top = [1 << (c * h1 + height - 1) for c in range(width)]
        self.column_masks = [((1 << height) - 1) << (c * h1) for c in range(width)]
        self.column_tops = tuple(enumerate(self.top))
        # the shift to the next cell: vertical, horizontal, and the two diagonals
        self.shifts = (1, h1, h1 - 1, h1 + 1)
        self.window_shifts = tuple(
            (s, 2 * s, 3 * s, self._window_starts(s)) for s in self.shifts
        )
        self.order = list(column_order(width))
        self.max_score = self.cells // 2 + 1

    # --- the formalization ------------------------------------------------------------
    def initial_state(self) -> C4State:
        return (0, 0, 0, False)

    def to_move(self, state: C4State) -> int:
        return state[2] & 1

    def actions(self, state: C4State) -> list[int]:
        mask = state[1]
        return [c for c, top in self.column_tops if not mask & top]

    def result(self, state: C4State, column: int) -> C4State:
        current, mask, moves, _ = state
        new_mask = mask | (mask + self.bottom[column])
        mover_stones = current | (new_mask ^ mask)
        return (mover_stones ^ new_mask, new_mask, moves + 1, self.aligned(mover_stones))

    def is_terminal(self, state: C4State) -> bool:
        return state[3] or state[2] == self.cells

    def utilities(self, state: C4State) -> tuple[int, int]:
        current, mask, moves, won = state
        if not won:
            return (0, 0)
        winner = (moves - 1) & 1  # the player who made the last move
        score = self.max_score - (moves + 1) // 2
        return (score, -score) if winner == 0 else (-score, score)

    # --- for learning libraries (docs/INTEROP.md) -----------------------------------------
    def num_distinct_actions(self) -> int:
        """One action per column: an action is its column's number."""
        return self.width

    def action_index(self, column: int) -> int:
        """The column is the action's number."""
        return column

    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """Rows (top first), columns, and two planes: the observer's stones, the other's."""
        return (self.height, self.width, 2)

    def observation_tensor(self, state: C4State, player: int) -> list[float]:
        """The board as :attr:`observation_shape`: 1 where the observer has a stone (plane
        0), where the other has one (plane 1)."""
        out = []
        for row in self.grid(state):
            for cell in row:
                out += (float(cell == player + 1), float(cell == 2 - player))
        return out

    # --- bitboard helpers ----------------------------------------------------------------
    def aligned(self, stones: int) -> bool:
        """True when ``stones`` hold four in a row in any of the four directions.

        For a shift s, ``m = stones & stones >> s`` marks the starts of pairs, and
        ``m & m >> 2s`` the starts of fours. Unrolled: this runs once for every move made.
        """
        up, across, diag1, diag2 = self.shifts
        m = stones & (stones >> up)
        if m & (m >> (up + up)):
            return True
        m = stones & (stones >> across)
        if m & (m >> (across + across)):
            return True
        m = stones & (stones >> diag1)
        if m & (m >> (diag1 + diag1)):
            return True
        m = stones & (stones >> diag2)
        return bool(m & (m >> (diag2 + diag2)))

    # --- optional capabilities ------------------------------------------------------
    def order_actions(self, state: C4State, actions: list[int]) -> list[int]:
        """Centre columns first: they take part in the most lines."""
        if len(actions) == self.width:  # every column open, the usual case
            return list(self.order)
        return [c for c in self.order if c in actions]

    def evaluate(self, state: C4State, player: int) -> float:
        """Open lines weighted by how full they are, for ``player``, scaled into (-1, 1):
        any win (worth at least 1) outranks any evaluation.

        Every window of four cells in a row holding stones of one player only scores for
        that player 1, 4, 16 or 64 for 1, 2, 3 or 4 stones (``_windows`` lists the windows).
        Computed on whole bitboards, one direction at a time (:func:`open_window_score`):
        a window is open for a player when the opponent has no stone in it.
        """
        current, mask, moves, _ = state
        mine = current if (moves & 1) == player else current ^ mask
        theirs = mine ^ mask
        score = 0
        for s, s2, s3, starts in self.window_shifts:  # one direction at a time
            m1, m2, m3 = mine >> s, mine >> s2, mine >> s3
            t1, t2, t3 = theirs >> s, theirs >> s2, theirs >> s3
            m_any, t_any = mine | m1 | m2 | m3, theirs | t1 | t2 | t3
            score += open_window_score(mine, m1, m2, m3, m_any, starts & ~t_any)
            score -= open_window_score(theirs, t1, t2, t3, t_any, starts & ~m_any)
        return max(-0.99, min(0.99, score / 200))

    def _window_starts(self, shift: int) -> int:
        """The cells where a window of four cells, ``shift`` apart, starts on the board."""
        starts = 0
        for c in range(self.width):
            for r in range(self.height):
                first = c * self.h1 + r
                cells = [first + k * shift for k in range(4)]
                if all(cell % self.h1 < self.height and cell // self.h1 < self.width
                       and cell >= 0 for cell in cells):
                    starts |= 1 << first
        return starts

    def windows(self) -> tuple[int, ...]:
        """Every line of four cells on the board (rows, columns, both diagonals) as a mask of
        the bitboard (column c, row r is bit c*(H+1) + r): the one list of windows that the
        learned features and the compiled kernel's evaluation read."""
        cached = getattr(self, "_window_cache", None)
        if cached is None:
            cached = self._window_cache = windows(self.width, self.height)
        return cached

    @property
    def kernel(self):
        """The compiled kernel (docs/KERNELS.md), made on first use; None when the board does
        not fit the kernel's 63 bits."""
        if self.width * (self.height + 1) > 63:
            return None
        from gamesearch.games.connect4.kernel import make_kernel

        return make_kernel(self.width, self.height)

    # --- people ---------------------------------------------------------------------
    def action_to_string(self, state: C4State, column: int) -> str:
        return str(column + 1)

    def string_to_action(self, state: C4State, text: str) -> int:
        text = text.strip()
        if not (text.isascii() and text.isdigit() and len(text) <= 2):
            raise IllegalActionError(f"malformed move {text[:20]!r}: give a column "
                                     f"1-{self.width}")
        column = int(text) - 1
        if not 0 <= column < self.width:
            raise IllegalActionError(f"illegal move {text!r}: columns are 1-{self.width}")
        if state[1] & self.top[column]:
            raise IllegalActionError(f"illegal move {text!r}: column {text} is full")
        return column

    def state_from_string(self, text: str) -> C4State:
        """Columns played from the empty board, one digit each (``4453``), as the benchmark
        sets write positions (spaces and commas between them are allowed: ``4, 4, 5, 3``);
        the message names the first bad move."""
        moves = "".join(text.replace(",", " ").split())
        if len(moves) > self.cells:
            raise IllegalActionError(f"position of {len(moves):,} moves: a {self.width}x"
                                     f"{self.height} board holds {self.cells}")
        state = self.initial_state()
        for i, ch in enumerate(moves):
            where = f"position {moves!r}, move {i + 1} ({ch!r})"
            if self.is_terminal(state):
                raise IllegalActionError(f"{where}: the game was already over")
            try:
                state = self.result(state, self.string_to_action(state, ch))
            except IllegalActionError as err:
                raise IllegalActionError(f"{where}: {err}") from None
        return state

    def grid(self, state: C4State) -> list[list[int]]:
        """Rows top to bottom, each cell 0 (empty), 1 (first player) or 2 (second)."""
        current, mask, moves, _ = state
        first = current if moves % 2 == 0 else current ^ mask
        rows = []
        for r in range(self.height - 1, -1, -1):
            row = []
            for c in range(self.width):
                bit = 1 << (c * self.h1 + r)
                row.append(0 if not mask & bit else 1 if first & bit else 2)
            rows.append(row)
        return rows

    def render(self, state: C4State) -> str:
        symbols = {0: ".", 1: "X", 2: "O"}
        lines = [" ".join(symbols[v] for v in row) for row in self.grid(state)]
        lines.append(" ".join(str(c + 1) for c in range(self.width)))
        return "\n".join(lines)

    def player_name(self, player: int) -> str:
        return {0: "X", 1: "O"}.get(player, super().player_name(player))

    def __repr__(self) -> str:
        return f"ConnectFour(width={self.width}, height={self.height})"
