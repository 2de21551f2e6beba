"""Tic-tac-toe, the lectures' first game: 255,168 possible games, 5,478 positions, a draw.

A state is ``(x, o)``: two 9-bit sets of squares (bit i is square i, row by row from the top
left). Whose turn it is follows from the counts, so equal positions are equal states
whatever the move order. Squares are written 1-9 for people::

    1 | 2 | 3
    4 | 5 | 6
    7 | 8 | 9
"""

from __future__ import annotations

from gamesearch.errors import IllegalActionError
from gamesearch.game import Game

LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),             # diagonals
)
LINE_MASKS = tuple(sum(1 << i for i in line) for line in LINES)
WINS = tuple(any(mask & m == m for m in LINE_MASKS) for mask in range(512))
"""WINS[s] is True when the set of squares s contains a whole line."""
FULL = 511
PREFERRED = (4, 0, 2, 6, 8, 1, 3, 5, 7)  # centre, corners, edges: the usual strong order

# The 8 symmetries of the square as permutations of squares, and each applied to all sets.
_ROTATE = (6, 3, 0, 7, 4, 1, 8, 5, 2)
_MIRROR = (2, 1, 0, 5, 4, 3, 8, 7, 6)


def _compose(p: tuple, q: tuple) -> tuple:
    return tuple(p[q[i]] for i in range(9))


def _symmetries() -> list[tuple]:
    identity = tuple(range(9))
    perms, p = [], identity
    for _ in range(4):
        perms.append(p)
        perms.append(_compose(_MIRROR, p))
        p = _compose(_ROTATE, p)
    return perms


SYMMETRY_TABLES = tuple(
    tuple(sum(1 << perm[i] for i in range(9) if mask >> i & 1) for mask in range(512))
    for perm in _symmetries()
)

SYMMETRY_KEY_TABLES = tuple((t, tuple(image << 9 for image in t)) for t in SYMMETRY_TABLES)
"""Per symmetry: the image of X's set, and the image of O's set shifted into a key's high bits."""
FREE = tuple(tuple(i for i in range(9) if not taken >> i & 1) for taken in range(512))
"""FREE[taken]: the squares not in the set ``taken``, in increasing order."""
PREFERRED_FREE = tuple(tuple(i for i in PREFERRED if free >> i & 1) for free in range(512))
"""PREFERRED_FREE[free]: the squares of the set ``free`` in PREFERRED order."""


class TicTacToe(Game):
    """Tic-tac-toe on a 3x3 board; X (player 1) moves first; win +1, loss -1, draw 0."""

    name = "tictactoe"
    num_players = 2
    zero_sum = True

    def initial_state(self) -> tuple[int, int]:
        return (0, 0)

    def to_move(self, state: tuple[int, int]) -> int:
        x, o = state
        return 0 if x.bit_count() == o.bit_count() else 1

    def actions(self, state: tuple[int, int]) -> list[int]:
        return list(FREE[state[0] | state[1]])

    def result(self, state: tuple[int, int], action: int) -> tuple[int, int]:
        x, o = state
        if x.bit_count() == o.bit_count():
            return (x | 1 << action, o)
        return (x, o | 1 << action)

    def is_terminal(self, state: tuple[int, int]) -> bool:
        x, o = state
        return WINS[x] or WINS[o] or (x | o) == FULL

    def utilities(self, state: tuple[int, int]) -> tuple[int, int]:
        x, o = state
        if WINS[x]:
            return (1, -1)
        if WINS[o]:
            return (-1, 1)
        return (0, 0)

    # --- optional capabilities ------------------------------------------------------
    observation_shape = (3, 3, 2)
    """Rows, columns and two planes: the observer's marks, the opponent's."""

    def num_distinct_actions(self) -> int:
        """Nine cells: an action is its cell's number."""
        return 9

    def action_index(self, action: int) -> int:
        """The cell is the action's number."""
        return action

    def observation_tensor(self, state: tuple[int, int], player: int) -> list[float]:
        """Per cell (row by row): 1 where the observer has a mark, then where the other has."""
        mine, theirs = (state[0], state[1]) if player == 0 else (state[1], state[0])
        return [float(b >> cell & 1) for cell in range(9) for b in (mine, theirs)]

    def order_actions(self, state: tuple[int, int], actions: list[int]) -> list[int]:
        """Centre first, then corners, then edges."""
        free = 0
        for a in actions:
            free |= 1 << a
        return list(PREFERRED_FREE[free])

    def evaluate(self, state: tuple[int, int], player: int) -> float:
        """Lines still open for the player minus lines open for the opponent, scaled to
        (-1, 1) so that no evaluation looks as good as a win."""
        x, o = state
        mine, theirs = (x, o) if player == 0 else (o, x)
        score = 0
        for m in LINE_MASKS:
            if not m & theirs:
                score += 1 + (m & mine).bit_count()
            if not m & mine:
                score -= 1 + (m & theirs).bit_count()
        return score / 32

    def state_key(self, state: tuple[int, int]) -> int:
        """The transposition-table key: one number for all 8 symmetric images of the board
        (x + 512 o, least over the symmetries), so a solve searches each position once.
        Alpha-beta then uses the table's move only to order moves, as it may belong to an
        image of the state (see AlphaBeta.trust_tt_action)."""
        x, o = state
        return min([xs[x] | os[o] for xs, os in SYMMETRY_KEY_TABLES])

    def canonical(self, state: tuple[int, int]) -> tuple[int, int]:
        """The least of the state's 8 images under the symmetries of the square."""
        x, o = state
        return min((t[x], t[o]) for t in SYMMETRY_TABLES)

    # --- people ---------------------------------------------------------------------
    def action_to_string(self, state: tuple[int, int], action: int) -> str:
        return str(action + 1)

    def string_to_action(self, state: tuple[int, int], text: str) -> int:
        text = text.strip()
        if not (len(text) == 1 and text in "123456789"):
            raise IllegalActionError(f"malformed move {text!r}: give a square 1-9")
        square = int(text) - 1
        if square not in self.actions(state):
            raise IllegalActionError(f"illegal move {text!r}: square {text} is taken")
        return square

    def state_from_string(self, text: str) -> tuple[int, int]:
        """A board of 9 characters (``x``, ``o``, ``.``), or moves as squares 1-9."""
        t = text.strip().lower().replace("/", "")
        if len(t) == 9 and set(t) <= set("xo.-_ "):
            x = sum(1 << i for i, c in enumerate(t) if c == "x")
            o = sum(1 << i for i, c in enumerate(t) if c == "o")
            if not 0 <= x.bit_count() - o.bit_count() <= 1:
                raise IllegalActionError(f"position {text!r}: X must have as many marks as O "
                                         "or one more")
            if WINS[x] and WINS[o]:
                raise IllegalActionError(f"position {text!r}: both players have a line")
            return (x, o)
        moves = " ".join(t) if t.isascii() and t.isdigit() else t
        return super().state_from_string(moves)

    def render(self, state: tuple[int, int]) -> str:
        x, o = state
        cells = ["X" if x >> i & 1 else "O" if o >> i & 1 else str(i + 1) for i in range(9)]
        rows = [" " + " | ".join(cells[r * 3: r * 3 + 3]) for r in range(3)]
        return "\n---+---+---\n".join(rows)

    def player_name(self, player: int) -> str:
        return {0: "X", 1: "O"}.get(player, super().player_name(player))
