"""Chess's compiled kernel (docs/KERNELS.md): the contract over the 0x88 board of ``board.py``.

The contract's state is a tuple of five int64: four words of 16 squares of 4 bits each (the
piece codes of ``board.py``, square ``8 * rank + file``) and a word holding the side to
move (bit 0), castling rights (bits 1-4), en passant square + 1 (bits 5-11, 0 none; kept
only when an en passant capture is legal, as in python-chess's FEN) and the half-move clock
(bits 12 and up). The full-move number is not part of the position.

Actions are ``from | to << 6 | promotion type << 12`` (squares 0..63, type 2..5 for
N, B, R, Q) and decode to the rules' UCI strings. ``perft_fen`` counts the move tree with
the array board: legal moves from its bitboards (``legal.py``), make/unmake between plies,
the last ply counted without being played.
"""

from __future__ import annotations

import sys
import types

import chess
import numpy as np

from gamesearch.games.chess import bitboards
from gamesearch.games.chess import board as B
from gamesearch.games.chess import legal as L
from gamesearch.kernels.contract import GameKernel, register_kernel
from gamesearch.kernels.specialize import compile_in_place

MAX_ACTIONS = 256
_PROMO_LETTER = {2: "n", 3: "b", 4: "r", 5: "q"}
_CODE = {(c, t): (0 if c == chess.WHITE else 8) | t for c in (True, False) for t in range(1, 7)}


def arrays_of(board: chess.Board) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernel arrays (board, st, undo) of a python-chess board."""
    b = np.zeros(128, np.int64)
    st = np.zeros(8, np.int64)
    for sq, piece in board.piece_map().items():
        b[(sq >> 3) * 16 + (sq & 7)] = _CODE[(piece.color, piece.piece_type)]
    st[B.SIDE] = 0 if board.turn == chess.WHITE else 1
    rights = board.castling_rights
    st[B.CASTLING] = (bool(rights & chess.BB_H1) | bool(rights & chess.BB_A1) << 1
                      | bool(rights & chess.BB_H8) << 2 | bool(rights & chess.BB_A8) << 3)
    ep = board.ep_square if board.has_legal_en_passant() else None
    st[B.EPSQ] = -1 if ep is None else (ep >> 3) * 16 + (ep & 7)
    st[B.HALFMOVE] = board.halfmove_clock
    st[B.WKING] = (board.king(chess.WHITE) >> 3) * 16 + (board.king(chess.WHITE) & 7)
    st[B.BKING] = (board.king(chess.BLACK) >> 3) * 16 + (board.king(chess.BLACK) & 7)
    st[B.HASH] = B.compute_hash(b, st)
    B.set_bitboards(b)
    return b, st, np.zeros((B.MAX_PLY, 6), np.int64)


def perft_fen(fen: str, depth: int) -> int:
    """Leaf count of the legal move tree of a FEN, ``depth`` plies deep (compiled)."""
    from gamesearch.games.chess.rules import board_of

    if depth <= 0:
        return 1
    b, st, undo = arrays_of(board_of(fen))
    moves = np.zeros((B.MAX_PLY, B.MAX_MOVES), np.int64)
    return int(L.perft(b, st, undo, moves, depth))


def uci_of(m: int) -> str:
    """An internal (0x88) move in UCI notation."""
    fr, to, promo = m & 127, (m >> 7) & 127, (m >> 14) & 7
    text = "abcdefgh"[fr & 7] + str((fr >> 4) + 1) + "abcdefgh"[to & 7] + str((to >> 4) + 1)
    return text + _PROMO_LETTER.get(promo, "")


# --- the contract --------------------------------------------------------------------------
def _unpack(s):
    b = np.zeros(128, np.int64)
    st = np.zeros(8, np.int64)
    for i in range(64):
        b[B.SQ88[i]] = (s[i >> 4] >> (4 * (i & 15))) & 15
    f = s[4]
    st[B.SIDE] = f & 1
    st[B.CASTLING] = (f >> 1) & 15
    ep = ((f >> 5) & 127) - 1
    st[B.EPSQ] = -1 if ep < 0 else B.SQ88[ep]
    st[B.HALFMOVE] = f >> 12
    for i in range(64):
        if b[B.SQ88[i]] == B.KING:
            st[B.WKING] = B.SQ88[i]
        elif b[B.SQ88[i]] == (B.BLACK | B.KING):
            st[B.BKING] = B.SQ88[i]
    st[B.HASH] = B.compute_hash(b, st)
    B.set_bitboards(b)
    return b, st


def _pack(b, st):
    w = np.zeros(4, np.int64)
    for i in range(64):
        w[i >> 4] |= b[B.SQ88[i]] << (4 * (i & 15))
    ep = st[B.EPSQ]
    ep64 = 0 if ep < 0 else ((ep >> 4) * 8 + (ep & 7)) + 1
    f = st[B.SIDE] | (st[B.CASTLING] << 1) | (ep64 << 5) | (st[B.HALFMOVE] << 12)
    return (w[0], w[1], w[2], w[3], f)


def _action(m):
    fr = m & 127
    to = (m >> 7) & 127
    return ((fr >> 4) * 8 + (fr & 7)) | (((to >> 4) * 8 + (to & 7)) << 6) | (((m >> 14) & 7) << 12)


def legal(s, out):
    """The legal moves as actions, in generation order; how many."""
    b, st = _unpack(s)
    undo = np.zeros((B.MAX_PLY, 6), np.int64)
    moves = np.empty(B.MAX_MOVES, np.int64)
    n = L.legal_moves(b, st, undo, moves)
    for i in range(n):
        out[i] = _action(moves[i])
    return n


def play(s, a):
    """The position after action ``a`` (en passant square kept only if a capture is legal)."""
    b, st = _unpack(s)
    undo = np.zeros((B.MAX_PLY, 6), np.int64)
    moves = np.empty(B.MAX_MOVES, np.int64)
    n = L.legal_moves(b, st, undo, moves)
    for i in range(n):
        if _action(moves[i]) == a:
            B.make(b, st, undo, moves[i])
            break
    if st[B.EPSQ] >= 0:
        k = L.legal_moves(b, st, undo, moves)
        keep = False
        for i in range(k):
            if (moves[i] >> 18) & B.EP:
                keep = True
        if not keep:
            st[B.EPSQ] = -1
    return _pack(b, st)


def _has_move(s):
    b, st = _unpack(s)
    undo = np.zeros((B.MAX_PLY, 6), np.int64)
    moves = np.empty(B.MAX_MOVES, np.int64)
    return L.legal_moves(b, st, undo, moves) > 0, B.in_check(b, st, st[B.SIDE])


def is_terminal(s):
    """Mate, stalemate, fifty moves, or a dead position."""
    if (s[4] >> 12) >= 100:
        return True
    b, st = _unpack(s)
    if B.insufficient_material(b):
        return True
    return not _has_move(s)[0]


def terminal_value(s):
    """-1 when the player to move is mated, else 0 (a draw)."""
    has, check = _has_move(s)
    return -1.0 if check and not has else 0.0


_VALUES = np.array([0, 100, 320, 330, 500, 900, 0, 0], np.int64)


def evaluate(s):
    """Material balance for the player to move, scaled into (-1, 1)."""
    b, st = _unpack(s)
    total = 0
    for i in range(64):
        p = b[B.SQ88[i]]
        if p != 0:
            v = _VALUES[p & 7]
            total += v if (p >> 3) == 0 else -v
    if st[B.SIDE] == 1:
        total = -total
    return np.tanh(total / 1000.0)


def to_move(s):
    """0 for White, 1 for Black."""
    return s[4] & 1


def key(s):
    """The Zobrist hash, mixed with the half-move clock (the rules tell those apart)."""
    b, st = _unpack(s)
    return st[B.HASH] ^ ((s[4] >> 12) * 0x9E3779B97F4A7C1)


def encode(state: str) -> tuple[int, ...]:
    """The kernel tuple of a FEN."""
    b, st, _ = arrays_of(chess.Board(state))
    return tuple(int(x) for x in _pack(b, st))


def decode(a: int) -> str:
    """A kernel action as the rules' UCI move."""
    fr, to, promo = a & 63, (a >> 6) & 63, (a >> 12) & 7
    return chess.square_name(fr) + chess.square_name(to) + _PROMO_LETTER.get(promo, "")


def make_kernel() -> GameKernel:
    """Chess's kernel."""
    from gamesearch.games.chess import bitboards
    from gamesearch.kernels.specialize import source_tag

    prims = types.SimpleNamespace(legal=legal, play=play, is_terminal=is_terminal,
                                  terminal_value=terminal_value, evaluate=evaluate,
                                  to_move=to_move, key=key)
    # the generic searches' cache is named by this tag: it changes with the sources they
    # inline (numba keys a cache on the caller's own file only)
    tag = "0x88_" + source_tag(B, L, bitboards, sys.modules[__name__])
    return GameKernel("chess", prims, MAX_ACTIONS, encode, decode, tag)


register_kernel("chess", make_kernel)


TEMPLATES = (_unpack, _pack, _action, legal, play, _has_move, is_terminal, terminal_value,
             evaluate, to_move, key)
"""Compiled by ``kernels.specialize`` under a tag that also covers the modules whose compiled
code they call: an edit to any of them gives these a new cache entry."""
compile_in_place(globals(), TEMPLATES, "chess_kernel", (B, L, bitboards))
