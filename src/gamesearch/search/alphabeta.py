"""Alpha-beta search (AIMA fig. 5.7) with the refinements real programs use.

The core is the lecture's algorithm: MAX (the player to move at the root) raises alpha,
every MIN agent lowers beta, and a node whose value falls outside (alpha, beta) stops
searching its children. It is *fail-soft*: a node that fails returns the best bound it saw,
not just alpha or beta, which keeps transposition-table entries tight.

Around the core, each a switch so that tests can show none of them changes the value:

* move ordering: the game's ``order_actions``, the transposition-table move, killer moves
  (two per ply) and the history heuristic;
* a bounded transposition table (:mod:`gamesearch.search.tt`) of exact values and bounds;
* iterative deepening under a time budget, on the shared anytime driver
  (:mod:`gamesearch.anytime`): :func:`iterative_deepening` yields each completed depth;
  :func:`alphabeta` with ``time=`` always returns a move searched to depth 1 at least;
* quiescence search at the depth cut-off over the actions a game marks ``is_noisy``;
* null-window search: principal variation search (``null_window="pvs"``) and MTD(f)
  (:func:`mtdf`).

With several MIN agents (Pacman against ghosts) the same code is the paranoid search.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

from gamesearch.anytime import STEADY, Budget, Pace, Stop, iterations
from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, Game, State
from gamesearch.result import Clock, Limit, SearchResult, SearchStats, SearchTimeout
from gamesearch.search.minimax import INFINITE_DEPTH, Trace, evaluator
from gamesearch.search.tt import EXACT, LOWER, UPPER, TranspositionTable

INF = math.inf
CHECK_EVERY = 64  # nodes between clock checks: about 1 ms of pure-Python search
HISTORY_MIN_DEPTH = 2  # sort by history only where the subtree is big enough to repay it
NO_PV: tuple = ()
DEFAULT_TT_CAPACITY = 1 << 18
MAX_QUIESCENCE_DEPTH = 16


class AlphaBeta:
    """One configured alpha-beta searcher; :func:`alphabeta` is the usual way in.

    Options: ``order`` (use the game's action order), ``tt`` (True, False, or a
    TranspositionTable to keep between searches), ``killers``, ``history``, ``quiescence``,
    ``null_window`` (None or "pvs"), ``evaluate`` (overrides the game's), ``trace``.
    """

    def __init__(
        self,
        game: Game,
        *,
        evaluate: Callable[[State, int], float] | None = None,
        order: bool = True,
        tt: bool | TranspositionTable = True,
        killers: bool = True,
        history: bool = True,
        quiescence: bool = True,
        null_window: str | None = None,
        trace: Trace | None = None,
        clock: Clock | None = None,
    ) -> None:
        if null_window not in (None, "pvs"):
            raise GameSearchError(f"unknown null-window variant {null_window!r}; use 'pvs'")
        self.game = game
        self.cut = evaluator(game, evaluate)
        self.order = getattr(game, "order_actions", None) if order else None
        self.key = getattr(game, "state_key", None)
        if tt is True:
            tt = TranspositionTable(DEFAULT_TT_CAPACITY)
        self.tt = tt if isinstance(tt, TranspositionTable) else None
        self.use_killers = killers
        self.use_history = history
        self.noisy = getattr(game, "is_noisy", None) if quiescence else None
        self.pvs = null_window == "pvs"
        self.trace = trace
        self.clock = clock or Clock(None)
        # The table's stored action belongs to the very state searched only when the key is
        # the state itself; a game's state_key may merge symmetric images (tic-tac-toe), so
        # then the action only orders moves (checked legal) and the PV is rebuilt from values.
        self.trust_tt_action = self.key is None
        self.timed = self.clock.limited
        self.killers: list[tuple] = []  # per ply: up to two actions that caused a cut-off
        self.history: dict[int, defaultdict] = {}  # per player: action -> credit
        self.stats = SearchStats()
        self.root = 0
        self.unproven = 0  # values resting on an evaluation, not on the end of the game
        self.pv_table: dict[int, tuple] = {}

    # --- the search ----------------------------------------------------------------------
    def search(self, state: State, depth: int | None, alpha: float = -INF,
               beta: float = INF) -> SearchResult:
        """Search ``state`` to ``depth`` plies (None: to the end) within (alpha, beta)."""
        game = self.game
        self.root = game.to_move(state)
        if self.root == CHANCE:
            raise GameSearchError("alpha-beta: the root is a chance node; use expectiminimax")
        if self.tt is not None:
            self.tt.prepare(self.root, game)
        self.unproven = 0
        self.pv_table = {}
        d = INFINITE_DEPTH if depth is None else depth
        value = self._value(state, d, alpha, beta, 0)
        pv = self._principal_variation(state, self.pv_table.get(0, NO_PV), value, d,
                                       alpha < value < beta)
        self.stats.seconds = self.clock.elapsed()
        self.stats.depth = len(pv) if depth is None else depth
        exact = self.unproven == 0  # every leaf was the end of the game
        return SearchResult(value, pv[0] if pv else None, pv, self.stats, pov=self.root,
                            exact=exact, stopped_by="end" if exact else "depth")

    def _value(self, s: State, d: int, alpha: float, beta: float, ply: int) -> float:
        """The value of ``s`` for the root player within (alpha, beta), ``d`` plies left:
        a leaf's value, else the table's answer, else the children searched in order."""
        game, stats, trace = self.game, self.stats, self.trace
        terminal = game.is_terminal(s)
        if terminal or d <= 0:
            return self._leaf(s, terminal, alpha, beta)
        stats.nodes += 1
        if self.timed and stats.nodes % CHECK_EVERY == 0 and self.clock.expired():
            raise SearchTimeout
        player = game.to_move(s)
        if player == CHANCE:
            raise GameSearchError("alpha-beta met a chance node; use expectiminimax")

        alpha0, beta0, unproven0 = alpha, beta, self.unproven
        tt_action = key = None
        if self.tt is not None:
            key = self.key(s) if self.key else s
            entry = self.tt.entries.get(key)  # the table's dict itself: this runs at every node
            if entry is not None:
                tt_action = entry[3]
                known, alpha, beta = self._probe(entry, d, ply, alpha, beta)
                if known is not None:
                    return known

        if trace:
            trace("enter", s, player=player, alpha=alpha, beta=beta)
        best, best_action, alpha, beta = self._children(s, player, d, alpha, beta, ply,
                                                        tt_action)
        if trace:
            trace("exit", s, value=best, alpha=alpha, beta=beta)
        if self.tt is not None:
            self._store(key, d, best, best_action, alpha0, beta0, unproven0)
        return best

    def _leaf(self, s: State, terminal: bool, alpha: float, beta: float) -> float:
        """A terminal state's utility (exact), or the evaluation at the depth cut-off
        (an estimate; quiescence search first where the game marks noisy actions)."""
        if terminal:
            v = self.game.utilities(s)[self.root]
        elif self.noisy is not None:
            return self._quiescence(s, alpha, beta, MAX_QUIESCENCE_DEPTH)
        else:
            self.unproven += 1
            v = self.cut(s, self.root)
        self.stats.leaves += 1
        if self.trace:
            self.trace("leaf", s, value=v, alpha=alpha, beta=beta)
        return v

    def _probe(self, entry: tuple, d: int, ply: int, alpha: float,
               beta: float) -> tuple[float | None, float, float]:
        """Use a table entry: (its value if it settles the node, else None; the window
        narrowed by its bound). At the root an untrusted table action could not be the
        answer, so the root is searched."""
        if entry[0] < d or not (ply or self.trust_tt_action):
            return None, alpha, beta
        v, kind = entry[1], entry[2]
        if entry[0] < INFINITE_DEPTH:
            self.unproven += 1
        if kind == EXACT:
            self.stats.tt_hits += 1
            trusted = entry[3] is not None and self.trust_tt_action
            self.pv_table[ply] = (entry[3],) if trusted else NO_PV
            return v, alpha, beta
        if kind == LOWER and v > alpha:
            alpha = v
        elif kind == UPPER and v < beta:
            beta = v
        if alpha >= beta:
            self.stats.tt_hits += 1
            return v, alpha, beta
        return None, alpha, beta

    def _children(self, s: State, player: int, d: int, alpha: float, beta: float, ply: int,
                  tt_action: Any) -> tuple[float, Any, float, float]:
        """Search the children best-first: (the best value, its action, the final window).
        The root player
        maximizes, the others minimize; a cut-off ends the loop (and rewards its action)."""
        actions = self._ordered(s, player, ply, tt_action, d)
        maximizing = player == self.root
        nd = d - 1 if d < INFINITE_DEPTH else d
        best = -INF if maximizing else INF
        best_action = actions[0]
        value, result, pvs, pv_table = self._value, self.game.result, self.pvs, self.pv_table
        below = ply + 1
        for i, a in enumerate(actions):
            child = result(s, a)
            pv_table[below] = NO_PV
            if pvs and i:  # principal variation search: a null window first
                if maximizing:
                    v = value(child, nd, alpha, math.nextafter(alpha, INF), below)
                else:
                    v = value(child, nd, math.nextafter(beta, -INF), beta, below)
                if alpha < v < beta:
                    v = value(child, nd, alpha, beta, below)
            else:
                v = value(child, nd, alpha, beta, below)
            if maximizing:
                if v > best:
                    best, best_action = v, a
                    if v > alpha:
                        alpha = v
                        pv_table[ply] = (a, *pv_table[below])
            elif v < best:
                best, best_action = v, a
                if v < beta:
                    beta = v
                    pv_table[ply] = (a, *pv_table[below])
            if alpha >= beta:
                self.stats.cutoffs += 1
                self._reward(player, a, ply, d)
                if self.trace:
                    self.trace("prune", s, pruned=actions[i + 1:], value=best, alpha=alpha,
                               beta=beta)
                break
        return best, best_action, alpha, beta

    def _store(self, key: Any, d: int, best: float, best_action: Any, alpha0: float,
               beta0: float, unproven0: int) -> None:
        """Remember the node: exact, or a bound when the value fell outside the window;
        proven (any depth) when every leaf below was the end of the game."""
        if best <= alpha0:
            kind = UPPER
        elif best >= beta0:
            kind = LOWER
        else:
            kind = EXACT
        proven = self.unproven == unproven0
        self.tt.put(key, INFINITE_DEPTH if proven else d, best, kind, best_action)

    def _quiescence(self, s: State, alpha: float, beta: float, qdepth: int) -> float:
        """Search only noisy actions past the cut-off; the player may 'stand pat'."""
        game, stats = self.game, self.stats
        if game.is_terminal(s):
            stats.leaves += 1
            return game.utilities(s)[self.root]
        stats.leaves += 1
        stand = self.cut(s, self.root)
        player = game.to_move(s)
        noisy = [a for a in game.actions(s) if self.noisy(s, a)] if qdepth > 0 else []
        self.unproven += 1
        if not noisy or player == CHANCE:
            return stand
        maximizing = player == self.root
        best = stand
        if maximizing:
            if best >= beta:
                return best
            alpha = max(alpha, best)
        else:
            if best <= alpha:
                return best
            beta = min(beta, best)
        for a in noisy:
            v = self._quiescence(game.result(s, a), alpha, beta, qdepth - 1)
            if maximizing:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            else:
                if v < best:
                    best = v
                    beta = min(beta, v)
            if alpha >= beta:
                stats.cutoffs += 1
                break
        return best

    # --- move ordering ---------------------------------------------------------------------
    def _ordered(self, s: State, player: int, ply: int, tt_action: Any, depth: int = 0) -> list:
        """The actions of ``s``, best first: the table's move, the killers, then the game's
        order (re-sorted by history where ``depth`` is at least HISTORY_MIN_DEPTH)."""
        actions = self.game.actions(s)
        if self.order is not None:
            actions = self.order(s, actions)
        if self.use_history and depth >= HISTORY_MIN_DEPTH:
            credit = self.history.get(player)
            if credit:  # a stable sort: the game's order breaks ties
                actions = sorted(actions, key=credit.__getitem__, reverse=True)
        killers = self.killers[ply] if self.use_killers and ply < len(self.killers) else NO_PV
        if tt_action is None and not killers:
            return actions if isinstance(actions, list) else list(actions)
        front = []
        for a in (tt_action, *killers):
            if a is not None and a not in front and a in actions:
                front.append(a)
        if not front:
            return actions if isinstance(actions, list) else list(actions)
        return front + [a for a in actions if a not in front]

    def _reward(self, player: int, action: Any, ply: int, depth: int) -> None:
        """Remember a move that caused a cut-off (killer) and credit it (history)."""
        if self.use_killers:
            killers = self.killers
            while len(killers) <= ply:
                killers.append(NO_PV)
            slot = killers[ply]
            if action not in slot:
                killers[ply] = (action, *slot[:1])
        if self.use_history:
            credit = self.history.get(player)
            if credit is None:
                credit = self.history[player] = defaultdict(int)
            credit[action] += depth * depth if depth < INFINITE_DEPTH else 64

    def _principal_variation(self, state: State, pv: tuple, value: float, depth: int,
                             exact: bool) -> list:
        """The PV from the search, extended through the table where it was cut short.

        With trusted table actions (the key is the state), it follows exact entries' moves.
        Otherwise (a symmetric ``state_key``) the table's values lead: every position on the
        PV has the root's ``value``, so each step is a move to a child that the table pins to
        that value; this needs an ``exact`` root value and stops at the search ``depth``.
        """
        line = list(pv)
        if self.tt is None:
            return line
        game, s = self.game, state
        seen = set()
        for a in line:
            s = game.result(s, a)
        while not game.is_terminal(s) and len(line) < 256:
            key = self.key(s) if self.key else s
            if key in seen:
                break
            seen.add(key)
            if self.trust_tt_action:
                entry = self.tt.get(key)
                action = entry[3] if entry is not None and entry[2] == EXACT else None
            elif exact and len(line) < depth:
                action = self._keeping_value(s, value, depth - len(line) - 1)
            else:
                action = None
            if action is None:
                break
            line.append(action)
            s = game.result(s, action)
        return line

    def _keeping_value(self, s: State, value: float, depth: int) -> Any:
        """An action of ``s`` (whose value is ``value``) to a child the table pins to
        ``value``, searched at least ``depth`` plies deep (or None).

        A child stored as exactly ``value`` qualifies, and so does one whose bound pins it:
        at least ``value`` where MAX moves (no child of a MAX node exceeds the node's value),
        at most ``value`` where MIN moves.
        """
        game = self.game
        maximizing = game.to_move(s) == self.root
        for a in game.actions(s):
            child = game.result(s, a)
            if game.is_terminal(child):
                if game.utilities(child)[self.root] == value:
                    return a
                continue
            found = self.tt.get(self.key(child) if self.key else child)
            if found is None or found[0] < depth:
                continue
            kind, v = found[2], found[1]
            if ((kind == EXACT and v == value) or (maximizing and kind == LOWER and v >= value)
                    or (not maximizing and kind == UPPER and v <= value)):
                return a
        return None


def alphabeta(
    game: Game,
    state: State,
    depth: int | None = None,
    time: float | None = None,
    **options: Any,
) -> SearchResult:
    """Alpha-beta from ``state``: value for the player to move, best action, PV, statistics.

    * ``depth=None, time=None``: search to the end of the game (exact value);
    * ``depth=N``: search N plies, ``evaluate`` at the cut-off;
    * ``time=T``: iterative deepening (to ``depth`` at most), returning the deepest
      completed result within T seconds — always a legal action.

    Other options go to :class:`AlphaBeta` (``order``, ``tt``, ``killers``, ``history``,
    ``quiescence``, ``null_window``, ``evaluate``, ``trace``); ``iterative=True`` deepens
    without a time budget.
    """
    iterative = options.pop("iterative", False)
    if time is None and not iterative:
        return AlphaBeta(game, **options).search(state, depth)
    results = iterative_deepening(game, state, depth, time=time, **options)
    last = None
    for last in results:  # noqa: B007  (the deepest result is the answer)
        pass
    return last


def iterative_deepening(
    game: Game,
    state: State,
    max_depth: int | None = None,
    time: float | None = None,
    stop: Stop | None = None,
    pace: Pace = STEADY,
    **options: Any,
) -> Iterator[SearchResult]:
    """Search depth 1, 2, 3, ... yielding each completed result (sunfish style), on the
    shared anytime driver (:func:`gamesearch.anytime.iterations`).

    Stops after ``max_depth``, when a search reaches the end of the game everywhere (its
    value is exact), or when ``time`` runs out: then it yields a final result, the deepest
    completed one, with the time actually spent. Depth 1 always completes, whatever the
    time. Callers may stop iterating at any point; ``stop`` (a callable or an Event, polled
    during the search) ends it inside an iteration, as running out of time does.
    """
    if game.is_terminal(state):
        raise GameSearchError("the game is over: there is nothing to search")
    options.setdefault("tt", True)
    searcher = AlphaBeta(game, **options)

    def step(depth: int, budget: Budget) -> SearchResult:
        searcher.clock = budget.clock()
        searcher.timed = searcher.clock.limited
        try:
            result = searcher.search(state, depth)
        except SearchTimeout:  # the iteration is void; its nodes count
            return SearchResult(None, None, [], _snapshot(searcher.stats, depth),
                                stopped_by="time")
        result.stats = _snapshot(searcher.stats, depth)
        return result  # stopped_by "end" where every leaf was the end of the game

    yield from iterations(step, Limit(depth=max_depth, time=time), pace=pace, stop=stop)


def _snapshot(stats: SearchStats, depth: int) -> SearchStats:
    copy = SearchStats(**{**stats.__dict__, "extra": dict(stats.extra)})
    copy.depth = depth
    return copy


def mtdf(
    game: Game,
    state: State,
    depth: int | None = None,
    guess: float = 0.0,
    **options: Any,
) -> SearchResult:
    """MTD(f) (Plaat et al. 1996): converge on the value with null-window alpha-beta passes.

    Each pass asks "is the value at least beta?" with a window of zero width; the bounds
    close in on the minimax value. A transposition table makes the passes cheap; it is on
    unless ``tt=False``. The number of passes is reported in ``stats.iterations``.
    """
    options.setdefault("tt", True)
    searcher = AlphaBeta(game, **options)
    lower, upper = -INF, INF
    g = guess
    result = None
    passes = 0
    while lower < upper:
        beta = math.nextafter(g, INF) if g == lower else g
        result = searcher.search(state, depth, math.nextafter(beta, -INF), beta)
        g = result.value
        passes += 1
        if g < beta:
            upper = g
        else:
            lower = g
    final = searcher.search(state, depth, math.nextafter(g, -INF), math.nextafter(g, INF))
    final.value = g
    final.stats.iterations = passes
    return final
