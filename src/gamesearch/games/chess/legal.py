"""Legal moves straight from the bitboards (no make / test / unmake), and perft on them.

Once per position: the pieces giving check (``checkers``), the squares a non-king move may
go to (anywhere not ours; in single check only the checker and the squares between it and
the king; in double check nowhere), and our pieces pinned to the king (a line from the
king to an enemy slider holding exactly one piece, ours). A pinned piece keeps only the
targets on the line through it and the king. Then each piece's legal targets are
``attacks & allowed`` (& the pin line): counted by one popcount, or written out as moves.
The king's targets are tested one by one against the enemy's attacks with the king lifted
off the board (so it cannot hide behind itself from a slider). Only en passant (which
empties two squares of one rank: the horizontal pin) and castling are checked move by
move, on the occupancy after the move.

Moves are written in ``board.py``'s encoding (0x88 squares and flags), so ``board.make``
plays them. ``perft`` counts the last ply with ``count_legal`` and makes only interior
moves.
"""

from __future__ import annotations

import numpy as np

from gamesearch.games.chess import bitboards, board
from gamesearch.games.chess.bitboards import (
    BETWEEN,
    BISHOP_EMPTY,
    BIT,
    FILE_A,
    FILE_H,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    LINE,
    PAWN_ATTACKS,
    RANK_1,
    RANK_3,
    RANK_6,
    RANK_8,
    ROOK_EMPTY,
    bishop_attacks,
    lsb,
    popcount,
    rook_attacks,
)
from gamesearch.games.chess.board import (
    BISHOP,
    CASTLE,
    CASTLING,
    DOUBLE,
    EP,
    EPSQ,
    KING,
    KNIGHT,
    PAWN,
    PLY,
    QUEEN,
    ROOK,
    SIDE,
    SQ88,
    make,
    unmake,
)
from gamesearch.kernels.specialize import compile_in_place


def _move(fr, to, extra):
    """A move of ``board.py`` from two 0..63 squares (``extra``: promotion and flags)."""
    return SQ88[fr] | (SQ88[to] << 7) | extra


def attackers(board, sq, occ, them):
    """The pieces of side ``them`` attacking square ``sq`` (0..63) with occupancy ``occ``."""
    base = 8 + (them << 4)
    queens = board[base + QUEEN]
    return ((KNIGHT_ATTACKS[sq] & board[base + KNIGHT])
            | (PAWN_ATTACKS[them ^ 1, sq] & board[base + PAWN])
            | (KING_ATTACKS[sq] & board[base + KING])
            | (bishop_attacks(sq, occ) & (board[base + BISHOP] | queens))
            | (rook_attacks(sq, occ) & (board[base + ROOK] | queens)))


def _emit(out, n, fr, targets, write):
    """Add the moves from ``fr`` to each of ``targets`` (or only count them)."""
    if not write:
        return n + popcount(targets)
    while targets:
        to = lsb(targets)
        targets &= targets - 1
        out[n] = _move(fr, to, 0)
        n += 1
    return n


def _emit_pawns(out, n, targets, delta, extra, write):
    """Add pawn moves landing on ``targets``, each from ``to - delta``; a move to the last
    rank is four promotions."""
    last = targets & (RANK_1 | RANK_8)
    if not write:
        return n + popcount(targets) + 3 * popcount(last)
    while targets:
        to = lsb(targets)
        targets &= targets - 1
        fr = to - delta
        if BIT[to] & last:
            for promo in (QUEEN, KNIGHT, ROOK, BISHOP):
                out[n] = _move(fr, to, promo << 14)
                n += 1
        else:
            out[n] = _move(fr, to, extra)
            n += 1
    return n


def _pawns(board, us, ksq, occ, enemy, allowed, pinned, out, n, write):
    """The pawns' pushes and captures (not en passant)."""
    pawns = board[8 + (us << 4) + PAWN]
    free = pawns & ~pinned
    empty = ~occ
    if us == 0:
        one = (free << 8) & empty
        two = ((one & RANK_3) << 8) & empty & allowed
        west = ((free & ~FILE_A) << 7) & enemy & allowed
        east = ((free & ~FILE_H) << 9) & enemy & allowed
        step, dw, de = 8, 7, 9
    else:
        one = (free >> 8) & empty      # black pawns never stand on bit 63: the shift is exact
        two = ((one & RANK_6) >> 8) & empty & allowed
        west = ((free & ~FILE_A) >> 9) & enemy & allowed
        east = ((free & ~FILE_H) >> 7) & enemy & allowed
        step, dw, de = -8, -9, -7
    n = _emit_pawns(out, n, one & allowed, step, 0, write)
    n = _emit_pawns(out, n, two, 2 * step, DOUBLE << 18, write)
    n = _emit_pawns(out, n, west, dw, 0, write)
    n = _emit_pawns(out, n, east, de, 0, write)
    stuck = pawns & pinned
    while stuck:
        s = lsb(stuck)
        stuck &= stuck - 1
        to = s + step
        targets = PAWN_ATTACKS[us, s] & enemy
        if not (occ & BIT[to]):
            targets |= BIT[to]
            home = (us == 0 and s >> 3 == 1) or (us == 1 and s >> 3 == 6)
            if home and not (occ & BIT[to + step]):
                targets |= BIT[to + step]
        targets &= allowed & LINE[ksq, s]
        while targets:
            t = lsb(targets)
            targets &= targets - 1
            if BIT[t] & (RANK_1 | RANK_8):
                if not write:
                    n += 4
                    continue
                for promo in (QUEEN, KNIGHT, ROOK, BISHOP):
                    out[n] = _move(s, t, promo << 14)
                    n += 1
            else:
                if write:
                    out[n] = _move(s, t, (DOUBLE << 18) if abs(t - s) == 16 else 0)
                n += 1
    return n


def _en_passant(board, st, us, ksq, occ, out, n, write):
    """En passant captures, each tested on the board after it (two squares of a rank empty
    at once: a pin no mask shows)."""
    e = st[EPSQ]
    if e < 0:
        return n
    ep = (e + (e & 7)) >> 1
    captured = ep - 8 if us == 0 else ep + 8
    them = us ^ 1
    takers = PAWN_ATTACKS[them, ep] & board[8 + (us << 4) + PAWN]
    while takers:
        s = lsb(takers)
        takers &= takers - 1
        after = (occ ^ BIT[s] ^ BIT[captured]) | BIT[ep]
        if attackers(board, ksq, after, them) & ~BIT[captured] == 0:
            if write:
                out[n] = _move(s, ep, EP << 18)
            n += 1
    return n


def _castling(board, st, us, occ, out, n, write):
    """Castling (not in check): the squares between king and rook empty, the king's path
    not attacked."""
    rights = st[CASTLING] >> (2 * us)
    home = 0 if us == 0 else 112
    b = 0 if us == 0 else 56
    col = us << 3
    if rights & 3 == 0 or board[home + 4] != (col | KING):
        return n
    them = us ^ 1
    if (rights & 1 and board[home + 7] == (col | ROOK)
            and occ & (BIT[b + 5] | BIT[b + 6]) == 0
            and attackers(board, b + 5, occ, them) == 0
            and attackers(board, b + 6, occ, them) == 0):
        if write:
            out[n] = _move(b + 4, b + 6, CASTLE << 18)
        n += 1
    if (rights & 2 and board[home] == (col | ROOK)
            and occ & (BIT[b + 1] | BIT[b + 2] | BIT[b + 3]) == 0
            and attackers(board, b + 3, occ, them) == 0
            and attackers(board, b + 2, occ, them) == 0):
        if write:
            out[n] = _move(b + 4, b + 2, CASTLE << 18)
        n += 1
    return n


def _legal(board, st, out, write):
    """Write the legal moves into ``out`` (``write``) or only count them; how many. Inlined
    where ``write`` is a constant, so each caller keeps only its own branch."""
    us = st[SIDE]
    them = us ^ 1
    mine = 8 + (us << 4)
    theirs = 8 + (them << 4)
    own = board[mine]
    enemy = board[theirs]
    occ = own | enemy
    ksq = lsb(board[mine + KING])
    n = 0
    targets = KING_ATTACKS[ksq] & ~own
    lifted = occ ^ BIT[ksq]
    while targets:
        t = lsb(targets)
        targets &= targets - 1
        if attackers(board, t, lifted, them) == 0:
            if write:
                out[n] = _move(ksq, t, 0)
            n += 1
    checkers = attackers(board, ksq, occ, them)
    if checkers & (checkers - 1):
        return n                              # double check: only the king moves
    if checkers:
        allowed = BETWEEN[ksq, lsb(checkers)] | checkers
    else:
        allowed = ~own
        n = _castling(board, st, us, occ, out, n, write)
    queens = board[theirs + QUEEN]
    snipers = ((ROOK_EMPTY[ksq] & (board[theirs + ROOK] | queens))
               | (BISHOP_EMPTY[ksq] & (board[theirs + BISHOP] | queens)))
    pinned = 0
    while snipers:
        s = lsb(snipers)
        snipers &= snipers - 1
        between = BETWEEN[ksq, s] & occ
        if between and not (between & (between - 1)):
            pinned |= between & own
    pieces = board[mine + KNIGHT] & ~pinned    # a pinned knight never moves
    while pieces:
        s = lsb(pieces)
        pieces &= pieces - 1
        n = _emit(out, n, s, KNIGHT_ATTACKS[s] & allowed, write)
    pieces = board[mine + BISHOP] | board[mine + QUEEN]
    while pieces:
        s = lsb(pieces)
        pieces &= pieces - 1
        a = bishop_attacks(s, occ) & allowed
        if BIT[s] & pinned:
            a &= LINE[ksq, s]
        n = _emit(out, n, s, a, write)
    pieces = board[mine + ROOK] | board[mine + QUEEN]
    while pieces:
        s = lsb(pieces)
        pieces &= pieces - 1
        a = rook_attacks(s, occ) & allowed
        if BIT[s] & pinned:
            a &= LINE[ksq, s]
        n = _emit(out, n, s, a, write)
    n = _pawns(board, us, ksq, occ, enemy, allowed, pinned, out, n, write)
    return _en_passant(board, st, us, ksq, occ, out, n, write)


def generate_legal(board, st, moves):
    """Write the legal moves of the side to move into ``moves``; return how many."""
    return _legal(board, st, moves, True)


def count_legal(board, st):
    """How many legal moves the side to move has (none is made)."""
    return _legal(board, st, np.empty(0, np.int64), False)


def legal_moves(board, st, undo, moves):
    """Write the legal moves into ``moves``; return how many (``undo`` is not needed)."""
    return _legal(board, st, moves, True)


def perft(board, st, undo, moves, depth):
    """The number of leaf nodes of the legal move tree ``depth`` (>= 1) plies deep; the last
    ply is counted, not played (and counted here, not in a call per child)."""
    row = moves[st[PLY]]
    if depth == 1:
        return _legal(board, st, row, False)
    n = _legal(board, st, row, True)
    total = 0
    for i in range(n):
        make(board, st, undo, row[i])
        if depth == 2:
            total += _legal(board, st, row, False)   # counting writes nothing
        else:
            total += perft(board, st, undo, moves, depth - 1)
        unmake(board, st, undo)
    return total


TEMPLATES = (_move, attackers, _emit, _emit_pawns, _pawns, _en_passant, _castling, _legal,
             generate_legal, count_legal, legal_moves, perft)
"""Compiled by ``kernels.specialize`` under a tag that also covers the modules whose compiled
code they call: an edit to any of them gives these a new cache entry."""
compile_in_place(globals(), TEMPLATES, "chess_legal", (bitboards, board))
