"""Othello's compiled bitboard kernel: the rules of rules.py as numba primitives, and perft.

A position is two 64-bit boards, ``(me, opp, mover)``: the discs of the side to move, the
discs of the other side (uint64, bit ``8*row + col``, a1 = bit 0) and the colour to move
(0 black). A 6x6 or 4x4 board sits in the low corner of the 8x8 layout; ``VALID`` masks
its squares, so one set of templates serves every size (compiled per size by
:func:`gamesearch.kernels.specialize.specialize`). Moves are generated for all squares at
once by shifting along the eight directions (the "dumb7fill" of chess programs); the
action of a side without a move is ``PASS_ACTION``. tests/test_othello.py checks every
primitive against the readable rules (``check_kernel``) and perft against Aart Bik's counts.
"""

from __future__ import annotations

import functools

import numpy as np

from gamesearch.kernels.contract import GameKernel, register_kernel

U = np.uint64
PASS_ACTION = 64
NOT_A = np.uint64(0xFEFEFEFEFEFEFEFE)  # every square but the a-file
NOT_H = np.uint64(0x7F7F7F7F7F7F7F7F)  # every square but the h-file
ZERO, ONE = np.uint64(0), np.uint64(1)
S1, S7, S8, S9 = np.uint64(1), np.uint64(7), np.uint64(8), np.uint64(9)
CORNERS = np.uint64(0x8100000000000081)


def popcount64(x):
    """Bits set in a uint64 (SWAR)."""
    x = x - ((x >> S1) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


def shift(x, d):
    """The board ``x`` moved one step in direction ``d`` (0-7), squares off the board dropped."""
    if d == 0:
        return (x << S1) & NOT_A & VALID  # noqa: F821  (bound by specialize)
    if d == 1:
        return (x >> S1) & NOT_H & VALID  # noqa: F821
    if d == 2:
        return (x << S8) & VALID  # noqa: F821
    if d == 3:
        return (x >> S8) & VALID  # noqa: F821
    if d == 4:
        return (x << S9) & NOT_A & VALID  # noqa: F821
    if d == 5:
        return (x << S7) & NOT_H & VALID  # noqa: F821
    if d == 6:
        return (x >> S7) & NOT_A & VALID  # noqa: F821
    return (x >> S9) & NOT_H & VALID  # noqa: F821


def moves_of(me, opp):
    """The squares where the side owning ``me`` may play, as a bitboard."""
    empty = ~(me | opp) & VALID  # noqa: F821
    result = ZERO
    for d in range(8):
        run = shift(me, d) & opp
        for _ in range(5):
            run |= shift(run, d) & opp
        result |= shift(run, d)
    return result & empty


def flips_of(me, opp, sq):
    """The discs turned over when the side owning ``me`` plays on square ``sq``."""
    start = ONE << np.uint64(sq)
    turned = ZERO
    for d in range(8):
        run = ZERO
        x = shift(start, d)
        while x & opp:
            run |= x
            x = shift(x, d)
        if x & me:
            turned |= run
    return turned


def legal(s, out):
    """Corners first, then the other squares in order; a pass when there is no move."""
    m = moves_of(s[0], s[1])
    if m == ZERO:
        out[0] = PASS_ACTION
        return 1
    n = 0
    for first in (True, False):
        rest = m & CORNERS if first else m & ~CORNERS
        while rest:
            low = rest & (~rest + ONE)
            out[n] = popcount64(low - ONE)
            n += 1
            rest ^= low
    return n


def play(s, a):
    """The position after action ``a``, seen by the other side."""
    if a == PASS_ACTION:
        return (s[1], s[0], 1 - s[2])
    f = flips_of(s[0], s[1], a)
    return (s[1] ^ f, s[0] | f | (ONE << np.uint64(a)), 1 - s[2])


def is_terminal(s):
    return moves_of(s[0], s[1]) == ZERO and moves_of(s[1], s[0]) == ZERO


def disc_margin(me, opp):
    """The final score for ``me``: the disc difference, empty squares to the winner."""
    a, b = popcount64(me), popcount64(opp)
    empty = popcount64(VALID) - a - b  # noqa: F821
    if a > b:
        return a - b + empty
    if a < b:
        return a - b - empty
    return 0


def terminal_value(s):
    """+1, 0 or -1 for the side to move, as the rules' utilities."""
    m = disc_margin(s[0], s[1])
    return 1.0 if m > 0 else (-1.0 if m < 0 else 0.0)


def evaluate(s):
    """A quick heuristic for the side to move: corners and mobility, squashed into (-1, 1)."""
    corners = popcount64(s[0] & CORNERS) - popcount64(s[1] & CORNERS)
    mobility = popcount64(moves_of(s[0], s[1])) - popcount64(moves_of(s[1], s[0]))
    x = 3.0 * corners + 0.3 * mobility
    return x / (abs(x) + 10.0)


def to_move(s):
    return np.int64(s[2])


def key(s):
    """A 64-bit hash of the two boards (the mover is implied by a position reached in play,
    but mixed in so that a board string with either side to move differs)."""
    h = s[0] * np.uint64(0x9E3779B97F4A7C15) ^ (s[1] + np.uint64(0x632BE59BD9B4E019)) \
        * np.uint64(0xC2B2AE3D27D4EB4F) ^ np.uint64(s[2])
    return np.int64(h ^ (h >> np.uint64(31)))


def perft(me, opp, depth):
    """Leaves ``depth`` plies below: a pass is a ply, a finished game counts as one leaf."""
    m = moves_of(me, opp)
    if m == ZERO:
        if moves_of(opp, me) == ZERO:
            return np.int64(1)
        if depth == 1:
            return np.int64(1)
        return perft(opp, me, depth - 1)
    if depth == 1:
        return popcount64(m)
    total = np.int64(0)
    while m:
        low = m & (~m + ONE)
        m ^= low
        f = flips_of(me, opp, popcount64(low - ONE))
        total += perft(opp ^ f, me | f | low, depth - 1)
    return total


TEMPLATES = (popcount64, shift, moves_of, flips_of, legal, play, is_terminal, disc_margin,
             terminal_value, evaluate, to_move, key, perft)


def valid_mask(size: int) -> np.uint64:
    """The squares of a ``size`` x ``size`` board in the 8x8 layout."""
    return np.uint64(sum(1 << (r * 8 + c) for r in range(size) for c in range(size)))


def corner_mask(size: int) -> np.uint64:
    """The four corners of a ``size`` x ``size`` board in the 8x8 layout."""
    top = (size - 1) * 8
    return np.uint64((1 << 0) | (1 << (size - 1)) | (1 << top) | (1 << (top + size - 1)))


@functools.cache
def primitives(size: int = 8):
    """The primitives compiled for one board size (cached per process and on disk)."""
    from gamesearch.kernels.specialize import source_tag, specialize

    tag = f"othello{size}_{source_tag(*TEMPLATES)}"
    return specialize(TEMPLATES, {"VALID": valid_mask(size), "CORNERS": corner_mask(size)}, tag)


def to_bits(cells: str, size: int, disc: str) -> int:
    """The bitboard of the squares of ``cells`` holding ``disc``."""
    return sum(1 << ((i // size) * 8 + i % size) for i, c in enumerate(cells) if c == disc)


def encode_state(state: tuple, size: int) -> tuple:
    """The kernel tuple of a rules state ``(cells, mover)``."""
    cells, mover = state
    black, white = to_bits(cells, size, "X"), to_bits(cells, size, "O")
    me, opp = (black, white) if mover == 0 else (white, black)
    return (np.uint64(me), np.uint64(opp), np.int64(mover))


def decode_action(a: int, size: int) -> int:
    """The rules' action of kernel action ``a`` (-1 is the pass)."""
    return -1 if a == PASS_ACTION else (a // 8) * size + a % 8


@functools.cache
def make_kernel(size: int = 8) -> GameKernel:
    """Othello's GameKernel for one board size."""
    from gamesearch.kernels.specialize import source_tag

    return GameKernel(name=f"othello_{size}", primitives=primitives(size), max_actions=64,
                      encode=functools.partial(encode_state, size=size),
                      decode=functools.partial(decode_action, size=size),
                      tag=source_tag(*TEMPLATES))


def kernel_perft(game, state, depth: int) -> int:
    """``gamesearch perft othello``: the compiled count from a rules state."""
    me, opp, _ = encode_state(state, game.size)
    return int(primitives(game.size).perft(me, opp, np.int64(depth)))


register_kernel("othello", make_kernel)
