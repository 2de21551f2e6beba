"""A perfect Connect Four solver, compiled: the algorithm of Pascal Pons' article "Solving
Connect 4: how to build a perfect AI" (connect4.gamesolver.org), written for numba, plus
enhanced transposition cutoffs.

* bitboards (the layout of games/connect4/rules.py), negamax with alpha-beta;
* scores in the benchmark convention (22 minus the winner's stones at the end, on 7x6);
* null-window searches narrowing the score range (the driver);
* a transposition table of a prime number of slots, always-replace, holding a bound and
  enough of the key to make it unambiguous (Chinese remainder theorem);
* moves that let the opponent win at once are never tried, a forced move (the opponent
  threatens one cell) is the only move tried, two threats lose at once;
* moves ordered by the number of winning cells (threats) they create, centre first on ties;
* mirror symmetry: a position and its mirror image share one table entry and book entry;
* enhanced transposition cutoffs: before searching, a child's stored bound may already cut;
* an opening book (:mod:`gamesearch.engines.connect4.book`) answers shallow positions.

Two implementations: :func:`negamax` is the readable recursive one (Pons' algorithm as in
his article, two table arrays); :func:`search` is the one used, the same node visits on an
explicit stack (no recursive calls), one packed table array, ETC. With ETC off they visit
the same nodes in the same order, which the tests check.

The functions are templates over the board's constants, compiled per size by
:func:`gamesearch.kernels.specialize.specialize`; :class:`Connect4Solver` is the Python face.
"""

from __future__ import annotations

import functools
import time as _time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from gamesearch.errors import GameSearchError
from gamesearch.kernels.bits import popcount
from gamesearch.result import SearchTimeout

NODE, STRONG, WEAK = 0, 1, 2
HALTED = -10_000
"""What :func:`search` returns when asked to stop (no score comes near it)."""
HALT_EVERY = 1024
"""Nodes between two looks at the halt flag (a power of two; a few microseconds)."""
DEFAULT_LOG_TABLE = 24  # 2^24 slots (Pons' default count) of 4 bytes: about 67 MB
ETC_LEFT = 8  # enhanced transposition cutoffs where more than this many cells are empty:
# measured best on Begin-Medium/Begin-Hard (nearer the leaves the probes cost more than
# the nodes they save)


def winning_cells(position, mask):
    """Empty cells where ``position``'s player would complete four in a row."""
    r = (position << 1) & (position << 2) & (position << 3)  # vertical
    for shift in (H1, HEIGHT, H1 + 1):  # noqa: F821  horizontal, both diagonals
        p = (position << shift) & (position << 2 * shift)
        r |= p & (position << 3 * shift)
        r |= p & (position >> shift)
        p = (position >> shift) & (position >> 2 * shift)
        r |= p & (position << shift)
        r |= p & (position >> 3 * shift)
    return r & (BOARD ^ mask)  # noqa: F821


def mirror_key(k):
    """The key of the mirror image (columns reversed): columns never carry into each other."""
    m = 0
    for c in range(WIDTH):  # noqa: F821
        m |= ((k >> (c * H1)) & KEY_COLUMN) << ((WIDTH - 1 - c) * H1)  # noqa: F821
    return m


def canonical_key(current, mask):
    k = current + mask
    if MIRROR:  # noqa: F821
        m = mirror_key(k)
        if m < k:
            return m
    return k


def book_value(k, book_keys, book_vals):
    """The book's score for canonical key ``k``, or -1000 when absent (binary search)."""
    lo = 0
    hi = book_keys.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if book_keys[mid] < k:
            lo = mid + 1
        else:
            hi = mid
    if lo < book_keys.shape[0] and book_keys[lo] == k:
        return book_vals[lo]
    return -1000


def null_window(lo, hi):
    """The next guess of the driver's null-window search in [lo, hi): Pons' choice, the
    middle pulled toward zero (C's division rounds toward zero), where scores cluster."""
    med = lo + (hi - lo) // 2
    if med <= 0 and -((-lo) // 2) < med:
        med = -((-lo) // 2)
    elif med >= 0 and hi // 2 > med:
        med = hi // 2
    return med


def negamax(current, mask, moves, alpha, beta, mode, tt_keys, tt_vals, book_keys, book_vals,
            book_depth, stats, buf):
    """Mode NODE: Pons' negamax on a position where the player to move cannot win at once;
    fail-soft bounds as in his article. Modes STRONG / WEAK: the driver that narrows the
    score range with null windows and returns the exact score (or its sign). ``buf`` holds
    the move lists, one row per ply: numba's cache crashes on a cached recursive function
    that allocates, so nothing here allocates."""
    cells = WIDTH * HEIGHT  # noqa: F821
    node = mode - mode  # NODE as a plain int64: a literal here would give the recursive call
    # a second signature, which numba's cache cannot reload (numba issue #6713)
    if mode != NODE:
        if winning_cells(current, mask) & ((mask + BOTTOM) & BOARD):  # noqa: F821
            return (cells + 1 - moves) // 2
        lo = -((cells - moves) // 2)
        hi = (cells + 1 - moves) // 2
        if mode == WEAK:
            lo, hi = -1, 1
        while lo < hi:
            med = null_window(lo, hi)
            r = negamax(current, mask, moves, med, med + 1, node, tt_keys, tt_vals,
                        book_keys, book_vals, book_depth, stats, buf)
            if r <= med:
                hi = r
            else:
                lo = r
        return lo

    stats[0] += 1
    possible = (mask + BOTTOM) & BOARD  # noqa: F821
    opponent_win = winning_cells(current ^ mask, mask)
    forced = possible & opponent_win
    if forced:
        if forced & (forced - 1):
            return -((cells - moves) // 2)  # two threats: lost next move
        possible = forced
    possible &= ~(opponent_win >> 1)  # never play below an opponent's winning cell
    if possible == 0:
        return -((cells - moves) // 2)
    if moves >= cells - 2:
        return 0
    low = -((cells - 2 - moves) // 2)
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    high = (cells - 1 - moves) // 2
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta

    k = canonical_key(current, mask)
    size = tt_keys.shape[0]
    slot = k % size
    v = int(tt_vals[slot]) if tt_keys[slot] == (k & 0xFFFFFFFF) else 0
    if v:
        if v > MAX_S - MIN_S + 1:  # noqa: F821  a lower bound
            low = v + 2 * MIN_S - MAX_S - 2  # noqa: F821
            if alpha < low:
                alpha = low
                if alpha >= beta:
                    return alpha
        else:  # an upper bound
            high = v + MIN_S - 1  # noqa: F821
            if beta > high:
                beta = high
                if alpha >= beta:
                    return beta
    if moves <= book_depth:
        b = book_value(k, book_keys, book_vals)
        if b != -1000:
            return b

    # order: most threats created first; ties keep the centre-first column order
    order_moves = buf[moves, 0]
    order_scores = buf[moves, 1]
    n = 0
    for i in range(WIDTH - 1, -1, -1):  # noqa: F821
        move = possible & (COLUMN << (ORDER[i] * H1))  # noqa: F821
        if move:
            score = popcount(winning_cells(current | move, mask))
            pos = n
            while pos > 0 and order_scores[pos - 1] > score:
                order_moves[pos] = order_moves[pos - 1]
                order_scores[pos] = order_scores[pos - 1]
                pos -= 1
            order_moves[pos] = move
            order_scores[pos] = score
            n += 1
    for i in range(n - 1, -1, -1):
        new_mask = mask | order_moves[i]
        score = -negamax(current ^ mask, new_mask, moves + 1, -beta, -alpha, node, tt_keys,
                         tt_vals, book_keys, book_vals, book_depth, stats, buf)
        if score >= beta:
            tt_keys[slot] = k & 0xFFFFFFFF
            tt_vals[slot] = score + MAX_S - 2 * MIN_S + 2  # noqa: F821
            return score
        if score > alpha:
            alpha = score
    tt_keys[slot] = k & 0xFFFFFFFF
    tt_vals[slot] = alpha - MIN_S + 1  # noqa: F821
    return alpha


# the columns of one stack frame of :func:`search`
F_CUR, F_MASK, F_MCUR, F_MMASK, F_ALPHA, F_BETA, F_SLOT, F_TAG, F_N, F_I, F_MOVES = range(11)


def search(current, mask, moves, alpha, beta, table, book_keys, book_vals, book_depth,
           stats, st, halt):
    """:func:`negamax` in mode NODE without recursion (the same nodes in the same order
    when ETC is off: ETC_LEFT >= cells), on an explicit stack ``st`` (one row per ply: the
    board, its mirror image, the window, the table slot, the ordered moves and their
    columns, the next move to try), with enhanced transposition cutoffs. The table
    packs ``key // size`` and the 7-bit bound of a slot into one integer (one memory read
    per probe). Numba's recursive calls pass every array with reference counting; a loop
    does not, which makes this about 1.5 times faster per node. Every ``HALT_EVERY``
    nodes it reads ``halt[0]`` (set from another thread: it runs without the GIL) and
    returns ``HALTED`` when it is set; the table keeps only finished nodes' bounds."""
    cells = WIDTH * HEIGHT  # noqa: F821
    size = TT_SIZE  # noqa: F821
    mw = F_MOVES + WIDTH  # noqa: F821  first column of the move columns
    st[0, F_CUR] = current
    st[0, F_MASK] = mask
    st[0, F_MCUR] = mirror_key(current)
    st[0, F_MMASK] = mirror_key(mask)
    st[0, F_ALPHA] = alpha
    st[0, F_BETA] = beta
    d = 0
    while True:
        # ---- enter the node at ply d: Pons' checks, then push its first child ----
        cur = st[d, F_CUR]
        msk = st[d, F_MASK]
        a = st[d, F_ALPHA]
        b = st[d, F_BETA]
        mv = moves + d
        stats[0] += 1
        if (stats[0] & (HALT_EVERY - 1)) == 0 and halt[0] != 0:
            return HALTED
        ret = 0
        done = True
        possible = (msk + BOTTOM) & BOARD  # noqa: F821
        opponent_win = winning_cells(cur ^ msk, msk)
        forced = possible & opponent_win
        if forced and forced & (forced - 1):
            ret = -((cells - mv) // 2)  # two threats: lost next move
        else:
            if forced:
                possible = forced
            possible &= ~(opponent_win >> 1)  # never play below an opponent's winning cell
            if possible == 0:
                ret = -((cells - mv) // 2)
            elif mv >= cells - 2:
                ret = 0
            else:
                done = False
                low = -((cells - 2 - mv) // 2)
                if a < low:
                    a = low
                    if a >= b:
                        ret = a
                        done = True
                if not done:
                    high = (cells - 1 - mv) // 2
                    if b > high:
                        b = high
                        if a >= b:
                            ret = b
                            done = True
                if not done:
                    k = cur + msk
                    if MIRROR:  # noqa: F821
                        km = st[d, F_MCUR] + st[d, F_MMASK]
                        if km < k:
                            k = km
                    slot = k % size
                    tag = k // size
                    e = np.int64(table[slot])
                    if (e >> 7) == tag and e & 127:
                        v = e & 127
                        if v > MAX_S - MIN_S + 1:  # noqa: F821  a lower bound
                            low = v + 2 * MIN_S - MAX_S - 2  # noqa: F821
                            if a < low:
                                a = low
                                if a >= b:
                                    ret = a
                                    done = True
                        else:  # an upper bound
                            high = v + MIN_S - 1  # noqa: F821
                            if b > high:
                                b = high
                                if a >= b:
                                    ret = b
                                    done = True
                    if not done and mv <= book_depth:
                        bv = book_value(k, book_keys, book_vals)
                        if bv != -1000:
                            ret = bv
                            done = True
                    if not done and cells - mv > ETC_LEFT:  # noqa: F821
                        # enhanced transposition cutoff: a child whose stored upper bound
                        # already gives this node a score >= beta ends the search here
                        ncur = cur ^ msk
                        nmcur = st[d, F_MCUR] ^ st[d, F_MMASK]
                        for col in range(WIDTH):  # noqa: F821
                            move = possible & (COLUMN << (col * H1))  # noqa: F821
                            if move:
                                ck = ncur + (msk | move)
                                if MIRROR:  # noqa: F821
                                    shift = (WIDTH - 1 - 2 * col) * H1  # noqa: F821
                                    mmove = move << shift if shift >= 0 else move >> -shift
                                    ckm = nmcur + (st[d, F_MMASK] | mmove)
                                    if ckm < ck:
                                        ck = ckm
                                ce = np.int64(table[ck % size])
                                cv = ce & 127
                                if (ce >> 7) == ck // size and cv and cv <= MAX_S - MIN_S + 1:  # noqa: F821
                                    u = cv + MIN_S - 1  # noqa: F821
                                    if -u >= b:
                                        ret = -u
                                        done = True
                                        table[slot] = (tag << 7) | (ret + MAX_S - 2 * MIN_S + 2)  # noqa: F821
                                        break
                    if not done:
                        # order: most threats created first, centre-first column order on ties
                        n = 0
                        scores = st[d + 1]  # the child's row is free: a scratch for scores
                        for i in range(WIDTH - 1, -1, -1):  # noqa: F821
                            col = ORDER[i]  # noqa: F821
                            move = possible & (COLUMN << (col * H1))  # noqa: F821
                            if move:
                                score = popcount(winning_cells(cur | move, msk))
                                pos = n
                                while pos > 0 and scores[pos - 1] > score:
                                    st[d, F_MOVES + pos] = st[d, F_MOVES + pos - 1]
                                    st[d, mw + pos] = st[d, mw + pos - 1]
                                    scores[pos] = scores[pos - 1]
                                    pos -= 1
                                st[d, F_MOVES + pos] = move
                                st[d, mw + pos] = col
                                scores[pos] = score
                                n += 1
                        st[d, F_ALPHA] = a
                        st[d, F_BETA] = b
                        st[d, F_SLOT] = slot
                        st[d, F_TAG] = tag
                        st[d, F_N] = n
                        st[d, F_I] = n - 1
        if not done:
            i = n - 1
        else:
            # ---- return ret to the parents until one has a child left to try ----
            i = -1
            while True:
                if d == 0:
                    return ret
                d -= 1
                score = -ret
                a = st[d, F_ALPHA]
                b = st[d, F_BETA]
                if score >= b:  # fail high: a lower bound
                    table[st[d, F_SLOT]] = (st[d, F_TAG] << 7) | (score + MAX_S - 2 * MIN_S + 2)  # noqa: F821
                    ret = score
                    continue
                if score > a:
                    a = score
                    st[d, F_ALPHA] = a
                i = st[d, F_I] - 1
                if i < 0:  # all moves tried: an upper bound
                    table[st[d, F_SLOT]] = (st[d, F_TAG] << 7) | (a - MIN_S + 1)  # noqa: F821
                    ret = a
                    continue
                st[d, F_I] = i
                break
        # ---- push child i of the node at ply d ----
        cur = st[d, F_CUR]
        msk = st[d, F_MASK]
        move = st[d, F_MOVES + i]
        col = st[d, mw + i]
        st[d + 1, F_CUR] = cur ^ msk
        st[d + 1, F_MASK] = msk | move
        if MIRROR:  # noqa: F821
            shift = (WIDTH - 1 - 2 * col) * H1  # noqa: F821
            mmove = move << shift if shift >= 0 else move >> -shift
            st[d + 1, F_MCUR] = st[d, F_MCUR] ^ st[d, F_MMASK]
            st[d + 1, F_MMASK] = st[d, F_MMASK] | mmove
        st[d + 1, F_ALPHA] = -st[d, F_BETA]
        st[d + 1, F_BETA] = -st[d, F_ALPHA]
        d += 1


def solve_score(current, mask, moves, weak, table, book_keys, book_vals, book_depth, stats,
                st, halt):
    """The driver of :func:`negamax` over :func:`search`: null windows narrowing the score
    range (weak: only -1..1) until the exact score (or its sign) is known; ``HALTED`` when
    ``halt[0]`` was set meanwhile."""
    cells = WIDTH * HEIGHT  # noqa: F821
    if winning_cells(current, mask) & ((mask + BOTTOM) & BOARD):  # noqa: F821
        return (cells + 1 - moves) // 2
    lo = -((cells - moves) // 2)
    hi = (cells + 1 - moves) // 2
    if weak:
        lo, hi = -1, 1
    while lo < hi:
        med = null_window(lo, hi)
        r = search(current, mask, moves, med, med + 1, table, book_keys, book_vals,
                   book_depth, stats, st, halt)
        if r == HALTED:
            return HALTED
        if r <= med:
            hi = r
        else:
            lo = r
    return lo


TEMPLATES = (winning_cells, popcount, mirror_key, canonical_key, book_value, null_window,
             negamax, search, solve_score)


def check_table(log_table: int) -> None:
    """Table sizes from 2^8 to 2^32 slots; anything else is named in the error."""
    if not 8 <= log_table <= 32:
        raise GameSearchError(f"table size 2^{log_table}: choose 8..32")
    from gamesearch.resources import check_memory

    check_memory(4 * (1 << log_table), f"a Connect Four table of 2^{log_table} slots")


def next_prime(n: int) -> int:
    """The smallest prime >= n (table sizes: odd, so coprime with 2^32)."""
    def prime(m: int) -> bool:
        if m < 2:
            return False
        f = 2
        while f * f <= m:
            if m % f == 0:
                return False
            f += 1
        return True

    while not prime(n):
        n += 1
    return n


@functools.cache
def compiled(width: int = 7, height: int = 6, mirror: bool = True,
             log_table: int = DEFAULT_LOG_TABLE, etc: bool = True):
    """The solver compiled for one board size and table size (cached on disk by numba):
    a constant table size lets the compiler turn the modulo into a multiplication."""
    from gamesearch.games.connect4.kernel import check_size, constants
    from gamesearch.kernels.specialize import source_tag, specialize

    check_size(width, height)
    consts = constants(width, height)
    consts.update(COLUMN=(1 << height) - 1, KEY_COLUMN=(1 << (height + 1)) - 1, MIRROR=mirror,
                  MIN_S=consts["MIN_SCORE"], MAX_S=consts["MAX_SOLVER_SCORE"],
                  TT_SIZE=next_prime(1 << log_table),
                  ETC_LEFT=ETC_LEFT if etc else width * height)
    consts.update(HALTED=HALTED, HALT_EVERY=HALT_EVERY)
    tag = (f"c4solver_{width}x{height}_{'m' if mirror else 'n'}_t{log_table}"
           f"{'' if etc else '_noetc'}_{source_tag(*TEMPLATES)}")
    # the search runs without the GIL, so that a thread can raise its halt flag meanwhile
    return specialize(TEMPLATES, consts, tag, nogil=("search", "solve_score"))


@dataclass
class Solved:
    """One solve: the score for the player to move, and what it cost."""

    score: int
    nodes: int
    seconds: float


class Connect4Solver:
    """Strong and weak solving of Connect Four positions, keeping its table between calls.

    ``log_table``: the table has the first prime above 2^log_table slots of 4 bytes each
    on 7x6 from 24 up (24: about 67 MB; 8 bytes when the key needs more bits); memory stays
    at that size. ``book``: an opening book
    (:class:`gamesearch.engines.connect4.book.OpeningBook`) or None. ``recursive``: use the
    readable recursive :func:`negamax` (the reference the tests hold :func:`search` to);
    ``etc=False``: no enhanced transposition cutoffs (Pons' node visits exactly).
    """

    def __init__(self, width: int = 7, height: int = 6, log_table: int = DEFAULT_LOG_TABLE,
                 book=None, mirror: bool = True, recursive: bool = False,
                 etc: bool = True) -> None:
        check_table(log_table)
        self.width, self.height = width, height
        self.cells = width * height
        self.code = compiled(width, height, mirror, log_table, etc)
        size = next_prime(1 << log_table)
        # an entry packs key // size above a 7-bit bound: 32 bits when that fits, else 64
        tag_bits = width * (height + 1) - log_table
        self.recursive = recursive
        if recursive:  # the readable reference: Pons' two arrays, numba recursion
            if log_table + 32 < width * (height + 1):
                raise GameSearchError("the recursive reference needs size * 2^32 above "
                                      f"2^{width * (height + 1)}: table size 2^{log_table}")
            self.tt_keys = np.zeros(size, np.uint32)
            self.tt_vals = np.zeros(size, np.uint8)
            self.table = np.zeros(0, np.uint32)
            self.buf = np.zeros((self.cells + 1, 2, width), np.int64)
        else:
            self.table = np.zeros(size, np.uint32 if tag_bits + 7 <= 32 else np.uint64)
            self.stack = np.zeros((self.cells + 2, F_MOVES + 2 * width), np.int64)
        self.stats = np.zeros(1, np.int64)
        self.halt = np.zeros(1, np.int64)
        """Set (by :meth:`stopping`'s watcher) to make a running solve end: it raises
        SearchTimeout."""
        self.total_nodes = 0
        """Nodes of every solve since this solver was made (callers take differences)."""
        self.set_book(book)

    @property
    def table_bytes(self) -> int:
        if self.recursive:
            return self.tt_keys.nbytes + self.tt_vals.nbytes
        return self.table.nbytes

    def set_book(self, book) -> None:
        """Use an opening book (None: none)."""
        if book is not None and (book.width, book.height) != (self.width, self.height):
            raise GameSearchError(f"opening book is for {book.width}x{book.height}, "
                                  f"not {self.width}x{self.height}")
        self.book = book
        self.book_keys = book.keys if book is not None else np.zeros(0, np.int64)
        self.book_vals = book.values if book is not None else np.zeros(0, np.int8)
        self.book_depth = book.depth if book is not None else -1

    def reset(self) -> None:
        """Empty the table (fresh timing)."""
        self.table[:] = 0
        if self.recursive:
            self.tt_keys[:] = 0
            self.tt_vals[:] = 0

    def _score(self, current: int, mask: int, moves: int, weak: bool) -> int:
        if self.recursive:
            return int(self.code.negamax(current, mask, moves, 0, 1, WEAK if weak else STRONG,
                                         self.tt_keys, self.tt_vals, self.book_keys,
                                         self.book_vals, self.book_depth, self.stats,
                                         self.buf))
        score = int(self.code.solve_score(current, mask, moves, weak, self.table,
                                          self.book_keys, self.book_vals, self.book_depth,
                                          self.stats, self.stack, self.halt))
        if score == HALTED:
            self.total_nodes += int(self.stats[0])
            raise SearchTimeout("the solve was stopped")
        return score

    @contextmanager
    def stopping(self, stop: Callable[[], bool]) -> Iterator[None]:
        """While the block runs, every solve ends (raising SearchTimeout, within about a
        thousand nodes) once ``stop()`` says so: how a web verdict that nobody waits for
        any more, or that ran out of time, ends without its worker being killed. The flag
        is lowered again when the block ends."""
        from gamesearch.anytime import StopWatcher

        def halt() -> None:
            self.halt[0] = 1

        self.halt[0] = 1 if stop() else 0
        try:
            with StopWatcher(stop, halt) as watcher:
                watcher.arm()
                yield
        finally:
            self.halt[0] = 0

    def solve(self, state: tuple, weak: bool = False) -> Solved:
        """The exact score of a pure-game state for the player to move (weak: its sign)."""
        current, mask, moves, won = state
        start = _time.perf_counter()
        stats = self.stats
        stats[0] = 0
        if won:  # the previous player has four in a row: the player to move has lost
            score = -(self.cells // 2 + 1 - (moves + 1) // 2)
        elif moves == self.cells:
            score = 0
        else:
            score = self._score(current, mask, moves, weak)
        if weak:
            score = (score > 0) - (score < 0)
        self.total_nodes += int(stats[0])
        return Solved(score, int(stats[0]), _time.perf_counter() - start)

    def analyze(self, game, state: tuple, weak: bool = False) -> dict[int, int]:
        """The score of every legal column (0-based) for the player to move."""
        scores: dict[int, int] = {}
        for column in game.actions(state):
            child = game.result(state, column)
            scores[column] = -self.solve(child, weak).score
        return scores

    def principal_variation(self, game, state: tuple, score: int, length: int = 42) -> list:
        """Perfect moves from ``state`` (centre first among equals), up to ``length``.

        The score along the line is known (negamax: a best child scores minus its parent), so
        at every ply the first child in order that keeps it is the move: the remaining
        children need not be solved."""
        line: list[int] = []
        s = state
        target = score
        while len(line) < length and not game.is_terminal(s):
            best, best_score = None, None
            for column in game.order_actions(s, game.actions(s)):
                child = game.result(s, column)
                v = -self.solve(child).score
                if best_score is None or v > best_score:
                    best, best_score = column, v
                if v == target:
                    break
            line.append(best)
            s = game.result(s, best)
            target = -best_score
        return line
