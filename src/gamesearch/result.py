"""The result contract: what every search, solver and agent returns, and the limits it obeys.

:class:`SearchResult` carries the value, the action, the principal variation and
:class:`SearchStats`; :attr:`SearchResult.score` reads the value as a :class:`Score` (the
value, whose viewpoint it is from, exact or an estimate, and its unit: python-chess's
``PovScore`` is the model). Values of two-player zero-sum searches are from the viewpoint of
the player to move at the root (``pov``); N-player searches (max^n, MCTS on N players) return
one utility per player as a tuple (``pov`` None). :class:`Limit` is the one way to bound a
search (depth, time, nodes, iterations: python-chess's ``engine.Limit``); ``stopped_by`` says
which one ended it. Users, tests and benchmarks all read the same :class:`SearchStats`.

**Scores: one meaning across games.** A :class:`Score` is from ``pov``'s viewpoint (positive:
good for ``pov``). Its ``kind`` says what the number counts; the engine that made it declares
the kind and the conversion parameters once, as a :class:`ValueScale` (for a game's own
engine: its ENTRY's ``scale``); the generic searches give the game's utility. Displays show
player 0's viewpoint (the first player: White in chess, Black in Othello and checkers), as
lichess shows White's advantage: :meth:`Score.win_probability` and :meth:`Score.as_dict`
convert.

The kinds, each with its win probability for ``pov`` (docs/SEARCH.md has the same table):

* ``utility``: the game's own utility, or a search's estimate of it, a plain win worth
  ``scale`` (1 unless declared): ``(1 + value / scale) / 2`` clipped to [0, 1], so an exact
  +-1 is 1 or 0. Text ``+0.35``; exact ``win``, ``loss``, ``draw``.
* ``centipawns``: hundredths of a pawn (chess) or of a man (checkers): exact (a mate, a
  table's verdict) 1, 0 or 0.5 by the sign, else the logistic ``1 / (1 + e^(-value /
  scale))``. Text ``+1.25`` (pawns), a mate ``#5`` / ``#-3`` (``mate_in``).
* ``discs``: Othello's final disc margin (exact) or its estimate: as centipawns. Text
  ``+12 discs``.
* ``moves-to-win``: a solver's score, larger for a sooner win (Connect Four's, Pascal Pons's
  convention): by the sign (it is proven). Text ``win in 7``, ``lose in 4``, ``draw``.
* ``win-probability``: the probability in [0, 1] itself. Text ``62%``.

The logistic scales are the engines' (chess: 1 / 0.00368 ~ 272 cp, lichess's fitted win-rate
curve; checkers: 150 hundredths of a man; Othello: 5 discs); a value of ``scale`` reads as a 73%
chance. ``mate_in`` is signed from ``pov``: positive, ``pov`` wins in that many of the winner's
moves; negative, ``pov`` loses.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, get_args


@dataclass
class SearchStats:
    """What a search did: counted as it goes, read by users, tests and benchmarks."""

    nodes: int = 0
    """Nodes expanded: non-terminal nodes whose children were generated."""
    leaves: int = 0
    """Leaves evaluated: terminal states scored and depth cut-offs evaluated."""
    cutoffs: int = 0
    """Beta (or alpha) cut-offs: times the remaining children of a node were pruned."""
    tt_hits: int = 0
    """Transposition-table probes that ended or narrowed the search of a node."""
    depth: int = 0
    """Plies the answer looked ahead: the deepest completed iteration of a depth-first search
    (rounds of a multi-agent search are converted to plies, ``extra["rounds"]`` keeps them),
    the deepest tree node of MCTS, the plies left to the end for an exact solver."""
    seconds: float = 0.0
    """Wall-clock time of the search."""
    iterations: int = 0
    """MCTS simulations, MTD(f) passes, or chance samples, where that applies."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Algorithm-specific counters (e.g. samples drawn at chance nodes)."""

    @property
    def visited(self) -> int:
        """All nodes touched: expanded plus leaves."""
        return self.nodes + self.leaves

    @property
    def nodes_per_second(self) -> float:
        """Visited nodes per second of wall-clock time."""
        return self.visited / self.seconds if self.seconds > 0 else 0.0

    @property
    def branching_factor(self) -> float:
        """Effective branching factor b*: a uniform tree of depth d with b* children per node
        would hold as many nodes as this search visited (N + 1 = 1 + b* + ... + b*^d)."""
        return effective_branching_factor(self.visited, self.depth)

    def as_dict(self) -> dict[str, Any]:
        """Plain data for JSON output."""
        data = asdict(self)
        data["visited"] = self.visited
        data["nodes_per_second"] = round(self.nodes_per_second, 1)
        data["branching_factor"] = round(self.branching_factor, 3)
        data["seconds"] = round(self.seconds, 6)
        return data


def effective_branching_factor(visited: int, depth: int) -> float:
    """Solve N = b + b^2 + ... + b^d for b (bisection; the root itself is not counted)."""
    if depth <= 0 or visited <= 0:
        return 0.0
    if depth == 1:
        return float(visited)

    def total(b: float) -> float:
        return sum(b**i for i in range(1, depth + 1))

    lo, hi = 0.0, max(1.0, float(visited))
    for _ in range(100):
        mid = (lo + hi) / 2
        if total(mid) < visited:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


STOPPED_BY = ("depth", "time", "nodes", "iterations", "end", "stop")
"""Why a search ended: a :class:`Limit` field it reached, the end of the game everywhere
(``end``: the value is exact) or a person's stop request (``stop``)."""


@dataclass(frozen=True)
class Limit:
    """How far a search may go; every field None means no bound of that kind."""

    depth: int | None = None
    """Plies (iterative deepening stops after this depth)."""
    time: float | None = None
    """Seconds of wall-clock time."""
    nodes: int | None = None
    """Nodes visited."""
    iterations: int | None = None
    """Simulations (MCTS) or samples, where that applies."""

    def __post_init__(self) -> None:
        for name, value in self.params().items():
            if isinstance(value, bool) or value <= 0:
                raise ValueError(f"limit {name} must be positive, got {value!r}")

    def params(self) -> dict[str, Any]:
        """The bounds that are set, by name (what an agent spec's parameters are called)."""
        return {k: v for k, v in asdict(self).items() if v is not None}

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> Limit:
        """The limit named in a spec's parameters (other parameters are ignored)."""
        return cls(**{k: params[k] for k in ("depth", "time", "nodes", "iterations")
                      if params.get(k) is not None})


ScoreKind = Literal["utility", "centipawns", "discs", "moves-to-win", "win-probability"]
"""What a :class:`Score`'s number counts (the table in the module docstring)."""
SCORE_KINDS: tuple[str, ...] = get_args(ScoreKind)


@dataclass(frozen=True)
class Score:
    """A value with whose viewpoint it is from, whether it is exact (a proof, not an
    evaluation) and what it counts (``kind``, read with ``scale``). ``pov`` None: ``value``
    is a tuple, one utility per player. ``mate_in``: where the value proves a won or lost
    game, the winner's moves to the end, signed from ``pov`` (positive: ``pov`` wins)."""

    value: Any
    pov: int | None
    exact: bool = False
    kind: ScoreKind = "utility"
    scale: float = 1.0
    mate_in: int | None = None

    def for_player(self, player: int) -> Any:
        """The value from ``player``'s viewpoint (two-player zero-sum: the other's is the
        negation, or 1 - p for a win probability; a tuple is indexed)."""
        if self.value is None:
            return None
        if self.pov is None:
            return self.value[player]
        if player == self.pov:
            return self.value
        return 1 - self.value if self.kind == "win-probability" else -self.value

    def seen_by(self, player: int) -> Score:
        """The same score from ``player``'s viewpoint (python-chess's ``PovScore.pov``)."""
        if self.pov is None or player == self.pov:
            return self
        if self.value is None:
            return Score(None, player, self.exact, self.kind, self.scale)
        mate = None if self.mate_in is None else -self.mate_in
        return Score(self.for_player(player), player, self.exact, self.kind, self.scale, mate)

    def win_probability(self, player: int | None = None) -> float | None:
        """``player``'s expected result in [0, 1] (1 a win, 0.5 a draw or an even position,
        0 a loss), by the kind's conversion (module docstring); ``player`` defaults to
        ``pov``. None where there is no single value (none, or one utility per player)."""
        if self.value is None or self.pov is None:
            return None
        p = _pov_probability(self)
        return p if player is None or player == self.pov else 1.0 - p

    def expectation(self, player: int | None = None) -> float | None:
        """The win probability on the utility scale of a win-loss game: 2p - 1 in [-1, 1]."""
        p = self.win_probability(player)
        return None if p is None else 2.0 * p - 1.0

    def lead(self) -> int:
        """The sign of ``pov``'s advantage as the value says it: 1, 0 or -1 (a win
        probability's even point is 0.5, every other kind's is 0)."""
        gap = float(self.value) - (0.5 if self.kind == "win-probability" else 0.0)
        return (gap > 0) - (gap < 0)

    def __str__(self) -> str:
        """The value in words from ``pov``'s viewpoint: ``+1.25``, ``#5``, ``+12 discs``,
        ``win in 7``, ``62%``, ``win``."""
        if self.value is None:
            return "none"
        if self.pov is None:
            return ", ".join(_number(v) for v in self.value)
        return _TEXT[self.kind](self)

    def as_dict(self, player: int = 0) -> dict[str, Any]:
        """Plain data for the faces (--json, the web), all from ``player``'s viewpoint (by
        default player 0's, as displays show it): ``value``, ``kind``, ``pov``, ``exact``,
        ``win_probability``, ``text`` and, where known, ``mate_in``."""
        seen = self.seen_by(player) if self.pov is not None else self
        p = seen.win_probability()
        out: dict[str, Any] = {"value": plain_data(seen.value), "kind": seen.kind,
                               "pov": seen.pov, "exact": seen.exact,
                               "win_probability": None if p is None else round(p, 4),
                               "text": str(seen)}
        if seen.mate_in is not None:
            out["mate_in"] = seen.mate_in
        return out


def _logistic(x: float) -> float:
    """1 / (1 + e^-x) without overflow."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _by_sign(value: float) -> float:
    return 1.0 if value > 0 else 0.0 if value < 0 else 0.5


def _pov_probability(score: Score) -> float:
    """``pov``'s win probability by the kind's conversion (the module docstring's table)."""
    v = float(score.value)
    if math.isnan(v):
        return 0.5
    if score.kind == "win-probability":
        return min(1.0, max(0.0, v))
    if score.kind == "utility":
        return min(1.0, max(0.0, (1.0 + v / score.scale) / 2.0))
    if score.kind == "moves-to-win" or score.exact or score.mate_in is not None:
        return _by_sign(v)
    return _logistic(v / score.scale)


def _number(value: Any) -> str:
    if isinstance(value, float):
        value += 0.0  # -0.0 (a negated even value) reads "+0", never "-0"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:+.2f}"
    return f"{value:+g}" if isinstance(value, (int, float)) else str(value)


def _outcome(value: float, exact_text: str) -> str:
    return "win" if value > 0 else "loss" if value < 0 else exact_text


def _utility_text(score: Score) -> str:
    v = score.value
    if not score.exact:
        return _number(v)
    if v == 0:
        return "draw"
    if abs(v) >= score.scale:
        word = _outcome(v, "draw")
        return word if abs(v) == score.scale else f"{word} ({v:+g})"
    return f"{_number(v)} (exact)"


def _centipawn_text(score: Score) -> str:
    if score.mate_in is not None:
        return f"#{score.mate_in}" if score.value > 0 else f"#-{abs(score.mate_in)}"
    if score.exact:
        return _outcome(score.value, "draw")
    return f"{score.value / 100 + 0.0:+.2f}"  # + 0.0: a negated 0 reads "+0.00"


def _disc_text(score: Score) -> str:
    v = score.value
    if score.exact or float(v).is_integer():
        return "draw (0 discs)" if score.exact and v == 0 else f"{int(v):+d} discs"
    return f"{v:+.1f} discs"


def _moves_text(score: Score) -> str:
    v = score.value
    if v == 0:
        return "draw"
    if score.mate_in is None:
        return _outcome(v, "draw")
    return f"{'win' if v > 0 else 'lose'} in {abs(score.mate_in)}"


_TEXT: dict[str, Callable[[Score], str]] = {
    "utility": _utility_text, "centipawns": _centipawn_text, "discs": _disc_text,
    "moves-to-win": _moves_text,
    "win-probability": lambda score: f"{100 * score.value:.0f}%",
}


@dataclass(frozen=True)
class ValueScale:
    """How one engine's values read: their ``kind`` and ``scale`` (the module docstring's
    table), declared once per engine (a game's ENTRY holds its engine's) and turned into a
    :class:`Score` by :meth:`score`, so no face guesses a unit.

    ``distance(value, game, state)``: the winner's moves to the end that a value proves,
    signed from the viewpoint of the player to move (None: the value proves no end)."""

    kind: ScoreKind = "utility"
    scale: float = 1.0
    distance: Callable[[Any, Any, Any], int | None] | None = None

    def __post_init__(self) -> None:
        if self.kind not in SCORE_KINDS:
            raise ValueError(f"score kind {self.kind!r}: one of {', '.join(SCORE_KINDS)}")
        if not self.scale > 0:
            raise ValueError(f"score scale must be positive, got {self.scale!r}")

    def score(self, value: Any, pov: int | None, exact: bool = False, game: Any = None,
              state: Any = None) -> Score:
        """The engine's raw ``value`` (from ``pov``'s viewpoint) as a Score; a value that
        proves a distance to the end is exact."""
        mate = None
        if self.distance is not None and value is not None:
            mate = self.distance(value, game, state)
        return Score(value, pov, exact or mate is not None, self.kind, self.scale, mate)


UTILITY = ValueScale()
"""The game's own utility, a won game worth 1: the scale of every generic search."""


@dataclass
class SearchResult:
    """The answer of a search: ``value`` (root mover's viewpoint, or a tuple per player),
    ``action`` (the chosen legal action; None at a terminal root), ``pv`` (the principal
    variation, starting with ``action``) and ``stats``."""

    value: Any
    action: Any
    pv: list[Any] = field(default_factory=list)
    stats: SearchStats = field(default_factory=SearchStats)
    action_values: dict[Any, Any] | None = None
    """Where a search computed them exactly: the value of each root action."""
    pov: int | None = None
    """The player whose viewpoint ``value`` is from (the root mover); None where unknown or
    where ``value`` is one utility per player."""
    exact: bool = False
    """True when ``value`` is proven (searched to the end of the game), not estimated."""
    stopped_by: str | None = None
    """Why the search ended (one of :data:`STOPPED_BY`); None where it was not recorded."""
    engine_score: Score | None = None
    """The value in the engine's own unit (centipawns, discs...: its :class:`ValueScale`),
    where an engine gives one; ``value`` then keeps the engine's utility-like reading."""

    @property
    def score(self) -> Score:
        """The value as a :class:`Score`: the engine's own where it gave one, else ``value``
        read as the game's utility (viewpoint, exact)."""
        return self.engine_score if self.engine_score is not None else self.value_score

    @property
    def value_score(self) -> Score:
        """``value`` itself as a Score (the game's utility reading), whatever unit the engine
        gave its own score in: what a tournament's resign and draw thresholds compare."""
        pov = None if isinstance(self.value, tuple) else self.pov
        return Score(self.value, pov, self.exact)

    def as_dict(self, game: Any = None, state: Any = None) -> dict[str, Any]:
        """Plain data for JSON output; actions written with the game's notation if given."""
        def show(action: Any, at: Any = None) -> Any:
            if game is not None and at is not None:
                return game.action_to_string(at, action)
            plain = isinstance(action, (int, float, str)) or action is None
            return action if plain else str(action)

        pv_shown = []
        cur = state
        for action in self.pv:
            pv_shown.append(show(action, cur))
            if game is not None and cur is not None:
                cur = game.result(cur, action)
        out = {
            "value": _plain(self.value),
            "action": show(self.action, state) if self.action is not None else None,
            "pv": pv_shown,
            "stats": self.stats.as_dict(),
        }
        if self.stopped_by is not None:
            out["stopped_by"] = self.stopped_by
        score = self.score
        if score.value is not None and score.pov is not None:
            out["score"] = score.as_dict()
        if self.exact:
            out["exact"] = True
        if self.action_values is not None:
            out["action_values"] = {
                str(show(a, state)): _plain(v) for a, v in self.action_values.items()
            }
        return out

    def html(self, game: Any = None, state: Any = None) -> str:
        """The result as a small HTML table (value with its viewpoint, action, principal
        variation, statistics); actions in the game's notation when ``game`` and the root
        ``state`` are given."""
        from gamesearch.drawing import html_table, number

        data = self.as_dict(game, state)
        score = self.score
        whose = ("one utility per player" if score.pov is None
                 else f"player {score.pov + 1}'s view")
        exact = "exact" if score.exact else "estimate"
        stats = self.stats
        rows = [["value", f"{number(self.value)} ({whose}, {exact})"],
                ["action", "" if data["action"] is None else str(data["action"])],
                ["PV", " ".join(str(m) for m in data["pv"])],
                ["depth", str(stats.depth)],
                ["nodes", f"{stats.nodes:,} expanded, {stats.leaves:,} leaves"],
                ["cut-offs", f"{stats.cutoffs:,}"]]
        if stats.tt_hits:
            rows.append(["table hits", f"{stats.tt_hits:,}"])
        if stats.iterations:
            rows.append(["iterations", f"{stats.iterations:,}"])
        rows.append(["time", f"{stats.seconds:.3f} s"
                     + (f" ({stats.nodes_per_second:,.0f} nodes/s)" if stats.seconds else "")])
        if self.stopped_by:
            rows.append(["stopped by", self.stopped_by])
        if self.action_values:
            rows.append(["action values", ", ".join(
                f"{a}: {number(v) if not isinstance(v, list) else v}"
                for a, v in data["action_values"].items())])
        return str(html_table(rows, caption="SearchResult"))

    def _repr_html_(self) -> str:
        """Jupyter shows a result as its table (:meth:`html`)."""
        return self.html()


def plain_data(value: Any) -> Any:
    """Any report as plain JSON data, the same for every face: dict keys as text, tuples as
    lists, integral floats as ints, non-finite floats and other objects as text."""
    if isinstance(value, dict):
        return {str(k): plain_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain_data(v) for v in value]
    if isinstance(value, float):
        if not math.isfinite(value):
            return str(value)
        return int(value) if value.is_integer() else value
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return str(value)


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


class Clock:
    """A deadline for anytime search: ``expired()`` is cheap enough to call every node.

    ``stop``: an optional callable asked at every ``expired()`` (a person pressed "Move now",
    or closed the view); once it returns True the clock stays expired. Searches call
    ``expired()`` every few hundred nodes when the clock is ``limited``."""

    __slots__ = ("deadline", "start", "stop")

    def __init__(self, seconds: float | None, stop: Callable[[], bool] | None = None) -> None:
        self.start = time.perf_counter()
        self.deadline = None if seconds is None else self.start + seconds
        self.stop = stop

    @property
    def limited(self) -> bool:
        """True when the search may be cut short: a deadline or a stop request."""
        return self.deadline is not None or self.stop is not None

    def expired(self) -> bool:
        """True once the budget is spent (never, without a budget) or ``stop`` said so."""
        if self.stop is not None and self.stop():
            self.deadline = self.start  # stopped: expired from now on
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def elapsed(self) -> float:
        """Seconds since the clock started."""
        return time.perf_counter() - self.start


class SearchTimeout(Exception):
    """Raised inside an iteration when the clock runs out; the caller keeps the last result."""
