"""The rules of Go, written to be read: Tromp-Taylor area scoring with komi, positional
superko, suicide forbidden (``suicide=True`` allows it, as Tromp-Taylor do), passes,
handicap stones (``handicap=N``: Black's N stones on the fixed points, then White moves;
the score gives White nothing for them, as Tromp-Taylor and GTP's area scoring).

A state is ``(cells, mover, passes, ply, seen)``: ``cells`` the board (notation.py: row
by row from the top, ``X`` black, ``O`` white, ``.`` empty), ``mover`` 0 for Black (who
starts) and 1 for White, ``passes`` the passes in a row just played, ``ply`` the moves so
far, ``seen`` every board of the game so far (positional superko: no move may recreate
one). An action is a point number (notation.py) or ``size * size`` for the pass.

A move puts a stone on an empty point; opposing chains left without a liberty are taken
off; then a chain of the mover's without a liberty is suicide (illegal, or taken off with
``suicide=True``). Two passes in a row end the game, and so does reaching ``max_moves``
(4 * size * size plies by default, so that every game ends). Score (Tromp-Taylor): a
player's stones plus the empty points that reach only that player's stones; White adds
``komi``. Utilities are +1/-1, 0 for an equal score.
"""

from __future__ import annotations

import functools
import math

from gamesearch.errors import GameSearchError, IllegalActionError
from gamesearch.game import Game
from gamesearch.games.go.handicap import fixed_handicap_points
from gamesearch.games.go.notation import (
    BLACK,
    EMPTY,
    MAX_SIZE,
    MIN_SIZE,
    STONES,
    WHITE,
    board_text,
    parse_board,
    parse_vertex,
    vertex,
)

State = tuple[str, int, int, int, frozenset]


@functools.cache
def neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """The up-to-four points next to each point."""
    out = []
    for p in range(size * size):
        r, c = divmod(p, size)
        out.append(tuple(q for q, ok in ((p - size, r > 0), (p + size, r < size - 1),
                                         (p - 1, c > 0), (p + 1, c < size - 1)) if ok))
    return tuple(out)


def chain_and_liberties(cells: str, size: int, point: int) -> tuple[set[int], set[int]]:
    """The chain of stones connected to ``point`` and its liberties (flood fill)."""
    colour = cells[point]
    near = neighbours(size)
    chain, liberties, todo = {point}, set(), [point]
    while todo:
        p = todo.pop()
        for q in near[p]:
            if cells[q] == colour and q not in chain:
                chain.add(q)
                todo.append(q)
            elif cells[q] == EMPTY:
                liberties.add(q)
    return chain, liberties


def every_chain_has_a_liberty(cells: str, size: int) -> bool:
    """Whether ``cells`` is a legal Go position (Tromp and Farnebäck's definition)."""
    done: set[int] = set()
    for p, c in enumerate(cells):
        if c != EMPTY and p not in done:
            chain, liberties = chain_and_liberties(cells, size, p)
            if not liberties:
                return False
            done |= chain
    return True


def area_owners(cells: str, size: int) -> str:
    """Whose area each point is: a stone's own colour, an empty point the colour of the
    stones its empty region reaches when that is one colour only, else ``.`` (neutral)."""
    near = neighbours(size)
    owners = list(cells)
    seen: set[int] = set()
    for p, c in enumerate(cells):
        if c != EMPTY or p in seen:
            continue
        region, reaches, todo = {p}, set(), [p]
        while todo:
            q = todo.pop()
            for r in near[q]:
                if cells[r] == EMPTY and r not in region:
                    region.add(r)
                    todo.append(r)
                elif cells[r] != EMPTY:
                    reaches.add(cells[r])
        seen |= region
        if len(reaches) == 1:
            owner = reaches.pop()
            for q in region:
                owners[q] = owner
    return "".join(owners)


def area_score(cells: str, size: int) -> tuple[int, int]:
    """(Black's, White's) area: stones plus empty regions that reach only that colour."""
    owners = area_owners(cells, size)
    return owners.count(BLACK), owners.count(WHITE)


class Go(Game):
    """Go on a ``size`` x ``size`` board (2-19; 9 by default) with ``komi`` for White."""

    name = "go"
    num_players = 2
    zero_sum = True

    def __init__(self, size: int = 9, komi: float = 7.0, suicide: bool = False,
                 max_moves: int | None = None, handicap: int = 0) -> None:
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise GameSearchError(f"go: size is {MIN_SIZE}-{MAX_SIZE}, not {size}")
        if not math.isfinite(komi) or abs(komi) > MAX_SIZE ** 2 or komi * 2 != int(komi * 2):
            raise GameSearchError(f"go: komi is a multiple of 0.5 between -{MAX_SIZE ** 2} "
                                  f"and {MAX_SIZE ** 2}, not {komi}")
        self.size, self.komi, self.suicide = size, float(komi), suicide
        self.max_moves = 4 * size * size if max_moves is None else max_moves
        if self.max_moves < 1:
            raise GameSearchError(f"go: max_moves must be positive, not {max_moves}")
        self.pass_action = size * size
        self.handicap = handicap
        self.handicap_points = fixed_handicap_points(size, handicap) if handicap else []

    def __repr__(self) -> str:
        extra = f", handicap={self.handicap}" if self.handicap else ""
        return f"Go(size={self.size}, komi={self.komi:g}{extra})"

    # --- the formalization ---------------------------------------------------------------
    def initial_state(self) -> State:
        """The empty board, Black to move; with a handicap, Black's stones on their fixed
        points and White to move."""
        if self.handicap_points:
            return self.with_handicap(self.handicap_points)
        cells = EMPTY * (self.size * self.size)
        return (cells, 0, 0, 0, frozenset((cells,)))

    def with_handicap(self, points: list[int]) -> State:
        """The start of a handicap game: Black's stones on ``points`` (at least 2, distinct,
        leaving a point free), White to move (GTP's set_free_handicap, SGF's AB)."""
        n = self.size * self.size
        if len(points) < 2 or len(set(points)) != len(points) or len(points) >= n or \
                not all(isinstance(p, int) and 0 <= p < n for p in points):
            raise GameSearchError(f"go: a handicap is 2-{n - 1} distinct points of the "
                                  "board")
        board = [EMPTY] * n
        for p in points:
            board[p] = STONES[0]
        cells = "".join(board)
        return (cells, 1, 0, 0, frozenset((cells,)))

    def to_move(self, state: State) -> int:
        return state[1]

    def play_stone(self, cells: str, mover: int, point: int) -> str | None:
        """The board after ``mover`` plays on ``point`` (captures made), or None if the
        point is taken or the move is suicide (where suicide is forbidden)."""
        if cells[point] != EMPTY:
            return None
        board = list(cells)
        board[point] = STONES[mover]
        other = STONES[1 - mover]
        for q in neighbours(self.size)[point]:
            if board[q] == other:
                chain, liberties = chain_and_liberties("".join(board), self.size, q)
                if not liberties:
                    for x in chain:
                        board[x] = EMPTY
        text = "".join(board)
        chain, liberties = chain_and_liberties(text, self.size, point)
        if not liberties:
            if not self.suicide:
                return None
            for x in chain:
                board[x] = EMPTY
            text = "".join(board)
        return text

    def actions(self, state: State) -> list[int]:
        """Every point where a stone may go (no suicide, no repeated board), then pass."""
        cells, mover, _, _, seen = state
        legal = []
        for p, c in enumerate(cells):
            if c == EMPTY:
                after = self.play_stone(cells, mover, p)
                if after is not None and after not in seen:
                    legal.append(p)
        legal.append(self.pass_action)
        return legal

    def result(self, state: State, action: int) -> State:
        cells, mover, passes, ply, seen = state
        if action == self.pass_action:
            return (cells, 1 - mover, passes + 1, ply + 1, seen)
        if not isinstance(action, int) or not 0 <= action < self.pass_action:
            raise IllegalActionError(f"go: {action!r} is not a point of the board or the pass")
        after = self.play_stone(cells, mover, action)
        if after is None or after in seen:
            why = "taken" if cells[action] != EMPTY else (
                "suicide" if after is None else "a repeated position (superko)")
            raise IllegalActionError(f"illegal move {vertex(action, self.size)}: {why}")
        return (after, 1 - mover, 0, ply + 1, seen | {after})

    def is_terminal(self, state: State) -> bool:
        return state[2] >= 2 or state[3] >= self.max_moves

    def score(self, state: State) -> float:
        """Black's area minus White's area and komi (positive: Black is ahead)."""
        black, white = area_score(state[0], self.size)
        return black - white - self.komi

    def utilities(self, state: State) -> tuple[float, float]:
        margin = self.score(state)
        return (0.0, 0.0) if margin == 0 else ((1.0, -1.0) if margin > 0 else (-1.0, 1.0))

    def evaluate(self, state: State, player: int) -> float:
        """The area score as it stands (dead stones not removed), squashed into (-1, 1)."""
        margin = self.score(state) * (1 if player == 0 else -1)
        return math.tanh(margin / self.size)

    # --- for learning libraries (docs/INTEROP.md) -------------------------------------------
    def num_distinct_actions(self) -> int:
        """One action per square, then the pass: an action's number is its square's."""
        return self.size * self.size + 1

    def action_index(self, action: int) -> int:
        """The square's number; the pass is the last number."""
        return action

    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """Rows, columns, and two planes: the observer's stones, the other's."""
        return (self.size, self.size, 2)

    def observation_tensor(self, state: tuple, player: int) -> list[float]:
        """The board as :attr:`observation_shape`: 1 where the observer has a stone (plane
        0), where the other has one (plane 1)."""
        mine, theirs = (BLACK, WHITE) if player == 0 else (WHITE, BLACK)
        return [float(c == colour) for c in state[0] for colour in (mine, theirs)]

    # --- notation --------------------------------------------------------------------------
    def action_to_string(self, state: State, action: int) -> str:
        return vertex(action, self.size)

    def string_to_action(self, state: State, text: str) -> int:
        try:
            action = parse_vertex(text, self.size)
        except GameSearchError as err:
            raise IllegalActionError(str(err)) from None
        if action not in self.actions(state):
            self.result(state, action)  # names why (taken, suicide, superko)
        return action

    def state_to_string(self, state: State) -> str:
        """The board (rows from the top joined by /) and the side to move, ``.../... b``;
        for a game under way also the passes in a row, the moves so far and every earlier
        board (superko needs them), each a base-36 number: ``.../... w 1 9 0,2f,...``."""
        cells, mover, passes, ply, seen = state
        text = f"{board_text(cells, self.size)} {'bw'[mover]}"
        earlier = sorted(_code(b) for b in seen if b != cells)
        if passes or ply or earlier:
            text += f" {passes} {ply} {','.join(earlier) or '-'}"
        return text

    def state_from_string(self, text: str) -> State:
        """A position as state_to_string writes it, or the moves from the start."""
        words = text.split()
        if len(words) in (2, 5) and "/" in words[0] and words[1].lower() in ("b", "w"):
            cells, size = parse_board(words[0])
            if size != self.size:
                raise GameSearchError(f"go: a {size}x{size} board for a {self.size}x"
                                      f"{self.size} game (say size={size})")
            if not every_chain_has_a_liberty(cells, size):
                raise GameSearchError("go board: a chain without a liberty cannot stand")
            passes, ply, seen = 0, 0, {cells}
            if len(words) == 5:
                if not all(w.isascii() and w.isdigit() and len(w) < 6 for w in words[2:4]):
                    raise GameSearchError(f"go position {text[:60]!r}: passes and moves are "
                                          "whole numbers")
                passes, ply = int(words[2]), int(words[3])
                if passes > 2 or ply > self.max_moves:
                    raise GameSearchError(f"go position {text[:60]!r}: at most 2 passes "
                                          f"and {self.max_moves} moves")
                if words[4] != "-":
                    seen |= {_board_of(code, size) for code in words[4].split(",")}
            return (cells, "bw".index(words[1].lower()), passes, ply, frozenset(seen))
        return super().state_from_string(text)

    def render(self, state: State) -> str:
        cells, mover, passes, ply, _ = state
        n = self.size
        letters = "   " + " ".join(vertex(c, n)[0] for c in range(n))
        lines = [letters]
        for r in range(n):
            lines.append(f"{n - r:2d} " + " ".join(cells[r * n:(r + 1) * n]) + f" {n - r}")
        lines.append(letters)
        black, white = area_score(cells, n)
        lines.append(f"{('Black (X)', 'White (O)')[mover]} to move; move {ply + 1}; "
                     f"area {black}-{white}, komi {self.komi:g}"
                     + ("; the last move was a pass" if passes else ""))
        return "\n".join(lines)

    def player_name(self, player: int) -> str:
        return ("Black", "White")[player] if player in (0, 1) else super().player_name(player)


def _code(cells: str) -> str:
    """A board as one base-36 number (its points as base-3 digits, the first the lowest)."""
    n = 0
    for c in reversed(cells):
        n = 3 * n + ".XO".index(c)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


def _board_of(code: str, size: int) -> str:
    """The board of a base-36 code (the inverse of _code), checked."""
    if not code or len(code) > 2 * size * size or not code.isascii() or not code.isalnum():
        raise GameSearchError(f"go position: {code[:20]!r} is not a board code")
    n = int(code, 36)
    cells = []
    for _ in range(size * size):
        n, r = divmod(n, 3)
        cells.append(".XO"[r])
    if n:
        raise GameSearchError(f"go position: {code[:20]!r} is not a {size}x{size} board")
    return "".join(cells)
