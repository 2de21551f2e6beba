"""``check_kernel``: does a compiled kernel play the same game as the readable rules?

A kernel (docs/KERNELS.md: ``legal``, ``play``, ``is_terminal``, ``terminal_value``,
``evaluate``, ``to_move``, ``key``, ``max_actions``, ``encode``, ``decode``) is checked at
the positions of random play-outs of the rules: every position is encoded, and the kernel
must agree with the rules on it. The checks (each failure raises
:class:`~gamesearch.testing.failure.GameCheckError` with the moves to the position):

``kernel-encode``          ``encode`` gives the same tuple of ints for equal states
``kernel-to-move``         ``to_move`` is the rules' player to move
``kernel-terminal``        ``is_terminal`` is the rules' terminal test
``kernel-terminal-value``  ``terminal_value`` is the utility of the player to move
``kernel-legal``           ``legal`` writes at most ``max_actions`` distinct actions that
                           ``decode`` to exactly the rules' legal actions
``kernel-play``            ``play(s, a)`` is the encoding of the rules' ``result``
``kernel-evaluate``        ``evaluate`` is finite, and equals the game's ``evaluate`` for the
                           player to move (within ``evaluation_tolerance``; None: not compared)
``kernel-keys``            ``key`` is stable, and positions the rules tell apart (by
                           ``state_key`` where the game has one) get different keys
``kernel-search``          near the end of play-outs, the kernel's compiled search
                           (``exact_value``, where the kernel has one) gives the rules' exact
                           value: a search that assumed turns alternate fails here on a game
                           where a player moves twice

Chance nodes are walked through but not compared: the kernel contract has none. The kernel's
primitives may be compiled (numba) or plain Python functions: both are called the same way.
"""

from __future__ import annotations

import copy
import math
import random
from collections import Counter
from collections.abc import Hashable
from typing import Any

from gamesearch.game import CHANCE
from gamesearch.testing.failure import Trail, require
from gamesearch.testing.game_checks import CheckReport
from gamesearch.testing.walk import walk


def _ints(values: Any) -> tuple[int, ...]:
    return tuple(int(x) for x in values)


class KernelChecker:
    """The kernel checks at one position of the rules at a time."""

    def __init__(self, game: Any, kernel: Any, trail: Trail,
                 evaluation_tolerance: float | None) -> None:
        import numpy as np

        self.game, self.kernel, self.trail = game, kernel, trail
        self.p = kernel.primitives
        self.out = np.zeros(int(kernel.max_actions), np.int64)
        self.tolerance = evaluation_tolerance
        self.evaluate = getattr(game, "evaluate", None)
        self.state_key = getattr(game, "state_key", None)
        self.keys: dict[int, Hashable] = {}
        self.report = CheckReport(f"{getattr(game, 'name', '?')} kernel "
                                  f"{getattr(kernel, 'name', '?')}")

    def ok(self, check: str) -> None:
        """Count one passed check."""
        self.report.checks[check] += 1

    def encode(self, s: Hashable) -> tuple:
        """The kernel state of ``s``: a tuple of ints, the same for an equal state."""
        t = self.trail
        with t.guard("kernel-encode", "encode(s)"):
            k = self.kernel.encode(s)
            again = self.kernel.encode(copy.deepcopy(s))
            ints = _ints(k)
        require(t, "kernel-encode", isinstance(k, tuple) and ints == _ints(again),
                lambda: f"encode gave {k!r}, then {again!r} for an equal state")
        self.ok("kernel-encode")
        return k

    def search(self, trail: Trail) -> None:
        """The compiled search against the rules' exact value, at the last positions of the
        play-out that just ended (each searched with a node budget; past it, left out)."""
        states = list(trail.states)
        for back in range(2, min(SEARCH_PLIES, len(states)) + 1):
            s = states[-back]
            if self.game.to_move(s) == CHANCE:
                continue
            expected = rules_value(self.game, s)
            if expected is None:
                continue
            with trail.guard("kernel-search", "the kernel's exact_value(encode(s))"):
                found = self.kernel.exact_value(self.kernel.encode(s), SEARCH_NODES)
            if found is None:
                continue
            require(trail, "kernel-search", abs(found - expected) <= 1e-9,
                    lambda found=found, expected=expected, back=back: (
                        f"the compiled search values the position {found!r} for the player "
                        f"to move, the rules {expected!r} ({len(states) - back} moves in)"))
            self.ok("kernel-search")

    def position(self, s: Hashable) -> None:
        """Every kernel check that applies to ``s`` (chance nodes are skipped)."""
        g, p, t = self.game, self.p, self.trail
        over = bool(g.is_terminal(s))
        if not over and g.to_move(s) == CHANCE:
            return
        k = self.encode(s)
        with t.guard("kernel-terminal", "is_terminal(k)"):
            k_over = bool(p.is_terminal(k))
        require(t, "kernel-terminal", k_over == over,
                f"the kernel says terminal={k_over}, the rules {over}")
        self.ok("kernel-terminal")
        mover = g.to_move(s)
        with t.guard("kernel-to-move", "to_move(k)"):
            k_mover = int(p.to_move(k))
        require(t, "kernel-to-move", k_mover == mover,
                f"the kernel's player to move is {k_mover}, the rules' {mover}")
        self.ok("kernel-to-move")
        self.key(s, k)
        if over:
            self.terminal_value(s, k, mover)
        else:
            self.legal_and_play(s, k)
            self.evaluation(s, k, mover)

    def terminal_value(self, s: Hashable, k: tuple, mover: int) -> None:
        """The kernel's value of an end is the utility of the player to move."""
        t = self.trail
        with t.guard("kernel-terminal-value", "terminal_value(k)"):
            value = float(self.p.terminal_value(k))
        want = self.game.utilities(s)[mover]
        require(t, "kernel-terminal-value", math.isclose(value, want, abs_tol=1e-9),
                f"the kernel's terminal value is {value!r}, the mover's utility {want!r}")
        self.ok("kernel-terminal-value")

    def legal_and_play(self, s: Hashable, k: tuple) -> None:
        """The kernel's actions are the rules' actions, and lead to the same states."""
        g, p, t = self.game, self.p, self.trail
        with t.guard("kernel-legal", "legal(k, out) and decode"):
            n = int(p.legal(k, self.out))
            raw = [int(a) for a in self.out[:max(0, min(n, len(self.out)))]]
            decoded = [self.kernel.decode(a) for a in raw]
        rules = list(g.actions(s))
        require(t, "kernel-legal", 0 < n <= len(self.out),
                f"legal wrote {n} actions; max_actions is {len(self.out)}")
        repeated = [a for a, c in Counter(raw).items() if c > 1]
        require(t, "kernel-legal", not repeated, f"legal wrote {repeated!r} more than once")
        require(t, "kernel-legal", sorted(map(repr, decoded)) == sorted(map(repr, rules))
                and set(decoded) == set(rules),
                lambda: f"the kernel's legal actions decode to {decoded!r}, the rules' are "
                        f"{rules!r}")
        self.ok("kernel-legal")
        for a, action in zip(raw, decoded):
            with t.guard("kernel-play", f"play(k, {a})"):
                child = _ints(p.play(k, a))
                want = _ints(self.kernel.encode(g.result(s, action)))
            require(t, "kernel-play", child == want,
                    f"play(k, {a}) gave {child!r}; the rules' result encodes as {want!r}")
        self.ok("kernel-play")

    def evaluation(self, s: Hashable, k: tuple, mover: int) -> None:
        """The kernel's heuristic value is finite (and the game's, where it has one)."""
        t = self.trail
        with t.guard("kernel-evaluate", "evaluate(k)"):
            value = float(self.p.evaluate(k))
        require(t, "kernel-evaluate", math.isfinite(value),
                f"the kernel's evaluation is {value!r}")
        if self.evaluate is not None and self.tolerance is not None:
            want = float(self.evaluate(s, mover))
            require(t, "kernel-evaluate", abs(value - want) <= self.tolerance,
                    f"the kernel evaluates {value!r}, the game {want!r} (player {mover})")
        self.ok("kernel-evaluate")

    def key(self, s: Hashable, k: tuple) -> None:
        """The kernel's key is stable and tells apart what the rules tell apart."""
        t = self.trail
        with t.guard("kernel-keys", "key(k)"):
            key, again = int(self.p.key(k)), int(self.p.key(self.kernel.encode(s)))
            rules_key = s if self.state_key is None else self.state_key(s)
        require(t, "kernel-keys", key == again, f"key gave {key} then {again}")
        seen = self.keys.setdefault(key, rules_key)
        require(t, "kernel-keys", seen == rules_key,
                lambda: f"key {key} is shared by positions the rules tell apart: {seen!r} "
                        f"and {rules_key!r}")
        self.ok("kernel-keys")


SEARCH_PLAYOUTS = 6
"""Play-outs whose last positions the search check solves."""
SEARCH_PLIES = 8
"""How many positions before each of those play-outs' ends it solves."""
SEARCH_NODES = 20_000
"""The node budget of each exact search (readable and compiled); a position past it is
left out."""
SEARCH_DEPTH = 40
"""The deepest line the readable exact search follows (a position with a longer one is left
out: no recursion limit is reached, and the compiled search's stack is never in doubt)."""


def _searchable(kernel: Any) -> bool:
    """A kernel whose generic search can run: compiled primitives (numba dispatchers) and an
    ``exact_value``; plain-Python primitives (a kernel being written) are checked without."""
    return hasattr(kernel, "exact_value") and all(
        hasattr(getattr(kernel.primitives, name, None), "py_func") for name in ("legal", "play"))


class _Budget(Exception):
    """The readable exact search ran past its node budget."""


def rules_value(game: Any, state: Any, nodes: int = SEARCH_NODES) -> float | None:
    """The exact value of ``state`` for its player to move by the rules alone (negamax over
    the protocol, a child with the same player to move not negated), or None past ``nodes``
    nodes or at a chance node."""
    count = [0]

    def value(s: Any, ply: int = 0) -> float:
        count[0] += 1
        if count[0] > nodes or ply > SEARCH_DEPTH:
            raise _Budget
        mover = game.to_move(s)
        if game.is_terminal(s):
            return float(game.utilities(s)[mover])
        if mover == CHANCE:
            raise _Budget
        best = -math.inf
        for a in game.actions(s):
            child = game.result(s, a)
            v = value(child, ply + 1)
            best = max(best, v if game.to_move(child) == mover else -v)
        return best

    try:
        return value(state)
    except _Budget:
        return None


def check_kernel(game: Any, kernel: Any, *, playouts: int = 30, seed: int = 0,
                 max_moves: int = 10_000,
                 evaluation_tolerance: float | None = 1e-9) -> CheckReport:
    """Check ``kernel`` against ``game``'s rules at every position of random play-outs.

    Raises :class:`~gamesearch.testing.failure.GameCheckError` at the first disagreement
    (naming the check, the game and the moves to the position); returns a
    :class:`~gamesearch.testing.game_checks.CheckReport` when the kernel agrees everywhere.
    """
    trail = Trail(game, seed)
    missing = [name for name in ("legal", "play", "is_terminal", "terminal_value", "evaluate",
                                 "to_move", "key") if not hasattr(kernel.primitives, name)]
    require(trail, "kernel-contract", not missing,
            f"the kernel lacks primitive(s) {', '.join(missing)}")
    checker = KernelChecker(game, kernel, trail, evaluation_tolerance)
    report = checker.report
    searched = 0
    for s in walk(game, trail, random.Random(seed), playouts, max_moves):
        checker.position(s)
        report.positions += 1
        report.playouts += len(trail.states) == 1
        report.terminals += bool(game.is_terminal(s))
        if game.is_terminal(s) and searched < SEARCH_PLAYOUTS and _searchable(kernel):
            searched += 1
            checker.search(trail)
    return report
