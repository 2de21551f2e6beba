"""The compiled chess board: a 0x88 mailbox with make/unmake, in numba.

Why 0x88: a square is ``16 * rank + file`` (rank 0 is White's first rank); a step that
leaves the board sets a bit of ``0x88``, so one test replaces all edge checks, and the
code stays readable next to the rules. Moves are generated pseudo-legally and a move is
legal when, after it is made, the mover's king is not attacked (make, test, unmake); the
engine searches so. ``legal.py`` generates and counts legal moves directly from bitboards
(check and pin masks), for perft and the kernel contract.

Arrays (one position, mutated in place by ``make`` / ``unmake``):

* ``board``: int64[128], 0 empty, White pieces 1..6 (P N B R Q K), Black ``8 | type``;
  the 64 off-board cells of the 0x88 array hold bitboards of the same position
  (``bitboards.py``; bit ``8 * rank + file``), kept by ``make`` / ``unmake``: cell
  ``bb_slot(p)`` = ``8 + 16 * colour + type`` holds the squares of piece ``p``, and type 0
  the squares of the whole colour (cells 8 and 24). A board filled square by square gets
  them from ``set_bitboards``. The legal move generator (``legal.py``) reads only these.
* ``st``: int64[8]: side to move (0 White), castling rights (1 K, 2 Q, 4 k, 8 q), en passant
  square (0x88, -1 none), half-move clock, White king square, Black king square, ply,
  Zobrist hash;
* ``undo``: int64[MAX_PLY, 6]: per ply the move, the captured piece, castling, en passant,
  half-move clock and hash before the move.

A move is an int: ``from | to << 7 | promotion type << 14 | flags << 18`` with the flags
1 en passant, 2 castling, 4 double pawn push.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamesearch.games.chess.bitboards import BIT

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
BLACK = 8
MAX_PLY = 256
MAX_MOVES = 256
EP, CASTLE, DOUBLE = 1, 2, 4
SIDE, CASTLING, EPSQ, HALFMOVE, WKING, BKING, PLY, HASH = range(8)

SQ88 = np.array([(i >> 3) * 16 + (i & 7) for i in range(64)], dtype=np.int64)
KNIGHT_STEPS = np.array([33, 31, 18, 14, -14, -18, -31, -33], dtype=np.int64)
KING_STEPS = np.array([1, 15, 16, 17, -1, -15, -16, -17], dtype=np.int64)
BISHOP_STEPS = np.array([15, 17, -15, -17], dtype=np.int64)
ROOK_STEPS = np.array([1, 16, -1, -16], dtype=np.int64)

_mask = np.full(128, 15, dtype=np.int64)
_mask[0], _mask[4], _mask[7] = 15 & ~2, 15 & ~3, 15 & ~1
_mask[112], _mask[116], _mask[119] = 15 & ~8, 15 & ~12, 15 & ~4
CASTLE_MASK = _mask
"""Castling rights kept when a move leaves or lands on a square (kings' and rooks' homes)."""

_rng = np.random.default_rng(20261124)
Z_PIECE = _rng.integers(1, 2**62, size=(16, 128), dtype=np.int64)
Z_CASTLE = _rng.integers(1, 2**62, size=16, dtype=np.int64)
Z_EP = _rng.integers(1, 2**62, size=128, dtype=np.int64)
Z_SIDE = int(_rng.integers(1, 2**62))


@njit(cache=True)
def bb_slot(p):
    """The off-board cell holding the bitboard of piece code ``p`` (type 0: a whole colour)."""
    return 8 + ((p >> 3) << 4) + (p & 7)


@njit(cache=True)
def bit88(sq):
    """The bitboard bit of a 0x88 square."""
    return BIT[(sq + (sq & 7)) >> 1]


@njit(cache=True)
def set_bitboards(board):
    """Fill the off-board bitboard cells from the squares (after setting squares directly)."""
    for c in range(2):
        for t in range(8):
            board[bb_slot((c << 3) | t)] = 0
    for i in range(64):
        p = board[SQ88[i]]
        if p != 0:
            board[bb_slot(p)] |= BIT[i]
            board[bb_slot(p & 8)] |= BIT[i]


@njit(cache=True)
def attacked(board, sq, by):
    """True when side ``by`` attacks square ``sq`` (0x88)."""
    if by == 0:
        for d in (-15, -17):
            s = sq + d
            if not (s & 0x88) and board[s] == PAWN:
                return True
    else:
        for d in (15, 17):
            s = sq + d
            if not (s & 0x88) and board[s] == (BLACK | PAWN):
                return True
    col = by << 3
    for d in KNIGHT_STEPS:
        s = sq + d
        if not (s & 0x88) and board[s] == (col | KNIGHT):
            return True
    for d in KING_STEPS:
        s = sq + d
        if not (s & 0x88) and board[s] == (col | KING):
            return True
    for d in BISHOP_STEPS:
        s = sq + d
        while not (s & 0x88):
            p = board[s]
            if p != 0:
                if p == (col | BISHOP) or p == (col | QUEEN):
                    return True
                break
            s += d
    for d in ROOK_STEPS:
        s = sq + d
        while not (s & 0x88):
            p = board[s]
            if p != 0:
                if p == (col | ROOK) or p == (col | QUEEN):
                    return True
                break
            s += d
    return False


@njit(cache=True)
def in_check(board, st, side):
    """True when ``side``'s king is attacked."""
    return attacked(board, st[WKING + side], side ^ 1)


@njit(cache=True)
def _add_pawn_move(moves, n, fr, to, last_rank):
    if last_rank:
        for promo in (QUEEN, KNIGHT, ROOK, BISHOP):
            moves[n] = fr | (to << 7) | (promo << 14)
            n += 1
        return n
    moves[n] = fr | (to << 7)
    return n + 1


@njit(cache=True)
def generate(board, st, moves, captures_only):
    """Write the pseudo-legal moves of the side to move into ``moves``; return how many."""
    us = st[SIDE]
    them = us ^ 1
    n = 0
    fwd = 16 if us == 0 else -16
    start_rank = 1 if us == 0 else 6
    last = 7 if us == 0 else 0
    ep = st[EPSQ]
    for i in range(64):
        sq = SQ88[i]
        p = board[sq]
        if p == 0 or (p >> 3) != us:
            continue
        t = p & 7
        if t == PAWN:
            to = sq + fwd
            promo_rank = (to >> 4) == last
            if board[to] == 0 and (not captures_only or promo_rank):
                n = _add_pawn_move(moves, n, sq, to, promo_rank)
                if not captures_only and (sq >> 4) == start_rank and board[to + fwd] == 0:
                    moves[n] = sq | ((to + fwd) << 7) | (DOUBLE << 18)
                    n += 1
            for d in (fwd - 1, fwd + 1):
                to = sq + d
                if to & 0x88:
                    continue
                q = board[to]
                if q != 0 and (q >> 3) == them:
                    n = _add_pawn_move(moves, n, sq, to, promo_rank)
                elif to == ep:
                    moves[n] = sq | (to << 7) | (EP << 18)
                    n += 1
        elif t in (KNIGHT, KING):
            steps = KNIGHT_STEPS if t == KNIGHT else KING_STEPS
            for d in steps:
                to = sq + d
                if to & 0x88:
                    continue
                q = board[to]
                if (q == 0 and not captures_only) or (q != 0 and (q >> 3) == them):
                    moves[n] = sq | (to << 7)
                    n += 1
        else:
            for k in range(2):
                if k == 0 and t == ROOK or k == 1 and t == BISHOP:
                    continue
                steps = BISHOP_STEPS if k == 0 else ROOK_STEPS
                for d in steps:
                    to = sq + d
                    while not (to & 0x88):
                        q = board[to]
                        if q == 0:
                            if not captures_only:
                                moves[n] = sq | (to << 7)
                                n += 1
                        else:
                            if (q >> 3) == them:
                                moves[n] = sq | (to << 7)
                                n += 1
                            break
                        to += d
    if not captures_only:
        n = _castling(board, st, moves, n)
    return n


@njit(cache=True)
def _castling(board, st, moves, n):
    us = st[SIDE]
    rights = st[CASTLING] >> (2 * us)
    base = 0 if us == 0 else 112
    col = us << 3
    if rights & 3 == 0 or board[base + 4] != (col | KING):
        return n
    them = us ^ 1
    if (rights & 1 and board[base + 5] == 0 and board[base + 6] == 0
            and board[base + 7] == (col | ROOK) and not attacked(board, base + 4, them)
            and not attacked(board, base + 5, them)):
        moves[n] = (base + 4) | ((base + 6) << 7) | (CASTLE << 18)
        n += 1
    if (rights & 2 and board[base + 3] == 0 and board[base + 2] == 0 and board[base + 1] == 0
            and board[base] == (col | ROOK) and not attacked(board, base + 4, them)
            and not attacked(board, base + 3, them)):
        moves[n] = (base + 4) | ((base + 2) << 7) | (CASTLE << 18)
        n += 1
    return n


@njit(cache=True)
def _move_bits(board, us, p, p2, cap, fr, to, flags):
    """Toggle the bitboards for a move of piece ``p`` (``p2`` after promotion) from ``fr``
    to ``to`` capturing ``cap``: the same call makes and unmakes it (xor)."""
    bf = bit88(fr)
    bt = bit88(to)
    board[bb_slot(p)] ^= bf
    board[bb_slot(p2)] ^= bt
    board[8 + (us << 4)] ^= bf | bt
    if cap != 0:
        board[bb_slot(cap)] ^= bt
        board[24 - (us << 4)] ^= bt
    if flags & EP:
        bc = bit88(to - 16 if us == 0 else to + 16)
        board[bb_slot(((us ^ 1) << 3) | PAWN)] ^= bc
        board[24 - (us << 4)] ^= bc
    elif flags & CASTLE:
        rook_bits = bit88(to + 1) | bit88(to - 1) if to & 7 == 6 else bit88(to - 2) | bit88(to + 1)
        board[bb_slot((us << 3) | ROOK)] ^= rook_bits
        board[8 + (us << 4)] ^= rook_bits


@njit(cache=True)
def make(board, st, undo, m):
    """Play move ``m`` on the arrays (no legality test). Inlined into its callers: a call
    with the arrays costs more than the move."""
    fr = m & 127
    to = (m >> 7) & 127
    promo = (m >> 14) & 7
    flags = m >> 18
    us = st[SIDE]
    ply = st[PLY]
    p = board[fr]
    cap = board[to]
    undo[ply, 0] = m               # rows indexed in place: a row view costs reference counts
    undo[ply, 1] = cap
    undo[ply, 2] = st[CASTLING]
    undo[ply, 3] = st[EPSQ]
    undo[ply, 4] = st[HALFMOVE]
    undo[ply, 5] = st[HASH]
    h = st[HASH] ^ Z_PIECE[p, fr]
    if cap != 0:
        h ^= Z_PIECE[cap, to]
    board[fr] = 0
    p2 = promo | us << 3 if promo != 0 else p
    board[to] = p2
    h ^= Z_PIECE[p2, to]
    _move_bits(board, us, p, p2, cap, fr, to, flags)
    if flags & EP:
        capsq = to - 16 if us == 0 else to + 16
        h ^= Z_PIECE[board[capsq], capsq]
        board[capsq] = 0
    elif flags & CASTLE:
        if to & 7 == 6:
            rf, rt = to + 1, to - 1
        else:
            rf, rt = to - 2, to + 1
        rook = board[rf]
        board[rt] = rook
        board[rf] = 0
        h ^= Z_PIECE[rook, rf] ^ Z_PIECE[rook, rt]
    if p & 7 == KING:
        st[WKING + us] = to
    old = st[CASTLING]
    new = old & CASTLE_MASK[fr] & CASTLE_MASK[to]
    if new != old:
        h ^= Z_CASTLE[old] ^ Z_CASTLE[new]
        st[CASTLING] = new
    if st[EPSQ] >= 0:
        h ^= Z_EP[st[EPSQ]]
    st[EPSQ] = -1
    if flags & DOUBLE:
        enemy = ((us ^ 1) << 3) | PAWN
        if (not ((to + 1) & 0x88) and board[to + 1] == enemy) or \
                (not ((to - 1) & 0x88) and board[to - 1] == enemy):
            st[EPSQ] = (fr + to) >> 1
            h ^= Z_EP[st[EPSQ]]
    if p & 7 == PAWN or cap != 0:
        st[HALFMOVE] = 0
    else:
        st[HALFMOVE] += 1
    st[SIDE] = us ^ 1
    st[PLY] = ply + 1
    st[HASH] = h ^ Z_SIDE


@njit(cache=True)
def unmake(board, st, undo):
    """Take back the last move made."""
    ply = st[PLY] - 1
    m = undo[ply, 0]
    fr = m & 127
    to = (m >> 7) & 127
    promo = (m >> 14) & 7
    flags = m >> 18
    us = st[SIDE] ^ 1
    p = board[to]
    p2 = p
    if promo != 0:
        p = PAWN | (us << 3)
    _move_bits(board, us, p, p2, undo[ply, 1], fr, to, flags)
    board[fr] = p
    board[to] = undo[ply, 1]
    if flags & EP:
        capsq = to - 16 if us == 0 else to + 16
        board[capsq] = ((us ^ 1) << 3) | PAWN
    elif flags & CASTLE:
        if to & 7 == 6:
            rf, rt = to + 1, to - 1
        else:
            rf, rt = to - 2, to + 1
        board[rf] = board[rt]
        board[rt] = 0
    if p & 7 == KING:
        st[WKING + us] = fr
    st[SIDE] = us
    st[CASTLING] = undo[ply, 2]
    st[EPSQ] = undo[ply, 3]
    st[HALFMOVE] = undo[ply, 4]
    st[HASH] = undo[ply, 5]
    st[PLY] = ply


@njit(cache=True)
def make_null(board, st, undo):
    """Pass the move (null-move pruning): only the side and the en passant square change."""
    ply = st[PLY]
    undo[ply, 0] = 0
    undo[ply, 1] = 0
    undo[ply, 2] = st[CASTLING]
    undo[ply, 3] = st[EPSQ]
    undo[ply, 4] = st[HALFMOVE]
    undo[ply, 5] = st[HASH]
    h = st[HASH]
    if st[EPSQ] >= 0:
        h ^= Z_EP[st[EPSQ]]
    st[EPSQ] = -1
    st[SIDE] ^= 1
    st[HALFMOVE] += 1
    st[PLY] = ply + 1
    st[HASH] = h ^ Z_SIDE


@njit(cache=True)
def unmake_null(board, st, undo):
    """Take back a null move."""
    ply = st[PLY] - 1
    st[SIDE] ^= 1
    st[EPSQ] = undo[ply, 3]
    st[HALFMOVE] = undo[ply, 4]
    st[HASH] = undo[ply, 5]
    st[PLY] = ply


@njit(cache=True)
def compute_hash(board, st):
    """The Zobrist hash of a position from scratch."""
    h = 0
    for i in range(64):
        sq = SQ88[i]
        if board[sq] != 0:
            h ^= Z_PIECE[board[sq], sq]
    h ^= Z_CASTLE[st[CASTLING]]
    if st[EPSQ] >= 0:
        h ^= Z_EP[st[EPSQ]]
    if st[SIDE] == 1:
        h ^= Z_SIDE
    return h


@njit(cache=True)
def insufficient_material(board):
    """python-chess's dead-position test: neither side can ever mate (see its docs)."""
    knights = np.zeros(2, np.int64)
    bishops = np.zeros(2, np.int64)
    count = np.zeros(2, np.int64)
    bishop_colors = 0
    for i in range(64):
        p = board[SQ88[i]]
        if p == 0:
            continue
        c = p >> 3
        t = p & 7
        count[c] += 1
        if t in (PAWN, ROOK, QUEEN):
            return False
        if t == KNIGHT:
            knights[c] += 1
        elif t == BISHOP:
            bishops[c] += 1
            bishop_colors |= 1 << (((i >> 3) + (i & 7)) & 1)
    for c in range(2):
        o = c ^ 1
        if knights[c] > 0:
            if count[c] > 2 or knights[o] + bishops[o] > 0:
                return False
        elif bishops[c] > 0 and (bishop_colors == 3 or knights[0] + knights[1] > 0):
            return False
    return True
