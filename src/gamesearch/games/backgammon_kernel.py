"""Backgammon's compiled kernel, beside the readable rules: plays, evaluation, chance kernel.

The rules of :class:`gamesearch.games.backgammon.Backgammon` and its hand-written
evaluation re-written over small integer arrays, for the generic compiled expectiminimax
and *-minimax of :mod:`gamesearch.kernels.chance` (the search is not written here) and
for TD-Gammon's self-play: ``my[p]`` the mover's checkers on its point p
(``my[0]`` borne off, ``my[25]`` on the bar), ``opp[p]`` the opponent's checkers on the
mover's point p (``opp[0]`` borne off, ``opp[25]`` on the bar). After a play the board is
mirrored so that the next mover is again ``my``. tests/test_backgammon_kernel.py checks the
plays, values and node counts against the pure-Python search.
"""

from __future__ import annotations

import math
import types

import numpy as np
from numba import njit

from gamesearch.games.backgammon import WEIGHTS, BackgammonState, relative
from gamesearch.kernels.chance import decide
from gamesearch.kernels.contract import ChanceKernel
from gamesearch.kernels.specialize import source_tag
from gamesearch.result import Clock, SearchResult, SearchStats

MAX_PLAYS = 4096  # distinct plays per roll never come near this (the record is ~1,000)

_ROLLS = np.array([[a, b] for a in range(6, 0, -1) for b in range(a, 0, -1)], dtype=np.int64)
_PROBS = np.array([1 / 36 if a == b else 1 / 18 for a, b in _ROLLS])
_W = np.array([WEIGHTS[k] for k in ("pips", "blots", "home_points", "points", "prime", "bar",
                                    "off")])


@njit(cache=True)
def _target(my, opp, src, die):
    dst = src - die
    if dst >= 1:
        return dst if opp[dst] <= 1 else -1
    for p in range(7, 26):
        if my[p] > 0:
            return -1
    if dst == 0:
        return 0
    for p in range(src + 1, 7):
        if my[p] > 0:
            return -1
    return 0


@njit(cache=True)
def _move(my, opp, src, dst):
    my[src] -= 1
    my[dst] += 1
    if dst != 0 and opp[dst] == 1:
        opp[dst] = 0
        opp[25] += 1
        return 1
    return 0


@njit(cache=True)
def _unmove(my, opp, src, dst, hit):
    my[src] += 1
    my[dst] -= 1
    if hit:
        opp[dst] = 1
        opp[25] -= 1


@njit(cache=True)
def _record(my, opp, used, die, out, dies, state):
    """Keep the position if it uses the most dice so far and is new. state = [n, most]."""
    n, most = state[0], state[1]
    if used < most:
        return
    if used > most:
        n = 0
        state[1] = used
    for i in range(n):
        same = True
        for p in range(26):
            if out[i, p] != my[p] or out[i, 26 + p] != opp[p]:
                same = False
                break
        if same:
            return
    for p in range(26):
        out[n, p] = my[p]
        out[n, 26 + p] = opp[p]
    dies[n] = die
    state[0] = n + 1


@njit(cache=True)
def _sources(my, src_list):
    if my[25] > 0:
        src_list[0] = 25
        return 1
    k = 0
    for p in range(24, 0, -1):
        if my[p] > 0:
            src_list[k] = p
            k += 1
    return k


@njit(cache=True)
def generate(my, opp, d1, d2, out, dies):
    """All distinct legal plays: rows of ``out`` hold (my, opp) after each; returns count."""
    state = np.zeros(2, dtype=np.int64)
    srcs = np.empty((4, 26), dtype=np.int64)
    if d1 == d2:
        d = d1
        n0 = _sources(my, srcs[0])
        moved0 = False
        for i0 in range(n0):
            s0 = srcs[0, i0]
            t0 = _target(my, opp, s0, d)
            if t0 < 0:
                continue
            moved0 = True
            h0 = _move(my, opp, s0, t0)
            n1 = _sources(my, srcs[1])
            moved1 = False
            for i1 in range(n1):
                s1 = srcs[1, i1]
                if s1 > s0:
                    continue
                t1 = _target(my, opp, s1, d)
                if t1 < 0:
                    continue
                moved1 = True
                h1 = _move(my, opp, s1, t1)
                n2 = _sources(my, srcs[2])
                moved2 = False
                for i2 in range(n2):
                    s2 = srcs[2, i2]
                    if s2 > s1:
                        continue
                    t2 = _target(my, opp, s2, d)
                    if t2 < 0:
                        continue
                    moved2 = True
                    h2 = _move(my, opp, s2, t2)
                    n3 = _sources(my, srcs[3])
                    moved3 = False
                    for i3 in range(n3):
                        s3 = srcs[3, i3]
                        if s3 > s2:
                            continue
                        t3 = _target(my, opp, s3, d)
                        if t3 < 0:
                            continue
                        moved3 = True
                        h3 = _move(my, opp, s3, t3)
                        _record(my, opp, 4, d, out, dies, state)
                        _unmove(my, opp, s3, t3, h3)
                    if not moved3:
                        _record(my, opp, 3, d, out, dies, state)
                    _unmove(my, opp, s2, t2, h2)
                if not moved2:
                    _record(my, opp, 2, d, out, dies, state)
                _unmove(my, opp, s1, t1, h1)
            if not moved1:
                _record(my, opp, 1, d, out, dies, state)
            _unmove(my, opp, s0, t0, h0)
        if not moved0:
            _record(my, opp, 0, 0, out, dies, state)
        return state[0]
    for order in range(2):
        a = d1 if order == 0 else d2
        b = d2 if order == 0 else d1
        n0 = _sources(my, srcs[0])
        moved0 = False
        for i0 in range(n0):
            s0 = srcs[0, i0]
            t0 = _target(my, opp, s0, a)
            if t0 < 0:
                continue
            moved0 = True
            h0 = _move(my, opp, s0, t0)
            n1 = _sources(my, srcs[1])
            moved1 = False
            for i1 in range(n1):
                s1 = srcs[1, i1]
                t1 = _target(my, opp, s1, b)
                if t1 < 0:
                    continue
                moved1 = True
                h1 = _move(my, opp, s1, t1)
                _record(my, opp, 2, a, out, dies, state)
                _unmove(my, opp, s1, t1, h1)
            if not moved1:
                _record(my, opp, 1, a, out, dies, state)
            _unmove(my, opp, s0, t0, h0)
        if not moved0:
            _record(my, opp, 0, 0, out, dies, state)
    n = state[0]
    if state[1] == 1:  # only one die can be used: the larger one if it can
        big = max(d1, d2)
        has_big = False
        for i in range(n):
            if dies[i] == big:
                has_big = True
        if has_big:
            k = 0
            for i in range(n):
                if dies[i] == big:
                    for p in range(52):
                        out[k, p] = out[i, p]
                    dies[k] = dies[i]
                    k += 1
            n = k
    return n


@njit(cache=True)
def _features(mine, bar, off, f):
    """Features of the side whose checkers are ``mine`` (its own numbering)."""
    pips = 25 * bar
    blots = 0
    home = 0
    made = 0
    run = 0
    longest = 0
    for p in range(1, 25):
        c = mine[p]
        pips += p * c
        if c == 1:
            blots += 1
        if c >= 2:
            made += 1
            if p <= 6:
                home += 1
            run += 1
            if run > longest:
                longest = run
        else:
            run = 0
    f[0] = pips
    f[1] = blots
    f[2] = home
    f[3] = made
    f[4] = longest
    f[5] = bar
    f[6] = off


@njit(cache=True)
def evaluate(my, opp, weights):
    """The hand-written evaluation for the mover, as in Backgammon.evaluate."""
    mine = np.zeros(25, dtype=np.int64)
    theirs = np.zeros(25, dtype=np.int64)
    for p in range(1, 25):
        mine[p] = my[p]
        theirs[25 - p] = opp[p]
    a = np.zeros(7)
    b = np.zeros(7)
    _features(mine, my[25], my[0], a)
    _features(theirs, opp[25], opp[0], b)
    score = 0.0
    for k in range(7):
        score += weights[k] * (a[k] - b[k])
    return math.tanh(score)


@njit(cache=True)
def _mirror(row, my2, opp2):
    """The board after a play, seen by the next mover."""
    for q in range(1, 25):
        my2[q] = row[26 + 25 - q]
        opp2[q] = row[25 - q]
    my2[0] = row[26]
    my2[25] = row[26 + 25]
    opp2[0] = row[0]
    opp2[25] = row[25]


@njit(cache=True)
def _win_size(loser_my, loser_opp):
    """Points won against ``loser`` (seen from the loser's side)."""
    if loser_my[0] > 0:
        return 1.0
    if loser_my[25] > 0:
        return 3.0
    for p in range(19, 25):  # the winner's home board, in the loser's numbering
        if loser_my[p] > 0:
            return 3.0
    return 2.0


LO, HI = -3.0, 3.0  # the bounds of every backgammon value (a backgammon is 3 points)


@njit(cache=True)
def expand(s, outcome, out):
    """The chance-kernel primitive: the positions after each distinct play of roll
    ``outcome`` (an index into ``_ROLLS``) from ``s`` = (my, opp) as one row of 52, each
    mirrored for the next mover; returns how many."""
    dies = np.empty(MAX_PLAYS, dtype=np.int64)
    n = generate(s[:26], s[26:], _ROLLS[outcome, 0], _ROLLS[outcome, 1], out, dies)
    _mirror_rows(out, n)
    return n


@njit(cache=True)
def _mirror_rows(out, n):
    """Mirror rows 0..n-1 of ``out`` in place, each seen by the next mover: as
    :func:`_mirror`, by swapping the mover's point p with the opponent's 25 - p (and
    borne-off with borne-off, bar with bar)."""
    for i in range(n):
        for p in range(1, 25):
            a = out[i, p]
            out[i, p] = out[i, 51 - p]
            out[i, 51 - p] = a
        for p in (0, 25):
            a = out[i, p]
            out[i, p] = out[i, 26 + p]
            out[i, 26 + p] = a


@njit(cache=True)
def is_over(s):
    """The previous mover (``s``'s opponent) has borne off every checker."""
    return s[26] == 15


@njit(cache=True)
def lost_points(s):
    """The result for the player to move at a finished ``s``: minus the points it lost."""
    return -_win_size(s[:26], s[26:])


@njit(cache=True)
def evaluate_row(s):
    """The hand-written evaluation of ``s`` (one row of 52) for the player to move."""
    return evaluate(s[:26], s[26:], _W)


_KERNEL = None


def chance_kernel() -> ChanceKernel:
    """Backgammon's chance kernel: the generic expectiminimax and *-minimax of
    :mod:`gamesearch.kernels.chance` compiled over these rules (built once)."""
    global _KERNEL
    if _KERNEL is None:
        from gamesearch.games import backgammon_kernel as module

        primitives = types.SimpleNamespace(expand=expand, is_terminal=is_over,
                                           terminal_value=lost_points,
                                           evaluate=evaluate_row)
        _KERNEL = ChanceKernel("backgammon", primitives, _PROBS, (LO, HI), MAX_PLAYS,
                               source_tag(module))
    return _KERNEL


def arrays(s: BackgammonState) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's board for a state (the mover's view, opponent's bar in opp[25])."""
    my, opp, opp_bar = relative(s)
    opp[25] = opp_bar
    return np.array(my, dtype=np.int64), np.array(opp, dtype=np.int64)


def root_children(s: BackgammonState) -> np.ndarray:
    """The positions after each distinct play of the mover's dice, in the rules' order
    (rows as ``expand`` writes them)."""
    my, opp = arrays(s)
    out = np.empty((MAX_PLAYS, 52), dtype=np.int64)
    dies = np.empty(MAX_PLAYS, dtype=np.int64)
    n = generate(my, opp, s.dice[0], s.dice[1], out, dies)
    _mirror_rows(out, n)
    return out[:n].copy()


def expectiminimax_kernel(game, s: BackgammonState, depth: int = 2,
                          pruning: str | None = None) -> SearchResult:
    """Compiled expectiminimax at a decision node, with the hand-written evaluation: the
    same value, action and node counts as the pure-Python search (``pruning`` None,
    "star1" or "star2", as in :func:`gamesearch.search.chance.expectiminimax`)."""
    clock = Clock(None)
    children = root_children(s)
    value, best, counts = decide(chance_kernel(), children, depth, pruning)
    chosen = np.empty(52, dtype=np.int64)
    _mirror(children[best], chosen[:26], chosen[26:])  # back to the mover's view
    target = (tuple(int(v) for v in chosen[:26]), tuple(int(v) for v in chosen[26:51]))
    action = None
    for play, position in game.plays(s):
        if position[0] == target[0] and position[1][:25] == target[1]:
            action = play
            break
    stats = SearchStats(nodes=int(counts[0]), leaves=int(counts[1]), cutoffs=int(counts[2]),
                        depth=depth, seconds=clock.elapsed())
    stats.extra["kernel"] = "numba"
    return SearchResult(value, action, [action], stats, pov=game.to_move(s))
