"""The network in the compiled search: integer weights, accumulators kept on the move path,
and the forward pass in integers (the float specification is ``network.py``).

Quantisation (:func:`quantise`; every bound is checked there, so no integer can overflow):

* activations are integers in [0, ``QA``] (127 stands for 1.0, the clipped ReLU's top);
* the feature transformer ``ft_w``, ``ft_b`` is int16 at scale ``QA``: an accumulator is
  the bias plus its feature rows, summed in int16 (refused when the largest 32 rows of a
  column could leave the int16 range), and clipped to [0, QA] it is the first activation;
* the dense weights ``l1_w``, ``l2_w``, ``out_w`` are int16 at scale ``QB`` = 1024 and their
  biases int32 at ``QA * QB`` (plus ``QB / 2``, so that the shift below rounds to nearest
  instead of down): a layer's sum is in units of ``QA * QB`` (int32; refused when a
  column's largest sum could overflow), shifted right by 10 (``// QB``) and clipped to
  [0, QA] is the next activation;
* the output sum (units ``QA * QB``) becomes centipawns by a fixed-point multiply:
  ``(sum * M) >> 32`` with ``M = round(scale * 2**32 / (QA * QB))``, clamped to
  +-``CLAMP`` (far from the search's mate scores).

:func:`reference` is that arithmetic in numpy int64 on a python-chess board: the compiled
:func:`forward` must equal it exactly. Against the float ``network.evaluate`` the
difference is rounding only: a few centipawns (the tests state the bound).

Accumulators (:func:`state`, one per search thread): ``acc[ply, perspective, :]`` for
every ply of the search path (0 White's view, 1 Black's) and ``tags[ply]``, the hash of
the position whose accumulators sit at that ply. The search never calls the network on
make and unmake: :func:`static_value` brings the accumulators of the position being
evaluated up to date lazily, from the nearest ply on the path that holds its own
(``tags``), replaying the moves between (each one a few rows added and subtracted: a
quiet move 1 + 1, a capture or en passant 1 + 2, castling 2 + 2, a promotion the pawn off
and the new piece on, a null move a copy), or from scratch when none within ``MAX_WALK``
plies does. Unmake is then free: the ply below still holds its accumulators. The moves
are read from the board's own undo stack (``games/chess/board.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import chess
import numpy as np

from gamesearch.engines.chess.nnue.features import FEATURES, active_features
from gamesearch.engines.chess.nnue.network import Network, NetworkError
from gamesearch.games.chess import bitboards
from gamesearch.games.chess import board as B
from gamesearch.kernels.specialize import compile_in_place

QA = 127
"""An activation of 1.0 (the clipped ReLU's top) as an integer."""
QB_SHIFT = 10
QB = 1 << QB_SHIFT
"""A dense weight of 1.0 as an integer."""
OUT_SHIFT = 32
CLAMP = 20000
"""The largest centipawn value the network may return (mate scores start at 29000)."""
MAX_WALK = 6
"""How many plies back :func:`static_value` looks for accumulators to update from before it
sums them from scratch (a refresh costs about as much as six updates)."""
PIECES_MAX = 32
INT16 = 32767
INT32 = 2**31 - 1
FT, W1, W2, WO, BIAS, PARAMS, ACC, TAGS, SCRATCH = range(9)
"""The positions of the arrays in a :func:`state` tuple."""


@dataclass(frozen=True)
class Quantised:
    """A network in integers (scheme in the module docstring)."""

    ft: np.ndarray
    """int16 [769, H]: rows 0..767 the features, row 768 the bias (scale QA)."""
    w1: np.ndarray
    """int16 [L1, 2H], ``l1_w`` transposed (scale QB): one row per output, so each output
    is a dot product over contiguous memory (vectorised)."""
    w2: np.ndarray
    """int16 [L2, L1], ``l2_w`` transposed (scale QB)."""
    wo: np.ndarray
    """int16 [L2] (scale QB)."""
    bias: np.ndarray
    """int32 [L1 + L2 + 1]: l1_b, l2_b, out_b (scale QA * QB)."""
    params: np.ndarray
    """int64 [1]: the output multiplier M."""

    @property
    def widths(self) -> tuple[int, int, int]:
        """(H, L1, L2)."""
        return int(self.ft.shape[1]), int(self.w1.shape[0]), int(self.w2.shape[0])


def _to_int(values: np.ndarray, scale: float, limit: int, what: str, dtype: type) -> np.ndarray:
    q = np.rint(values.astype(np.float64) * scale)
    if np.abs(q).max(initial=0) > limit:
        raise NetworkError(f"network {what} is too large for the integer network "
                           f"(|value| * {scale:g} > {limit})")
    return q.astype(dtype)


def _check_sums(weights: np.ndarray, bias: np.ndarray, what: str) -> None:
    """Refuse a layer whose int32 sum could overflow with inputs in [0, QA]."""
    worst = np.abs(bias.astype(np.int64)) + QA * np.abs(weights.astype(np.int64)).sum(axis=0)
    if worst.max(initial=0) > INT32:
        raise NetworkError(f"network layer {what} is too large for 32-bit sums")


def quantise(net: Network) -> Quantised:
    """The integer network of ``net``; NetworkError (one line) where a weight or a sum
    would not fit its integer type."""
    ft = np.concatenate([net.ft_w, net.ft_b[None, :]])
    ft_q = _to_int(ft, QA, INT16, "feature weight", np.int16)
    rows = np.sort(np.abs(ft_q[:FEATURES].astype(np.int64)), axis=0)[-PIECES_MAX:]
    if (np.abs(ft_q[FEATURES].astype(np.int64)) + rows.sum(axis=0)).max() > INT16:
        raise NetworkError("network feature weights are too large for 16-bit accumulators")
    w1 = _to_int(net.l1_w, QB, INT16, "l1 weight", np.int16)
    w2 = _to_int(net.l2_w, QB, INT16, "l2 weight", np.int16)
    wo = _to_int(net.out_w[:, 0], QB, INT16, "output weight", np.int16)
    b1 = _to_int(net.l1_b, QA * QB, INT32 // 2, "l1 bias", np.int32) + QB // 2  # rounds
    b2 = _to_int(net.l2_b, QA * QB, INT32 // 2, "l2 bias", np.int32) + QB // 2  # the shift
    bo = _to_int(net.out_b, QA * QB, INT32 // 2, "output bias", np.int32)
    _check_sums(w1, b1, "l1")
    _check_sums(w2, b2, "l2")
    multiplier = int(round(net.scale * 2.0**OUT_SHIFT / (QA * QB)))
    return Quantised(ft_q, np.ascontiguousarray(w1.T), np.ascontiguousarray(w2.T), wo,
                     np.concatenate([b1, b2, bo]).astype(np.int32),
                     np.array([multiplier], np.int64))


def reference(q: Quantised, board: chess.Board) -> int:
    """The integer network's centipawns for ``board`` from the side to move, in numpy int64
    (the arithmetic the compiled :func:`forward` must reproduce exactly)."""
    hidden, l1, l2 = q.widths
    ft = q.ft.astype(np.int64)

    def acc(perspective: bool) -> np.ndarray:
        return ft[FEATURES] + ft[active_features(board, perspective)].sum(axis=0)

    x = np.clip(np.concatenate([acc(board.turn), acc(not board.turn)]), 0, QA)
    bias = q.bias.astype(np.int64)
    s1 = x @ q.w1.T.astype(np.int64) + bias[:l1]
    a1 = np.clip(s1 >> QB_SHIFT, 0, QA)
    s2 = a1 @ q.w2.T.astype(np.int64) + bias[l1:l1 + l2]
    a2 = np.clip(s2 >> QB_SHIFT, 0, QA)
    out = int(a2 @ q.wo.astype(np.int64) + bias[l1 + l2])
    return max(-CLAMP, min(CLAMP, (out * int(q.params[0])) >> OUT_SHIFT))


def state(q: Quantised) -> tuple[np.ndarray, ...]:
    """One search thread's arrays for the compiled network: the shared weights and its own
    accumulator stack, tags and scratch (the activations of one forward pass; order: FT,
    W1, W2, WO, BIAS, PARAMS, ACC, TAGS, SCRATCH)."""
    hidden, l1, l2 = q.widths
    return (q.ft, q.w1, q.w2, q.wo, q.bias, q.params,
            np.zeros((B.MAX_PLY + 1, 2, hidden), np.int16), np.zeros(B.MAX_PLY + 1, np.int64),
            np.zeros(2 * hidden + l1 + l2, np.int16))


# --- compiled ----------------------------------------------------------------------------
def feature(p, sq, perspective):
    """The feature of piece code ``p`` (board.py) on 0x88 square ``sq`` from
    ``perspective`` (0 White, 1 Black): ``features.feature_index`` on the 0x88 board."""
    square = (sq >> 4) * 8 + (sq & 7)
    if perspective == 1:
        square ^= 56
    return (((p >> 3) ^ perspective) * 6 + (p & 7) - 1) * 64 + square


def refresh(board, nn, ply):
    """Both accumulators at ``ply`` summed from the pieces on ``board``."""
    ft = nn[0]
    acc = nn[6]
    hidden = ft.shape[1]
    for s in range(2):
        for j in range(hidden):
            acc[ply, s, j] = ft[768, j]
    for i in range(64):
        sq = B.SQ88[i]
        p = board[sq]
        if p != 0:
            for s in range(2):
                f = feature(p, sq, s)
                for j in range(hidden):
                    acc[ply, s, j] += ft[f, j]


def update(board, st, undo, nn, ply):
    """The accumulators at ``ply`` from those at ``ply - 1`` and the move made there
    (``undo[ply - 1]``); ``board`` and ``st`` are the position after that move."""
    ft = nn[0]
    acc = nn[6]
    hidden = ft.shape[1]
    m = undo[ply - 1, 0]
    if m == 0:  # a null move: the same pieces
        for s in range(2):
            for j in range(hidden):
                acc[ply, s, j] = acc[ply - 1, s, j]
        return
    fr = m & 127
    to = (m >> 7) & 127
    flags = m >> 18
    us = st[B.SIDE] ^ 1
    placed = board[to]
    moved = (us << 3) | B.PAWN if (m >> 14) & 7 != 0 else placed
    cap = undo[ply - 1, 1]
    add2 = -1
    sub2 = -1
    sub2_sq = to
    if flags & B.CASTLE:
        if to & 7 == 6:
            rf, rt = to + 1, to - 1
        else:
            rf, rt = to - 2, to + 1
        add2 = rt
        sub2 = rf
        sub2_sq = rf
    elif flags & B.EP:
        cap = ((us ^ 1) << 3) | B.PAWN
        sub2_sq = to - 16 if us == 0 else to + 16
    for s in range(2):
        a = feature(placed, to, s)
        d = feature(moved, fr, s)
        if add2 >= 0:
            rook = (us << 3) | B.ROOK
            a2 = feature(rook, add2, s)
            d2 = feature(rook, sub2, s)
            for j in range(hidden):
                acc[ply, s, j] = acc[ply - 1, s, j] + ft[a, j] - ft[d, j] + ft[a2, j] - ft[d2, j]
        elif cap != 0:
            d2 = feature(cap, sub2_sq, s)
            for j in range(hidden):
                acc[ply, s, j] = acc[ply - 1, s, j] + ft[a, j] - ft[d, j] - ft[d2, j]
        else:
            for j in range(hidden):
                acc[ply, s, j] = acc[ply - 1, s, j] + ft[a, j] - ft[d, j]


def ensure(board, st, undo, nn):
    """Bring the accumulators of the current position (at ``st[PLY]``) up to date: from
    the nearest ply of the path within MAX_WALK that holds its own, replaying the moves
    from there (unmade, then made again), else from scratch."""
    tags = nn[7]
    ply = st[B.PLY]
    if tags[ply] == st[B.HASH]:
        return
    k = ply
    found = False
    while k > 0 and ply - k < MAX_WALK and undo[k - 1, 5] != 0:  # a move of this search
        k -= 1
        if tags[k] == undo[k, 5]:
            found = True
            break
    if not found:
        refresh(board, nn, ply)
        tags[ply] = st[B.HASH]
        return
    for _ in range(ply - k - 1):  # back to the position after the move at ply k
        if undo[st[B.PLY] - 1, 0] == 0:
            B.unmake_null(board, st, undo)
        else:
            B.unmake(board, st, undo)
    while True:
        at = st[B.PLY]
        update(board, st, undo, nn, at)
        tags[at] = st[B.HASH]
        if at == ply:
            return
        m = undo[at, 0]
        if m == 0:
            B.make_null(board, st, undo)
        else:
            B.make(board, st, undo, m)


def forward(nn, ply, side):
    """The network's centipawns from the accumulators at ``ply``, ``side`` to move: each
    layer's activations (clipped, int16) into the scratch, then every output a dot product
    with its weight row (the sums stay in the int32 range, checked by :func:`quantise`).
    Written for numba's vectoriser: int32 arithmetic spelt out (numba would widen it to
    int64) and slices for the layers (an index with an offset keeps a bounds select in the
    loop); each change measured about 3x faster."""
    acc = nn[6]
    w1 = nn[1]
    w2 = nn[2]
    wo = nn[3]
    bias = nn[4]
    scratch = nn[8]
    hidden = acc.shape[2]
    l1 = w1.shape[0]
    l2 = w2.shape[0]
    n = 2 * hidden
    x = scratch[:n]
    a1 = scratch[n:n + l1]
    a2 = scratch[n + l1:n + l1 + l2]
    for half in range(2):
        s = side ^ half
        for i in range(hidden):
            x[half * hidden + i] = max(0, min(acc[ply, s, i], QA))
    for j in range(l1):
        row = w1[j]
        total = np.int32(bias[j])
        for i in range(n):
            total = np.int32(total + np.int32(x[i]) * np.int32(row[i]))
        a1[j] = max(0, min(total >> QB_SHIFT, QA))
    for j in range(l2):
        row = w2[j]
        total = np.int32(bias[l1 + j])
        for i in range(l1):
            total = np.int32(total + np.int32(a1[i]) * np.int32(row[i]))
        a2[j] = max(0, min(total >> QB_SHIFT, QA))
    out = np.int64(bias[l1 + l2])
    for j in range(l2):
        out += a2[j] * np.int64(wo[j])
    cp = (out * nn[5][0]) >> OUT_SHIFT
    return max(-CLAMP, min(CLAMP, cp))


def static_value(board, st, undo, tb):
    """The search's static evaluation with the network: ``tb[4]`` is this thread's
    :func:`state` (the search's ``tb`` argument carries it after the endgame tables)."""
    nn = tb[4]
    ensure(board, st, undo, nn)
    return forward(nn, st[B.PLY], st[B.SIDE])


def evaluate_arrays(board, st, undo, nn):
    """:func:`static_value` on a bare state (tests, benchmarks)."""
    ensure(board, st, undo, nn)
    return forward(nn, st[B.PLY], st[B.SIDE])


TEMPLATES = (feature, refresh, update, ensure, forward, static_value,
             evaluate_arrays)
compile_in_place(globals(), TEMPLATES, "chess_nnue", (B, bitboards))

__all__ = ["CLAMP", "QA", "QB", "Quantised", "ensure", "evaluate_arrays", "forward",
           "quantise", "reference", "refresh", "state", "static_value", "update"]
