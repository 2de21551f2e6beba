"""Chess endgame tables' indexing: every position of a material signature in one array.

A table (a *slice*) holds every placement of the two kings and up to two more pieces, both
sides to move: slot ``side + 2 * (k + K * (bk + 64 * (p1 + 64 * p2)))`` with squares
0..63 (``8 * rank + file``) and the extra pieces in the order of their codes (``board.py``:
White 1..5, Black 9..13; equal pieces with the lower square first). The board's symmetries
fix White's king: without pawns every position has an image (flips and the a1-h8
transpose) with White's king in the triangle a1-d1-d4, ``k`` its index 0..9 and ``K`` 10;
with pawns only the left-right flip keeps the rules, White's king is on files a-d and
``K`` is 32. A 4-piece table is 6.4 (2) times smaller than the plain 64-square product.
Colours are a symmetry too: a position whose stronger material is Black's (KvKQ, KRvKQ)
is keyed as its colour-flipped image (KQvK, KQvKR; ``black_leads``).
Slots that hold no position (two pieces on one square, a pawn on the first or last rank,
equal pieces out of order, the side not to move in check) are kept and marked as such:
the index stays a product, simple to compute in both directions. A king on the diagonal
has two images in the triangle; both slots are kept and solved (the same value), and
``position_key`` sends every position to one of them. No castling (it cannot arise in
these materials); en passant only in KPvKP, whose slots come twice, the second half for
positions where the pawn of the side not to move has just advanced two squares beside the
other (board.py sets the en passant square only then); the 50-move rule is ignored, as in
every depth-to-mate table (Thompson, Nalimov).

The functions are the primitives :mod:`gamesearch.tables.sweep` is compiled against:
``state_at`` (a slot's position as the 0x88 arrays of ``board.py``), ``end_value``
(checkmate, stalemate, a dead position, or no position), ``legal``, ``play`` (the key of
the position after a move: its signature and slot, made and unmade on the arrays) and
``locate`` (a key's slot in the one array of all slices, -1 for a signature not built).
"""

from __future__ import annotations

import numpy as np

from gamesearch.games.chess import bitboards
from gamesearch.games.chess import board as B
from gamesearch.games.chess import legal as L
from gamesearch.kernels.specialize import compile_in_place

UNKNOWN, WIN, LOSS, DRAW, NO_POSITION = 0, 1, 2, 3, 4
MAX_EXTRA = 2
SIGNATURES = 256
"""A signature is ``16 * c1 + c2`` for the extra pieces' codes c1 <= c2 (0: no piece)."""
LETTERS = {1: "P", 2: "N", 3: "B", 4: "R", 5: "Q"}


def signature(codes: list[int]) -> int:
    """The signature of a list of extra piece codes (at most two)."""
    if len(codes) > MAX_EXTRA:
        raise ValueError("at most two pieces besides the kings")
    c = sorted(codes) + [0] * (MAX_EXTRA - len(codes))
    c = sorted(c)
    return 16 * c[0] + c[1]


TRIANGLE_SQUARES = np.array([8 * r + f for f in range(4) for r in range(f + 1)], np.int64)
"""White king's squares in a pawnless table: a1, b1, b2, c1, c2, c3, d1, d2, d3, d4."""
TRIANGLE_INDEX = np.full(64, -1, np.int64)
TRIANGLE_INDEX[TRIANGLE_SQUARES] = np.arange(10)


def king_squares(codes: list[int]) -> int:
    """How many squares White's king takes in a slice's index: 10 without pawns, 32 with."""
    return 32 if any((c & 7) == B.PAWN for c in codes) else 10


def en_passant(codes: list[int]) -> bool:
    """Whether en passant can arise in a slice: a pawn each (KPvKP)."""
    return B.PAWN in codes and (B.BLACK | B.PAWN) in codes


def slice_slots(codes: list[int]) -> int:
    """Slots of a slice: both sides to move, White's king on its ``king_squares``, Black's
    king and each extra piece anywhere; twice that where en passant can arise (the bit:
    the pawn of the side not to move has just advanced two squares beside the other)."""
    return (2 if en_passant(codes) else 1) * 2 * king_squares(codes) * 64 ** (1 + len(codes))


def name_of(codes: list[int]) -> str:
    """``KQvK``, ``KBNvK``, ``KvK``: White's pieces, then Black's."""
    white = "".join(LETTERS[c] for c in sorted(codes, reverse=True) if c < 8)
    black = "".join(LETTERS[c & 7] for c in sorted(codes, reverse=True) if c > 8)
    return f"K{white}vK{black}"


def _sq88(i):
    return (i >> 3) * 16 + (i & 7)


def _sq64(s):
    return (s >> 4) * 8 + (s & 7)


def state_at(meta, sid, slot):
    """The position of ``slot`` in slice ``sid``: (board, st, undo, ok); ``ok`` is 0 where
    the slot holds no position."""
    codes = meta[2]
    board = np.zeros(128, np.int64)
    st = np.zeros(8, np.int64)
    undo = np.zeros((2, 6), np.int64)
    side = slot & 1
    rest = slot >> 1
    kings = meta[3][sid]
    k = rest % kings
    rest //= kings
    wk = TRIANGLE_SQUARES[k] if kings == 10 else (k >> 2) * 8 + (k & 3)
    bk = rest & 63
    rest >>= 6
    st[B.SIDE] = side
    st[B.EPSQ] = -1
    st[B.WKING] = _sq88(wk)
    st[B.BKING] = _sq88(bk)
    ok = wk != bk
    board[_sq88(wk)] = B.KING
    board[_sq88(bk)] = B.BLACK | B.KING
    last_code = -1
    last_sq = -1
    for k in range(MAX_EXTRA):
        c = codes[sid, k]
        if c == 0:
            continue
        sq = rest & 63
        rest >>= 6
        if board[_sq88(sq)] != 0:
            ok = False
        if (c & 7) == B.PAWN and (sq < 8 or sq >= 56):
            ok = False
        if c == last_code and sq <= last_sq:
            ok = False
        last_code = c
        last_sq = sq
        board[_sq88(sq)] = c
    if rest & 1:  # en passant: the pawn of the side not to move has just advanced two
        ep = _en_passant_square(board, side)
        if ep < 0:
            ok = False
        st[B.EPSQ] = ep
    B.set_bitboards(board)
    if ok and B.in_check(board, st, side ^ 1):  # the side that just moved left its king
        ok = False
    return board, st, undo, 1 if ok else 0


def _en_passant_square(board, side):
    """The 0x88 square a pawn of ``side`` (to move) captures en passant on: behind the
    other side's pawn on its fourth rank, when that pawn could have just advanced two
    squares (both squares behind it empty) and a pawn of ``side`` stands beside it; -1
    where no pawn of the side not to move fits."""
    theirs = ((side ^ 1) << 3) | B.PAWN
    ours = (side << 3) | B.PAWN
    rank = 4 if side == 0 else 3
    back = 16 if side == 0 else -16  # from their pawn towards where it came from
    for f in range(8):
        sq = rank * 16 + f
        if board[sq] != theirs:
            continue
        if board[sq + back] != 0 or board[sq + 2 * back] != 0:
            return -1
        if (f > 0 and board[sq - 1] == ours) or (f < 7 and board[sq + 1] == ours):
            return sq + back
        return -1
    return -1


def end_value(s, buf):
    """WIN/LOSS/DRAW where the game is over (mate, stalemate, a dead position), UNKNOWN
    where it goes on, NO_POSITION for a slot that holds none."""
    board, st, undo, ok = s
    if ok == 0:
        return NO_POSITION
    n = L.legal_moves(board, st, undo, buf)
    if n == 0:
        return LOSS if B.in_check(board, st, st[B.SIDE]) else DRAW
    if B.insufficient_material(board):
        return DRAW
    return UNKNOWN


def legal(s, buf):
    """The legal moves (board.py's encoding) into ``buf``; how many."""
    board, st, undo, _ = s
    return L.legal_moves(board, st, undo, buf)


def _image(sq, flip_file, flip_rank, transpose):
    """A square's image under the board symmetry the three flags name."""
    x = sq & 7
    y = sq >> 3
    if flip_file:
        x = 7 - x
    if flip_rank:
        y = 7 - y
    if transpose:
        x, y = y, x
    return 8 * y + x


def black_leads(c1, c2):
    """Whether a material (extra piece codes, 0 for none) is stored as its colour-flipped
    image: Black alone has pieces, or one piece each and Black's is the stronger."""
    white = 0
    black = 0
    for c in (c1, c2):
        if c == 0:
            continue
        if c & B.BLACK:
            black = max(black, c & 7)
        else:
            white = max(white, c)
    return black > white


def canonical(codes: list[int]) -> list[int]:
    """The material a table holds for ``codes``: itself, or its colour-flipped image."""
    padded = list(codes) + [0] * (MAX_EXTRA - len(codes))
    return [c ^ B.BLACK for c in codes] if black_leads(padded[0], padded[1]) else list(codes)


def position_key(board, side, ep):
    """``signature + 256 * slot``: where a position sits in the tables (-1: more than two
    pieces besides the kings). Its image under the board's symmetries with White's king
    in the index's squares, colour-flipped first where Black has the stronger material.
    ``ep``: the en passant square (board.py's ``st[EPSQ]``, set only when a pawn can take
    there), or -1."""
    wk = -1
    bk = -1
    n = 0
    c1 = 0
    s1 = 0
    c2 = 0
    s2 = 0
    for i in range(64):
        p = board[_sq88(i)]
        if p == 0:
            continue
        if p == B.KING:
            wk = i
        elif p == (B.BLACK | B.KING):
            bk = i
        else:
            if n == 0:
                c1, s1 = p, i
            elif n == 1:
                c2, s2 = p, i
            n += 1
    if n > MAX_EXTRA:
        return -1
    if black_leads(c1, c2):  # the colour-flipped image: White has the stronger material
        wk, bk = bk ^ 56, wk ^ 56
        side ^= 1
        if n >= 1:
            c1 ^= B.BLACK
            s1 ^= 56
        if n == 2:
            c2 ^= B.BLACK
            s2 ^= 56
    pawns = (c1 & 7) == B.PAWN or (c2 & 7) == B.PAWN
    x = wk & 7
    flip_file = x > 3
    if flip_file:
        x = 7 - x
    y = wk >> 3
    flip_rank = not pawns and y > 3
    if flip_rank:
        y = 7 - y
    transpose = not pawns and y > x
    wk = _image(wk, flip_file, flip_rank, transpose)
    bk = _image(bk, flip_file, flip_rank, transpose)
    if n >= 1:
        s1 = _image(s1, flip_file, flip_rank, transpose)
    if n == 2:
        s2 = _image(s2, flip_file, flip_rank, transpose)
    if n == 2 and (c2 < c1 or (c2 == c1 and s2 < s1)):  # the lower code (then square) first
        c1, s1, c2, s2 = c2, s2, c1, s1
    if n == 1:
        sig = c1
    elif n == 2:
        sig = 16 * c1 + c2
    else:
        sig = 0
    if pawns:
        k = (wk >> 3) * 4 + (wk & 7)
        kings = 32
    else:
        k = TRIANGLE_INDEX[wk]
        kings = 10
    passant = 1 if ep >= 0 else 0
    slot = side + 2 * (k + kings * (bk + 64 * (s1 + 64 * (s2 + 64 * passant))))
    return sig + SIGNATURES * slot


def play(s, m):
    """The key of the position after move ``m`` (made and unmade on the arrays)."""
    board, st, undo, _ = s
    B.make(board, st, undo, m)
    key = position_key(board, st[B.SIDE], st[B.EPSQ])
    B.unmake(board, st, undo)
    return key


def locate(meta, key):
    """The slot of a key in the one array of all slices; -1 for a signature not built."""
    if key < 0:
        return -1
    sid = meta[0][key & (SIGNATURES - 1)]
    if sid < 0:
        return -1
    return meta[1][sid] + (key >> 8)


def table_layout(slices: list[list[int]]) -> tuple[tuple, dict[int, tuple[int, int]]]:
    """``meta`` for the compiled functions, and each slice's (first slot, slot count)."""
    sig_to_slice = np.full(SIGNATURES, -1, np.int64)
    base = np.zeros(len(slices), np.int64)
    codes = np.zeros((len(slices), MAX_EXTRA), np.int64)
    kings = np.zeros(len(slices), np.int64)
    where, at = {}, 0
    for sid, extra in enumerate(slices):
        sig_to_slice[signature(extra)] = sid
        base[sid] = at
        for k, c in enumerate(sorted(extra)):
            codes[sid, k] = c
        kings[sid] = king_squares(extra)
        n = slice_slots(extra)
        where[sid] = (at, n)
        at += n
    return (sig_to_slice, base, codes, kings), where


TEMPLATES = (_sq88, _sq64, state_at, _en_passant_square, end_value, legal, _image, black_leads,
             position_key, play, locate)
"""Compiled by ``kernels.specialize`` under a tag that also covers the modules whose compiled
code they call: an edit to any of them gives these a new cache entry."""
compile_in_place(globals(), TEMPLATES, "chess_index", (B, L, bitboards))
TABLE_FUNCTIONS = (state_at, end_value, legal, play, locate)
"""What the generic table builder binds (tables/sweep.py, levels.py): the compiled ones."""
