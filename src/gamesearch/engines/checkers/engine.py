"""The checkers engine (``checkers-engine`` agents): iterative deepening over the compiled
PVS of checkers_search.py, with the hand-written or the learned evaluation weights and,
where a folder of endgame databases is given, exact values from them.

At a root the databases hold, the engine does not search: it plays the move that keeps
the database value and, winning, shortens the distance to the win (losing, lengthens it),
which is how a database converts a won ending instead of shuffling inside it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path

import numpy as np

from gamesearch.agent import Agent
from gamesearch.anytime import (
    NO_LIMIT,
    Budget,
    Pace,
    Stop,
    StopWatcher,
    Target,
    as_callable,
    deepen,
)
from gamesearch.engines.checkers import search as S
from gamesearch.engines.checkers.scale import VALUE_SCALE
from gamesearch.errors import GameSearchError
from gamesearch.games.checkers.evaluation import FEATURES, HAND_WEIGHTS
from gamesearch.games.checkers.kernel import (
    MAX_ACTIONS,
    MAX_MOVES,
    decode_action,
    encode_state,
)
from gamesearch.result import Limit, SearchResult, SearchStats
from gamesearch.tables.retrograde import DRAW, LOSS, WIN

MAX_DEPTH = 60
BYTES_PER_ENTRY = 24


def learned_weights() -> tuple[float, ...]:
    """The weights Samuel-style self-play learned (data/checkers/weights.json), by feature
    name: a feature added to the evaluation after they were learned weighs 0."""
    text = resources.files("gamesearch.data").joinpath("checkers/weights.json").read_text()
    data = json.loads(text)
    learned = dict(zip(data.get("features", FEATURES), data["weights"]))
    return tuple(float(learned.get(name, 0.0)) for name in FEATURES)


def parse_weights(text: str) -> tuple[float, ...]:
    """``hand``, ``learned`` or one number a feature (FEATURES, in order) joined by ``/``
    (men/kings/...)."""
    if text == "hand":
        return HAND_WEIGHTS
    if text == "learned":
        return learned_weights()
    parts = text.split("/")
    try:
        values = tuple(float(p) for p in parts)
    except ValueError:
        values = ()
    if len(values) != len(FEATURES) or not all(math.isfinite(v) and abs(v) < 1e6
                                               for v in values):
        raise GameSearchError(f"weights={text!r}: say hand, learned, or {len(FEATURES)} "
                              f"numbers joined by '/' ({'/'.join(FEATURES)})")
    return values


PACE = Pace(growth=0.0, soft=0.5)
"""The engine's pace on the shared anytime driver where a limit is a hard one (``go`` with
a time limit and no ``soft``): no iteration starts after half the time."""

SOFT_SHARE = 0.75
"""A move time ``T`` is a target, not a wall: no iteration starts after ``SOFT_SHARE * T``..."""
HARD_SHARE = 2.0
"""...and one that runs past ``HARD_SHARE * T`` is cut (its best root move so far is kept
where it has already beaten the previous one). simplech's rule (no iteration after
0.59 T, a cut at 3 T) spent 1.3-1.5 T a move in our matches (more the more the machine was
loaded: its plain alpha-beta's iterations grow fast). Chosen so that both programs' mean
time a move come out equal (bench/checkers_simplech.py prints both): 0.7/1.8 spent 0.133 s
to simplech's 0.152 s, 0.8/2.2 0.137 s to its 0.130 s, 0.75/2.0 0.121 s to its 0.123 s
over 200 games (docs/BENCHMARKS.md)."""


@dataclass
class CheckersEngine:
    """The search's arrays (kept between moves: the table and history help the next move)."""

    hash_mb: int = 32
    weights: tuple[float, ...] = HAND_WEIGHTS
    tables: object | None = None
    arrays: dict = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        entries = 1 << max(10, int(self.hash_mb * 2**20 // BYTES_PER_ENTRY).bit_length() - 1)
        self.tt = np.zeros((entries, 3), np.int64)  # key, move, data: one row an entry
        self.killers = np.zeros((S.MAX_PLY + 1, 2), np.int64)
        self.trail = np.zeros((S.MAX_PLY + 1, 3), np.int64)  # the line, for repetitions
        self.history = np.zeros(128, np.int64)
        self.moves = np.zeros((S.MAX_PLY + 1, MAX_ACTIONS), np.int64)
        self.order = np.zeros((S.MAX_PLY + 1, MAX_MOVES), np.int64)
        self.pv = np.zeros((S.MAX_PLY + 1, S.MAX_PLY + 1), np.int64)
        self.pv_len = np.zeros(S.MAX_PLY + 1, np.int64)
        self.w = np.array(self.weights, np.float64)
        self.scratch = np.zeros((2, len(self.weights)), np.float64)
        self.tb = self.tables.search_arrays() if self.tables is not None else S.no_tables()

    def new_game(self) -> None:
        for array in (self.tt, self.killers, self.history):
            array[:] = 0

    def warm_up(self) -> None:
        """Compile (or load) the search before any clock runs."""
        self.go(encode_state(("bbbbbbbbbbbb........wwwwwwwwwwww", 0, 0)), Limit(depth=2))
        self.new_game()

    def go(self, s: tuple, limit: Limit = NO_LIMIT, stop: Stop | None = None,
           on_iteration: Callable[[SearchResult], bool | None] | None = None,
           soft: float | None = None) -> SearchResult:
        """Iterative deepening from kernel state ``s`` on the shared anytime driver, within
        ``limit`` (depth 1 always completes); the last finished iteration. Its ``action`` and
        ``pv`` are kernel actions; its value the score for the mover squashed into (-1, 1)
        (exact for proven results), the score itself in ``stats.extra["points"]``, database
        hits in ``extra["table_hits"]``. ``soft``: seconds after which no iteration starts (the
        limit's time then only cuts one short); an iteration cut short whose root search
        already proved another move better than the last iteration's answers with it."""
        code = S.compiled()
        info = np.zeros(S.N_INFO, np.int64)
        self.killers[:] = 0
        self.history //= 4
        meta, packed, tb_pieces = self.tb
        asked = as_callable(stop)
        partial: list[int] = []

        def step(d: int, budget: Budget) -> SearchResult | None:
            info[S.DEADLINE] = budget.deadline_us
            info[S.NODE_LIMIT] = budget.nodes or 0
            if budget.stop is not None and watcher is not None:
                watcher.arm()
            info[S.SELDEPTH] = 0
            info[S.ROOT_ALT] = 0
            score = code.search(s, d, -S.INF, S.INF, 0, self.w, self.tt, self.killers,
                                self.history, self.moves, self.order, self.pv, self.pv_len,
                                info, meta, packed, tb_pieces, self.trail, self.scratch)
            if info[S.STOP]:
                if info[S.ROOT_ALT]:
                    partial.append(int(info[S.ROOT_MOVE]))
                return None
            pv = [int(a) for a in self.pv[0, :self.pv_len[0]]] or [int(info[S.ROOT_MOVE])]
            proven = abs(score) > S.TB_WIN - 1000
            value = math.copysign(1.0, score) if proven else score / (abs(score) + 400)
            stats = SearchStats(nodes=int(info[S.NODES]), depth=d,
                                extra={"points": int(score), "table_hits": int(info[S.TB_HITS]),
                                       "seldepth": int(info[S.SELDEPTH])})
            ended = proven and d > S.MATE - abs(score)  # a proven result no deeper changes
            return SearchResult(value, pv[0], pv, stats, exact=proven,
                                stopped_by="end" if ended else None)

        def on_stop() -> None:
            info[S.STOP] = 1

        bound = replace(limit, depth=min(limit.depth or MAX_DEPTH, MAX_DEPTH))
        watcher = StopWatcher(asked, on_stop) if asked is not None else None
        if watcher is None:
            result = deepen(step, bound, pace=PACE, soft=soft, on_iteration=on_iteration)
        else:
            with watcher:
                result = deepen(step, bound, pace=PACE, soft=soft, stop=asked,
                                on_iteration=on_iteration)
        if partial and partial[0] != result.action:
            result = replace(result, action=partial[0], pv=partial[:1])
        return result


class CheckersAgent(Agent):
    """The engine as an agent: ``checkers-engine:time=1`` (or depth=N, nodes=N, target=T),
    ``weights=hand|learned``, ``tables=DIR`` (endgame databases), ``hash=MB``.

    ``time=T`` is a wall: a move never takes more than T (what the web page's clock and
    every face assume); no iteration starts after ``SOFT_SHARE / HARD_SHARE`` of it.
    ``target=T`` spends about T a move as a tournament program does: no iteration starts
    after ``SOFT_SHARE * T``, one still running at ``HARD_SHARE * T`` is cut (the rule the
    simplech matches use, so both programs spend about the same at the same nominal time);
    ``soft=S,hard=H`` replace those two shares (the bench sets them so that both programs'
    mean seconds a move come out equal)."""

    interactive = False

    def __init__(self, time: float | None = 1.0, depth: int | None = None,
                 nodes: int | None = None, hash_mb: int = 32, weights: str = "hand",
                 tables: str | None = None, target: float | None = None,
                 soft: float | None = None, hard: float | None = None) -> None:
        from gamesearch.engines.checkers.tables import Tables

        if (soft is not None or hard is not None) and target is None:
            raise GameSearchError("soft= and hard= are shares of target=T: give target too")
        budget = None if target is None else Target(
            target, SOFT_SHARE if soft is None else soft, HARD_SHARE if hard is None else hard)

        self.tables = Tables(Path(tables)) if tables else None
        self.engine = CheckersEngine(hash_mb, parse_weights(weights), self.tables)
        self.bound = Limit(depth=depth, nodes=nodes)
        self.soft = None
        if depth is None and nodes is None:
            if budget is not None:
                self.bound, self.soft = budget.bounds(self.bound)
            elif time is not None:
                self.bound, self.soft = Limit(time=time), SOFT_SHARE / HARD_SHARE * time
        bound = f"depth={depth}" if depth is not None else (
            f"nodes={nodes}" if nodes is not None else
            f"target={target:g}" if target is not None else f"time={time:g}") + (
            f",soft={soft:g}" if soft is not None else "") + (
            f",hard={hard:g}" if hard is not None else "")
        self.spec = f"checkers-engine:{bound}" + ("" if weights == "hand"
                                                  else f",weights={weights}") \
            + (f",tables={tables}" if tables else "")

    def prepare(self, game: object) -> None:
        self.engine.warm_up()

    def reset(self) -> None:
        self.engine.new_game()

    def __call__(self, game, state: tuple) -> SearchResult:
        """The move for the rules state ``(cells, mover, quiet)``; the value is the score
        for the mover squashed into (-1, 1), exact for database and proven results."""
        if self.tables is not None and self.tables.covers(state[0]):
            return self._from_tables(game, state)
        tell = self.on_progress
        show = None if tell is None else lambda r: tell(self._decoded(r, state))
        return self._decoded(self.engine.go(encode_state(state), self.bound,
                                            on_iteration=show, soft=self.soft), state)

    @staticmethod
    def _decoded(result: SearchResult, state: tuple) -> SearchResult:
        """The engine's result with its kernel actions as the rules' actions."""
        pv = [decode_action(a) for a in result.pv]
        return replace(result, action=pv[0], pv=pv, pov=state[1],
                       engine_score=VALUE_SCALE.score(result.stats.extra["points"],
                                                      state[1], result.exact))

    def _from_tables(self, game, state: tuple) -> SearchResult:
        value, _ = self.tables.probe(state)
        best, best_key = None, None
        for action in game.actions(state):
            child = game.result(state, action)
            if game.is_terminal(child):
                v, d = (LOSS, 0) if not game.actions(child) else (DRAW, 0)
            else:
                v, d = self.tables.probe(child)
            # our value is the negation of the child's: prefer their loss (soonest), then a
            # draw, then their win (latest)
            key = {LOSS: (2, -d), DRAW: (1, 0), WIN: (0, d)}[v]
            if best_key is None or key > best_key:
                best, best_key = action, key
        sign = {WIN: 1.0, LOSS: -1.0, DRAW: 0.0}[value]
        # a database's verdict reads as the search scores one: TB_WIN, exact
        return SearchResult(sign, best, [best], SearchStats(), pov=state[1], exact=True,
                            engine_score=VALUE_SCALE.score(sign * S.TB_WIN, state[1], True))
