"""The result contract: what every search, solver and agent returns, and the limits it obeys.

:class:`SearchResult` carries the value, the action, the principal variation and
:class:`SearchStats`; :attr:`SearchResult.score` reads the value as a :class:`Score` (the
value, whose viewpoint it is from, exact or an estimate; python-chess's ``PovScore`` is the
model). Values of two-player zero-sum searches are from the viewpoint of the player to move
at the root (``pov``); N-player searches (max^n, MCTS on N players) return one utility per
player as a tuple (``pov`` None). :class:`Limit` is the one way to bound a search (depth,
time, nodes, iterations: python-chess's ``engine.Limit``); ``stopped_by`` says which one
ended it. Users, tests and benchmarks all read the same :class:`SearchStats`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any


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


@dataclass(frozen=True)
class Score:
    """A value with whose viewpoint it is from and whether it is exact (a proof, not an
    evaluation). ``pov`` None: ``value`` is a tuple, one utility per player."""

    value: Any
    pov: int | None
    exact: bool = False

    def for_player(self, player: int) -> Any:
        """The value from ``player``'s viewpoint (two-player zero-sum: the other's is the
        negation; a tuple is indexed)."""
        if self.value is None:
            return None
        if self.pov is None:
            return self.value[player]
        return self.value if player == self.pov else -self.value


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

    @property
    def score(self) -> Score:
        """The value as a :class:`Score` (value, viewpoint, exact)."""
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
