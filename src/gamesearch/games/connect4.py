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

C4State = tuple[int, int, int, bool]


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
        centre = (width - 1) / 2
        self.order = sorted(range(width), key=lambda c: (abs(c - centre), c))
        self.max_score = self.cells // 2 + 1

    # --- the formalization ------------------------------------------------------------
    def initial_state(self) -> C4State:
        return (0, 0, 0, False)

    def to_move(self, state: C4State) -> int:
        return state[2] & 1

    def actions(self, state: C4State) -> list[int]:
        mask = state[1]
        return [c for c in range(self.width) if not mask & self.top[c]]

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

    # --- bitboard helpers ----------------------------------------------------------------
    def aligned(self, stones: int) -> bool:
        """True when ``stones`` hold four in a row in any of the four directions."""
        for shift in (1, self.h1, self.h1 - 1, self.h1 + 1):
            m = stones & (stones >> shift)
            if m & (m >> (2 * shift)):
                return True
        return False

    # --- optional capabilities ------------------------------------------------------
    def order_actions(self, state: C4State, actions: list[int]) -> list[int]:
        """Centre columns first: they take part in the most lines."""
        free = set(actions)
        return [c for c in self.order if c in free]

    def evaluate(self, state: C4State, player: int) -> float:
        """Open lines weighted by how full they are, for ``player``, scaled into (-1, 1):
        any win (worth at least 1) outranks any evaluation."""
        current, mask, moves, _ = state
        mine = current if (moves & 1) == player else current ^ mask
        theirs = mine ^ mask
        score = 0
        for window in self._windows():
            a = (window & mine).bit_count()
            b = (window & theirs).bit_count()
            if b == 0 and a:
                score += (1, 4, 16)[a - 1] if a < 4 else 64
            elif a == 0 and b:
                score -= (1, 4, 16)[b - 1] if b < 4 else 64
        return max(-0.99, min(0.99, score / 200))

    def _windows(self) -> list[int]:
        cached = getattr(self, "_window_cache", None)
        if cached is None:
            cached = []
            w, h, h1 = self.width, self.height, self.h1
            for c in range(w):
                for r in range(h):
                    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                        cells = [(c + k * dc, r + k * dr) for k in range(4)]
                        if all(0 <= x < w and 0 <= y < h for x, y in cells):
                            cached.append(sum(1 << (x * h1 + y) for x, y in cells))
            self._window_cache = cached
        return cached

    @property
    def kernel(self):
        """The compiled kernel (docs/KERNELS.md), made on first use; None when the board does
        not fit the kernel's 63 bits."""
        if self.width * (self.height + 1) > 63:
            return None
        from gamesearch.games.connect4_kernel import make_kernel

        return make_kernel(self.width, self.height)

    # --- people ---------------------------------------------------------------------
    def action_to_string(self, state: C4State, column: int) -> str:
        return str(column + 1)

    def string_to_action(self, state: C4State, text: str) -> int:
        text = text.strip()
        if not text.isdigit():
            raise IllegalActionError(f"malformed move {text!r}: give a column 1-{self.width}")
        column = int(text) - 1
        if not 0 <= column < self.width:
            raise IllegalActionError(f"illegal move {text!r}: columns are 1-{self.width}")
        if state[1] & self.top[column]:
            raise IllegalActionError(f"illegal move {text!r}: column {text} is full")
        return column

    def state_from_string(self, text: str) -> C4State:
        """Columns played from the empty board, one digit each (``4453``), as the benchmark
        sets write positions; the message names the first bad move."""
        moves = text.strip()
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
