"""Othello notation: squares ``a1``..``h8`` and the board string of the FFO endgame files.

A board string is ``size*size`` squares read from a1 along the rows (a1, b1, ..., h1, a2,
...), ``X`` (or ``*``) black, ``O`` white, ``-`` (or ``.``) empty, then the side to move
(``X`` or ``O``), optionally after a space: the format of the public FFO test positions
(G. Andersson's ``fforum`` files, shipped by Edax). Parsing refuses anything else with one
line that says what is wrong.
"""

from __future__ import annotations

from gamesearch.errors import GameSearchError, IllegalActionError

BLACK, WHITE, EMPTY = "X", "O", "-"
PASS = "pass"
_ALIASES = {"X": BLACK, "*": BLACK, "B": BLACK, "O": WHITE, "W": WHITE, "-": EMPTY, ".": EMPTY}


class BoardStringError(GameSearchError):
    """A malformed or impossible Othello board string."""


def square_name(square: int, size: int) -> str:
    """``a1`` for square 0: the column letter then the row number."""
    return f"{'abcdefgh'[square % size]}{square // size + 1}"


def parse_square(text: str, size: int) -> int:
    """The square index of ``d3``-style text; IllegalActionError on anything else."""
    t = text.strip().lower()
    if len(t) != 2 or not ("a" <= t[0] < "abcdefgh"[size - 1] + "\x01") or not t[1].isdigit():
        raise IllegalActionError(f"malformed move {text[:20]!r}: write a square such as "
                                 f"'d3' (a-{'abcdefgh'[size - 1]}, 1-{size}) or 'pass'")
    col, row = ord(t[0]) - ord("a"), int(t[1]) - 1
    if not (0 <= col < size and 0 <= row < size):
        raise IllegalActionError(f"malformed move {text[:20]!r}: off the {size}x{size} board")
    return row * size + col


def parse_board(text: str, size: int) -> tuple[str, int]:
    """``(cells, mover)`` of a board string: ``cells`` holds X, O, - only, mover 0 black.

    Refuses (with one line) a wrong length, an unknown character or side, and boards that
    cannot arise in a game: a centre square empty (the four start discs never leave)."""
    t = "".join(text.split())
    n = size * size
    if len(t) != n + 1:
        raise BoardStringError(f"an othello {size}x{size} board string has {n} squares and "
                               f"the side to move ({n + 1} characters), not {len(t)}")
    bad = sorted({c for c in t if c.upper() not in _ALIASES})
    if bad:
        raise BoardStringError(f"board string: unknown character(s) {''.join(bad)[:10]!r}; "
                               "use X (black), O (white), - (empty)")
    cells = "".join(_ALIASES[c.upper()] for c in t[:n])
    side = _ALIASES[t[n].upper()]
    if side == EMPTY:
        raise BoardStringError("board string: the side to move must be X or O, not '-'")
    half = size // 2
    centre = [(half - 1) * size + half - 1, (half - 1) * size + half,
              half * size + half - 1, half * size + half]
    if any(cells[c] == EMPTY for c in centre):
        raise BoardStringError("impossible position: the four centre squares are never empty")
    return cells, 0 if side == BLACK else 1


def board_string(cells: str, mover: int) -> str:
    """The FFO board string of a position: squares, a space, the side to move."""
    return f"{cells} {BLACK if mover == 0 else WHITE}"
