"""Connect Four's compiled kernel: the rules of games/connect4/rules.py as numba primitives.

The kernel state is the pure state with ``won`` as 0/1: ``(current, mask, moves, won)``,
all int64, so encoding is free. Every primitive is a template over the board's constants
(WIDTH, HEIGHT, ...), compiled once per board size by
:func:`gamesearch.kernels.specialize.specialize`; the perfect solver lives in
:mod:`gamesearch.engines.connect4.solver`. Tests check every primitive against the pure rules.
"""

from __future__ import annotations

import functools

import numpy as np

from gamesearch.games.connect4.geometry import column_order, windows
from gamesearch.kernels.bits import popcount
from gamesearch.kernels.contract import GameKernel, register_kernel


def aligned(stones):
    """True when ``stones`` hold four in a row (vertical, horizontal, both diagonals)."""
    for shift in (1, H1, H1 - 1, H1 + 1):  # noqa: F821  (constants bound by specialize)
        m = stones & (stones >> shift)
        if m & (m >> (2 * shift)):
            return True
    return False


def legal(s, out):
    """Free columns, centre first (the pure game's order_actions)."""
    n = 0
    for i in range(WIDTH):  # noqa: F821
        c = ORDER[i]  # noqa: F821
        if s[1] & (np.int64(1) << (c * H1 + HEIGHT - 1)) == 0:  # noqa: F821
            out[n] = c
            n += 1
    return n


def play(s, a):
    """Drop a stone in column ``a``; the board flips to the other player's view."""
    new_mask = s[1] | (s[1] + (np.int64(1) << (a * H1)))  # noqa: F821
    mover = s[0] | (new_mask ^ s[1])
    return (mover ^ new_mask, new_mask, s[2] + 1, np.int64(1) if aligned(mover) else np.int64(0))


def is_terminal(s):
    return s[3] != 0 or s[2] == CELLS  # noqa: F821


def terminal_value(s):
    """The benchmark score for the player to move: a lost game, or a draw."""
    if s[3] != 0:
        return -float(MAX_SCORE - (s[2] + 1) // 2)  # noqa: F821
    return 0.0


def evaluate(s):
    """The pure game's open-lines evaluation, for the player to move."""
    mine = s[0]
    theirs = s[0] ^ s[1]
    score = 0
    for w in WINDOWS:  # noqa: F821
        a = popcount(w & mine)
        b = popcount(w & theirs)
        if b == 0 and a > 0:
            score += LINE_WEIGHTS[a]  # noqa: F821
        elif a == 0 and b > 0:
            score -= LINE_WEIGHTS[b]  # noqa: F821
    return max(-0.99, min(0.99, score / 200))


def to_move(s):
    return s[2] & 1


def key(s):
    """current + mask: unique for a position (Pons); the won flag marks only terminals."""
    return s[0] + s[1]


TEMPLATES = (aligned, legal, play, is_terminal, terminal_value, evaluate, popcount, to_move, key)


def constants(width: int, height: int) -> dict:
    """The compile-time constants of a board size."""
    h1 = height + 1
    bottom = sum(1 << (c * h1) for c in range(width))
    return {
        "WIDTH": width, "HEIGHT": height, "H1": h1, "CELLS": width * height,
        "MAX_SCORE": width * height // 2 + 1,
        "ORDER": np.array(column_order(width), np.int64),
        "WINDOWS": np.array(windows(width, height), np.int64),
        "LINE_WEIGHTS": np.array([0, 1, 4, 16, 64], np.int64),
        "BOTTOM": bottom, "BOARD": bottom * ((1 << height) - 1),
        "MIN_SCORE": -(width * height) // 2 + 3, "MAX_SOLVER_SCORE": (width * height + 1) // 2 - 3,
    }


def check_size(width: int, height: int) -> None:
    """The kernel packs a board into 63 bits."""
    if width * (height + 1) > 63:
        from gamesearch.errors import GameSearchError

        raise GameSearchError(f"connect4 {width}x{height}: the compiled kernel needs "
                              "width*(height+1) <= 63; use --pure")


@functools.cache
def primitives(width: int = 7, height: int = 6):
    """The primitives compiled for one board size (cached per process and on disk)."""
    from gamesearch.kernels.specialize import source_tag, specialize

    check_size(width, height)
    tag = f"c4_{width}x{height}_{source_tag(*TEMPLATES)}"
    return specialize(TEMPLATES, constants(width, height), tag)


def _encode(state: tuple) -> tuple:
    current, mask, moves, won = state
    return (np.int64(current), np.int64(mask), np.int64(moves), np.int64(1 if won else 0))


@functools.cache
def make_kernel(width: int = 7, height: int = 6) -> GameKernel:
    """Connect Four's GameKernel for one board size."""
    from gamesearch.kernels.specialize import source_tag

    return GameKernel(name=f"connect4_{width}x{height}", primitives=primitives(width, height),
                      max_actions=width, encode=_encode, decode=int,
                      tag=source_tag(*TEMPLATES))


register_kernel("connect4", make_kernel)
