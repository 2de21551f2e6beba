"""Search with chance: expectimax, expectiminimax, and Ballard's *-minimax pruning.

The lectures' expectiminimax (AIMA 5.5): MAX nodes take the maximum, MIN nodes the minimum,
and a CHANCE node the *expectation* of its children's values, each weighted by its
probability (weighted once: never also divided by the count). Expectimax is the same search
when the opponents are not adversaries but chance: each of them plays uniformly at random, or
by an opponent model that gives a probability to each of its moves (the lectures' Pacman
against random ghosts).

``depth`` counts the moves of players (plies); chance nodes do not consume depth, so a
"depth-2" backgammon search is one's own move, the dice, and the opponent's reply (the
champion-level programs' two-ply search). At the cut-off the game's ``evaluate`` (or the
``evaluate=`` argument) scores the state, chance states included.

Values are from the viewpoint of the player to move at the root (``player=`` chooses it when
the root is a chance node); every other player minimizes that value (expectiminimax) or is
averaged over (expectimax).

*-minimax (Ballard 1983; Hauk, Buro & Schaeffer, "Rediscovering *-Minimax Search", 2004)
adds alpha-beta to expectiminimax for games whose values lie in known bounds [L, U]:

* **Star1** searches the children of a chance node in turn with a window derived from the
  parent's (alpha, beta): the unseen children are assumed as good (U) or as bad (L) as they
  could be, so the node can be cut as soon as its expectation must fall outside the window.
* **Star2** first *probes* one move of each child (a lower bound for a MAX child, an upper
  bound for a MIN child); the probes tighten the assumed bounds, and often cut the chance
  node before any child is searched in full.

Both return exactly the plain expectiminimax value (tests/test_chance_search.py checks this
on random trees with hypothesis). Chance nodes with many outcomes may be *sampled* instead
of enumerated (``samples=k``): k outcomes drawn by their probabilities, averaged equally;
``stats.extra["sample_size"]`` and ``stats.extra["samples_drawn"]`` say how many.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, Game, State, check_chance_outcomes
from gamesearch.result import Clock, SearchResult, SearchStats
from gamesearch.search.minimax import INFINITE_DEPTH, Trace, evaluator

INF = math.inf

OpponentModel = Callable[[Game, State], Sequence[tuple[Any, float]]]
"""``model(game, state) -> [(action, probability), ...]`` for an opponent's move."""

PRUNINGS = (None, "star1", "star2")


# --- plain expectimax / expectiminimax: the readable reference ------------------------------


class _Expectation:
    """The shared recursion of expectimax and expectiminimax, without pruning.

    ``averaged(s, player)`` returns the outcome list of a node that is averaged (a chance
    node, or an opponent under expectimax), or None for a node that is maximized/minimized.
    """

    def __init__(self, game: Game, root: int, cut: Callable[[State, int], float],
                 averaged: Callable[[State, int], list | None], trace: Trace | None,
                 samples: int | None, rng: random.Random) -> None:
        self.game, self.root, self.cut = game, root, cut
        self.averaged, self.trace = averaged, trace
        self.samples, self.rng = samples, rng
        self.stats = SearchStats()

    def value(self, s: State, d: int) -> tuple[float, list]:
        """The value of ``s`` with ``d`` plies left, and the line of best play below it."""
        game, stats, trace = self.game, self.stats, self.trace
        if game.is_terminal(s):
            stats.leaves += 1
            v = game.utilities(s)[self.root]
            if trace:
                trace("leaf", s, value=v)
            return v, []
        if d <= 0:
            stats.leaves += 1
            v = self.cut(s, self.root)
            if trace:
                trace("leaf", s, value=v)
            return v, []
        player = game.to_move(s)
        stats.nodes += 1
        if trace:
            trace("enter", s, player=player)
        outcomes = self.averaged(s, player)
        if outcomes is not None:
            # a chance node: the probability-weighted sum of the children's values
            nd = d if player == CHANCE else d - 1
            best = 0.0
            for outcome, p in self._drawn(outcomes):
                v, _ = self.value(game.result(s, outcome), nd)
                best += p * v
            line: list = []
        else:
            maximizing = player == self.root
            best, line = None, []
            for a in game.actions(s):
                v, below = self.value(game.result(s, a), d - 1)
                if best is None or (v > best if maximizing else v < best):
                    best, line = v, [a, *below]
        if trace:
            trace("exit", s, value=best)
        return best, line

    def _drawn(self, outcomes: list) -> list:
        """All outcomes, or a sample of ``samples`` of them weighted equally."""
        k = self.samples
        if k is None or len(outcomes) <= k:
            return outcomes
        drawn = self.rng.choices([o for o, _ in outcomes], [p for _, p in outcomes], k=k)
        self.stats.extra["samples_drawn"] = self.stats.extra.get("samples_drawn", 0) + k
        return [(o, 1.0 / k) for o in drawn]


def _root_search(search: _Expectation, state: State, depth: int | None) -> SearchResult:
    """Search the root: the value, best action, per-action values, and statistics."""
    clock = Clock(None)
    game, stats = search.game, search.stats
    limit = INFINITE_DEPTH if depth is None else depth
    if game.is_terminal(state) or game.to_move(state) == CHANCE or limit <= 0:
        value, _ = search.value(state, limit)
        stats.seconds = clock.elapsed()
        return SearchResult(value, None, [], stats, pov=search.root)
    stats.nodes += 1
    if search.trace:
        search.trace("enter", state, player=search.root)
    action_values: dict[Any, float] = {}
    best, pv = None, []
    for a in game.actions(state):
        v, line = search.value(game.result(state, a), limit - 1)
        action_values[a] = v
        if best is None or v > best:
            best, pv = v, [a, *line]
    if search.trace:
        search.trace("exit", state, value=best)
    stats.depth = limit if depth is not None else len(pv)
    stats.seconds = clock.elapsed()
    return SearchResult(best, pv[0], pv, stats, action_values, pov=search.root)


def _root_player(game: Game, state: State, player: int | None) -> int:
    if player is not None:
        if not 0 <= player < game.num_players:
            raise GameSearchError(f"player {player} is not a player of {game.name} "
                                  f"(0..{game.num_players - 1})")
        return player
    mover = game.to_move(state) if not game.is_terminal(state) else 0
    return 0 if mover == CHANCE else mover


def _check_samples(samples: int | None) -> None:
    if samples is not None and (isinstance(samples, bool) or not isinstance(samples, int)
                                or samples < 1):
        raise GameSearchError(f"samples={samples!r}: the sample size must be a positive integer")


def chance_outcomes(game: Game, state: State) -> list[tuple[Any, float]]:
    """A chance node's outcomes, validated (non-negative probabilities summing to 1)."""
    return check_chance_outcomes(game.chance_outcomes(state), f"{game.name} chance node")


def expectiminimax(
    game: Game,
    state: State,
    depth: int | None = None,
    evaluate: Callable[[State, int], float] | None = None,
    trace: Trace | None = None,
    *,
    pruning: str | None = None,
    bounds: tuple[float, float] | None = None,
    samples: int | None = None,
    seed: int | None = None,
    player: int | None = None,
) -> SearchResult:
    """Expectiminimax: MAX and MIN nodes as in minimax, chance nodes take the expectation.

    ``pruning`` = None (plain, the reference), "star1" or "star2" (Ballard's *-minimax; needs
    ``bounds`` = (L, U) on every utility and evaluation, or a game attribute
    ``utility_bounds``). ``samples=k`` samples k outcomes at chance nodes with more than k.
    """
    if pruning not in PRUNINGS:
        raise GameSearchError(f"unknown pruning {pruning!r}; use star1, star2 or none")
    _check_samples(samples)
    root = _root_player(game, state, player)
    cut = evaluator(game, evaluate)
    rng = random.Random(seed)
    if pruning is not None:
        lo, hi = utility_bounds(game, bounds)
        searcher = StarSearch(game, root, cut, lo, hi, probing=pruning == "star2",
                              trace=trace, samples=samples, rng=rng)
        result = searcher.search(state, depth)
    else:
        def averaged(s: State, p: int) -> list | None:
            return chance_outcomes(game, s) if p == CHANCE else None

        search = _Expectation(game, root, cut, averaged, trace, samples, rng)
        result = _root_search(search, state, depth)
    if samples is not None:
        result.stats.extra["sample_size"] = samples
        result.stats.extra.setdefault("samples_drawn", 0)
        result.stats.iterations = result.stats.extra["samples_drawn"]
    return result


def expectimax(
    game: Game,
    state: State,
    depth: int | None = None,
    evaluate: Callable[[State, int], float] | None = None,
    opponent_model: OpponentModel | None = None,
    trace: Trace | None = None,
    *,
    samples: int | None = None,
    seed: int | None = None,
) -> SearchResult:
    """Expectimax: the root player maximizes; every other player is a chance node.

    An opponent plays uniformly at random over its legal actions, or by ``opponent_model``
    (``model(game, state) -> [(action, probability), ...]``, validated like chance
    outcomes). The game's own chance nodes are averaged by their probabilities.
    """
    _check_samples(samples)
    root = _root_player(game, state, None)  # player 0 (MAX) where the root is chance
    cut = evaluator(game, evaluate)

    def averaged(s: State, p: int) -> list | None:
        if p == root:
            return None
        if p == CHANCE:
            return chance_outcomes(game, s)
        if opponent_model is not None:
            where = f"opponent model at a state of {game.name}"
            model = check_chance_outcomes(opponent_model(game, s), where)
            legal = set(game.actions(s))
            for a, _ in model:
                if a not in legal:
                    raise GameSearchError(f"{where}: action {a!r} is not legal there")
            return model
        acts = list(game.actions(s))
        return [(a, 1.0 / len(acts)) for a in acts]

    search = _Expectation(game, root, cut, averaged, trace, samples, random.Random(seed))
    result = _root_search(search, state, depth)
    if samples is not None:
        result.stats.extra["sample_size"] = samples
        result.stats.extra.setdefault("samples_drawn", 0)
        result.stats.iterations = result.stats.extra["samples_drawn"]
    return result


# --- *-minimax: alpha-beta through chance nodes ----------------------------------------------


def utility_bounds(game: Game, bounds: tuple[float, float] | None = None) -> tuple[float, float]:
    """The bounds [L, U] *-minimax needs: given, or the game's ``utility_bounds``."""
    if bounds is None:
        bounds = getattr(game, "utility_bounds", None)
    if bounds is None:
        raise GameSearchError(f"*-minimax needs bounds on the values of {game.name}: pass "
                              "bounds=(L, U) or give the game a utility_bounds attribute")
    lo, hi = bounds
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise GameSearchError(f"bounds {bounds!r}: need finite L < U")
    return float(lo), float(hi)


class StarSearch:
    """Fail-soft alpha-beta over MAX/MIN nodes with Star1 (and Star2 probing) at chance nodes.

    Every leaf value must lie in [lo, hi]; a value outside raises GameSearchError, because
    the pruning would then be wrong without warning.
    """

    def __init__(self, game: Game, root: int, cut: Callable[[State, int], float],
                 lo: float, hi: float, probing: bool = True, trace: Trace | None = None,
                 samples: int | None = None, rng: random.Random | None = None) -> None:
        self.game, self.root, self.cut = game, root, cut
        self.lo, self.hi, self.probing = lo, hi, probing
        self.trace, self.samples = trace, samples
        self.rng = rng or random.Random()
        self.order = getattr(game, "order_actions", None)
        self.stats = SearchStats()

    def search(self, state: State, depth: int | None) -> SearchResult:
        """The value of ``state`` and the best root action (values exact, as plain search)."""
        clock = Clock(None)
        game, stats = self.game, self.stats
        limit = INFINITE_DEPTH if depth is None else depth
        if game.is_terminal(state) or game.to_move(state) == CHANCE or limit <= 0:
            value = self.value(state, limit, self.lo, self.hi)
            stats.seconds = clock.elapsed()
            return SearchResult(value, None, [], stats, pov=self.root)
        stats.nodes += 1
        if self.trace:
            self.trace("enter", state, player=self.root)
        best, best_action = -INF, None
        for a in self._actions(state):
            if best >= self.hi:  # nothing can beat the best possible value
                break
            # a child worth no more than `best` is cut; one that is better comes back exact
            v = self.value(game.result(state, a), limit - 1, max(best, self.lo), self.hi)
            if v > best or best_action is None:
                best, best_action = v, a
        if self.trace:
            self.trace("exit", state, value=best)
        stats.depth = limit if depth is not None else 1
        stats.seconds = clock.elapsed()
        return SearchResult(best, best_action, [best_action], stats, pov=self.root)

    def _actions(self, s: State) -> list:
        actions = list(self.game.actions(s))
        return list(self.order(s, actions)) if self.order else actions

    def _leaf(self, s: State, v: float) -> float:
        if not self.lo <= v <= self.hi:
            raise GameSearchError(
                f"{self.game.name}: value {v!r} lies outside the bounds [{self.lo}, {self.hi}] "
                "that *-minimax pruning assumes")
        self.stats.leaves += 1
        if self.trace:
            self.trace("leaf", s, value=v)
        return v

    def value(self, s: State, d: int, alpha: float, beta: float) -> float:
        """Fail-soft: exact inside (alpha, beta); an upper bound <= alpha or lower >= beta."""
        game = self.game
        if game.is_terminal(s):
            return self._leaf(s, game.utilities(s)[self.root])
        if d <= 0:
            return self._leaf(s, self.cut(s, self.root))
        player = game.to_move(s)
        self.stats.nodes += 1
        if self.trace:
            self.trace("enter", s, player=player, alpha=alpha, beta=beta)
        if player == CHANCE:
            v = self._chance(s, d, alpha, beta)
        else:
            v = self._decision(s, player, d, alpha, beta)
        if self.trace:
            self.trace("exit", s, value=v, alpha=alpha, beta=beta)
        return v

    def _decision(self, s: State, player: int, d: int, alpha: float, beta: float) -> float:
        game = self.game
        actions = self._actions(s)
        maximizing = player == self.root
        best = -INF if maximizing else INF
        for i, a in enumerate(actions):
            v = self.value(game.result(s, a), d - 1, alpha, beta)
            if maximizing:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                self.stats.cutoffs += 1
                if self.trace:
                    self.trace("prune", s, pruned=actions[i + 1:], value=best)
                break
        return best

    def _outcomes(self, s: State) -> list:
        outcomes = chance_outcomes(self.game, s)
        k = self.samples
        if k is None or len(outcomes) <= k:
            return outcomes
        drawn = self.rng.choices([o for o, _ in outcomes], [p for _, p in outcomes], k=k)
        self.stats.extra["samples_drawn"] = self.stats.extra.get("samples_drawn", 0) + k
        return [(o, 1.0 / k) for o in drawn]

    def _chance(self, s: State, d: int, alpha: float, beta: float) -> float:
        """Star1 (with Star2's probing phase first when enabled) at a chance node."""
        game = self.game
        outcomes = self._outcomes(s)
        children = [game.result(s, o) for o, _ in outcomes]
        probs = [p for _, p in outcomes]
        n = len(children)
        lower = [self.lo] * n  # what is known of each child's value
        upper = [self.hi] * n
        if self.probing:
            cut = self._probe(children, probs, d, lower, upper, alpha, beta)
            if cut is not None:
                return cut
        # Star1: search the children in turn; unseen ones are taken at their bounds
        done = 0.0  # sum of p * value over the children searched
        rest_lo = sum(p * lo for p, lo in zip(probs, lower))
        rest_hi = sum(p * hi for p, hi in zip(probs, upper))
        for i, child in enumerate(children):
            p = probs[i]
            rest_lo -= p * lower[i]
            rest_hi -= p * upper[i]
            if p <= 0:
                continue
            a_i = (alpha - done - rest_hi) / p
            b_i = (beta - done - rest_lo) / p
            if upper[i] <= a_i:  # even the best this child can be is not enough
                self.stats.cutoffs += 1
                self._pruned(s, outcomes, i)
                return min(done + p * upper[i] + rest_hi, alpha)
            if lower[i] >= b_i:  # even the worst this child can be is too much
                self.stats.cutoffs += 1
                self._pruned(s, outcomes, i)
                return max(done + p * lower[i] + rest_lo, beta)
            if lower[i] == upper[i]:
                v = lower[i]
            else:
                v = self.value(child, d, max(a_i, lower[i]), min(b_i, upper[i]))
            if v <= a_i:  # the expectation must end at or below alpha
                self.stats.cutoffs += 1
                self._pruned(s, outcomes, i + 1)
                return min(done + p * v + rest_hi, alpha)
            if v >= b_i:  # ... at or above beta
                self.stats.cutoffs += 1
                self._pruned(s, outcomes, i + 1)
                return max(done + p * v + rest_lo, beta)
            done += p * v  # inside the window, or at a known bound: exact
        return done

    def _probe(self, children: list, probs: list, d: int, lower: list, upper: list,
               alpha: float, beta: float) -> float | None:
        """Star2's probing: one move of each child bounds it; return a cut value or None."""
        game = self.game
        for i, child in enumerate(children):
            if game.is_terminal(child) or d <= 0:
                continue
            player = game.to_move(child)
            if player == CHANCE:
                continue
            first = self._actions(child)[0]
            grandchild = game.result(child, first)
            self.stats.extra["probes"] = self.stats.extra.get("probes", 0) + 1
            if player == self.root:  # a MAX child is worth at least its first move
                others = sum(p * lo for j, (p, lo) in enumerate(zip(probs, lower)) if j != i)
                high = min((beta - others) / probs[i], self.hi) if probs[i] > 0 else self.hi
                if lower[i] >= high:
                    continue
                v = self.value(grandchild, d - 1, lower[i], high)
                if v > lower[i]:
                    lower[i] = v
                bound = sum(p * lo for p, lo in zip(probs, lower))
                if bound >= beta:
                    self.stats.cutoffs += 1
                    return bound
            else:  # a MIN child is worth at most its first move
                others = sum(p * hi for j, (p, hi) in enumerate(zip(probs, upper)) if j != i)
                low = max((alpha - others) / probs[i], self.lo) if probs[i] > 0 else self.lo
                if low >= upper[i]:
                    continue
                v = self.value(grandchild, d - 1, low, upper[i])
                if v < upper[i]:
                    upper[i] = v
                bound = sum(p * hi for p, hi in zip(probs, upper))
                if bound <= alpha:
                    self.stats.cutoffs += 1
                    return bound
        return None

    def _pruned(self, s: State, outcomes: list, i: int) -> None:
        if self.trace:
            self.trace("prune", s, pruned=[o for o, _ in outcomes[i + 1:]], value=None)


__all__ = ["StarSearch", "chance_outcomes", "expectimax", "expectiminimax", "utility_bounds"]
