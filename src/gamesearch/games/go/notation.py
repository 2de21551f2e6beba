"""Go notation: GTP vertices (``D4``: a column letter, I skipped, and a row counted from the
bottom), ``pass``, and a board written row by row from the top (``X`` black, ``O`` white,
``.`` empty), rows joined by ``/``.

Points are numbered row-major from the top-left: point ``r * size + c`` is row ``r`` from
the top and column ``c`` from the left, so ``A1`` (bottom-left) is ``(size - 1) * size``.
"""

from __future__ import annotations

from gamesearch.errors import GameSearchError

BLACK, WHITE, EMPTY = "X", "O", "."
STONES = (BLACK, WHITE)
COLUMNS = "ABCDEFGHJKLMNOPQRST"
"""GTP's column letters: I is skipped (it looks like J and 1)."""
MIN_SIZE, MAX_SIZE = 2, 19


def vertex(point: int, size: int) -> str:
    """The GTP vertex of ``point`` (``size * size`` is the pass)."""
    if point == size * size:
        return "pass"
    row, col = divmod(point, size)
    return f"{COLUMNS[col]}{size - row}"


def parse_vertex(text: str, size: int) -> int:
    """The point of a GTP vertex (``d4``, ``D4``) or ``pass`` (``size * size``)."""
    word = text.strip().upper()
    if word == "PASS":
        return size * size
    if not 2 <= len(word) <= 3 or word[0] not in COLUMNS or not word[1:].isascii() \
            or not word[1:].isdigit():
        raise GameSearchError(f"go: {text[:20]!r} is not a vertex (a column A-T without I, "
                              "a row number, e.g. D4) or pass")
    col, row = COLUMNS.index(word[0]), int(word[1:])
    if col >= size or not 1 <= row <= size:
        raise GameSearchError(f"go: {text[:20]!r} is off the {size}x{size} board")
    return (size - row) * size + col


def board_text(cells: str, size: int) -> str:
    """``cells`` as rows from the top joined by ``/``."""
    return "/".join(cells[r * size:(r + 1) * size] for r in range(size))


def parse_board(text: str) -> tuple[str, int]:
    """``(cells, size)`` of a board written as rows joined by ``/``."""
    rows = text.strip().split("/")
    size = len(rows)
    if not MIN_SIZE <= size <= MAX_SIZE or any(len(r) != size for r in rows):
        raise GameSearchError(f"go board {text[:40]!r}: {MIN_SIZE}-{MAX_SIZE} rows of as many "
                              "points, joined by /")
    cells = "".join(rows).upper().replace("B", BLACK).replace("W", WHITE).replace("-", EMPTY)
    if set(cells) - {BLACK, WHITE, EMPTY}:
        raise GameSearchError(f"go board {text[:40]!r}: points are X (black), O (white) or .")
    return cells, size
