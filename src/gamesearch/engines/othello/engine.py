"""Othello's midgame engine and agents: compiled iterative-deepening PVS with a table, over
a linear evaluation of pattern features whose weights are learned (engines/othello/train.py)
or hand-written (disc count + mobility + corners), and the exact solver near the end.

The evaluation is Logistello's shape on a small scale: features of the position for the
side to move (disc balance on each of the ten symmetry classes of squares, so corners,
C- and X-squares, edges and diagonals each get their own weight; mobility; potential
mobility; X-squares beside an empty corner; edge-stable discs; parity; a bias), one weight
vector per game stage (by empty squares), the value predicting the final disc difference.
The hand-written evaluation is the same engine with weights typed in; only the weights
differ between the two, so a match between them measures the learning.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from gamesearch.agents import Agent
from gamesearch.anytime import Budget, Pace, Stop, StopWatcher, Target, as_callable, deepen
from gamesearch.engines.othello import solver as S
from gamesearch.engines.othello.scale import VALUE_SCALE
from gamesearch.games.othello import kernel as K
from gamesearch.games.othello.kernel import ONE, ZERO, flips_of, moves_of, popcount64
from gamesearch.kernels.negamax import now_us
from gamesearch.result import Limit, SearchResult, SearchStats
from gamesearch.shipped import shipped

N_FEATURES = 16
NODES, BEST, DEADLINE, NODE_LIMIT, STOP = range(5)
N_STATS = 5
"""The compiled search's ``stats``: nodes so far, the root's best move, the deadline
(``time.perf_counter()`` in microseconds, 0: none), the node limit (0: none), and the stop
flag (set by the search when either is passed, or from outside to stop it)."""
CLOCK_EVERY = 1024
"""Nodes between two readings of the clock (a reading costs about 2 us in numba's object
mode; a node here about 0.1 us)."""
N_STAGES = 4
WEIGHTS_FILE = shipped("othello", "weights.npz")

# the ten symmetry classes of the 8x8 squares (a1 corner, b1 C, c1, d1, b2 X, c2, d2, c3,
# d3, d4), folded over the board's eight symmetries
_CLASS = np.zeros(64, np.int64)
for _r in range(8):
    for _c in range(8):
        _a, _b = min(_r, 7 - _r), min(_c, 7 - _c)
        _a, _b = min(_a, _b), max(_a, _b)
        _CLASS[_r * 8 + _c] = {(0, 0): 0, (0, 1): 1, (0, 2): 2, (0, 3): 3, (1, 1): 4, (1, 2): 5,
                               (1, 3): 6, (2, 2): 7, (2, 3): 8, (3, 3): 9}[(_a, _b)]
CLASS_MASKS = np.array([sum(1 << int(i) for i in np.flatnonzero(k == _CLASS))
                        for k in range(10)], np.uint64)
X_SQUARES = np.array([1 << 9, 1 << 14, 1 << 49, 1 << 54], np.uint64)
X_CORNERS = np.array([1 << 0, 1 << 7, 1 << 56, 1 << 63], np.uint64)

HAND_WEIGHTS = np.zeros((N_STAGES, N_FEATURES))
HAND_WEIGHTS[:, 0:10] = 1.0  # the disc count
HAND_WEIGHTS[:, 0] += 25.0  # corners
HAND_WEIGHTS[:, 10] = 5.0  # mobility
"""Disc count + mobility + corners, typed in (the issue's hand-written evaluation)."""


def neighbours(x):
    """The squares next to any square of ``x``."""
    n = ZERO
    for d in range(8):
        n |= shift(x, d)  # noqa: F821  (bound by specialize)
    return n


def features(me, opp, out):
    """Write the features of the position, for the side to move, into ``out``."""
    for k in range(10):
        out[k] = popcount64(me & CLASS_MASKS[k]) - popcount64(opp & CLASS_MASKS[k])  # noqa: F821
    out[10] = popcount64(moves_of(me, opp)) - popcount64(moves_of(opp, me))
    empty = ~(me | opp) & VALID  # noqa: F821
    out[11] = popcount64(neighbours(opp) & empty) - popcount64(neighbours(me) & empty)
    x = 0
    for i in range(4):
        if empty & X_CORNERS[i]:  # noqa: F821
            if me & X_SQUARES[i]:  # noqa: F821
                x -= 1
            elif opp & X_SQUARES[i]:  # noqa: F821
                x += 1
    out[12] = x
    out[13] = popcount64(stable_discs(me, opp)) - popcount64(stable_discs(opp, me))  # noqa: F821
    out[14] = 1.0 if popcount64(empty) & 1 else -1.0
    out[15] = 1.0


def stage_of(empties):
    """The game stage (0-3) of a position with ``empties`` empty squares."""
    return min(3, (60 - empties) // 15)


def evaluate_with(me, opp, weights, scratch):
    """The learned (or typed) value of the position for the side to move, in discs."""
    features(me, opp, scratch)
    st = stage_of(popcount64(~(me | opp) & VALID))  # noqa: F821
    v = 0.0
    for k in range(16):
        v += weights[st, k] * scratch[k]
    return v


def search(me, opp, depth, alpha, beta, passed, ply, weights, tkey, tinfo, buf, keys, fbuf,
           scratch, stats):
    """Fail-soft PVS to ``depth`` plies with a table; values in discs for ``me``. Every
    ``CLOCK_EVERY`` nodes it reads the clock against ``stats[DEADLINE]`` and the count
    against ``stats[NODE_LIMIT]``; once either is passed (or ``stats[STOP]`` is set from
    outside) it sets ``stats[STOP]`` and unwinds at once, storing nothing for the nodes it
    leaves: the iteration's value is void."""
    stats[NODES] += 1
    if (stats[NODES] & (CLOCK_EVERY - 1)) == 0 and (  # noqa: F821  (bound by specialize)
            (stats[DEADLINE] > 0 and now_us() >= stats[DEADLINE])  # noqa: F821
            or (stats[NODE_LIMIT] > 0 and stats[NODES] >= stats[NODE_LIMIT])):
        stats[STOP] = 1
    if stats[STOP]:
        return 0.0
    moves = moves_of(me, opp)
    if moves == ZERO:
        if passed or moves_of(opp, me) == ZERO:
            return 1000.0 * disc_margin(me, opp)  # noqa: F821  (a finished game: exact)
        return -search(opp, me, depth, -beta, -alpha, ONE_I, ply + 1, weights, tkey,  # noqa: F821
                       tinfo, buf, keys, fbuf, scratch, stats)
    if depth <= 0:
        return evaluate_with(me, opp, weights, scratch)
    h = me * np.uint64(0x9E3779B97F4A7C15) ^ opp * np.uint64(0xC2B2AE3D27D4EB4F)
    slot = np.int64((h ^ (h >> np.uint64(29))) & np.uint64(len(tkey) - 1))
    table_move = -1
    hit = tkey[slot, 0] == me and tkey[slot, 1] == opp
    if hit:
        table_move = np.int64(tinfo[slot, 3])
        if ply > 0 and tinfo[slot, 2] >= depth:
            lo, hi = tinfo[slot, 0], tinfo[slot, 1]
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
    n = 0
    rest = moves
    while rest:
        low = rest & (~rest + ONE)
        rest ^= low
        sq = popcount64(low - ONE)
        f = flips_of(me, opp, sq)
        k = 0
        if depth > 2:
            k = popcount64(moves_of(opp ^ f, me | f | low)) * 16
        if low & CORNERS:  # noqa: F821
            k -= 64
        if sq == table_move:
            k = -10000
        j = n
        while j > 0 and keys[ply, j - 1] > k:
            buf[ply, j] = buf[ply, j - 1]
            keys[ply, j] = keys[ply, j - 1]
            fbuf[ply, j] = fbuf[ply, j - 1]
            j -= 1
        buf[ply, j] = sq
        keys[ply, j] = k
        fbuf[ply, j] = f
        n += 1
    best = -1e9
    best_move = buf[ply, 0]
    a = alpha
    for i in range(n):
        sq = buf[ply, i]
        f = fbuf[ply, i]
        cm, co = opp ^ f, me | f | (ONE << np.uint64(sq))
        if i == 0:
            v = -search(cm, co, depth - 1, -beta, -a, ZERO_I, ply + 1, weights, tkey,  # noqa: F821
                        tinfo, buf, keys, fbuf, scratch, stats)
        else:
            v = -search(cm, co, depth - 1, -a - 0.01, -a, ZERO_I, ply + 1, weights,  # noqa: F821
                        tkey, tinfo, buf, keys, fbuf, scratch, stats)
            if a < v < beta:
                v = -search(cm, co, depth - 1, -beta, -v, ZERO_I, ply + 1, weights,  # noqa: F821
                            tkey, tinfo, buf, keys, fbuf, scratch, stats)
        if stats[STOP]:
            return 0.0  # cut short below: no value, nothing stored
        if v > best:
            best = v
            best_move = sq
            if v > a:
                a = v
                if a >= beta:
                    break
    lo, hi = -1e9, 1e9
    if best <= alpha:
        hi = best
    elif best >= beta:
        lo = best
    else:
        lo = hi = best
    tkey[slot, 0], tkey[slot, 1] = me, opp
    tinfo[slot, 0], tinfo[slot, 1], tinfo[slot, 2], tinfo[slot, 3] = lo, hi, depth, best_move
    if ply == 0:
        stats[BEST] = best_move
    return best


TEMPLATES = (*K.TEMPLATES, S.edge_lines, S.grow_stable, S.stable_discs, neighbours, features,
             stage_of, evaluate_with, now_us, search)


def _bindings() -> dict:
    """The search's constants."""
    return {"VALID": K.valid_mask(8), "CORNERS": K.corner_mask(8),
            "CLASS_MASKS": CLASS_MASKS, "X_SQUARES": X_SQUARES, "X_CORNERS": X_CORNERS,
            "ONE_I": np.int64(1), "ZERO_I": np.int64(0), "NODES": NODES, "BEST": BEST,
            "DEADLINE": DEADLINE, "NODE_LIMIT": NODE_LIMIT, "STOP": STOP,
            "CLOCK_EVERY": CLOCK_EVERY}


@functools.cache
def compiled():
    """The engine compiled for 8x8 (cached on disk)."""
    from gamesearch.kernels.specialize import source_tag, specialize

    bindings = _bindings()
    # the search releases the GIL: a stop (a Timer, the web worker's watcher) is a Python
    # thread, which could otherwise run only between depths when no deadline makes the
    # search read the clock (the tag names it: a cache compiled with the GIL is not reused)
    return specialize(TEMPLATES, bindings, f"othello_engine_ng_{source_tag(*TEMPLATES)}",
                      nogil=("search",))


@functools.cache
def compiled_patterns():
    """The engine with the pattern evaluation (engines/othello/patterns.py) in place of the
    16 features: the same search, its ``evaluate_with`` the pattern tables' sum."""
    from gamesearch.engines.othello import patterns as P
    from gamesearch.kernels.specialize import source_tag, specialize

    templates = tuple(P.evaluate_with if t is evaluate_with else t for t in TEMPLATES) + (
        P.pattern_value,)
    bindings = {**_bindings(), **P.bindings()}
    tag = source_tag(*templates, ("patterns", repr(P.PATTERNS)))
    return specialize(templates, bindings, f"othello_engine_pat_{tag}", nogil=("search",))


def position_features(me: int, opp: int) -> np.ndarray:
    """The feature vector of a position (for training)."""
    out = np.zeros(N_FEATURES)
    compiled().features(np.uint64(me), np.uint64(opp), out)
    return out


def load_weights(path: Path | None = None) -> np.ndarray:
    """The shipped learned weights (stages x features)."""
    with np.load(path or WEIGHTS_FILE) as data:
        return np.array(data["weights"], dtype=np.float64)


PACE = Pace(growth=6.0)
"""The engine's pace on the shared anytime driver: the next depth costs 2-10 times the last
(odd and even depths differ), taken as 6 times or the last growth seen, if larger."""


class Engine:
    """Iterative deepening PVS from one position: the best move and its value in discs."""

    def __init__(self, weights: np.ndarray, log2_table: int = 18,
                 patterns: bool = False) -> None:
        # the pattern tables in float32: half the memory traffic of their random reads
        self.weights = np.ascontiguousarray(weights, dtype=np.float32 if patterns
                                            else np.float64)
        self.compiled = compiled_patterns if patterns else compiled
        """The compiled search: ``weights`` are the pattern tables (patterns.load) where
        ``patterns``, else the 16 features' stages x weights."""
        n = 1 << log2_table
        self.tkey = np.zeros((n, 2), np.uint64)
        self.tinfo = np.zeros((n, 4), np.float64)
        self.buf = np.zeros((80, 64), np.int64)
        self.keys = np.zeros((80, 64), np.int64)
        self.fbuf = np.zeros((80, 64), np.uint64)
        self.scratch = np.zeros(64)  # the features (16), or the patterns' indices (46)

    def search(self, me: int, opp: int, limit: Limit, stop: Stop | None = None,
               on_iteration: Callable[[SearchResult], bool | None] | None = None,
               soft: float | None = None) -> SearchResult:
        """Iterative deepening on the shared anytime driver within ``limit``: the deepest
        finished iteration, its action a kernel square, its value in discs for ``me``.
        :data:`PACE` starts no depth that the last one's growth says would not end in
        time; the compiled search reads the hard deadline and the node limit every
        :data:`CLOCK_EVERY` nodes and abandons an iteration that passes them, and a
        ``stop`` reaches it through a flag (from the second depth on: depth 1 always
        completes). ``soft``: no depth starts that :data:`PACE` predicts would end after
        it (by default ``limit.time``: a wall)."""
        ns = self.compiled()
        stats = np.zeros(N_STATS, np.int64)
        asked = as_callable(stop)

        def step(d: int, budget: Budget) -> SearchResult | None:
            stats[DEADLINE] = budget.deadline_us
            stats[NODE_LIMIT] = budget.nodes or 0
            if budget.stop is not None and watcher is not None:
                watcher.arm()
            value = ns.search(np.uint64(me), np.uint64(opp), np.int64(d), -1e9, 1e9,
                              np.int64(0), np.int64(0), self.weights, self.tkey, self.tinfo,
                              self.buf, self.keys, self.fbuf, self.scratch, stats)
            if stats[STOP]:
                return None
            move = int(stats[BEST])
            return SearchResult(float(value), move, [move],
                                SearchStats(nodes=int(stats[NODES]), depth=d))

        def on_stop() -> None:
            stats[STOP] = 1

        watcher = StopWatcher(asked, on_stop) if asked is not None else None
        if watcher is None:
            return deepen(step, limit, pace=PACE, soft=soft, on_iteration=on_iteration)
        with watcher:
            return deepen(step, limit, pace=PACE, soft=soft, stop=asked,
                          on_iteration=on_iteration)

    def best(self, me: int, opp: int, depth: int) -> tuple[int, float, int, int]:
        """``(kernel move, value, nodes, depth reached)`` after depths 1..``depth``."""
        found = self.search(me, opp, Limit(depth=depth))
        return found.action, found.value, found.stats.nodes, found.stats.depth


SOFT_SHARE = 2.0
"""Under ``target=T`` no depth starts that :data:`PACE` predicts would end after
``SOFT_SHARE * T``..."""
HARD_SHARE = 3.0
"""...and one still running at ``HARD_SHARE * T`` is cut: a tournament program's budget, a
target the moves spend about on average, not a wall (``time=T`` is the wall)."""
SOLVE_SECONDS = 0.1
"""The exact solver's median processor time at :data:`SOLVE_FROM` empties, on positions of
our games against GRhino (bench/othello_solve_times.py: 0.10 s at 18 empties, 0.20 s at 19,
on the loaded 2-core development machine, about 25 million nodes a second)..."""
SOLVE_FROM = 18
SOLVE_GROWTH = 2.2
"""...and how many times longer each further empty square makes it (measured 1.9-2.4)."""
SOLVE_SHARE = 0.4
"""Under ``target=T`` an early solve is tried where its predicted (median) time is at most
this share of the hard cap (the slowest positions take 3-4 times the median), with the
hard cap as its deadline less room for a midgame search, should it not end."""
EARLY_MOST = 30
"""The most empty squares an early solve is tried at (the solver's own limit)."""


EVALUATIONS = ("learned", "hand", "patterns")
"""The agent's evaluations: the 16 features learned or typed in, or the pattern tables
(engines/othello/patterns.py, issue #41)."""


class OthelloAgent(Agent):
    """The Othello engine: ``depth`` plies of PVS with the pattern tables (the default:
    75.8% over 120 games against the 16 features at equal time, docs/BENCHMARKS.md) or the
    16 features learned or hand-written, then the exact solver at ``solve`` empties or fewer.

    ``time=T`` is a wall: a move never takes longer than T (the web page's clock relies on
    it), the exact solve at ``solve`` empties aside. ``target=T`` is a tournament budget
    (what a match with a time allowance gives it): a move spends about T, at most
    ``HARD_SHARE * T``, and the endgame is solved earlier than ``solve`` empties where the
    solver's predicted time fits (:func:`solve_seconds`): win/loss/draw first (a proven
    win or draw is played at once), abandoned at its deadline for a midgame search."""

    def __init__(self, depth: int | None = None, evaluation: str = "patterns", solve: int = 14,
                 time: float | None = None, target: float | None = None) -> None:
        from gamesearch.errors import SpecError

        if evaluation not in EVALUATIONS:
            raise SpecError("othello agent: evaluation is learned or hand (the 16 features) "
                            f"or patterns (the pattern tables), not {evaluation!r}")
        if time is not None and target is not None:
            raise SpecError("othello agent: give time=T (a wall) or target=T (a budget), "
                            "not both")
        # a time budget deepens as far as it allows (to 60 plies); without one, depth 4
        timed = time is not None or target is not None
        depth = depth if depth is not None else (60 if timed else 4)
        self.depth, self.evaluation, self.solve_at, self.time = depth, evaluation, solve, time
        self.target = target
        """The move's target in seconds (the GRhino bench sets it before each move)."""
        self.budget()  # a bad target is refused here, not at the first move
        self.spec = f"othello:depth={depth},evaluation={evaluation},solve={solve}" + (
            f",time={time:g}" if time is not None else "") + (
            f",target={target:g}" if target is not None else "")
        if evaluation == "patterns":
            from gamesearch.engines.othello import patterns

            # the solver's cached float32 tables where they load (one copy for both);
            # otherwise load() says in one line what is missing
            tables = S.ordering_tables(8)
            self.engine = Engine(patterns.load() if tables is S.NO_TABLES else tables,
                                 patterns=True)
        else:
            self.engine = Engine(load_weights() if evaluation == "learned" else HAND_WEIGHTS)
        self.unsolved_at: int | None = None
        """The empties of the last early solve that did not end in time (none is tried
        again at as many empties or more in the same game)."""

    def budget(self) -> Target | None:
        """The move's budget under ``target`` (None: none): :data:`SOFT_SHARE` and
        :data:`HARD_SHARE` of it, the hard limit at least a millisecond (an early solve may
        have spent it all)."""
        if self.target is None:
            return None
        return Target(self.target, SOFT_SHARE, HARD_SHARE, floor=1e-3)

    def prepare(self, game: Any) -> None:
        """Load the compiled search (its first call took 0.2 s) and the solver's ordering
        tables (0.3-0.8 s) before any clock runs."""
        S.ordering_tables(8)
        self.engine.compiled()
        self.engine.best(0x810000000, 0x1008000000, 1)

    def __call__(self, game: Any, state: Any) -> SearchResult:
        if getattr(game, "size", 8) != 8:
            from gamesearch.errors import GameSearchError

            raise GameSearchError("the othello engine plays 8x8 only (its evaluation is "
                                  "fitted there); use alphabeta for other sizes")
        began = time.perf_counter()
        me, opp, _ = K.encode_state(state, 8)
        actions = game.actions(state)
        if actions == [-1]:
            return SearchResult(None, -1, [-1], SearchStats())
        empties = state[0].count("-")
        solved = empties <= self.solve_at
        why = "end"
        early = None if solved else self._solve_early(int(me), int(opp), empties, began)
        if solved:
            value, move, nodes = S.solve_position(int(me), int(opp))
            reached = empties  # to the end of the game
        elif early is not None:
            value, move, nodes = early
            reached = empties
        else:
            tell = self.on_progress
            show = None if tell is None else lambda r: tell(self._decoded(r, game, state))
            budget = self.budget()
            if budget is None:
                limit, soft = Limit(depth=self.depth, time=self.time), None
            else:
                limit, soft = budget.bounds(Limit(depth=self.depth), began)
            found = self.engine.search(int(me), int(opp), limit, on_iteration=show,
                                       soft=soft)
            move, value, nodes, reached = (found.action, found.value, found.stats.nodes,
                                           found.stats.depth)
            why = found.stopped_by
        action = K.decode_action(move, 8)
        stats = SearchStats()
        stats.nodes, stats.depth = nodes, reached
        stats.seconds = time.perf_counter() - began
        return SearchResult(value, action, [action], stats, pov=game.to_move(state),
                            exact=solved, stopped_by=why,
                            engine_score=engine_score(value, solved, game.to_move(state)))

    def _solve_early(self, me: int, opp: int, empties: int,
                     began: float) -> tuple[float, int, int] | None:
        """Under a ``target``: a win/loss/draw solve where the solver's predicted time fits
        the move's hard cap; ``(value, move, nodes)`` of a proven win (the value
        ``FINISHED`` times the proven least margin, as the search scores a won end) or
        draw, else None (lost, out of time, or not tried: the midgame search decides)."""
        if self.target is None or empties > EARLY_MOST:
            return None
        if self.unsolved_at is not None and empties > self.unsolved_at + 2:
            self.unsolved_at = None  # a new game
        if self.unsolved_at is not None and empties >= self.unsolved_at:
            return None
        hard = HARD_SHARE * self.target
        if solve_seconds(empties) > SOLVE_SHARE * hard:
            return None
        # the deadline leaves a third of the cap to the midgame search, should it be reached
        found = S.solve_by(me, opp, began + hard * 2 / 3, alpha=-1, beta=1)
        if found is None:
            self.unsolved_at = empties
            return None
        score, move, nodes = found
        if score < 0:
            return None  # lost against perfect play: the search's move makes it hardest
        return FINISHED * score, move, nodes

    @staticmethod
    def _decoded(found: SearchResult, game: Any, state: Any) -> SearchResult:
        """An iteration's result with its kernel square as the rules' action."""
        action = K.decode_action(found.action, 8)
        return SearchResult(found.value, action, [action], found.stats,
                            pov=game.to_move(state),
                            engine_score=engine_score(found.value, False, game.to_move(state)))


GUESS_DEPTH = 10
"""The exact solve's first guess: the pattern search at this many plies (fewer below 20
empties: ``empties - 10``), 0.1-0.6 s on FFO #40-#59, its value 0-12 discs off the score
(mostly below it, where a guess costs least)."""


def first_guess(me: int, opp: int) -> int:
    """Where an exact solve's null-window probes start (:func:`solver.probe_driver`): the
    pattern search's value, rounded to an even margin (every exact score is even). On FFO
    #40-#44 it took the solve from 374 M nodes (probes from 0) to 306 M, the search
    included; 298 M from the true score. 0 where the tables are missing."""
    empties = 64 - (me | opp).bit_count()
    tables = S.ordering_tables(8)  # the solver's own copy, float32 as the engine's
    if empties < 14 or tables is S.NO_TABLES:
        return 0  # a solve of a few milliseconds: no search pays for itself
    engine = Engine(tables, log2_table=16, patterns=True)
    _, value, _, _ = engine.best(me, opp, min(GUESS_DEPTH, empties - 10))
    if abs(value) >= FINISHED:
        value /= FINISHED  # the search saw the game's end: a proven margin
    value = max(-64.0, min(64.0, value))
    return int(2 * round(value / 2))


def solve_seconds(empties: int) -> float:
    """The exact solver's predicted (median) seconds at ``empties`` empty squares."""
    return SOLVE_SECONDS * SOLVE_GROWTH ** (empties - SOLVE_FROM)


FINISHED = 1000.0
"""The search scores a finished game ``FINISHED * disc margin`` (``search`` above), so that
any end outranks any evaluation."""


def engine_score(value: float, solved: bool, pov: int) -> Any:
    """The engine's value as a Score in discs: a solved position's margin is exact; a search
    value of ``FINISHED`` or more proves the game's end (a win by at least that margin)."""
    if solved or abs(value) < FINISHED:
        return VALUE_SCALE.score(value, pov, solved)
    return VALUE_SCALE.score(round(value / FINISHED), pov, True)
