"""Checkers' compiled bitboard kernel: the rules of rules.py as numba primitives, and perft.

A position is ``(black, white, kings, mover, quiet)``: three 32-bit boards (bit ``i`` is
square ``i + 1``), the side to move (0 Black) and the plies since the last capture or
man's move. Neighbours come from two tables, ``NEXT[square, d]`` (the adjacent square in
direction ``d``) and ``BEYOND[square, d]`` (the landing square of a jump), -1 off the
board; directions 0 and 1 go down the board (Black's forward), 2 and 3 up (White's).

An action is one int64 that spells the whole move: the start square (bits 0-4), the
number of steps (bits 5-9), a capture flag (bit 10) and each step's direction (two bits
each from bit 11), so every distinct jump path is its own action, as the rules require.
tests/test_checkers.py checks every primitive against the readable rules (``check_kernel``)
and perft against Aart Bik's counts.
"""

from __future__ import annotations

import functools

import numpy as np

from gamesearch.games.checkers.evaluation import (
    CENTRE,
    EDGE,
    GUARD,
    HAND_WEIGHTS,
    HIDING,
    KING_VALUE,
    SCALE,
)
from gamesearch.games.checkers.notation import move_string, square_at, square_row_col
from gamesearch.kernels.bits import popcount
from gamesearch.kernels.contract import GameKernel, register_kernel

MAX_ACTIONS = 256
"""The width of a move buffer: MAX_MOVES moves, then scratch for the capture walk."""
MAX_MOVES = 176
"""Room for the moves of one position (games rarely pass 40; kings can make more paths)."""
SCRATCH = MAX_MOVES
"""Where the capture walk keeps its stack: 5 slots a level, at most 13 levels (12 jumps)."""
MAX_PLY = 128
DRAW_PLIES = 80
CAPTURE = 1 << 10
DIR_SHIFT = 11


def _tables() -> tuple[np.ndarray, np.ndarray]:
    nxt = np.full((32, 4), -1, np.int64)
    beyond = np.full((32, 4), -1, np.int64)
    for index in range(32):
        row, col = square_row_col(index + 1)
        for d, (dr, dc) in enumerate(((1, -1), (1, 1), (-1, -1), (-1, 1))):
            a, b = square_at(row + dr, col + dc), square_at(row + 2 * dr, col + 2 * dc)
            nxt[index, d] = -1 if a is None else a - 1
            beyond[index, d] = -1 if b is None or a is None else b - 1
    return nxt, beyond


NEXT, BEYOND = _tables()
CROWN_ROWS = np.array([0xF0000000, 0x0000000F], np.int64)
"""The squares where each side's men are crowned: Black on 29-32, White on 1-4."""
BACK_ROWS = np.array([0x0000000F, 0xF0000000], np.int64)
CENTRE_MASK = np.int64(sum(1 << (s - 1) for s in CENTRE))
EDGE_MASK = np.int64(sum(1 << (s - 1) for s in EDGE))
HIDING_MASK = np.int64(sum(1 << (s - 1) for s in HIDING))
GUARD_VALUES = np.array(GUARD, np.int64)
ROW_OF = np.array([i // 4 for i in range(32)], np.int64)
FIRST_DIR = np.array([0, 2], np.int64)
"""A man's first direction by side: Black's men go down (0, 1), White's up (2, 3)."""
W = np.array(HAND_WEIGHTS, np.float64)
FULL = 0xFFFFFFFF
EVEN_ROWS = 0x0F0F0F0F
"""Rows 0, 2, 4, 6 (squares 1-4, 9-12, ...): their squares sit on odd columns."""
ODD_ROWS = 0xF0F0F0F0
NOT_LEFT = ~0x11111111 & FULL
"""Not the first square of a row (for odd rows: not on the board's left edge)."""
NOT_RIGHT = ~0x88888888 & FULL
"""Not the last square of a row (for even rows: not on the right edge)."""


def lowest_square(x):
    """The index of the lowest set bit of ``x`` (x > 0): the bits below it, counted."""
    return popcount((x & -x) - 1)


def step(bb, d):
    """Every square of ``bb`` moved one square in direction ``d`` (NEXT's numbering), off
    the board dropped: rows alternate which columns they hold, so the shift depends on the
    row (even rows: +4/+5 down, -4/-3 up; odd rows: +3/+4 down, -5/-4 up)."""
    if d == 0:
        return (((bb & EVEN_ROWS) << 4) | ((bb & ODD_ROWS & NOT_LEFT) << 3)) & FULL
    if d == 1:
        return (((bb & EVEN_ROWS & NOT_RIGHT) << 5) | ((bb & ODD_ROWS) << 4)) & FULL
    if d == 2:
        return ((bb & EVEN_ROWS) >> 4) | ((bb & ODD_ROWS & NOT_LEFT) >> 5)
    return ((bb & EVEN_ROWS & NOT_RIGHT) >> 3) | ((bb & ODD_ROWS) >> 4)


def count_quiet(black, white, kings, mover):
    """The number of legal moves when none is a capture (whole-board shifts, no move
    list); -1 when a capture exists (then the moves must be generated)."""
    me = black if mover == 0 else white
    opp = white if mover == 0 else black
    empty = ~(black | white) & FULL
    men = me & ~kings
    own_kings = me & kings
    first = FIRST_DIR[mover]
    n = 0
    for d in range(4):
        pieces = own_kings | men if first <= d < first + 2 else own_kings
        if pieces == 0:
            continue
        if step(step(pieces, d) & opp, d) & empty:
            return -1
        n += popcount(step(pieces, d) & empty)
    return n


def jumps(sq0, king, mover, opp, empty, out, n):
    """Append every complete capture path of the piece on ``sq0`` to ``out`` (from index
    ``n``); returns the new count. A depth-first walk with its stack in ``out``'s scratch
    slots (numba's disk cache cannot hold a recursive function called from another). The
    pieces jumped so far (``taken``) stay on the board, blocking, until the move ends."""
    d0 = 0 if king else FIRST_DIR[mover]
    d1 = 4 if king else d0 + 2
    level = 0
    out[SCRATCH], out[SCRATCH + 1], out[SCRATCH + 2] = sq0, 0, d0
    out[SCRATCH + 3], out[SCRATCH + 4] = 0, 0
    while level >= 0:
        b = SCRATCH + 5 * level  # this level's square, taken, next direction, path, went on
        sq, taken, d, code = out[b], out[b + 1], out[b + 2], out[b + 3]
        if d >= d1:
            if out[b + 4] == 0 and level > 0:  # nowhere further to jump: a complete move
                if n < MAX_MOVES:
                    out[n] = sq0 | (level << 5) | CAPTURE | code
                n += 1
            level -= 1
            continue
        out[b + 2] = d + 1
        over = NEXT[sq, d]
        to = BEYOND[sq, d]
        if to < 0 or not (opp >> over) & 1 or (taken >> over) & 1 or not (empty >> to) & 1:
            continue
        out[b + 4] = 1
        path = code | (d << (DIR_SHIFT + 2 * level))
        if not king and (CROWN_ROWS[mover] >> to) & 1:  # crowned: the move ends here
            if n < MAX_MOVES:
                out[n] = sq0 | ((level + 1) << 5) | CAPTURE | path
            n += 1
            continue
        level += 1
        b += 5
        out[b], out[b + 1], out[b + 2], out[b + 3], out[b + 4] = to, taken | (1 << over), \
            d0, path, 0
    return n


def generate(black, white, kings, mover, out):
    """Write the legal moves of ``mover`` into ``out`` (captures only, if there are any);
    returns how many. Whole-board shifts find the pieces that can jump: only those are
    walked for captures."""
    me = black if mover == 0 else white
    opp = white if mover == 0 else black
    empty = ~(black | white) & 0xFFFFFFFF
    own_kings = me & kings
    first = FIRST_DIR[mover]
    jumpers = 0
    for d in range(4):
        pieces = me if first <= d < first + 2 else own_kings
        # a piece that can jump in d: opp one step on, empty two steps on (3 - d goes back)
        jumpers |= pieces & step(step(empty, 3 - d) & opp, 3 - d)
    n = 0
    rest = jumpers
    while rest:
        sq = lowest_square(rest)
        rest &= rest - 1
        n = jumps(sq, (kings >> sq) & 1, mover, opp, empty | (1 << sq), out, n)
    if n:
        return n
    # simple moves square by square (the rules' order, which ties in a search follow)
    rest = me
    while rest:
        sq = lowest_square(rest)
        rest &= rest - 1
        d0 = 0 if (kings >> sq) & 1 else first
        d1 = 4 if (kings >> sq) & 1 else d0 + 2
        for d in range(d0, d1):
            to = NEXT[sq, d]
            if to >= 0 and (empty >> to) & 1:
                if n < MAX_MOVES:
                    out[n] = sq | (1 << 5) | (d << DIR_SHIFT)
                n += 1
    return n


def has_move(black, white, kings, mover):
    """Does ``mover`` have a legal move (without listing them)?"""
    me = black if mover == 0 else white
    opp = white if mover == 0 else black
    empty = ~(black | white) & 0xFFFFFFFF
    rest = me
    while rest:
        sq = lowest_square(rest)
        rest &= rest - 1
        d0 = 0 if (kings >> sq) & 1 else FIRST_DIR[mover]
        d1 = 4 if (kings >> sq) & 1 else d0 + 2
        for d in range(d0, d1):
            to = NEXT[sq, d]
            if to < 0:
                continue
            if (empty >> to) & 1:
                return True
            far = BEYOND[sq, d]
            if far >= 0 and (opp >> to) & 1 and (empty >> far) & 1:
                return True
    return False


def legal(s, out):
    return min(generate(s[0], s[1], s[2], s[3], out), MAX_MOVES)


def play(s, a):
    """The position after action ``a``."""
    black, white, kings, mover, quiet = s[0], s[1], s[2], s[3], s[4]
    start = a & 31
    steps = (a >> 5) & 31
    capture = a & CAPTURE
    sq = start
    taken = 0
    for i in range(steps):
        d = (a >> (DIR_SHIFT + 2 * i)) & 3
        if capture:
            taken |= 1 << NEXT[sq, d]
            sq = BEYOND[sq, d]
        else:
            sq = NEXT[sq, d]
    # off the start, then onto the end: a king's circular capture ends where it began
    was_king = (kings >> start) & 1
    if mover == 0:
        black = (black & ~(1 << start)) | (1 << sq)
        white &= ~taken
    else:
        white = (white & ~(1 << start)) | (1 << sq)
        black &= ~taken
    kings &= ~taken
    if was_king:
        kings = (kings & ~(1 << start)) | (1 << sq)
    elif (CROWN_ROWS[mover] >> sq) & 1:
        kings |= 1 << sq
    quiet = 0 if (capture or not was_king) else quiet + 1
    return (black, white, kings, 1 - mover, quiet)


def is_terminal(s):
    return s[4] >= DRAW_PLIES or not has_move(s[0], s[1], s[2], s[3])


def terminal_value(s):
    """-1 for a side to move without a move (it has lost), 0 for the 40-move draw."""
    if has_move(s[0], s[1], s[2], s[3]):
        return 0.0
    return -1.0


def side_features(me, opp, kings, side, out):
    """Add one side's feature counts (evaluation.py's order) into ``out``."""
    empty = ~(me | opp) & 0xFFFFFFFF
    men = me & ~kings
    own_kings = me & kings
    their_men = opp & ~kings
    n_men, n_kings = popcount(men), popcount(own_kings)
    total_men = n_men + popcount(their_men)
    out[0] += n_men
    out[1] += n_kings
    rest = men
    while rest:
        sq = lowest_square(rest)
        rest &= rest - 1
        advanced = ROW_OF[sq] if side == 0 else 7 - ROW_OF[sq]
        out[2] += advanced
        if total_men >= 16:
            out[7] += advanced
        elif total_men >= 12:
            out[8] += advanced
        elif total_men < 9:
            out[9] += advanced
    out[3] += popcount(men & BACK_ROWS[side])
    out[4] += popcount(me & CENTRE_MASK)
    rest = me
    while rest:
        sq = lowest_square(rest)
        rest &= rest - 1
        d0 = 0 if (kings >> sq) & 1 else FIRST_DIR[side]
        d1 = 4 if (kings >> sq) & 1 else d0 + 2
        for d in range(d0, d1):
            to = NEXT[sq, d]
            if to >= 0 and (empty >> to) & 1:
                out[5] += 1
    material = 100 * n_men + KING_VALUE * n_kings
    total = material + 100 * popcount(their_men) + KING_VALUE * popcount(opp & kings)
    if total > 0:
        out[6] += 100.0 * material / total
    if side == 0:  # the back row from the corner (1, 2, 3, 4); the shapes below
        guard = men & 15
        corner = (men & 1) != 0 and (men & 0x30) != 0
        cramp = (men & (1 << 19)) != 0 and (their_men & (1 << 23)) != 0
    else:  # the same turned round: 32, 31, 30, 29; square s as 33 - s
        guard = ((men >> 31) & 1) | (((men >> 30) & 1) << 1) | (((men >> 29) & 1) << 2) \
            | (((men >> 28) & 1) << 3)
        corner = (men & (1 << 31)) != 0 and (men & 0x0C000000) != 0
        cramp = (men & (1 << 12)) != 0 and (their_men & (1 << 8)) != 0
    out[10] += GUARD_VALUES[guard]
    if corner:
        out[11] += 1
    if cramp:
        out[12] += 1
    out[13] += popcount(own_kings & CENTRE_MASK)
    out[14] += popcount(men & EDGE_MASK)
    out[15] += popcount(own_kings & EDGE_MASK)
    if popcount(me) < popcount(opp) and n_kings < 3:
        out[16] += popcount(own_kings & HIDING_MASK)


def evaluate(s):
    """evaluation.py's weighted features for the side to move, squashed into (-1, 1)."""
    mover = s[3]
    me = s[0] if mover == 0 else s[1]
    opp = s[1] if mover == 0 else s[0]
    mine = np.zeros(W.shape[0])
    theirs = np.zeros(W.shape[0])
    side_features(me, opp, s[2], mover, mine)
    side_features(opp, me, s[2], 1 - mover, theirs)
    x = 0.0
    for i in range(W.shape[0]):
        x += W[i] * (mine[i] - theirs[i])
    return x / (abs(x) + SCALE)


def to_move(s):
    return s[3]


def key(s):
    """A 64-bit hash of the position (boards, side to move and the quiet count)."""
    h = (s[0] * np.int64(-7046029254386353131)) ^ ((s[1] + 0x632BE59BD9B4E019)
                                                   * np.int64(-4417276706812531889))
    h ^= (s[2] + 0x165667B19E3779F9) * np.int64(-7723592293110705685)
    h ^= (s[3] << 40) ^ (s[4] << 48)
    return h ^ (h >> 31)


def perft(black, white, kings, mover, depth, buf):
    """Leaves ``depth`` plies below (a finished game counts as one leaf; no draw rule); the
    last ply is counted in bulk (count_quiet) when it has no capture."""
    if depth == 1:
        n = count_quiet(black, white, kings, mover)
        if n >= 0:
            return n if n > 0 else 1
    out = buf[depth]
    n = generate(black, white, kings, mover, out)
    if n == 0:
        return 1
    if depth == 1:
        return n
    total = 0
    for i in range(n):
        t = play((black, white, kings, mover, 0), out[i])
        total += perft(t[0], t[1], t[2], t[3], depth - 1, buf)
    return total


TEMPLATES = (popcount, lowest_square, step, count_quiet, jumps, generate, has_move, legal,
             play, is_terminal, terminal_value, side_features, evaluate, to_move, key, perft)


@functools.cache
def primitives(weights: tuple[float, ...] = HAND_WEIGHTS):
    """The primitives compiled with one set of evaluation weights (cached per process and
    on disk)."""
    from gamesearch.kernels.specialize import source_tag, specialize

    w = np.array(weights, np.float64)
    tag = f"checkers_{source_tag(*TEMPLATES)}_{source_tag(repr(weights))[:6]}"
    return specialize(TEMPLATES, {"W": w}, tag)


def encode_state(state: tuple) -> tuple:
    """The kernel tuple of a rules state ``(cells, mover, quiet)``."""
    cells, mover, quiet = state
    black = sum(1 << i for i, c in enumerate(cells) if c in "bB")
    white = sum(1 << i for i, c in enumerate(cells) if c in "wW")
    kings = sum(1 << i for i, c in enumerate(cells) if c in "BW")
    return (np.int64(black), np.int64(white), np.int64(kings), np.int64(mover),
            np.int64(quiet))


def action_path(a: int) -> tuple[tuple[int, ...], bool]:
    """The squares (1-32) a kernel action visits, and whether it captures."""
    a = int(a)
    sq, steps, capture = a & 31, (a >> 5) & 31, bool(a & CAPTURE)
    path = [sq + 1]
    for i in range(steps):
        d = (a >> (DIR_SHIFT + 2 * i)) & 3
        sq = int(BEYOND[sq, d] if capture else NEXT[sq, d])
        path.append(sq + 1)
    return tuple(path), capture


def decode_action(a: int) -> str:
    """The rules' move string of kernel action ``a``."""
    return move_string(*action_path(a))


@functools.cache
def make_kernel(weights: tuple[float, ...] = HAND_WEIGHTS) -> GameKernel:
    """Checkers' GameKernel (the hand-written evaluation unless ``weights`` are given)."""
    from gamesearch.kernels.specialize import source_tag

    return GameKernel(name="checkers", primitives=primitives(weights),
                      max_actions=MAX_ACTIONS, encode=encode_state, decode=decode_action,
                      tag=f"{source_tag(*TEMPLATES)}_{source_tag(repr(weights))[:6]}")


def kernel_perft(game, state, depth: int) -> int:
    """``gamesearch perft checkers``: the compiled count from a rules state."""
    black, white, kings, mover, _ = encode_state(state)
    buf = np.zeros((depth + 1, MAX_ACTIONS), np.int64)
    return int(primitives().perft(black, white, kings, mover, np.int64(depth), buf))


register_kernel("checkers", make_kernel)
