"""Go's compiled board (numba): fast play for Monte Carlo play-outs, checked against the
readable rules (rules.py) in tests/test_go_kernel.py.

The board is a flat array with a border ring (``stride = size + 2``); point ``(r, c)`` of
the rules is ``(r + 1) * stride + c + 1``. Chains are circular lists (``nxt``) with a head
(``head``); each head keeps pseudo-liberties (one per stone-empty adjacency, with their
sum and sum of squares): a chain has no liberty when the count is 0 and is in atari when
every pseudo-liberty is the same point (``count * sum_sq == sum ** 2``), the GNU Go /
Fuego trick that avoids listing liberties. Empty points are kept in a list with an index
per point, so a play-out picks a random empty point in O(1).

Play-outs follow the simple ko rule only (positional superko needs the whole history;
the searching agent checks its chosen move against the rules), answer the last move
(capture a chain it left in atari, save one it put in atari; optionally, MoGo's 3x3
patterns next to it: ``pattern_move``), else play a random point that is not their own
eye, and end after two passes; they are scored by area (stones
plus empty points whose neighbours are all one colour), exact once no non-eye move is
left.

All arrays of one board live in one tuple ``B`` (see :func:`new_board`): ``B[0]``
colour (0 empty, 1 black, 2 white, 3 border), ``B[1]`` head, ``B[2]`` nxt, ``B[3]``
stones per head, ``B[4]``-``B[6]`` pseudo-liberty count, sum and sum of squares per head,
``B[7]`` the empty list, ``B[8]`` each point's place in it, ``B[9]`` meta: [0] size,
[1] empties, [2] ko point (-1 none), [3] colour to move, [4] passes in a row, [5] moves,
[6] the last move (-1: a pass or none).
"""

from __future__ import annotations

import numpy as np

from gamesearch.games.go import patterns
from gamesearch.games.go.patterns import TABLE as PATTERN_TABLE
from gamesearch.kernels.specialize import compile_in_place

EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3
SIZE, N_EMPTY, KO, TO_MOVE, PASSES, MOVES, LAST = range(7)


def new_board(size: int) -> tuple:
    """An empty board of ``size`` x ``size`` (Black to move)."""
    stride = size + 2
    colour = np.full(stride * stride, BORDER, np.int8)
    empties = np.zeros(size * size, np.int32)
    place = np.full(stride * stride, -1, np.int32)
    k = 0
    for r in range(size):
        for c in range(size):
            p = (r + 1) * stride + c + 1
            colour[p] = EMPTY
            empties[k], place[p] = p, k
            k += 1
    n = stride * stride
    meta = np.array([size, size * size, -1, BLACK, 0, 0, -1], np.int64)
    return (colour, np.zeros(n, np.int32), np.zeros(n, np.int32), np.zeros(n, np.int32),
            np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64), empties,
            place, meta)


def copy_board(B: tuple) -> tuple:
    return tuple(a.copy() for a in B)


def _add_lib(B, h, p):
    B[4][h] += 1
    B[5][h] += p
    B[6][h] += p * p


def _remove_lib(B, h, p):
    B[4][h] -= 1
    B[5][h] -= p
    B[6][h] -= p * p


def in_atari(B, h):
    """Whether the chain with head ``h`` has exactly one liberty."""
    n = B[4][h]
    return n > 0 and n * B[6][h] == B[5][h] * B[5][h]


def _remove_empty(B, p):
    meta, empties, place = B[9], B[7], B[8]
    i = place[p]
    last = empties[meta[N_EMPTY] - 1]
    empties[i], place[last] = last, i
    place[p] = -1
    meta[N_EMPTY] -= 1


def _add_empty(B, p):
    meta = B[9]
    B[7][meta[N_EMPTY]] = p
    B[8][p] = meta[N_EMPTY]
    meta[N_EMPTY] += 1


def is_legal(B, p, colour):
    """Whether ``colour`` may play on the empty point ``p`` (simple ko, no suicide)."""
    board = B[0]
    if board[p] != EMPTY or p == B[9][KO]:
        return False
    stride = B[9][SIZE] + 2
    for q in (p - stride, p + stride, p - 1, p + 1):
        c = board[q]
        if c == EMPTY:
            return True
        if c == BORDER:
            continue
        atari = in_atari(B, B[1][q])
        if (c == colour) != atari:  # an own chain with another liberty, or a capture
            return True
    return False


def is_eye(B, p, colour):
    """A point every neighbour of which is ``colour`` (or the edge), with at most one
    opposing diagonal (none on the edge): filling it would be self-harm."""
    board = B[0]
    stride = B[9][SIZE] + 2
    for q in (p - stride, p + stride, p - 1, p + 1):
        if board[q] != colour and board[q] != BORDER:
            return False
    bad, edge = 0, 0
    for q in (p - stride - 1, p - stride + 1, p + stride - 1, p + stride + 1):
        if board[q] == BORDER:
            edge = 1
        elif board[q] == 3 - colour:
            bad += 1
    return bad + edge < 2


def play(B, p, colour):
    """Put a ``colour`` stone on ``p`` (legal: see is_legal) and take off what it captures;
    the pass is ``p = -1``. Returns the number of stones captured."""
    meta = B[9]
    meta[MOVES] += 1
    meta[TO_MOVE] = 3 - colour
    meta[LAST] = p
    if p < 0:
        meta[PASSES] += 1
        meta[KO] = -1
        return 0
    meta[PASSES] = 0
    board, head, nxt, stones = B[0], B[1], B[2], B[3]
    stride = meta[SIZE] + 2
    board[p] = colour
    _remove_empty(B, p)
    head[p], nxt[p], stones[p] = p, p, 1
    B[4][p], B[5][p], B[6][p] = 0, 0, 0
    for q in (p - stride, p + stride, p - 1, p + 1):
        if board[q] == EMPTY:
            _add_lib(B, p, q)
        elif board[q] != BORDER:
            _remove_lib(B, head[q], p)
    for q in (p - stride, p + stride, p - 1, p + 1):  # join own chains
        if board[q] == colour and head[q] != head[p]:
            a, b = head[p], head[q]
            if stones[a] < stones[b]:
                a, b = b, a
            s = b
            while True:  # relabel the smaller chain
                head[s] = a
                s = nxt[s]
                if s == b:
                    break
            nxt[a], nxt[b] = nxt[b], nxt[a]
            stones[a] += stones[b]
            B[4][a] += B[4][b]
            B[5][a] += B[5][b]
            B[6][a] += B[6][b]
    captured, last_taken = 0, -1
    other = 3 - colour
    for q in (p - stride, p + stride, p - 1, p + 1):
        if board[q] == other and B[4][head[q]] == 0:
            h = head[q]
            s = h
            while True:  # empty every stone first, then give their liberties back
                board[s] = EMPTY
                _add_empty(B, s)
                captured += 1
                last_taken = s
                s = nxt[s]
                if s == h:
                    break
            while True:
                for t in (s - stride, s + stride, s - 1, s + 1):
                    if board[t] == BLACK or board[t] == WHITE:
                        _add_lib(B, head[t], s)
                s = nxt[s]
                if s == h:
                    break
    h = head[p]
    meta[KO] = last_taken if captured == 1 and stones[h] == 1 and B[4][h] == 1 else -1
    return captured


def self_atari(B, p, colour):
    """Whether ``colour`` playing the legal point ``p`` leaves a chain of two or more
    stones with one liberty and captures nothing (the move then only feeds the opponent
    a bigger capture; a single stone's self-atari, a throw-in, is allowed). Liberties are
    counted exactly, by walking the joined chains, only when ``p`` has fewer than two
    empty neighbours."""
    board, head = B[0], B[1]
    stride = B[9][SIZE] + 2
    first, seen = -1, 0
    joins = False
    for q in (p - stride, p + stride, p - 1, p + 1):
        c = board[q]
        if c == EMPTY:
            if first < 0:
                first = q
            elif q != first:
                return False  # two liberties at once
        elif c == 3 - colour and in_atari(B, head[q]):
            return False  # a capture gives liberties
        elif c == colour:
            joins = True
    if not joins:
        return False  # a lone stone: a throw-in may be right
    for q in (p - stride, p + stride, p - 1, p + 1):
        if board[q] != colour:
            continue
        h = head[q]
        if h == seen:
            continue
        seen = h
        s = h
        while True:
            for t in (s - stride, s + stride, s - 1, s + 1):
                if board[t] == EMPTY and t != p:
                    if first < 0:
                        first = t
                    elif t != first:
                        return False
            s = B[2][s]
            if s == h:
                break
    return True


def random_move(B, colour, avoid_self_atari=False):
    """A uniformly random legal point that is not ``colour``'s own eye (nor, with
    ``avoid_self_atari``, a self-atari of two or more stones); -1 (pass) if none."""
    meta, empties = B[9], B[7]
    m = meta[N_EMPTY]
    while m > 0:
        i = np.random.randint(m)
        p = empties[i]
        if is_legal(B, p, colour) and not is_eye(B, p, colour) \
                and not (avoid_self_atari and self_atari(B, p, colour)):
            return p
        m -= 1
        empties[i], empties[m] = empties[m], empties[i]  # try the others first
        B[8][empties[i]], B[8][empties[m]] = i, m
    return -1


def reply_move(B, colour, avoid_self_atari=False):
    """Play-out knowledge around the last move (as MoGo's play-outs): take an opposing
    chain next to it that is in atari, else save an own chain it put in atari by playing
    the chain's last liberty; -1 when neither applies. The liberty of a chain in atari is
    its pseudo-liberty sum over their count. With ``avoid_self_atari`` a save that leaves
    the chain in atari again (a ladder) is not played."""
    last = B[9][LAST]
    if last < 0:
        return -1
    board, head = B[0], B[1]
    stride = B[9][SIZE] + 2
    save = -1
    for q in (last, last - stride, last + stride, last - 1, last + 1):
        c = board[q]
        if (c != BLACK and c != WHITE) or not in_atari(B, head[q]):
            continue
        h = head[q]
        liberty = B[5][h] // B[4][h]
        if not is_legal(B, liberty, colour):
            continue
        if c != colour:
            return liberty  # a capture
        if save < 0 and not (avoid_self_atari and self_atari(B, liberty, colour)):
            save = liberty  # (extending into a second atari saves nothing)
    return save


def pattern_code(B, p):
    """The 3x3 neighbourhood of ``p`` as patterns.py encodes it (``sum(value_i * 4**i)``,
    the eight neighbours top row first; off the board is 3)."""
    board = B[0]
    stride = B[9][SIZE] + 2
    code = 0
    scale = 1
    for q in (p - stride - 1, p - stride, p - stride + 1, p - 1, p + 1, p + stride - 1,
              p + stride, p + stride + 1):
        code += board[q] * scale
        scale *= 4
    return code


def pattern_move(B, colour, avoid_self_atari=False):
    """A random empty neighbour of the last move whose 3x3 shape is one of MoGo's patterns
    (patterns.py), legal, not ``colour``'s own eye (nor, with ``avoid_self_atari``, a big
    self-atari); -1 when none."""
    last = B[9][LAST]
    if last < 0:
        return -1
    board = B[0]
    stride = B[9][SIZE] + 2
    found = np.empty(8, np.int64)
    n = 0
    for q in (last - stride - 1, last - stride, last - stride + 1, last - 1, last + 1,
              last + stride - 1, last + stride, last + stride + 1):
        if board[q] == EMPTY and PATTERN_TABLE[pattern_code(B, q)] \
                and is_legal(B, q, colour) and not is_eye(B, q, colour) \
                and not (avoid_self_atari and self_atari(B, q, colour)):
            found[n] = q
            n += 1
    if n == 0:
        return -1
    return found[np.random.randint(n)]


def prior(B, p, colour):
    """Go knowledge for a new tree child (Gelly and Silver 2007's prior knowledge, as
    MoGo and Fuego give it): ``colour``'s move on the legal point ``p`` as (value, weight),
    an estimate of its win rate and how many simulations it is worth, in units of the
    agent's ``prior``: a capture (1, 2), the save of an own chain in atari (1, 1), a
    3x3 pattern of patterns.py (0.8, 1), a self-atari of two or more stones (0, 1), a
    first-line move with no stone within two points (0.1, 1); (0.5, 0) when none applies.
    The first that applies decides, in that order."""
    board, head = B[0], B[1]
    size = B[9][SIZE]
    stride = size + 2
    save = False
    for q in (p - stride, p + stride, p - 1, p + 1):
        c = board[q]
        if c in (BLACK, WHITE) and in_atari(B, head[q]):
            if c != colour:
                return 1.0, 2.0
            save = True
    atari_self = self_atari(B, p, colour)
    if save and not atari_self:
        return 1.0, 1.0
    if atari_self:
        return 0.0, 1.0
    if PATTERN_TABLE[pattern_code(B, p)]:
        return 0.8, 1.0
    r, c = p // stride - 1, p % stride - 1
    if r == 0 or c == 0 or r == size - 1 or c == size - 1:
        for dr in range(-2, 3):
            for dc in range(-2, 3):
                rr, cc = r + dr, c + dc
                if abs(dr) + abs(dc) <= 2 and 0 <= rr < size and 0 <= cc < size:
                    v = board[(rr + 1) * stride + cc + 1]
                    if v in (BLACK, WHITE):
                        return 0.5, 0.0
        return 0.1, 1.0
    return 0.5, 0.0


def area(B):
    """Black's area minus White's: stones, and empty points whose neighbours are one
    colour (exact after a play-out, where only eyes are left empty)."""
    board = B[0]
    stride = B[9][SIZE] + 2
    score = 0
    for p in range(board.shape[0]):
        c = board[p]
        if c == BLACK:
            score += 1
        elif c == WHITE:
            score -= 1
        elif c == EMPTY:
            seen = 0
            for q in (p - stride, p + stride, p - 1, p + 1):
                if board[q] == BLACK:
                    seen |= 1
                elif board[q] == WHITE:
                    seen |= 2
            if seen == 1:
                score += 1
            elif seen == 2:
                score -= 1
    return score


def playout(B, max_moves, first_play):
    """Play at random (no own-eye filling) until two passes or ``max_moves``; records in
    ``first_play[p]`` the colour that first played on each point (AMAF) where it is 0;
    returns Black's area minus White's."""
    meta = B[9]
    while meta[PASSES] < 2 and meta[MOVES] < max_moves:
        colour = meta[TO_MOVE]
        p = reply_move(B, colour)
        if p < 0:
            p = random_move(B, colour)
        if p >= 0 and first_play[p] == 0:
            first_play[p] = colour
        play(B, p, colour)
    return area(B)


def playouts(B, n, max_moves, seed):
    """``n`` play-outs from ``B`` (a benchmark and a test); returns Black's wins (komi 0)."""
    np.random.seed(seed)
    first = np.zeros(B[0].shape[0], np.int8)
    wins = 0
    for _ in range(n):
        C = (B[0].copy(), B[1].copy(), B[2].copy(), B[3].copy(), B[4].copy(), B[5].copy(),
             B[6].copy(), B[7].copy(), B[8].copy(), B[9].copy())
        first[:] = 0
        if playout(C, max_moves, first) > 0:
            wins += 1
    return wins


def _chains_breathe(colour, stride, seen, stamp, stack):
    """Whether every chain on the flat board ``colour`` touches an empty point (a flood
    fill per chain; ``seen[p] == stamp`` marks the points already filled)."""
    for p in range(colour.shape[0]):
        c = colour[p]
        if (c != BLACK and c != WHITE) or seen[p] == stamp:
            continue
        seen[p] = stamp
        stack[0], top, breathes = p, 1, False
        while top:
            top -= 1
            q = stack[top]
            for r in (q - stride, q + stride, q - 1, q + 1):
                if colour[r] == EMPTY:
                    breathes = True
                elif colour[r] == c and seen[r] != stamp:
                    seen[r] = stamp
                    stack[top] = r
                    top += 1
        if not breathes:
            return False
    return True


def count_legal_positions(size):
    """How many of the 3**(size*size) boards have a liberty for every chain (Tromp and
    Farnebaeck's legal positions, OEIS A094777: 1, 57, 12,675, 24,318,165 for sizes 1-4),
    every board visited in turn on the kernel's flat layout; sizes 1-4 only (5x5 would be
    3**25 boards)."""
    if size < 1 or size > 4:
        raise ValueError("count_legal_positions: size must be 1..4")
    stride = size + 2
    colour = np.full(stride * stride, BORDER, np.int8)
    points = np.empty(size * size, np.int64)
    for k in range(size * size):
        points[k] = (k // size + 1) * stride + k % size + 1
        colour[points[k]] = EMPTY
    seen = np.zeros(stride * stride, np.int64)
    stack = np.empty(size * size, np.int64)
    total, stamp = 0, 0
    while True:
        stamp += 1
        if _chains_breathe(colour, stride, seen, stamp, stack):
            total += 1
        k = 0  # the next board: count in base 3 over the points
        while k < size * size and colour[points[k]] == WHITE:
            colour[points[k]] = EMPTY
            k += 1
        if k == size * size:
            return total
        colour[points[k]] += 1


TEMPLATES = (_add_lib, _remove_lib, in_atari, _remove_empty, _add_empty, is_legal, is_eye, play,
             self_atari, random_move, reply_move, pattern_code, pattern_move, prior, area,
             playout, playouts, _chains_breathe, count_legal_positions)
"""Compiled by ``kernels.specialize`` under a tag that also covers the pattern table
compiled into them (numba keys a cached function on its own file only, so an edit to
patterns.py alone would otherwise leave the old table compiled in)."""
compile_in_place(globals(), TEMPLATES, "go_kernel", (patterns,))


def to_point(board_point: int, size: int) -> int:
    """The rules' point number of a kernel point (the inverse of :func:`from_point`)."""
    r, c = divmod(board_point, size + 2)
    return (r - 1) * size + c - 1


def from_point(point: int, size: int) -> int:
    r, c = divmod(point, size)
    return (r + 1) * (size + 2) + c + 1


def cells(B: tuple) -> str:
    """The board as the rules write it (``X``, ``O``, ``.``)."""
    size = int(B[9][SIZE])
    return "".join(".XO"[int(B[0][from_point(p, size)])] for p in range(size * size))


def from_state(state: tuple, size: int) -> tuple:
    """A kernel board holding the rules state's stones (set up stone by stone; a legal
    position never captures on the way) and its side to move."""
    B = new_board(size)
    for point, stone in enumerate(state[0]):
        if stone != ".":
            play(B, from_point(point, size), BLACK if stone == "X" else WHITE)
    B[9][TO_MOVE] = BLACK if state[1] == 0 else WHITE
    B[9][PASSES] = state[2]
    B[9][MOVES] = state[3]
    B[9][KO] = -1
    B[9][LAST] = -1
    return B
