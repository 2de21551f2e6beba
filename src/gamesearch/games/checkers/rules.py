"""The rules of checkers (English draughts, American checkers), written to be read: the
specification a compiled kernel is tested against.

Board and pieces: the 32 dark squares of an 8x8 board, numbered 1-32 (notation.py). Black
(player 0) starts on 1-12 and moves first, down the board; White (player 1) on 21-32, up.

* A man moves one square diagonally forward to an empty square; a king, forward or back.
* Captures are compulsory: a piece jumps an adjacent enemy piece to the empty square
  beyond (men forward only, kings both ways) and, from where it lands, must go on jumping
  while it can, with the same piece. Among the captures the player chooses any (there is
  no rule to take the most). A jumped piece is removed at the end of the move and cannot
  be jumped twice; it still blocks the square it stands on meanwhile.
* A man that reaches the far row (Black: 29-32, White: 1-4) is crowned and its move ends,
  even if as a king it could jump on.
* A side with no legal move (no pieces, or all blocked) loses: utilities +1/-1.
* Draw: 80 plies (40 moves each) without a capture or a man's move, the 40-move rule of
  the American Checker Federation; and the same position (same side to move) standing for
  the third time. A state holds no history, so repetition is kept by the game drivers
  (match, tournament, ``play``, the web app: ``game.Repetitions`` over
  ``repetition_key``) and, along its own line, by the compiled search; the terminal test
  here is the 40-move rule and a side without a move.

A state is ``(cells, mover, quiet)``: ``cells`` 32 characters for squares 1-32 (``b``/``B``
black man/king, ``w``/``W`` white, ``.`` empty), ``mover`` 0 or 1, ``quiet`` the plies
since the last capture or man move. An action is the move as written (``11-15``,
``15x24x31``): hashable, and the same text a person types.
"""

from __future__ import annotations

from gamesearch.errors import GameSearchError, IllegalActionError
from gamesearch.game import Game
from gamesearch.games.checkers.notation import (
    BLACK_KING,
    BLACK_MAN,
    EMPTY,
    STEPS,
    WHITE_KING,
    WHITE_MAN,
    fen,
    move_string,
    parse_fen,
    parse_move,
    square_at,
    square_row_col,
)

State = tuple[str, int, int]
DRAW_PLIES = 80
"""Plies without a capture or a man's move that make a draw (40 moves each)."""
START = BLACK_MAN * 12 + EMPTY * 8 + WHITE_MAN * 12

MEN, KINGS = (BLACK_MAN, WHITE_MAN), (BLACK_KING, WHITE_KING)
FORWARD = (1, -1)
"""The row step of each side's men: Black moves down the board, White up."""




class Checkers(Game):
    """English draughts on the 8x8 board (module docstring)."""

    name = "checkers"
    num_players = 2

    def initial_state(self) -> State:
        return (START, 0, 0)

    def to_move(self, state: State) -> int:
        return state[1]

    # --- moves ---------------------------------------------------------------------------
    def directions(self, piece: str) -> tuple[int, ...]:
        """The row steps a piece may take: a man forward only, a king both ways."""
        if piece in KINGS:
            return (-1, 1)
        return (FORWARD[0],) if piece == BLACK_MAN else (FORWARD[1],)

    def owner(self, piece: str) -> int | None:
        """0 for Black's pieces, 1 for White's, None for an empty square."""
        return 0 if piece in (BLACK_MAN, BLACK_KING) else 1 if piece in (WHITE_MAN,
                                                                           WHITE_KING) else None

    def crowns(self, piece: str, square: int) -> bool:
        """Does a man arriving on ``square`` become a king?"""
        row = square_row_col(square)[0]
        return (piece == BLACK_MAN and row == 7) or (piece == WHITE_MAN and row == 0)

    def captures_from(self, cells: str, square: int) -> list[tuple[int, ...]]:
        """Every complete capture path (landing squares after ``square``) of its piece."""
        piece = cells[square - 1]
        mover = self.owner(piece)
        paths: list[tuple[int, ...]] = []

        def extend(at: int, taken: frozenset[int], path: tuple[int, ...]) -> None:
            went_on = False
            for dr in self.directions(piece):
                for dc in (-1, 1):
                    over, to = STEPS[at, dr, dc]
                    if over is None or to is None or over in taken:
                        continue
                    if self.owner(cells[over - 1]) != 1 - mover:
                        continue
                    if cells[to - 1] != EMPTY and to != square:  # the mover left its square
                        continue
                    went_on = True
                    if self.crowns(piece, to):  # crowned: the move ends here
                        paths.append((*path, to))
                    else:
                        extend(to, taken | {over}, (*path, to))
            if not went_on and len(path) > 1:
                paths.append(path)

        extend(square, frozenset(), (square,))
        return paths

    def moves(self, cells: str, mover: int) -> list[tuple[tuple[int, ...], bool]]:
        """Every legal (path, is_capture) for ``mover``: captures if there are any."""
        mine = [s for s in range(1, 33) if self.owner(cells[s - 1]) == mover]
        captures = [(path, True) for s in mine for path in self.captures_from(cells, s)]
        if captures:
            return captures
        simple = []
        for square in mine:
            for dr in self.directions(cells[square - 1]):
                for dc in (-1, 1):
                    to = STEPS[square, dr, dc][0]
                    if to is not None and cells[to - 1] == EMPTY:
                        simple.append(((square, to), False))
        return simple

    def actions(self, state: State) -> list[str]:
        cells, mover, _ = state
        return [move_string(path, capture) for path, capture in self.moves(cells, mover)]

    def result(self, state: State, action: str) -> State:
        cells, mover, quiet = state
        path, written_capture = parse_move(action)
        capture = written_capture or abs(square_row_col(path[0])[0]
                                         - square_row_col(path[1])[0]) == 2
        board = list(cells)
        piece = board[path[0] - 1]
        if self.owner(piece) != mover:
            raise IllegalActionError(f"illegal move {action!r}: no piece of the side to move "
                                     f"on {path[0]}")
        board[path[0] - 1] = EMPTY
        for a, b in zip(path, path[1:]):
            if capture:
                (ra, ca), (rb, cb) = square_row_col(a), square_row_col(b)
                board[square_at((ra + rb) // 2, (ca + cb) // 2) - 1] = EMPTY
        end = path[-1]
        if self.crowns(piece, end):
            piece = BLACK_KING if piece == BLACK_MAN else WHITE_KING
        board[end - 1] = piece
        progress = capture or cells[path[0] - 1] in MEN
        return ("".join(board), 1 - mover, 0 if progress else quiet + 1)

    def is_terminal(self, state: State) -> bool:
        return state[2] >= DRAW_PLIES or not self.moves(state[0], state[1])

    def utilities(self, state: State) -> tuple[float, float]:
        cells, mover, quiet = state
        if self.moves(cells, mover):  # the 40-move rule
            return (0.0, 0.0)
        return (-1.0, 1.0) if mover == 0 else (1.0, -1.0)

    def repetition_key(self, state: State) -> tuple[str, int]:
        """The board and the side to move: a position standing the third time draws
        (kept by the game drivers, as states hold no history)."""
        return state[0], state[1]

    def evaluate(self, state: State, player: int) -> float:
        """The hand-written evaluation of evaluation.py (material, advancement, back rank,
        centre, mobility) for ``player``, in (-1, 1): what searches use at a cut-off."""
        from gamesearch.games.checkers.evaluation import evaluate

        return evaluate(state[0], player)

    @property
    def kernel(self):
        """The compiled bitboard kernel (docs/KERNELS.md), made on first use."""
        from gamesearch.games.checkers.kernel import make_kernel

        return make_kernel()

    # --- notation --------------------------------------------------------------------------
    def string_to_action(self, state: State, text: str) -> str:
        """``11-15``, ``15x24x31``, or ``15x31`` when one capture joins the two squares."""
        try:
            path, capture = parse_move(text)
        except GameSearchError as err:
            raise IllegalActionError(str(err)) from None
        legal = self.moves(state[0], state[1])
        exact = [(p, c) for p, c in legal if p == path]
        short = [(p, c) for p, c in legal if c and len(path) == 2 and (p[0], p[-1]) == path]
        found = exact or (short if capture or len(short) == 1 else [])
        if len(found) == 1:
            return move_string(*found[0])
        shown = ", ".join(move_string(p, c) for p, c in legal[:20])
        if len(short) > 1:
            raise IllegalActionError(f"{text!r} joins {len(short)} different captures; write "
                                     f"every landing square: {shown}")
        raise IllegalActionError(f"illegal move {text!r}; legal moves: {shown}")

    def state_to_string(self, state: State) -> str:
        """The PDN FEN, then the plies without progress when there are any (PDN has no such
        field; chess FEN's halfmove clock plays this part): ``W:W9:BK30 12``."""
        text = fen(state[0], state[1])
        return f"{text} {state[2]}" if state[2] else text

    def state_from_string(self, text: str) -> State:
        """A PDN FEN (``B:W21-32:B1-12``, optionally a plies-without-progress count after a
        space) or the moves from the start (``11-15 23-19``)."""
        if ":" in text and text.strip()[:1].upper() in ("B", "W"):
            words = text.split()
            quiet = 0
            if len(words) > 1 and words[-1].isascii() and words[-1].isdigit():
                if len(words[-1]) > 3 or int(words[-1]) > DRAW_PLIES:
                    raise GameSearchError(f"checkers position {text!r}: the count of plies "
                                          f"without progress is 0-{DRAW_PLIES}")
                quiet = int(words.pop())
            cells, mover = parse_fen(" ".join(words))
            return (cells, mover, quiet)
        return super().state_from_string(text)

    def render(self, state: State) -> str:
        cells, mover, quiet = state
        lines = []
        for row in range(8):
            line = []
            for col in range(8):
                square = square_at(row, col)
                line.append(" " if square is None else cells[square - 1])
            numbers = " ".join(f"{s:2d}" for s in range(row * 4 + 1, row * 4 + 5))
            lines.append(" ".join(line) + "    " + numbers)
        side = ("Black (b, B)", "White (w, W)")[mover]
        lines.append(f"{side} to move; {quiet} plies without a capture or a man's move")
        return "\n".join(lines)

    def player_name(self, player: int) -> str:
        return ("Black", "White")[player] if player in (0, 1) else super().player_name(player)
