"""The kernel contract: what a game provides to get compiled search (docs/KERNELS.md).

A :class:`GameKernel` bundles a game's compiled primitives (numba ``njit`` functions over a
state that is a tuple of int64, copied on every move: copy-make, no allocation):

=====================  ==========================================================
``legal(s, out)``      writes the legal actions (small ints) into ``out``, best
                       first; returns how many
``play(s, a)``         the state after action ``a`` (a new tuple)
``is_terminal(s)``     the terminal test
``terminal_value(s)``  the utility of a terminal state for the player to move
``evaluate(s)``        a heuristic value for the player to move (same scale)
``to_move(s)``         0 or 1: the player to move (turns need not alternate: a
                       player may move twice, as in Dots and Boxes)
``key(s)``             a 64-bit hash of the state, unique or nearly so
=====================  ==========================================================

plus ``max_actions`` and two plain-Python adapters: ``encode(state)`` turns a game state
into the kernel tuple and ``decode(a)`` turns a kernel action into the game's action.
The generic searches (:mod:`~gamesearch.kernels.negamax`, :mod:`~gamesearch.kernels.mcts`)
are compiled for the game on first use and cached on disk (``cache=True``).

A chance game gives a :class:`ChanceKernel` instead (``expand``, ``is_terminal``,
``terminal_value``, ``evaluate``, outcome probabilities, value bounds) and gets the
generic expectiminimax and *-minimax of :mod:`~gamesearch.kernels.chance`.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

PRIMITIVES = ("legal", "play", "is_terminal", "terminal_value", "evaluate", "to_move", "key")

KERNELS: dict[str, Callable[[], GameKernel]] = {}
"""Kernel makers by name, for ``gamesearch warmup`` (each game module adds its own)."""


@dataclass
class GameKernel:
    """A game's compiled primitives and the generic searches compiled against them."""

    name: str
    primitives: types.SimpleNamespace
    max_actions: int
    encode: Callable[[Any], tuple[int, ...]]
    decode: Callable[[int], Any]
    tag: str
    compiled: dict[str, types.SimpleNamespace] = field(default_factory=dict)

    def __post_init__(self) -> None:
        missing = [p for p in PRIMITIVES if not hasattr(self.primitives, p)]
        if missing:
            raise TypeError(f"kernel {self.name!r} lacks primitive(s) {', '.join(missing)}")

    def _specialized(self, family: str) -> types.SimpleNamespace:
        if family not in self.compiled:
            from gamesearch.kernels import mcts, negamax
            from gamesearch.kernels.specialize import specialize

            module = {"negamax": negamax, "mcts": mcts}[family]
            bindings = {p: getattr(self.primitives, p) for p in PRIMITIVES}
            bindings["MAX_ACTIONS"] = self.max_actions
            self.compiled[family] = specialize(module.TEMPLATES, bindings,
                                               f"{self.name}_{self.tag}")
        return self.compiled[family]

    def ready(self, family: str = "negamax") -> bool:
        """Has this process compiled (or loaded from the cache) ``family`` already? A search
        under a clock uses the kernel only then: loading it takes seconds."""
        code = self.compiled.get(family)
        return code is not None and any(f.signatures for f in vars(code).values())

    @property
    def negamax(self) -> types.SimpleNamespace:
        """The generic negamax templates compiled for this game."""
        return self._specialized("negamax")

    def exact_value(self, state: Any, nodes: int = 20_000) -> float | None:
        """The compiled negamax's value of the kernel state ``state`` for the player to move,
        searched to the end of the game within ``nodes`` nodes (no table); None where it
        did not finish. check_kernel compares it with the rules' own exact value."""
        import numpy as np

        from gamesearch.kernels.negamax import ABORTED, N_STATS, NODE_LIMIT, PROVEN_DEPTH, UNPROVEN
        from gamesearch.kernels.table import MAX_PLY, KernelTable

        stats = np.zeros(N_STATS, np.int64)
        stats[NODE_LIMIT] = nodes
        moves = np.zeros((MAX_PLY, max(self.max_actions, 1)), np.int64)
        value = self.negamax.negamax(state, PROVEN_DEPTH - 1, -np.inf, np.inf, 0, False, False,
                                     *KernelTable(0.001).arrays(), moves, stats,
                                     np.zeros(1, np.int64))
        if stats[ABORTED] or stats[UNPROVEN]:
            return None
        return float(value)

    @property
    def mcts(self) -> types.SimpleNamespace:
        """The generic MCTS template compiled for this game."""
        return self._specialized("mcts")


CHANCE_PRIMITIVES = ("expand", "is_terminal", "terminal_value", "evaluate")


@dataclass
class ChanceKernel:
    """A chance game's compiled primitives (:mod:`gamesearch.kernels.chance` lists them)
    and the generic expectiminimax and *-minimax compiled against them.

    ``probs`` are the chance outcomes' probabilities, ``value_bounds`` bound every value
    (*-minimax needs them), ``max_children`` is the most moves after one outcome (the rows
    ``expand`` may write)."""

    name: str
    primitives: types.SimpleNamespace
    probs: Any
    value_bounds: tuple[float, float]
    max_children: int
    tag: str
    compiled: dict[str, types.SimpleNamespace] = field(default_factory=dict)

    def __post_init__(self) -> None:
        missing = [p for p in CHANCE_PRIMITIVES if not hasattr(self.primitives, p)]
        if missing:
            raise TypeError(f"kernel {self.name!r} lacks primitive(s) {', '.join(missing)}")
        if abs(float(sum(self.probs)) - 1.0) > 1e-9:
            raise ValueError(f"kernel {self.name!r}: outcome probabilities must sum to 1")

    @property
    def chance(self) -> types.SimpleNamespace:
        """The generic chance-node templates compiled for this game."""
        if "chance" not in self.compiled:
            import numpy as np

            from gamesearch.kernels import chance
            from gamesearch.kernels.specialize import specialize

            bindings = {p: getattr(self.primitives, p) for p in CHANCE_PRIMITIVES}
            bindings["PROBS"] = np.asarray(self.probs, dtype=np.float64)
            bindings["VALUE_LO"], bindings["VALUE_HI"] = map(float, self.value_bounds)
            self.compiled["chance"] = specialize(chance.TEMPLATES, bindings,
                                                 f"{self.name}_{self.tag}")
        return self.compiled["chance"]


def register_kernel(name: str, maker: Callable[[], GameKernel]) -> None:
    """Let ``gamesearch warmup`` compile this kernel (``maker`` builds it)."""
    KERNELS[name] = maker
