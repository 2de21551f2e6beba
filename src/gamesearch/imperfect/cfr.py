"""Counterfactual regret minimization: CFR (Zinkevich et al. 2007) and CFR+ (Tammelin 2014).

Each iteration walks the whole game. At every information set the current strategy plays
in proportion to the positive accumulated regrets (regret matching); each action's
*counterfactual regret* is how much better it would have done than the current strategy,
weighted by the probability that chance and the opponent reach the history. The *average*
strategy, weighted by the player's own reach probability, converges to a Nash equilibrium
in two-player zero-sum games; its exploitability shrinks like O(1/sqrt(T)) (faster in
practice, and much faster with CFR+, which clips regrets at zero and weights iteration t
by t). Both update players alternately, as OpenSpiel's solvers do.

:func:`cfr_reference` is the readable recursion on the game protocol (the specification);
:class:`CFRSolver` runs the same updates as a compiled loop over the flattened tree and
keeps its sums in arrays that save to and resume from a ``.npz`` file.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from gamesearch.durable import MAGIC_KEY, atomic_writer, npz_keys, npz_kind
from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, Game, State
from gamesearch.imperfect import kernels
from gamesearch.imperfect.tree import GameTree, Strategy, build_tree

CHECKPOINT_KIND = "cfr-checkpoint"
"""The kind :meth:`CFRSolver.save` writes in the checkpoint's magic entry."""


def regret_matching(regrets: list[float]) -> list[float]:
    """Play each action in proportion to its positive regret (uniform if none is)."""
    positive = [max(r, 0.0) for r in regrets]
    total = sum(positive)
    if total <= 0:
        return [1.0 / len(regrets)] * len(regrets)
    return [r / total for r in positive]


def cfr_reference(game: Game, iterations: int, plus: bool = False) -> Strategy:
    """The textbook CFR recursion (CFR+ with ``plus``); returns the average strategy.

    Slow (pure Python, dicts keyed by information set) and kept as the specification that
    the compiled :class:`CFRSolver` is tested against.
    """
    regrets: dict[str, list[float]] = {}
    sums: dict[str, list[float]] = {}
    names: dict[str, list[str]] = {}
    root = game.initial_state()

    def walk(state: State, updating: int, reach: list[float], sigma: dict, instant: dict,
             weight: float) -> float:
        """Player 1's expected value below ``state``; records regrets of ``updating``."""
        if game.is_terminal(state):
            return game.utilities(state)[0]
        mover = game.to_move(state)
        if mover == CHANCE:
            total = 0.0
            for outcome, p in game.chance_outcomes(state):
                child_reach = [reach[0], reach[1], reach[2] * p]
                total += p * walk(game.result(state, outcome), updating, child_reach, sigma,
                                  instant, weight)
            return total
        key = game.information_set(state, mover)
        legal = list(game.actions(state))
        if key not in regrets:
            regrets[key] = [0.0] * len(legal)
            sums[key] = [0.0] * len(legal)
            names[key] = [game.action_to_string(state, a) for a in legal]
        probs = sigma.setdefault(key, regret_matching(regrets[key]))
        child_values = []
        for action, p in zip(legal, probs):
            child_reach = list(reach)
            child_reach[mover] *= p
            child_values.append(walk(game.result(state, action), updating, child_reach, sigma,
                                     instant, weight))
        node_value = sum(p * v for p, v in zip(probs, child_values))
        if mover == updating:
            sign = 1.0 if mover == 0 else -1.0
            counterfactual = reach[1 - mover] * reach[2]
            gains = instant.setdefault(key, [0.0] * len(legal))
            for k, v in enumerate(child_values):
                gains[k] += sign * counterfactual * (v - node_value)
                sums[key][k] += weight * reach[mover] * probs[k]
        return node_value

    for t in range(1, iterations + 1):
        for updating in (0, 1):
            instant: dict[str, list[float]] = {}
            walk(root, updating, [1.0, 1.0, 1.0], {}, instant, float(t) if plus else 1.0)
            for key, gains in instant.items():
                for k, g in enumerate(gains):
                    r = regrets[key][k] + g
                    regrets[key][k] = max(r, 0.0) if plus else r
    return {key: dict(zip(names[key], normalize(s))) for key, s in sums.items()}


def normalize(weights: list[float]) -> list[float]:
    """Weights as probabilities (uniform when they are all zero)."""
    total = sum(weights)
    return [w / total for w in weights] if total > 0 else [1.0 / len(weights)] * len(weights)


class CFRSolver:
    """CFR or CFR+ on a flattened game, iterated by the compiled kernel.

    ``solver.run(100)`` adds 100 iterations; ``solver.average()`` is the average strategy
    (an array; ``solver.average_strategy()`` the dict). ``save``/``load`` keep the sums so
    a long run resumes where it stopped.
    """

    def __init__(self, game: Game | GameTree, plus: bool = False) -> None:
        self.tree = game if isinstance(game, GameTree) else build_tree(game)
        self.plus = plus
        shape = (self.tree.num_infosets, self.tree.max_actions)
        self.regrets = np.zeros(shape)
        self.strategy_sum = np.zeros(shape)
        self.iterations = 0

    @property
    def algorithm(self) -> str:
        return "cfr+" if self.plus else "cfr"

    def run(self, iterations: int) -> None:
        """Add ``iterations`` iterations (each updates both players once)."""
        if iterations < 0:
            raise GameSearchError(f"iterations must be >= 0, got {iterations}")
        t = self.tree
        kernels.cfr_iterations(t.node_type, t.player, t.infoset, t.parent, t.action_index,
                               t.edge_prob, t.first_child, t.num_children, t.utility,
                               t.infoset_num_actions, self.regrets, self.strategy_sum,
                               self.iterations + 1, iterations, self.plus)
        self.iterations += iterations

    def current(self) -> np.ndarray:
        """The current strategy (regret matching on the accumulated regrets)."""
        sigma = np.zeros_like(self.regrets)
        kernels.regret_matching(self.regrets, self.tree.infoset_num_actions, sigma)
        return sigma

    def average(self) -> np.ndarray:
        """The average strategy as an array (uniform where a set was never reached)."""
        probs = self.tree.uniform()
        totals = self.strategy_sum.sum(axis=1)
        reached = totals > 0
        probs[reached] = self.strategy_sum[reached] / totals[reached, None]
        return probs

    def average_strategy(self, digits: int | None = None) -> Strategy:
        """The average strategy in the dict format of docs/HIDDEN.md."""
        return self.tree.to_dict(self.average(), digits)

    def save(self, path: str | Path, **extra: np.ndarray) -> None:
        """Keep the sums (and what they belong to) in a ``.npz`` file, written atomically
        (the previous file stays until the new one is complete); ``extra`` arrays ride along
        (the training curve), so everything a resume needs is in one file."""
        with atomic_writer(path) as handle:
            np.savez(handle, **{MAGIC_KEY: np.array(CHECKPOINT_KIND)}, regrets=self.regrets,
                     strategy_sum=self.strategy_sum, iterations=self.iterations,
                     plus=self.plus, game=self.tree.game.name,
                     keys=np.array(self.tree.infoset_keys), **extra)

    def load(self, path: str | Path) -> dict[str, np.ndarray]:
        """Resume from a file written by :meth:`save` for the same game and algorithm;
        returns the ``extra`` arrays saved with it. A broken file is one clear error."""
        from gamesearch.textinput import open_input

        try:
            with open_input(path, "checkpoint") as handle, \
                    np.load(handle, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
            game, plus, keys = str(arrays["game"]), bool(arrays["plus"]), list(arrays["keys"])
            regrets = np.asarray(arrays["regrets"], dtype=float)
            strategy_sum = np.asarray(arrays["strategy_sum"], dtype=float)
            iterations = int(arrays["iterations"])
        except GameSearchError:
            raise  # not a regular file, too large: its own line
        except Exception as err:  # noqa: BLE001 (a damaged zip raises a dozen types)
            raise GameSearchError(f"cannot read CFR checkpoint {str(path)!r} (truncated or not "
                                  f"a checkpoint: {type(err).__name__})") from None
        if game != self.tree.game.name or plus != self.plus or keys != self.tree.infoset_keys:
            raise GameSearchError(f"checkpoint {str(path)!r} belongs to {game} "
                                  f"({'cfr+' if plus else 'cfr'}), not "
                                  f"{self.tree.game.name} ({self.algorithm})")
        if regrets.shape != self.regrets.shape or strategy_sum.shape != self.regrets.shape \
                or iterations < 0:
            raise GameSearchError(f"checkpoint {str(path)!r}: arrays of the wrong shape")
        self.regrets = regrets.copy()
        self.strategy_sum = strategy_sum.copy()
        self.iterations = iterations
        known = {MAGIC_KEY, "regrets", "strategy_sum", "iterations", "plus", "game", "keys"}
        return {name: value for name, value in arrays.items() if name not in known}


def is_checkpoint(path: str | Path) -> bool:
    """Whether ``path`` is a CFR checkpoint written by gamesearch (also before the magic key)."""
    return npz_kind(path) == CHECKPOINT_KIND or npz_keys(path) >= {
        "regrets", "strategy_sum", "iterations", "plus", "game", "keys"}


__all__ = ["CHECKPOINT_KIND", "CFRSolver", "cfr_reference", "is_checkpoint",
           "regret_matching"]


