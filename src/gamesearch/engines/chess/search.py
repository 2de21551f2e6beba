"""The chess engine's compiled search: one recursive numba function (``search``).

Principal variation search (null windows after the first move, re-search on fail-high) with
a transposition table, check extensions, null-move pruning (R = 2 + depth / 4), reverse
futility, futility and late-move pruning near the leaves, late-move reductions for quiet
moves, move ordering by the table's move, captures (most valuable victim, least valuable
attacker), killer moves, the counter-move of the previous move and the history heuristic (a
bonus to the quiet move that cut off, a malus to the quiet moves searched before it, both
bounded by the gravity formula ``h += b - h * |b| / HISTORY_MAX``); at depth 0 a quiescence
search of captures and promotions with delta pruning (all moves when in check: check
evasions, so mates are seen). Draws by repetition (one repetition of a position since the
last capture or pawn move, on the game's moves or the search path), the fifty-move rule and
dead positions score 0; mate scores are ``MATE - plies``. Below the root, a position the
endgame tables hold (up to four pieces, no castling rights, no en passant square) is not
searched: its score is the tables' exact value, a mate at the tables' distance or a draw.

The quiescence search is a mode of ``search`` (depth <= 0), not a function of its own:
numba crashes reloading a cached function that calls another cached recursive one
(docs/KERNELS.md), so the recursion is the only entry point. The driver (iterative
deepening, aspiration windows, time) is ``engines/chess/engine.py``.

Transposition table: two int64 arrays (key, data), 16 bytes an entry, always-replace;
``data`` packs the move (20 bits), the score (+32768, 16 bits), the depth (8 bits) and the
bound (2 bits). The table is lockless for several threads searching at once (``Threads``,
Lazy SMP in ``engines/chess/engine.py``): ``key`` holds the position's hash xor ``data``, and an
entry counts only where ``key ^ data`` equals the hash, so an entry torn by two threads
writing the same slot at once (one's key with the other's data) is a miss, not a wrong
score (Hyatt and Mann's lockless hashing). A table move is only ever used to order the
generated moves, never played unchecked.

``history`` (int64[32, 128]): rows 0-15 the history scores by the moving piece
and its target square (``board[from]``, ``to``), rows 16-31 the counter-moves: row
``16 + piece``, column ``to`` of the previous move holds the quiet move that last refuted
it (0: none). The engine ages the first 16 rows between searches (``engine.age_history``).

``info`` (int64 array): [0] nodes, [1] stop (set by the caller's thread or the clock),
[2] deadline in microseconds of ``perf_counter`` (0: none), [3] best root move, [4] node
limit (0: none), [5] deepest ply reached, [6] features turned off (``NO_SINGULAR``), [7] the
iteration's root depth (0: no singular extensions), [8..15] the pruning and reduction
settings (``tuning.TUNING``: written by the engine before each iteration, so one compiled search
serves every setting).

Singular extensions (Deep Blue's, in Stockfish's form): at a non-root node of depth >=
``SINGULAR_DEPTH`` whose table entry holds a move with a lower bound (or exact value)
searched to at least ``depth - 3``, the other moves are searched to ``(depth - 1) // 2`` in
a null window just under ``tt_score - SINGULAR_MARGIN * depth``; where every one fails low,
the table move is *singular* (the only good move) and is searched a ply deeper; where one
reaches that bound and the bound is at least beta, the node returns it (multi-cut: two
moves beat beta). The verification
search is ``search`` itself at the same ply with the table move excluded
(``killers[ply, 2]``): it reads no cut-off from the table and writes no entry, tries no
null move, and with no other legal move returns alpha. Extensions stop at twice the root
depth in plies (``info[7]``), so a line of singular moves cannot run on.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, objmode

from gamesearch.engines.chess import evaluation, tuning
from gamesearch.engines.chess.evaluation import evaluate
from gamesearch.engines.chess.tuning import (
    FUTILITY_BASE,
    FUTILITY_STEP,
    LMP_BASE,
    LMR_BASE,
    LMR_DIVISOR,
    NULL_BASE,
    NULL_DIVISOR,
    RFP_MARGIN,
)
from gamesearch.games.chess import bitboards
from gamesearch.games.chess import board as B
from gamesearch.games.chess import legal as L
from gamesearch.games.chess import tables_index as TI
from gamesearch.tables import store, sweep
from gamesearch.tables.store import packed_value
from gamesearch.tables.sweep import NO_POSITION_DISTANCE

MATE = 30000
INF = 32000
MAX_DEPTH = 64
NODES, STOP, DEADLINE, ROOT_MOVE, NODE_LIMIT, SELDEPTH, FLAGS, ROOT_DEPTH = range(8)
NO_SINGULAR = 1
"""A bit of ``info[FLAGS]``: no singular extensions (the baseline they are measured against)."""
EXCLUDED = 2
"""The column of ``killers`` (int64[MAX_PLY, 3]) that holds the move a singular extension's
verification search leaves out at that ply (0: none)."""
SINGULAR_DEPTH = 7
"""The least depth at which a table move is tested for a singular extension."""
SINGULAR_MARGIN = 3
"""The verification search's window lies ``SINGULAR_MARGIN * depth`` below the table's score."""
EXACT, LOWER, UPPER = 1, 2, 3
TB_WIN, TB_LOSS = 1, 2  # the tables' values (tables/sweep.py), for the side to move
VICTIM = np.array([0, 100, 300, 300, 500, 900, 0, 0], np.int64)
DELTA = 200
"""Delta pruning: quiescence skips a capture that cannot lift the stand-pat value plus the
victim's value plus this margin to alpha."""
COUNTER = 16
"""The first counter-move row of ``history``."""
HISTORY_MAX = 16384
"""The bound of a history score (the gravity formula keeps it within +-HISTORY_MAX)."""
HISTORY_BONUS_MAX = 1600
"""The largest history bonus or malus of one cut-off (``16 * depth * depth`` below it)."""


def now_us():
    """time.perf_counter() in whole microseconds, read from compiled code."""
    with objmode(t="int64"):
        t = int(time.perf_counter() * 1e6)
    return t


def _out_of_budget(info):
    return (info[DEADLINE] > 0 and now_us() >= info[DEADLINE]) or \
        (info[NODE_LIMIT] > 0 and info[NODES] >= info[NODE_LIMIT])


def _tt_store(tt_key, tt_data, h, move, score, depth, flag, ply):
    if score > MATE - 1000:
        score += ply
    elif score < -MATE + 1000:
        score -= ply
    i = h & (tt_key.shape[0] - 1)
    data = move | ((score + 32768) << 20) | (max(depth, 0) << 36) | (flag << 44)
    tt_key[i] = h ^ data  # lockless (see the module's docstring): read back as key ^ data
    tt_data[i] = data


def _score_moves(board, moves, n, scores, tt_move, killers, history, ply, counter):
    for i in range(n):
        m = moves[i]
        to = (m >> 7) & 127
        victim = board[to] & 7
        promo = (m >> 14) & 7
        if m == tt_move:
            scores[i] = 1 << 40
        elif victim != 0 or promo != 0 or (m >> 18) & B.EP:
            attacker = board[m & 127] & 7
            scores[i] = (1 << 30) + 16 * (VICTIM[victim] + VICTIM[promo]) - attacker
            if (m >> 18) & B.EP:
                scores[i] = (1 << 30) + 16 * 100 - 1
        elif m == killers[ply, 0]:
            scores[i] = 1 << 29
        elif m == killers[ply, 1]:
            scores[i] = (1 << 29) - 1
        elif m == counter:
            scores[i] = (1 << 29) - 2
        else:
            scores[i] = history[board[m & 127], to]


def _history_update(history, piece, to, bonus):
    """Move one history score toward +-HISTORY_MAX by ``bonus`` (gravity: the nearer the
    bound, the smaller the step), so no score outgrows the others or the killers."""
    h = history[piece, to]
    history[piece, to] = h + bonus - h * abs(bonus) // HISTORY_MAX


def _pick(moves, scores, start, n):
    best = start
    for j in range(start + 1, n):
        if scores[j] > scores[best]:
            best = j
    if best != start:
        moves[start], moves[best] = moves[best], moves[start]
        scores[start], scores[best] = scores[best], scores[start]
    return moves[start]


def _repeated(st, keys):
    ply = st[B.PLY]
    h = st[B.HASH]
    lo = max(0, ply - st[B.HALFMOVE])
    i = ply - 2
    while i >= lo:
        if keys[i] == h:
            return True
        i -= 2
    return False


def _has_pieces(board, side):
    for i in range(64):
        p = board[B.SQ88[i]]
        if p != 0 and (p >> 3) == side and (p & 7) not in (B.PAWN, B.KING):
            return True
    return False


def _probe(board, side, ep, tb):
    """``4 * distance + value`` of a position the tables hold, -1 where they do not: the
    slot as the tables' own index finds it (``tables_index.locate``)."""
    packed, dist, sig_to_slice, base = tb[0], tb[1], tb[2], tb[3]  # the NNUE's follow
    j = TI.locate((sig_to_slice, base), TI.position_key(board, side, ep))
    if j < 0:
        return -1
    d = dist[j]
    if d == NO_POSITION_DISTANCE:
        return -1
    return 4 * d + packed_value(packed, j)


def no_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The ``tb`` argument of a search without endgame tables."""
    return (np.zeros(0, np.uint8), np.zeros(0, np.uint8), np.full(256, -1, np.int64),
            np.zeros(1, np.int64))


@njit(inline="always")  # numba inlines it into the search (no cache of its own: the
# search's tag covers it and what it calls, tests/test_numba_cache_keys.py)
def static_value(board, st, undo, tb):
    """The static evaluation the search reads: the hand-written one (``evaluation.py``).
    The NNUE search (``nnue/search.py``) is this search compiled with the network's
    ``static_value`` bound in its place (its state rides in ``tb`` after the tables)."""
    return evaluate(board, st)


def search(board, st, undo, keys, moves, scores, depth, alpha, beta, ply, null_ok,
           tt_key, tt_data, killers, history, pv, pv_len, info, tb):
    """Negamax value of the position for the side to move, within (alpha, beta); ``tb``
    the endgame tables (``no_tables()`` or ``Tables.search_arrays()``), probed below the
    root, and in the NNUE search the thread's network state after them (``tb[4]``)."""
    info[NODES] += 1
    pv_len[ply] = 0
    yes = ply >= 0  # typed booleans: literal True/False in a recursive call crash numba's
    no = ply < 0    # cache on reload (numba #6713, docs/KERNELS.md)
    if (info[NODES] & 1023) == 0 and _out_of_budget(info):
        info[STOP] = 1
    if info[STOP] != 0:
        return 0
    if ply > info[SELDEPTH]:
        info[SELDEPTH] = ply
    us = st[B.SIDE]
    checked = B.in_check(board, st, us)
    if ply >= MAX_DEPTH * 2 or st[B.PLY] >= B.MAX_PLY - 2:
        return static_value(board, st, undo, tb)
    if ply > 0:
        if st[B.HALFMOVE] >= 100 or _repeated(st, keys) or B.insufficient_material(board):
            return 0
        alpha = max(alpha, -MATE + ply)
        beta = min(beta, MATE - ply - 1)
        if alpha >= beta:
            return alpha
        if tb[0].shape[0] > 0 and st[B.CASTLING] == 0:
            known = _probe(board, us, st[B.EPSQ], tb)
            if known >= 0:  # exact: a mate in the tables' distance from here, or a draw
                d = known >> 2
                v = known & 3
                if v == TB_WIN:
                    return MATE - ply - d
                if v == TB_LOSS:
                    return -(MATE - ply - d)
                return 0
    if checked and depth <= 0:
        depth = 1 if depth < 0 else depth + 1
    elif checked:
        depth += 1
    row = moves[ply]
    srow = scores[ply]

    if depth <= 0:  # quiescence: stand pat, then captures and promotions
        stand = static_value(board, st, undo, tb)
        if stand >= beta:
            return stand
        if stand > alpha:
            alpha = stand
        n = B.generate(board, st, row, True)
        _score_moves(board, row, n, srow, 0, killers, history, ply, 0)
        best = stand
        for i in range(n):
            m = _pick(row, srow, i, n)
            if (m >> 14) & 7 == 0 and alpha < MATE - 1000 and \
                    stand + VICTIM[board[(m >> 7) & 127] & 7] + DELTA <= alpha \
                    and not (m >> 18) & B.EP:
                continue  # delta pruning: even winning the piece leaves us below alpha
            B.make(board, st, undo, m)
            if B.in_check(board, st, us):
                B.unmake(board, st, undo)
                continue
            score = -search(board, st, undo, keys, moves, scores, depth - 1, -beta, -alpha,
                            ply + 1, no, tt_key, tt_data, killers, history, pv, pv_len,
                            info, tb)
            B.unmake(board, st, undo)
            if info[STOP] != 0:
                return 0
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        return best

    h = st[B.HASH]
    slot = h & (tt_key.shape[0] - 1)
    tt_move = 0
    tscore = 0
    tdepth = 0
    tflag = 0
    pv_node = beta - alpha > 1
    excluded = killers[ply, EXCLUDED]  # a singular extension's verification search
    d = tt_data[slot]
    if (tt_key[slot] ^ d) == h:
        tt_move = d & ((1 << 20) - 1)
        tscore = ((d >> 20) & 0xFFFF) - 32768
        tdepth = (d >> 36) & 0xFF
        tflag = (d >> 44) & 3
        if tscore > MATE - 1000:
            tscore -= ply
        elif tscore < -MATE + 1000:
            tscore += ply
        if ply > 0 and not pv_node and excluded == 0 and tdepth >= depth and (
                tflag == EXACT or (tflag == LOWER and tscore >= beta)
                or (tflag == UPPER and tscore <= alpha)):
            return tscore

    static = -INF if checked or pv_node else static_value(board, st, undo, tb)  # non-PV only
    if not pv_node and not checked and ply > 0 and depth <= 6 and abs(beta) < MATE - 1000 \
            and static - info[RFP_MARGIN] * depth >= beta:
        return static  # reverse futility: too far above beta to fall below it so soon

    if null_ok and not pv_node and not checked and excluded == 0 and depth >= 3 \
            and _has_pieces(board, us) and static >= beta:
        r = info[NULL_BASE] + depth // info[NULL_DIVISOR]
        keys[st[B.PLY]] = h
        B.make_null(board, st, undo)
        score = -search(board, st, undo, keys, moves, scores, depth - 1 - r, -beta, -beta + 1,
                        ply + 1, no, tt_key, tt_data, killers, history, pv, pv_len, info, tb)
        B.unmake_null(board, st, undo)
        if info[STOP] != 0:
            return 0
        if score >= beta:
            return beta if score >= MATE - 1000 else score

    singular = False  # the table move is the only good one: search it a ply deeper
    if ply > 0 and excluded == 0 and tt_move != 0 and depth >= SINGULAR_DEPTH \
            and (info[FLAGS] & NO_SINGULAR) == 0 and ply < 2 * info[ROOT_DEPTH] \
            and tdepth >= depth - 3 and tflag != UPPER \
            and abs(tscore) < MATE - 1000:
        sbeta = tscore - SINGULAR_MARGIN * depth
        killers[ply, EXCLUDED] = tt_move
        score = search(board, st, undo, keys, moves, scores, (depth - 1) // 2, sbeta - 1,
                       sbeta, ply, no, tt_key, tt_data, killers, history, pv, pv_len, info, tb)
        killers[ply, EXCLUDED] = 0
        pv_len[ply] = 0  # what the verification search left is not this node's line
        if info[STOP] != 0:
            return 0
        singular = score < sbeta
        if not singular and sbeta >= beta:
            return sbeta  # multi-cut: another move beats beta too (the table's bound holds)

    n = B.generate(board, st, row, False)
    counter = 0
    prev_to = 0
    prev = undo[st[B.PLY] - 1, 0] if st[B.PLY] > 0 else 0
    if prev != 0:  # the previous move (0: none, or a null move): its counter-move
        prev_to = (prev >> 7) & 127
        counter = history[COUNTER + board[prev_to], prev_to]
    _score_moves(board, row, n, srow, tt_move, killers, history, ply, counter)
    alpha0 = alpha
    best = -INF
    best_move = 0
    legal = 0
    keys[st[B.PLY]] = h
    # quiet moves late in the list, or hopeless ones, are not searched near the leaves
    # (futility pruning and late-move pruning); never in check, at PV nodes, or in a
    # window of mate scores (a quiet move may be the shortest mate)
    prune = not pv_node and not checked and depth <= 4 and abs(alpha) < MATE - 1000
    futile = prune and depth <= 3 and \
        static + info[FUTILITY_BASE] + info[FUTILITY_STEP] * depth <= alpha
    late = info[LMP_BASE] + depth * depth
    for i in range(n):
        m = _pick(row, srow, i, n)
        quiet = board[(m >> 7) & 127] == 0 and (m >> 14) & 7 == 0 and not (m >> 18) & B.EP
        srow[i] = 0  # from here on: 1 for a quiet move searched (the malus's list), else 0
        if m == excluded:
            continue
        B.make(board, st, undo, m)
        if B.in_check(board, st, us):
            B.unmake(board, st, undo)
            continue
        legal += 1
        gives_check = False
        skip = prune and (futile or legal > late)
        if quiet and legal > 1 and (skip or (depth >= 3 and legal > 3)):  # else unread
            gives_check = B.in_check(board, st, us ^ 1)
            if skip and not gives_check:
                B.unmake(board, st, undo)
                continue
        if legal == 1:
            extend = 1 if singular and m == tt_move else 0
            score = -search(board, st, undo, keys, moves, scores, depth - 1 + extend, -beta,
                            -alpha, ply + 1, yes, tt_key, tt_data, killers, history, pv,
                            pv_len, info, tb)
        else:
            r = 0
            if depth >= 3 and legal > 3 and quiet and not checked and not gives_check:
                if info[LMR_DIVISOR] == 0:
                    r = 1 + (legal > 8) + depth // 8
                else:
                    r = int(info[LMR_BASE] / 100.0 + np.log(depth) * np.log(legal) * 100.0
                            / info[LMR_DIVISOR])
                if pv_node:
                    r -= 1
                r = max(r, 0)
            score = -search(board, st, undo, keys, moves, scores, depth - 1 - r, -alpha - 1,
                            -alpha, ply + 1, yes, tt_key, tt_data, killers, history, pv,
                            pv_len, info, tb)
            if score > alpha and r > 0:
                score = -search(board, st, undo, keys, moves, scores, depth - 1, -alpha - 1,
                                -alpha, ply + 1, yes, tt_key, tt_data, killers, history, pv,
                                pv_len, info, tb)
            if alpha < score < beta:
                score = -search(board, st, undo, keys, moves, scores, depth - 1, -beta,
                                -alpha, ply + 1, yes, tt_key, tt_data, killers, history, pv,
                                pv_len, info, tb)
        B.unmake(board, st, undo)
        if info[STOP] != 0:
            return 0
        if quiet:
            srow[i] = 1
        if score > best:
            best = score
            best_move = m
            if score > alpha:
                alpha = score
                pv[ply, 0] = m
                for j in range(pv_len[ply + 1]):
                    pv[ply, j + 1] = pv[ply + 1, j]
                pv_len[ply] = pv_len[ply + 1] + 1
                if ply == 0:
                    info[ROOT_MOVE] = m
                if score >= beta:
                    if quiet:
                        if killers[ply, 0] != m:
                            killers[ply, 1] = killers[ply, 0]
                            killers[ply, 0] = m
                        bonus = min(16 * depth * depth, HISTORY_BONUS_MAX)
                        _history_update(history, board[m & 127], (m >> 7) & 127, bonus)
                        for j in range(i):  # the quiet moves that failed before it
                            if srow[j] == 1:
                                q = row[j]
                                _history_update(history, board[q & 127], (q >> 7) & 127,
                                                -bonus)
                        if prev != 0:
                            history[COUNTER + board[prev_to], prev_to] = m
                    break
    if excluded != 0:  # a verification search: no table entry (it is not the node's value)
        return alpha if legal == 0 else best
    if legal == 0:
        return -MATE + ply if checked else 0
    flag = UPPER if best <= alpha0 else (LOWER if best >= beta else EXACT)
    _tt_store(tt_key, tt_data, h, best_move, best, depth, flag, ply)
    return best


TEMPLATES = (now_us, _out_of_budget, _tt_store, _score_moves, _history_update, _pick,
             _repeated, _has_pieces, packed_value, _probe, search)
"""The functions compiled together (by ``kernels.specialize``), calls between them included."""
COMPILED_IN = (evaluation, tuning, B, bitboards, L, TI, store, sweep)
"""The other modules whose compiled code and constants the search holds: numba keys a cached
function on its own file only, so their sources are part of the search's cache tag (a pull
that changed the evaluation recompiles the search; nothing is pinned by hand)."""


def search_tag(sources: dict[str, str] | None = None) -> str:
    """The cache tag of the compiled search: a hash of its templates and of every module in
    :data:`COMPILED_IN` (``sources`` replaces a module's text by its name, to ask what the tag
    would be after an edit, as the tuner's test does)."""
    from gamesearch.kernels.specialize import source_tag

    texts = sources or {}
    return "chess_search_" + source_tag(*TEMPLATES, static_value.py_func, *(
        (m.__name__, texts[m.__name__]) if m.__name__ in texts else m for m in COMPILED_IN))


def _compiled():
    from gamesearch.kernels.specialize import specialize

    return specialize(TEMPLATES, {}, search_tag(), nogil=("search",))  # Lazy SMP threads


_kernel = _compiled()
search = _kernel.search  # noqa: F811  (the compiled search replaces its template by name)
