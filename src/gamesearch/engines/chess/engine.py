"""The chess engine (iterative deepening, aspiration windows, time management) and its agent.

The compiled search is ``chess_search.search``; this module drives it: one iteration per
depth, each first searched in a window of +-35 centipawns around the previous score
(widened on failure), until the depth limit, the node limit or the time budget. Under a
clock, a move gets ``time_left / moves_to_go + 3/4 increment`` (moves to go: 30 when the
clock does not say); no new iteration starts after 60% of it, and the search stops at
three times it (never more than a third of the time left). ``stop()`` from another thread
ends the search at once (the compiled code reads the flag every 1,024 nodes; it releases
the GIL).

Threads (``set_threads``, UCI's ``Threads``): Lazy SMP. The compiled search is
``nogil``, so ``threads - 1`` helper *Python threads* each run it truly in parallel with
the caller's thread, all on the same root and the same transposition table (one numpy
array pair; lockless, see ``chess_search``): no processes, no shared memory, no pickling,
and no second compiled function. Each worker (the main one is the caller's thread) has its
own board copy, move stacks, killers, history and ``info`` array (nodes, stop flag,
deadline); the helpers run iterative deepening without time management, skipping depths by
Stockfish 10's pattern (helper ``k`` skips depth ``d`` when ``(d + phase) // size`` is
odd, ``size``/``phase`` from ``SKIP_SIZE``/``SKIP_PHASE``), so the workers search different
depths at once, and their differing killers and history reorder moves too: what one finds
reaches the others through the table. The main worker alone keeps the clock, the depth and
node limits, the ``info`` reports and the result: the move played is the main worker's
(its last finished iteration, which the helpers' table entries made cheaper or deeper).
When it ends, for any reason, it raises every helper's stop flag and joins them, so no
helper outlives ``go``; ``stop()`` raises all the flags at once. Reported nodes are all
workers' together. A node limit counts the main worker's nodes only.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import chess
import numpy as np

from gamesearch.agent import Agent
from gamesearch.engines.chess.scale import VALUE_SCALE
from gamesearch.games.chess import board as B
from gamesearch.games.chess.kernel import arrays_of, uci_of
from gamesearch.result import SearchResult, SearchStats

MATE = 30000
ENTRY_BYTES = 16
MAX_THREADS = 64
"""The most search threads ``set_threads`` (UCI ``Threads``) accepts."""
SKIP_SIZE = (1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4)
SKIP_PHASE = (0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7)
"""Lazy SMP's depth skipping for helper threads (Stockfish 10, ``search.cpp``)."""


class _Worker:
    """One searcher's own move-ordering statistics and ``info`` array (chess_search)."""

    def __init__(self) -> None:
        self.info = np.zeros(8, np.int64)
        self.killers = np.zeros((B.MAX_PLY, 2), np.int64)
        self.hist = np.zeros((16, 128), np.int64)


def skips(helper: int, depth: int) -> bool:
    """True where helper thread ``helper`` (1, 2, ...) does not search ``depth``."""
    i = (helper - 1) % len(SKIP_SIZE)
    return ((depth + SKIP_PHASE[i]) // SKIP_SIZE[i]) % 2 == 1


@dataclass
class Limits:
    """What bounds one search (all optional; none at all means depth 64, i.e. infinite)."""

    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None          # seconds
    time_left: float | None = None         # seconds on the mover's clock
    increment: float = 0.0
    movestogo: int | None = None
    infinite: bool = False


@dataclass
class Report:
    """One finished iteration: what UCI's ``info`` line says."""

    depth: int
    seldepth: int
    score: int
    nodes: int
    seconds: float
    pv: list[str] = field(default_factory=list)

    @property
    def mate(self) -> int | None:
        """Moves to mate (negative: we are mated), or None."""
        if abs(self.score) < MATE - 1000:
            return None
        plies = MATE - abs(self.score)
        return (plies + 1) // 2 if self.score > 0 else -((plies + 1) // 2)


def budget(limits: Limits) -> tuple[float | None, float | None]:
    """(soft, hard) seconds for one move: no new iteration after soft, stop at hard."""
    if limits.infinite:
        return None, None
    if limits.movetime is not None:
        return limits.movetime, limits.movetime
    if limits.time_left is None:
        return None, None
    left = max(0.0, limits.time_left - 0.05)
    togo = limits.movestogo if limits.movestogo else 30
    share = left / max(1, togo) + 0.75 * limits.increment
    hard = min(3 * share, left / 3 if togo > 1 else left * 0.8)
    share = min(share, hard)
    return 0.6 * share, max(hard, 0.01)


class ChessEngine:
    """A searcher with its own table; ``position`` then ``go``."""

    def __init__(self, hash_mb: int = 64, threads: int = 1) -> None:
        self.info = np.zeros(8, np.int64)
        self.helpers: list[_Worker] = []
        self.set_threads(threads)
        self.set_hash(hash_mb)
        self.board = chess.Board()
        self.history: list[int] = []
        self.set_tables(None)

    def set_tables(self, folder: str | None) -> None:
        """Probe the endgame tables in ``folder`` (``tables build chess``) before searching:
        a position they hold is played perfectly, the quickest mate or the longest defence
        (None: no tables)."""
        from gamesearch.engines.chess.search import no_tables
        from gamesearch.engines.chess.tables import Tables

        self.tables = Tables(folder) if folder else None
        self.tb = self.tables.search_arrays() if self.tables else no_tables()

    def _from_tables(self) -> tuple[str, Report] | None:
        """The tables' move and its report (score: mate in the tables' distance)."""
        if self.tables is None:
            return None
        found = self.tables.probe_board(self.board)
        move = self.tables.best_move(self.board) if found is not None else None
        if move is None:
            return None
        value, plies = found
        score = 0 if value == 3 else (MATE - plies if value == 1 else -(MATE - plies))
        return move.uci(), Report(plies, plies, score, 0, 0.0, [move.uci()])

    def set_hash(self, megabytes: int) -> None:
        """A transposition table of the largest power of two entries within ``megabytes``."""
        entries = max(1024, 1 << int(np.log2(max(1, megabytes) * 2**20 // ENTRY_BYTES)))
        # np.zeros maps zeroed pages lazily: a new engine costs no time until it searches
        # (writing zeros over them here took 0.1 s of a web move's 1 s budget).
        self.tt_key = np.zeros(entries, np.int64)
        self.tt_data = np.zeros(entries, np.int64)
        self.killers = np.zeros((B.MAX_PLY, 2), np.int64)
        self.hist = np.zeros((16, 128), np.int64)

    def set_threads(self, threads: int) -> None:
        """Search with ``threads`` threads (1..MAX_THREADS): the caller's and helpers."""
        if not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"threads must be 1..{MAX_THREADS}, got {threads}")
        kept = self.helpers[:threads - 1]
        self.helpers = kept + [_Worker() for _ in range(threads - 1 - len(kept))]

    @property
    def threads(self) -> int:
        """How many threads a search uses."""
        return 1 + len(self.helpers)

    @property
    def hash_mb(self) -> float:
        """The table's size in MiB."""
        return self.tt_key.shape[0] * ENTRY_BYTES / 2**20

    def new_game(self) -> None:
        """Forget the table and the move-ordering statistics."""
        self.tt_key[:] = 0
        self.tt_data[:] = 0
        self.killers = np.zeros((B.MAX_PLY, 2), np.int64)
        self.hist = np.zeros((16, 128), np.int64)
        self.helpers = [_Worker() for _ in self.helpers]

    def position(self, board: chess.Board) -> None:
        """Search from this board; its move stack gives the positions repetition looks at."""
        self.board = board.copy()
        replay = board.copy()
        keys: list[int] = []
        for _ in range(min(board.halfmove_clock, len(board.move_stack), 100)):
            replay.pop()
            b, st, _ = arrays_of(replay)
            keys.append(int(st[B.HASH]))
        self.history = keys[::-1]

    def warm_up(self) -> None:
        """Load (or compile, the first time: about 30 s) the compiled search."""
        if not getattr(self, "_warm", False):
            board = self.board
            self.position(chess.Board())
            # one thread compiles; and UCI's setoption Threads may come meanwhile
            self._go(Limits(depth=1), None, False, [])
            self.position(board)
            self._warm = True

    def stop(self) -> None:
        """End the running search as soon as possible (safe from another thread)."""
        self.info[1] = 1
        for helper in self.helpers:
            helper.info[1] = 1

    def arm(self) -> None:
        """Clear the stop flag (before starting a search thread: a ``stop`` that comes
        while the thread starts is then kept, not erased)."""
        self.info[1] = 0

    def _arrays(self) -> tuple[np.ndarray, ...]:
        """A worker's own board, state, undo stack, keys, move stacks and PV (chess_search)."""
        b, st, undo = arrays_of(self.board)
        keys = np.zeros(B.MAX_PLY, np.int64)
        keys[:len(self.history)] = self.history
        st[B.PLY] = len(self.history)
        moves = np.zeros((B.MAX_PLY, B.MAX_MOVES), np.int64)
        scores = np.zeros((B.MAX_PLY, B.MAX_MOVES), np.int64)
        pv = np.zeros((B.MAX_PLY, B.MAX_PLY), np.int64)
        pv_len = np.zeros(B.MAX_PLY, np.int64)
        return b, st, undo, keys, moves, scores, pv, pv_len

    def _iterate(self, arrays: tuple[np.ndarray, ...], killers: np.ndarray,
                 hist: np.ndarray, info: np.ndarray, depth: int, score: int) -> int:
        """One iteration at ``depth`` in an aspiration window around ``score``, widened
        until the value falls inside (or the stop flag is up: the value is then void)."""
        from gamesearch.engines.chess.search import INF, search

        b, st, undo, keys, moves, scores, pv, pv_len = arrays
        delta = 35
        alpha, beta = (score - delta, score + delta) if depth >= 4 else (-INF, INF)
        while True:
            info[3] = 0
            value = search(b, st, undo, keys, moves, scores, depth, alpha, beta, 0, False,
                           self.tt_key, self.tt_data, killers, hist, pv, pv_len, info, self.tb)
            if info[1]:
                return int(value)
            if value <= alpha:
                alpha, delta = max(-INF, value - delta), delta * 2
            elif value >= beta:
                beta, delta = min(INF, value + delta), delta * 2
            else:
                return int(value)

    def _help(self, k: int, worker: _Worker, arrays: tuple[np.ndarray, ...]) -> None:
        """Helper thread ``k``'s search: deepening until its stop flag is raised."""
        score = 0
        for depth in range(1, 65):
            if skips(k, depth):
                continue
            value = self._iterate(arrays, worker.killers, worker.hist, worker.info, depth,
                                  score)
            if worker.info[1]:
                return
            score = value

    def go(self, limits: Limits, on_iteration: Callable[[Report], None] | None = None,
           armed: bool = False) -> tuple[str | None, Report | None]:
        """Search the position; return the best move (UCI) and the last finished iteration
        (``armed``: the caller has called :meth:`arm`, a stop since then counts)."""
        return self._go(limits, on_iteration, armed, list(self.helpers))

    def _go(self, limits: Limits, on_iteration: Callable[[Report], None] | None,
            armed: bool, workers: list[_Worker]) -> tuple[str | None, Report | None]:
        """:meth:`go` with these helpers."""
        legal = list(self.board.legal_moves)
        if not legal:
            return None, None
        known = self._from_tables()
        if known is not None:  # an endgame the tables hold: no search
            if on_iteration is not None:
                on_iteration(known[1])
            return known
        arrays = self._arrays()
        soft, hard = budget(limits)
        start = time.perf_counter()
        info = self.info
        stop = info[1] if armed else 0
        info[:] = 0
        info[1] = stop
        if hard is not None:
            info[2] = int((start + hard) * 1e6)
        info[4] = limits.nodes or 0
        infos = [info, *(helper.info for helper in workers)]
        helpers = []
        for k, helper in enumerate(workers, 1):
            helper.info[:] = 0
            helper.info[1] = info[1]
            helper.info[2] = info[2]
            helpers.append(threading.Thread(target=self._help, name=f"chess helper {k}",
                                            args=(k, helper, self._arrays()), daemon=True))
        for hist in (self.hist, *(helper.hist for helper in workers)):
            hist //= 8
        for thread in helpers:
            thread.start()
        try:
            return self._deepen(limits, on_iteration, arrays, soft, start, legal[0].uci(),
                                infos)
        finally:  # no helper outlives its search
            for helper in workers:
                helper.info[1] = 1
            for thread in helpers:
                thread.join()

    def _deepen(self, limits: Limits, on_iteration: Callable[[Report], None] | None,
                arrays: tuple[np.ndarray, ...], soft: float | None, start: float,
                best: str, infos: list[np.ndarray]) -> tuple[str | None, Report | None]:
        """The main worker's iterative deepening (see :meth:`go`)."""
        info = self.info
        pv, pv_len = arrays[6], arrays[7]
        last = None
        max_depth = min(limits.depth or 64, 64)
        score = 0
        for depth in range(1, max_depth + 1):
            value = self._iterate(arrays, self.killers, self.hist, info, depth, score)
            if info[1] and depth > 1:
                break
            score = value
            if pv_len[0] > 0:
                best = uci_of(int(pv[0, 0]))
            last = Report(depth, max(int(i[5]) for i in infos), score,
                          sum(int(i[0]) for i in infos), time.perf_counter() - start,
                          [uci_of(int(m)) for m in pv[0, :pv_len[0]]] or [best])
            if on_iteration is not None:
                on_iteration(last)
            if info[1]:
                break
            elapsed = time.perf_counter() - start
            if soft is not None and elapsed >= soft and not limits.infinite:
                break
            if last.mate is not None and last.mate > 0 and depth >= 2 * last.mate + 2 \
                    and not limits.infinite and limits.depth is None:
                break
        return best, last


class ChessAgent(Agent):
    """The engine as a gamesearch agent (``chess-engine:time=1`` or ``depth=N``) for
    ``match`` and ``play``; the game's states are FENs, so repetition is not seen here."""

    interactive = False

    def __init__(self, time: float | None = 1.0, depth: int | None = None,
                 hash_mb: int = 64, tables: str | None = None, threads: int = 1) -> None:
        self.engine = ChessEngine(hash_mb, threads)
        self.engine.set_tables(tables)
        self.limits = Limits(depth=depth, movetime=None if depth is not None else time)
        self.spec = (f"chess-engine:depth={depth}" if depth is not None else
                     f"chess-engine:time={time:g}") + (f",threads={threads}" if threads > 1
                                                        else "")

    def prepare(self, game: object) -> None:
        """Load the compiled search before any clock runs."""
        self.engine.warm_up()

    def reset(self) -> None:
        """A new game: clear the table."""
        self.engine.new_game()

    def __call__(self, game: object, state: str) -> SearchResult:
        """Search the FEN; the value is the score seen by the mover, squashed into (-1, 1).
        Each finished depth goes to ``on_progress`` where one is set (the web's live view)."""
        self.engine.position(chess.Board(state))
        tell = self.on_progress

        def report(r: Report) -> None:
            if tell(self._result(state, r.pv[0] if r.pv else None, r)):
                self.engine.stop()  # the caller asks for the answer now: this depth's

        best, last = self.engine.go(self.limits, None if tell is None else report)
        return self._result(state, best, last)

    @staticmethod
    def _result(state: str, best: str | None, report: Report | None) -> SearchResult:
        """A search report as the library's result (the centipawn score in ``extra``)."""
        stats = SearchStats(nodes=report.nodes if report else 0,
                            depth=report.depth if report else 0)
        value = 0.0 if report is None else (
            math.copysign(1.0, report.score) if report.mate is not None
            else math.tanh(report.score / 1000))
        stats.seconds = report.seconds if report else 0.0
        if report is not None:
            stats.extra["score"] = (f"mate {report.mate}" if report.mate is not None
                                    else f"cp {report.score}")
        pov = 0 if state.split(" ", 2)[1] == "w" else 1
        return SearchResult(value, best, list(report.pv) if report else [best], stats,
                            pov=pov, exact=report is not None and report.mate is not None,
                            engine_score=VALUE_SCALE.score(report.score if report else 0, pov))
