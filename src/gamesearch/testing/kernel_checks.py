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
    for s in walk(game, trail, random.Random(seed), playouts, max_moves):
        checker.position(s)
        report.positions += 1
        report.playouts += len(trail.states) == 1
        report.terminals += bool(game.is_terminal(s))
    return report
