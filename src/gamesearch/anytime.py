"""The one anytime driver: iterative deepening (AIMA 3.4.5, used as in every game program)
over an engine's per-depth step, bounded by one :class:`~gamesearch.result.Limit`.

An engine supplies ``step(depth, budget)``: search the root to ``depth`` and return the
:class:`~gamesearch.result.SearchResult` of that iteration, or None when ``budget`` (its
deadline, node limit or stop) cut it short. The driver owns everything around the steps,
the same for the chess, checkers and Othello engines, the compiled kernel search and the
readable alpha-beta:

* **depth 1 always completes** (issue #38): the first iteration is given an empty budget (no
  deadline, no node limit, no stop), so an engine always answers with a searched move
  whatever its time; the hard budget is armed from the second iteration on. A stop asked
  during the first iteration takes effect as soon as it ends.
* **the hard budget**: ``limit.time`` seconds from the start, handed to every later step as
  its deadline (and ``limit.nodes`` as its node limit); a step that reads a clock abandons
  its iteration there, and the deepest completed one is the answer.
* **the soft budget**: no iteration starts that :class:`Pace` predicts will not end within
  it (the engine declares its pace: how much longer each iteration takes than the last).
* **a tournament budget**: :class:`Target` turns "about T seconds a move" into the two
  above, the hard limit at a share of T (capped by what a clock holds, less what the move
  has already spent) and the soft one at another share; the engines keep their measured
  shares as constants and build their budgets through it.
* **the stop flag**: a callable or a :class:`threading.Event`, asked between iterations and
  handed to the steps, which obey it inside one.
* **progress**: :func:`iterations` yields every completed iteration (sunfish's generator;
  the web's live view and UCI ``info`` lines), :func:`deepen` calls ``on_iteration`` with
  each and returns the answer; a true return from the callback stops the search there.

The answer is the deepest completed iteration with ``stopped_by`` set (``depth``, ``end``,
``time``, ``nodes`` or ``stop``; :data:`~gamesearch.result.STOPPED_BY`). A step ends the
search early by returning a result whose ``stopped_by`` is ``end`` (its value is proven:
no deeper search changes it). Where the search ends on ``depth`` or ``end`` the last
iteration yielded is the answer itself; otherwise (time, nodes, stop) the deepest one is
yielded once more with ``stopped_by`` and the whole search's counts.

It sits in core, beside the result contract, not among the algorithms: the compiled kernel
search (``kernels``, the layer below the algorithms) runs on it too. ``gamesearch.search``
exports it with the algorithms.
"""

from __future__ import annotations

import copy
import itertools
import math
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace

from gamesearch.errors import SpecError
from gamesearch.result import Clock, Limit, SearchResult

Stop = Callable[[], bool] | threading.Event
Step = Callable[[int, "Budget"], SearchResult | None]
CUT = ("time", "nodes", "stop")
"""The ``stopped_by`` of an iteration cut short: its value and action are void."""


@dataclass(frozen=True)
class Pace:
    """How an engine spends a time budget: its one time heuristic's parameters.

    The next iteration is predicted to take ``growth`` times the last one (or the last
    one's own growth over the one before, where that is larger: odd and even depths differ);
    it starts only if it is then predicted to end within ``soft`` times the time limit.
    ``growth=0`` predicts nothing: an iteration starts whenever that soft share is not yet
    spent (the hard deadline cuts what does not fit).
    """

    growth: float = 0.0
    soft: float = 1.0

    def __post_init__(self) -> None:
        if not (self.growth >= 0 and 0 < self.soft <= 1):
            raise ValueError(f"pace needs growth >= 0 and 0 < soft <= 1, got {self}")

    def predict(self, last: float, previous: float) -> float:
        """Seconds the next iteration is predicted to take (``last``, ``previous``: the
        seconds of the last two)."""
        if self.growth == 0:
            return 0.0
        observed = last / previous if previous > 1e-4 else 0.0
        return last * max(self.growth, observed)


@dataclass(frozen=True)
class Budget:
    """What may cut one iteration short, as handed to a step (nothing, at the first)."""

    deadline: float | None = None
    """``time.perf_counter()`` seconds at which the iteration is abandoned."""
    nodes: int | None = None
    """Nodes the whole search may visit (counted from its start)."""
    stop: Callable[[], bool] | None = None
    """Asked inside the iteration: True abandons it."""

    @property
    def limited(self) -> bool:
        """True when something may cut the iteration short."""
        return self.deadline is not None or self.nodes is not None or self.stop is not None

    def expired(self) -> bool:
        """True once the deadline has passed or the stop says so."""
        if self.stop is not None and self.stop():
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline

    @property
    def deadline_us(self) -> int:
        """The deadline in microseconds of ``perf_counter`` (0: none), as compiled searches
        read it."""
        return 0 if self.deadline is None else int(self.deadline * 1e6)

    def clock(self) -> Clock:
        """The deadline and stop as a :class:`~gamesearch.result.Clock` (readable searches)."""
        clock = Clock(None, self.stop)
        clock.deadline = self.deadline
        return clock


NO_LIMIT = Limit()
STEADY = Pace()
"""The default pace: start an iteration while the time limit is not spent."""


@dataclass(frozen=True)
class Target:
    """A tournament budget: about ``seconds`` a move, as a program with a time allowance
    spends it (a target the moves average, not a wall). No iteration starts after
    ``soft_share * seconds``; one still running at ``hard_share * seconds`` is cut (never
    later than ``cap``, what a clock allows, and never sooner than ``floor``, where a clock
    wants some search even with nothing left). Each engine measured its own shares
    against a tournament opponent and keeps them as constants; this type turns them into the
    ``Limit`` and the soft seconds that :func:`deepen` takes, in one place."""

    seconds: float
    soft_share: float
    hard_share: float
    cap: float | None = None
    """The most seconds the hard budget may be (a clock's time left; None: no cap)."""
    floor: float = 0.0
    """The least seconds of the hard limit (a limit must be positive; a clock's move gets
    at least this)."""

    def __post_init__(self) -> None:
        if not (math.isfinite(self.seconds) and self.seconds >= 0):
            raise SpecError(f"target={self.seconds:g}: need a number of seconds >= 0")
        if not 0 < self.soft_share <= self.hard_share <= 10:
            raise SpecError(f"soft={self.soft_share:g}, hard={self.hard_share:g}: need "
                            "0 < soft <= hard <= 10 (shares of target=T)")
        if self.cap is not None and not (math.isfinite(self.cap) and self.cap >= 0):
            raise SpecError(f"cap={self.cap:g}: need a number of seconds >= 0")
        if not (math.isfinite(self.floor) and self.floor >= 0):
            raise SpecError(f"floor={self.floor:g}: need a number of seconds >= 0")

    @property
    def soft(self) -> float:
        """Seconds from the move's start after which no iteration starts."""
        return self.bounds()[1]

    @property
    def hard(self) -> float:
        """Seconds from the move's start at which a running iteration is cut."""
        return self.bounds()[0].time

    def bounds(self, limit: Limit = NO_LIMIT, began: float | None = None
               ) -> tuple[Limit, float]:
        """``(limit, soft)`` for :func:`deepen`: ``limit`` with its time set to the hard
        budget (its depth and node bounds kept), and the soft seconds. ``began``: the
        ``time.perf_counter()`` at which the move began, where it spent time before the
        search (an endgame solve tried first): that time counts against both, the soft
        budget never past the hard one."""
        hard = self.hard_share * self.seconds
        if self.cap is not None:
            hard = min(hard, self.cap)
        if began is not None:
            hard -= time.perf_counter() - began
        soft = min(self.soft_share * self.seconds, hard)
        return replace(limit, time=max(hard, self.floor)), soft


def as_callable(stop: Stop | None) -> Callable[[], bool] | None:
    """A stop flag as a callable (an Event's ``is_set``)."""
    if stop is None or callable(stop) and not isinstance(stop, threading.Event):
        return stop
    return stop.is_set


def iterations(step: Step, limit: Limit = NO_LIMIT, *, pace: Pace = STEADY,
               soft: float | None = None, stop: Stop | None = None,
               depths: Iterable[int] | None = None) -> Iterator[SearchResult]:
    """Deepen through ``depths`` (by default 1, 2, 3, ...; the first is never cut) to
    ``limit.depth`` (None: until a step says ``end`` or the depths run out), yielding each
    completed iteration, then the answer (see the module's text).

    ``soft``: the soft budget in seconds where the engine computes its own (a chess clock);
    by default ``pace.soft`` times ``limit.time``. ``depths``: where a search starts deeper
    (a fixed depth: that depth alone) or skips depths (a Lazy SMP helper)."""
    asked = as_callable(stop)
    start = time.perf_counter()
    hard = None if limit.time is None else start + limit.time
    if soft is None and limit.time is not None:
        soft = pace.soft * limit.time
    budget = Budget(hard, limit.nodes, asked)
    last: SearchResult | None = None
    took = previous = 0.0
    order = iter(depths) if depths is not None else itertools.count(1)
    depth = next(order)
    while True:
        began = time.perf_counter()
        result = step(depth, budget if last is not None else Budget())
        now = time.perf_counter()
        if result is None or result.stopped_by in CUT:
            why = _cause(asked, budget, result)
            yield _final(last, result, why, now - start)
            return
        took, previous = now - began, took
        result.stats.seconds = now - start
        deeper = next(order, None)
        if limit.depth is not None and deeper is not None and deeper > limit.depth:
            deeper = None
        if result.stopped_by == "end" or deeper is None:
            result.stopped_by = result.stopped_by if result.stopped_by == "end" else "depth"
            yield result
            return
        result.stopped_by = None
        last = result
        yield result
        why = _why_not_deeper(asked, limit, result, soft, pace, took, previous, start)
        if why is not None:
            yield _final(last, None, why, time.perf_counter() - start)
            return
        depth = deeper


def deepen(step: Step, limit: Limit = NO_LIMIT, *, pace: Pace = STEADY,
           soft: float | None = None, stop: Stop | None = None,
           on_iteration: Callable[[SearchResult], bool | None] | None = None,
           depths: Iterable[int] | None = None) -> SearchResult:
    """:func:`iterations` run to its answer; ``on_iteration`` sees every completed iteration
    in order, and a true return stops the search there (``stopped_by`` ``stop``)."""
    asked = as_callable(stop)
    wants_answer = False

    def stopping() -> bool:
        return wants_answer or (asked is not None and asked())

    answer = None
    for answer in iterations(step, limit, pace=pace, soft=soft, stop=stopping,
                             depths=depths):
        if on_iteration is not None and answer.stopped_by in (None, "depth", "end"):
            wants_answer = bool(on_iteration(answer)) or wants_answer
    return answer


def _why_not_deeper(asked: Callable[[], bool] | None, limit: Limit, result: SearchResult,
                    soft: float | None, pace: Pace, took: float, previous: float,
                    start: float) -> str | None:
    """Why no further iteration starts (None: it does)."""
    if asked is not None and asked():
        return "stop"
    if limit.nodes is not None and result.stats.visited >= limit.nodes:
        return "nodes"
    if soft is not None:
        elapsed = time.perf_counter() - start
        if elapsed >= soft or elapsed + pace.predict(took, previous) > soft:
            return "time"
    return None


def _cause(asked: Callable[[], bool] | None, budget: Budget,
           cut: SearchResult | None) -> str:
    """Why an iteration was cut short: a stop, else what the step said, else the clock."""
    if asked is not None and asked():
        return "stop"
    if cut is not None and cut.stopped_by in CUT:
        return cut.stopped_by
    if budget.deadline is not None and time.perf_counter() >= budget.deadline:
        return "time"
    return "nodes" if budget.nodes is not None else "time"


def _final(last: SearchResult | None, cut: SearchResult | None, why: str,
           seconds: float) -> SearchResult:
    """The deepest completed iteration as the answer: ``stopped_by`` set, and the counts of
    the whole search where the cut step reported them."""
    if last is None:
        raise RuntimeError("the first iteration of a search was cut short")
    final = copy.copy(last)
    stats = cut.stats if cut is not None else last.stats
    final.stats = replace(stats, depth=last.stats.depth, seconds=seconds,
                          extra=dict(stats.extra))
    final.stopped_by = why
    return final


class StopWatcher:
    """A daemon thread that calls ``on_stop`` once ``stop()`` says so, while armed: how a
    stop reaches compiled code, which cannot call Python but reads a flag or a deadline
    every few thousand nodes. Use as a context manager around the search."""

    def __init__(self, stop: Callable[[], bool], on_stop: Callable[[], None],
                 every: float = 0.01, name: str = "stop-watcher") -> None:
        self.stop, self.on_stop, self.every = stop, on_stop, every
        self.armed = threading.Event()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._watch, name=name, daemon=True)

    def __enter__(self) -> StopWatcher:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        self.thread.join()

    def arm(self) -> None:
        """From now on a stop is passed on (the first iteration runs unarmed)."""
        self.armed.set()

    def _watch(self) -> None:
        while not self.done.wait(self.every):
            if self.armed.is_set() and self.stop():
                self.on_stop()
                return
