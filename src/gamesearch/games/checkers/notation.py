"""Checkers notation: the 32 playable squares, PDN FEN positions and moves.

Squares are numbered 1-32 as in every checkers book: Black's side on top, square 1 at the
top row's second column, four squares a row. A simple move is written ``11-15``, a capture
``15x24`` and a multiple capture ``15x24x31`` (every landing square); ``15x31`` (start and
end only) is read when only one capture sequence joins them.

PDN FEN (the Portable Draughts Notation): ``B:W21,22,...,32:B1,2,...,12`` is the side to
move (``B`` or ``W``), then each side's squares, ``K`` before a king's; a range ``1-12`` is
read too. ``STEPS`` is the board's geometry: each square's diagonal neighbour and the
square beyond it, which the rules, the evaluation and the kernel share.
"""

from __future__ import annotations

from gamesearch.errors import GameSearchError

BLACK_MAN, BLACK_KING, WHITE_MAN, WHITE_KING, EMPTY = "b", "B", "w", "W", "."
SIDE_LETTERS = ("B", "W")
"""The side letters of PDN: black (player 0, moves first) and white (player 1)."""
MAX_FEN = 1_000


def square_row_col(square: int) -> tuple[int, int]:
    """The row (0 = top, Black's back rank) and column (0 = left) of square 1-32."""
    index = square - 1
    row, pos = divmod(index, 4)
    return row, 2 * pos + (1 if row % 2 == 0 else 0)


def square_at(row: int, col: int) -> int | None:
    """The number of the playable square at (row, col), or None off the board or on a light
    square."""
    if not (0 <= row < 8 and 0 <= col < 8) or (row + col) % 2 == 0:
        return None
    return row * 4 + col // 2 + 1


def parse_fen(text: str) -> tuple[str, int]:
    """``(cells, mover)`` of a PDN FEN: ``cells`` 32 characters for squares 1-32."""
    if len(text) > MAX_FEN:
        raise GameSearchError(f"checkers FEN is {len(text)} characters; at most {MAX_FEN}")
    body = "".join(text.split()).strip('"').rstrip(".")
    parts = body.split(":")
    if len(parts) != 3 or parts[0].upper() not in SIDE_LETTERS:
        raise GameSearchError(f"checkers FEN {text!r}: expected B:W<squares>:B<squares> "
                              "(side to move, then each side's squares, K for kings)")
    cells = [EMPTY] * 32
    seen_sides = set()
    for part in parts[1:]:
        side = part[:1].upper()
        if side not in SIDE_LETTERS or side in seen_sides:
            raise GameSearchError(f"checkers FEN {text!r}: each side once, as W... and B...")
        seen_sides.add(side)
        for item in filter(None, part[1:].split(",")):
            king = item[:1].upper() == "K"
            for square in _squares(item[1:] if king else item, text):
                if cells[square - 1] != EMPTY:
                    raise GameSearchError(f"checkers FEN {text!r}: square {square} twice")
                piece = (BLACK_KING if king else BLACK_MAN) if side == "B" else \
                    (WHITE_KING if king else WHITE_MAN)
                row = square_row_col(square)[0]
                if not king and ((side == "B" and row == 7) or (side == "W" and row == 0)):
                    raise GameSearchError(f"checkers FEN {text!r}: a man on square {square}, "
                                          "its crowning row (it would be a king)")
                cells[square - 1] = piece
    return "".join(cells), SIDE_LETTERS.index(parts[0].upper())


def _squares(item: str, text: str) -> list[int]:
    """The squares of ``12`` or ``1-12``."""
    bounds = item.split("-")
    if len(bounds) > 2 or not all(b.isascii() and b.isdigit() and len(b) <= 2 for b in bounds):
        raise GameSearchError(f"checkers FEN {text!r}: {item!r} is not a square 1-32 "
                              "(or a range like 1-12)")
    low, high = int(bounds[0]), int(bounds[-1])
    if not 1 <= low <= high <= 32:
        raise GameSearchError(f"checkers FEN {text!r}: squares are 1-32, not {item!r}")
    return list(range(low, high + 1))


def fen(cells: str, mover: int) -> str:
    """The PDN FEN of a position (kings marked ``K``, squares in increasing order)."""
    sides = []
    for letter, man, king in (("W", WHITE_MAN, WHITE_KING), ("B", BLACK_MAN, BLACK_KING)):
        items = [("K" if c == king else "") + str(i + 1) for i, c in enumerate(cells)
                 if c in (man, king)]
        sides.append(letter + ",".join(items))
    return f"{SIDE_LETTERS[mover]}:{sides[0]}:{sides[1]}"


def move_string(path: tuple[int, ...], capture: bool) -> str:
    """``11-15`` or ``15x24x31``."""
    return ("x" if capture else "-").join(str(s) for s in path)


def parse_move(text: str) -> tuple[tuple[int, ...], bool | None]:
    """The squares of a written move and whether it is written as a capture (None: ``-``
    between two squares, which may also name a one-jump capture in some books)."""
    squeezed = "".join(text.split()).lower()
    capture = "x" in squeezed or ":" in squeezed
    parts = squeezed.replace(":", "x").split("x" if capture else "-")
    if not 2 <= len(parts) <= 12 or not all(p.isascii() and p.isdigit() and len(p) <= 2
                                            for p in parts):
        raise GameSearchError(f"checkers move {text!r}: expected squares 1-32 joined by - "
                              "(a move) or x (a capture), e.g. 11-15 or 15x24x31")
    path = tuple(int(p) for p in parts)
    if not all(1 <= s <= 32 for s in path):
        raise GameSearchError(f"checkers move {text!r}: squares are numbered 1-32")
    return path, capture


def _neighbours() -> dict[tuple[int, int, int], tuple[int | None, int | None]]:
    """(square, row step, column step) -> (the adjacent square, the square beyond it)."""
    table = {}
    for square in range(1, 33):
        row, col = square_row_col(square)
        for dr in (-1, 1):
            for dc in (-1, 1):
                table[square, dr, dc] = (square_at(row + dr, col + dc),
                                         square_at(row + 2 * dr, col + 2 * dc))
    return table


STEPS = _neighbours()
