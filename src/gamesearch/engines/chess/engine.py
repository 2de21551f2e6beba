"""The chess engine (iterative deepening, aspiration windows, time management) and its agent.

The compiled search is ``chess_search.search``; the shared anytime driver
(:mod:`gamesearch.anytime`) deepens it: one iteration per depth, each first searched in a
window of +-``ASPIRATION`` centipawns around the previous score (from depth 4; doubled
on each failure), until the :class:`~gamesearch.result.Limit`'s depth, nodes or time. Under a clock
(:func:`clock_budget`), a move gets ``time_left / moves_to_go + 3/4 increment`` (moves to
go: 30 when the clock does not say); no new iteration starts after 60% of it, and the
search stops at three times it (never more than a third of the time left). Depth 1 always
completes (the driver arms the deadline, the node limit and the stop from depth 2 on).
``stop()`` from another thread ends the search at once (the compiled code reads the flag
every 1,024 nodes; it releases the GIL). Every finished depth is a
:class:`~gamesearch.result.SearchResult` (the centipawn score in ``stats.extra["cp"]``,
moves to mate in ``extra["mate"]``, the selective depth in ``extra["seldepth"]``).

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
helper outlives ``go``; ``stop()`` raises all the flags at once (during depth 1 it ends the
search once depth 1 is done). Reported nodes are all
workers' together. A node limit counts the main worker's nodes inside an iteration (the
compiled check) and all workers' between iterations (the driver's).

Evaluation (``evaluation=``, ``set_evaluation``, UCI ``Use NNUE`` and ``EvalFile``): the
hand-written terms (``evaluation.py``), the default and the baseline, or a network
(``nnue/``, by default the file that ships), whose search is a compiled function of its
own (``nnue/search.py``: the same templates with the network's static value), compiled
on first use. Each worker has its own accumulators (in its ``tb``); the weights are shared.

Singular extensions (``singular``, UCI ``SingularExtensions``, ``chess-engine:singular=1``):
off by default (278 games at 20,000 nodes a move showed no gain, docs/BENCHMARKS.md);
off, the search is node for node the one they were measured against. The flag and the
iteration's depth reach the compiled search in ``info`` (``chess_search``).

Search settings (``set_tuning``, ``engines/chess/tuning.py``: the reverse futility and
futility margins, the null move's reduction, the late-move pruning count and the late-move
reduction formula; UCI options ``RfpMargin``, ``LmrDivisor``..., ``chess-engine:`` keys
``rfp_margin=``...): the defaults are the search they were measured against; each worker's
``info`` carries them, so a setting costs no compile.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import chess
import numpy as np

from gamesearch.agent import Agent
from gamesearch.anytime import NO_LIMIT, Budget, Pace, Target, deepen, iterations
from gamesearch.engines.chess.scale import MAX_THREADS, VALUE_SCALE
from gamesearch.engines.chess.tuning import INFO_SIZE, check_tuning, write_tuning
from gamesearch.games.chess import board as B
from gamesearch.games.chess.kernel import arrays_of, uci_of
from gamesearch.result import Limit, SearchResult, SearchStats

MATE = 30000
ENTRY_BYTES = 16
ASPIRATION = 35
"""The aspiration window's half-width at its first try, in centipawns (20 scored 50/95 against
it at 20,000 nodes a move: no gain shown, docs/BENCHMARKS.md)."""
SKIP_SIZE = (1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4)
SKIP_PHASE = (0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7)
"""Lazy SMP's depth skipping for helper threads (Stockfish 10, ``search.cpp``)."""


def default_network() -> Path:
    """The network file that ships with the package (it may not exist yet)."""
    from gamesearch.shipped import shipped

    return shipped("chess", "nnue.npz")


def new_history() -> np.ndarray:
    """A fresh ``history`` array of the compiled search: 16 rows of history scores by piece
    and target square, then 16 of counter-moves (``chess_search``'s docstring)."""
    return np.zeros((32, 128), np.int64)


def new_killers() -> np.ndarray:
    """A fresh ``killers`` array of the compiled search: two killer moves a ply, then the
    move a singular extension's verification search leaves out there (``chess_search``)."""
    return np.zeros((B.MAX_PLY, 3), np.int64)


def age_history(history: np.ndarray) -> None:
    """Shrink the history scores (not the counter-moves) before a new search: what the last
    position taught still orders moves, but less than what this one teaches."""
    history[:16] //= 8


class _Worker:
    """One searcher's own move-ordering statistics and ``info`` array (chess_search)."""

    def __init__(self) -> None:
        self.info = np.zeros(INFO_SIZE, np.int64)
        self.killers = new_killers()
        self.hist = new_history()


def skips(helper: int, depth: int) -> bool:
    """True where helper thread ``helper`` (1, 2, ...) does not search ``depth``."""
    i = (helper - 1) % len(SKIP_SIZE)
    return ((depth + SKIP_PHASE[i]) // SKIP_SIZE[i]) % 2 == 1


PACE = Pace(growth=0.0)
"""The engine's pace on the shared anytime driver: a new iteration starts while the soft
budget lasts (under a clock 60% of the move's share, :func:`clock_budget`; with a fixed
time per move all of it) and the hard deadline cuts what does not fit (a cut iteration's
table entries still help the next move)."""


def mate_in(score: int) -> int | None:
    """Moves to mate of a centipawn score (negative: the mover is mated), or None."""
    if abs(score) < MATE - 1000:
        return None
    plies = MATE - abs(score)
    return (plies + 1) // 2 if score > 0 else -((plies + 1) // 2)


SOFT_SHARE = 0.6
"""Under a clock no iteration starts after this share of the move's share of the clock..."""
HARD_SHARE = 3.0
"""...and the search stops at this many times it (:func:`clock_budget`)."""
CLOCK_FLOOR = 0.01
"""The least hard budget of a move on a clock (seconds), however little is left."""


def clock_budget(time_left: float, increment: float = 0.0,
                 movestogo: int | None = None) -> Target:
    """The budget of one move on a clock (UCI ``wtime``/``winc``/``movestogo``; its
    ``soft`` and ``hard`` seconds, or its ``bounds`` for the search): the move's share is
    ``time_left / moves_to_go + 3/4 increment`` (30 moves to go when the clock does not
    say); no iteration starts after 60% of it, and the search stops at three times it
    (never more than a third of the time left, the share itself capped likewise). The time
    left is counted less a reserve of 50 ms plus one increment (at most 0.5 s): on a nearly
    empty clock a move then spends well under the increment, so the clock settles at a few
    increments, not at a few milliseconds, and a stall of the machine between moves (a
    loaded machine gave the engine's process under a tenth of a core) does not flag."""
    left = max(0.0, time_left - 0.05 - min(increment, 0.5))
    togo = movestogo if movestogo else 30
    share = left / max(1, togo) + 0.75 * increment
    cap = left / 3 if togo > 1 else left * 0.8
    return Target(min(share, cap), SOFT_SHARE, HARD_SHARE, cap=cap, floor=CLOCK_FLOOR)


class ChessEngine:
    """A searcher with its own table; ``position`` then ``go``."""

    def __init__(self, hash_mb: int = 64, threads: int = 1, evaluation: str = "hand",
                 network: str | os.PathLike[str] | None = None, singular: bool = False) -> None:
        self.info = np.zeros(INFO_SIZE, np.int64)
        self.tuning: dict[str, int] = {}
        """Search settings away from their defaults (``tuning.TUNING``: pruning margins,
        reductions; UCI options and ``chess-engine:`` keys, ``set_tuning``)."""
        self.singular = singular
        """Singular extensions on or off (the default: at 20,000 nodes a move they showed
        no gain, docs/BENCHMARKS.md; UCI ``SingularExtensions``, ``chess-engine:singular=1``)."""
        self._halt = threading.Event()  # stop() was called
        self._hard = False  # an iteration that a stop may cut is running (depth 2 on)
        self.helpers: list[_Worker] = []
        self.set_threads(threads)
        self.set_hash(hash_mb)
        self.board = chess.Board()
        self.history: list[int] = []
        self.set_tables(None)
        self.quantised = None
        self.set_evaluation(evaluation, network)

    @property
    def evaluation(self) -> str:
        """``hand`` (the hand-written evaluation, the default) or ``nnue`` (the network)."""
        return "hand" if self.quantised is None else "nnue"

    def set_evaluation(self, evaluation: str = "hand",
                       network: str | os.PathLike[str] | None = None) -> None:
        """Evaluate with the hand-written terms (``hand``) or a network (``nnue``): the file
        ``network`` (``engines/chess/nnue/network.py``'s format), by default the one that
        ships with the package. A missing or corrupt file raises NetworkError (one line) and
        leaves the evaluation as it was; an unknown name raises ValueError."""
        if evaluation == "hand":
            if self.quantised is not None:
                self._warm = False  # the hand search may not be loaded yet
            self.quantised = None
            return
        if evaluation != "nnue":
            raise ValueError(f"evaluation must be 'hand' or 'nnue', got {evaluation[:20]!r}")
        from gamesearch.engines.chess.nnue import kernel
        from gamesearch.engines.chess.nnue import network as nn

        path = Path(network) if network is not None else default_network()
        if network is None and not path.is_file():
            raise nn.NetworkError("no network ships with this install yet (data/chess/"
                                  "nnue.npz): name a network file")
        self.quantised = kernel.quantise(nn.load(path))
        self._warm = False  # the NNUE search is its own compiled function: load it

    def _search_function(self) -> Callable[..., int]:
        """The compiled search of this evaluation (the NNUE one is compiled on first use)."""
        if self.quantised is None:
            from gamesearch.engines.chess.search import search
        else:
            from gamesearch.engines.chess.nnue.search import search
        return search

    def set_tables(self, folder: str | None) -> None:
        """Probe the endgame tables in ``folder`` (``tables build chess``) before searching:
        a position they hold is played perfectly, the quickest mate or the longest defence
        (None: no tables)."""
        from gamesearch.engines.chess.search import no_tables
        from gamesearch.engines.chess.tables import Tables

        self.tables = Tables(folder) if folder else None
        self.tb = self.tables.search_arrays() if self.tables else no_tables()

    def _from_tables(self) -> SearchResult | None:
        """The tables' move as a result (score: mate in the tables' distance)."""
        if self.tables is None:
            return None
        found = self.tables.probe_board(self.board)
        move = self.tables.best_move(self.board) if found is not None else None
        if move is None:
            return None
        value, plies = found
        score = 0 if value == 3 else (MATE - plies if value == 1 else -(MATE - plies))
        return self._result(move.uci(), [move.uci()], score, plies, plies, 0, 0.0, "end")

    def _result(self, best: str, pv: list[str], score: int, depth: int, seldepth: int,
                nodes: int, seconds: float, stopped_by: str | None = None) -> SearchResult:
        """One finished iteration as the library's result: the value is the centipawn score
        squashed into (-1, 1) (a mate: +-1, exact); the score itself in ``extra``."""
        mate = mate_in(score)
        value = math.copysign(1.0, score) if mate is not None else math.tanh(score / 1000)
        stats = SearchStats(nodes=nodes, depth=depth, seconds=seconds,
                            extra={"cp": score, "seldepth": seldepth,
                                   "score": f"mate {mate}" if mate is not None
                                   else f"cp {score}"})
        if mate is not None:
            stats.extra["mate"] = mate
        pov = 0 if self.board.turn else 1
        return SearchResult(value, best, pv, stats, pov=pov, exact=mate is not None,
                            stopped_by=stopped_by, engine_score=VALUE_SCALE.score(score, pov))

    def set_hash(self, megabytes: int) -> None:
        """A transposition table of the largest power of two entries within ``megabytes``."""
        entries = max(1024, 1 << int(np.log2(max(1, megabytes) * 2**20 // ENTRY_BYTES)))
        # np.zeros maps zeroed pages lazily: a new engine costs no time until it searches
        # (writing zeros over them here took 0.1 s of a web move's 1 s budget).
        self.tt_key = np.zeros(entries, np.int64)
        self.tt_data = np.zeros(entries, np.int64)
        self.killers = new_killers()
        self.hist = new_history()

    def set_tuning(self, name: str, value: int) -> None:
        """Set one search setting (``tuning.TUNING``'s names: ``rfp_margin``,
        ``lmr_divisor``...); ValueError with one line for an unknown name or a value out of
        its range. Takes effect at the next iteration."""
        check_tuning(name, value)
        self.tuning[name] = value

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
        self.killers = new_killers()
        self.hist = new_history()
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
            self._go(Limit(depth=1), None, False, None, False, [])
            self.position(board)
            self._warm = True

    def stop(self) -> None:
        """End the running search as soon as possible (safe from another thread); a stop
        during depth 1 ends the search once depth 1 is done."""
        self._halt.set()
        if self._hard:
            self._raise_flags()

    def stopped(self) -> bool:
        """True once :meth:`stop` was called (since :meth:`arm` or the search's start)."""
        return self._halt.is_set()

    def _raise_flags(self) -> None:
        self.info[1] = 1
        for helper in self.helpers:
            helper.info[1] = 1

    def arm(self) -> None:
        """Clear the stop flag (before starting a search thread: a ``stop`` that comes
        while the thread starts is then kept, not erased)."""
        self._halt.clear()
        self.info[1] = 0

    def _arrays(self) -> tuple:
        """A worker's own board, state, undo stack, keys, move stacks, PV and ``tb`` (the
        tables, and with a network this worker's accumulators: chess_search)."""
        b, st, undo = arrays_of(self.board)
        keys = np.zeros(B.MAX_PLY, np.int64)
        keys[:len(self.history)] = self.history
        st[B.PLY] = len(self.history)
        moves = np.zeros((B.MAX_PLY, B.MAX_MOVES), np.int64)
        scores = np.zeros((B.MAX_PLY, B.MAX_MOVES), np.int64)
        pv = np.zeros((B.MAX_PLY, B.MAX_PLY), np.int64)
        pv_len = np.zeros(B.MAX_PLY, np.int64)
        tb = self.tb
        if self.quantised is not None:
            from gamesearch.engines.chess.nnue.search import arguments

            tb = arguments(self.tb, self.quantised)
        return b, st, undo, keys, moves, scores, pv, pv_len, tb

    def _iterate(self, arrays: tuple, killers: np.ndarray,
                 hist: np.ndarray, info: np.ndarray, depth: int, score: int) -> int:
        """One iteration at ``depth`` in an aspiration window around ``score``, widened
        until the value falls inside (or the stop flag is up: the value is then void)."""
        from gamesearch.engines.chess.search import FLAGS, INF, NO_SINGULAR, ROOT_DEPTH

        search = self._search_function()
        b, st, undo, keys, moves, scores, pv, pv_len, tb = arrays
        info[FLAGS] = 0 if self.singular else NO_SINGULAR
        write_tuning(info, self.tuning)
        info[ROOT_DEPTH] = depth
        delta = ASPIRATION
        alpha, beta = (score - delta, score + delta) if depth >= 4 else (-INF, INF)
        while True:
            info[3] = 0
            value = search(b, st, undo, keys, moves, scores, depth, alpha, beta, 0, False,
                           self.tt_key, self.tt_data, killers, hist, pv, pv_len, info, tb)
            if info[1]:
                return int(value)
            if value <= alpha:
                alpha, delta = max(-INF, value - delta), delta * 2
            elif value >= beta:
                beta, delta = min(INF, value + delta), delta * 2
            else:
                return int(value)

    def _help(self, k: int, worker: _Worker, arrays: tuple) -> None:
        """Helper thread ``k``'s search: the depths it does not skip, on the anytime driver,
        until its stop flag is raised (its results are never the answer: only the table
        entries they leave are)."""
        previous = {"score": 0}

        def step(depth: int, budget: Budget) -> SearchResult:
            previous["score"] = self._iterate(arrays, worker.killers, worker.hist,
                                              worker.info, depth, previous["score"])
            return SearchResult(previous["score"], None, [], SearchStats(depth=depth))

        helper_depths = (d for d in range(1, 65) if not skips(k, d))
        for _ in iterations(step, stop=lambda: bool(worker.info[1]), depths=helper_depths):
            pass

    def go(self, limit: Limit = NO_LIMIT,
           on_iteration: Callable[[SearchResult], bool | None] | None = None,
           armed: bool = False, soft: float | None = None,
           infinite: bool = False) -> SearchResult | None:
        """Search the position within ``limit``; return the last finished iteration (its
        ``action`` the best move in UCI, ``pv`` in UCI), None where there is no legal move.

        ``on_iteration`` sees every finished depth (UCI ``info``, the web's live view); a
        true return stops the search there. ``armed``: the caller has called :meth:`arm`, a
        stop since then counts. ``soft``: the soft budget in seconds where a clock gives one
        (:func:`clock_budget`; by default all of ``limit.time``). ``infinite``: search until
        stopped (UCI ``go infinite``), a proven mate included."""
        return self._go(limit, on_iteration, armed, soft, infinite, list(self.helpers))

    def _go(self, limit: Limit, on_iteration: Callable[[SearchResult], bool | None] | None,
            armed: bool, soft: float | None, infinite: bool,
            workers: list[_Worker]) -> SearchResult | None:
        """:meth:`go` with these helpers."""
        legal = list(self.board.legal_moves)
        if not legal:
            return None
        known = self._from_tables()
        if known is not None:  # an endgame the tables hold: no search
            if on_iteration is not None:
                on_iteration(known)
            return known
        if not armed:
            self.arm()
        self._hard = False
        info = self.info
        info[:] = 0
        helpers = []
        for k, helper in enumerate(workers, 1):
            helper.info[:] = 0
            if limit.time is not None:  # helpers are never the answer: cut from the start
                helper.info[2] = int((time.perf_counter() + limit.time) * 1e6)
            helpers.append(threading.Thread(target=self._help, name=f"chess helper {k}",
                                            args=(k, helper, self._arrays()), daemon=True))
        for hist in (self.hist, *(helper.hist for helper in workers)):
            age_history(hist)
        for thread in helpers:
            thread.start()
        step = self._step(limit, infinite, legal[0].uci(), [info, *(h.info for h in workers)])
        try:
            return deepen(step, replace(limit, depth=min(limit.depth or 64, 64)), pace=PACE,
                          soft=soft, stop=self._halt, on_iteration=on_iteration)
        finally:  # no helper outlives its search
            self._hard = False
            for helper in workers:
                helper.info[1] = 1
            for thread in helpers:
                thread.join()

    def _step(self, limit: Limit, infinite: bool, best: str,
              infos: list[np.ndarray]) -> Callable[[int, Budget], SearchResult | None]:
        """The main worker's one iteration for the anytime driver (see :meth:`go`)."""
        arrays = self._arrays()
        info = self.info
        pv, pv_len = arrays[6], arrays[7]
        previous = {"score": 0, "best": best}

        def step(depth: int, budget: Budget) -> SearchResult | None:
            info[2] = budget.deadline_us
            info[4] = budget.nodes or 0
            if budget.stop is not None:  # from depth 2 on, a stop reaches the compiled code
                self._hard = True
                if self._halt.is_set():
                    self._raise_flags()
            score = self._iterate(arrays, self.killers, self.hist, info, depth,
                                  previous["score"])
            if info[1]:
                return None
            previous["score"] = score
            if pv_len[0] > 0:
                previous["best"] = uci_of(int(pv[0, 0]))
            line = [uci_of(int(m)) for m in pv[0, :pv_len[0]]] or [previous["best"]]
            mate = mate_in(score)
            proven = mate is not None and mate > 0 and depth >= 2 * mate + 2 \
                and not infinite and limit.depth is None
            return self._result(previous["best"], line, score, depth,
                                max(int(i[5]) for i in infos), sum(int(i[0]) for i in infos),
                                0.0, "end" if proven else None)

        return step


class ChessAgent(Agent):
    """The engine as a gamesearch agent (``chess-engine:time=1``, ``depth=N`` or
    ``nodes=N``: a node budget a move, the same search however loaded the machine is;
    ``singular=1``: with singular extensions; ``rfp_margin=N``, ``lmr_divisor=N`` and the
    other search settings of ``tuning.TUNING``) for ``match`` and ``play``; the game's
    states are FENs, so repetition is not seen here."""

    interactive = False

    def __init__(self, time: float | None = 1.0, depth: int | None = None,
                 hash_mb: int = 64, tables: str | None = None, threads: int = 1,
                 evaluation: str = "hand", network: str | None = None,
                 nodes: int | None = None, singular: bool = False,
                 tuning: dict[str, int] | None = None) -> None:
        self.engine = ChessEngine(hash_mb, threads, evaluation, network, singular)
        self.engine.set_tables(tables)
        for name, value in (tuning or {}).items():
            self.engine.set_tuning(name, value)
        if nodes is not None:
            self.bound = Limit(nodes=nodes)
            spec = f"chess-engine:nodes={nodes}"
        elif depth is not None:
            self.bound = Limit(depth=depth)
            spec = f"chess-engine:depth={depth}"
        else:
            self.bound = Limit(time=time)
            spec = f"chess-engine:time={time:g}"
        self.spec = spec + (f",threads={threads}" if threads > 1 else "") + \
            (",eval=nnue" if evaluation == "nnue" else "") + (",singular=1" if singular else "") \
            + "".join(f",{name}={value}" for name, value in sorted((tuning or {}).items()))

    def prepare(self, game: object) -> None:
        """Load the compiled search before any clock runs."""
        self.engine.warm_up()

    def reset(self) -> None:
        """A new game: clear the table."""
        self.engine.new_game()

    def stop(self) -> None:
        """End the running search inside its depth (the engine's own stop), from any
        thread: a cancelled web analysis ends at once, its worker kept."""
        self.engine.stop()

    def __call__(self, game: object, state: str) -> SearchResult:
        """Search the FEN; the value is the score seen by the mover, squashed into (-1, 1).
        Each finished depth goes to ``on_progress`` where one is set (the web's live view);
        a true answer from it ends the search with that depth's move."""
        self.engine.position(chess.Board(state))
        result = self.engine.go(self.bound, self.on_progress)
        if result is None:
            return SearchResult(0.0, None, [], SearchStats(), pov=int(not self.engine.board.turn))
        return result
