"""Logit quantal response equilibria of extensive-form games: the agent QRE of McKelvey and
Palfrey, "Quantal response equilibria for extensive form games", *Experimental Economics*
1 (1998), which Gambit's ``gambit-logit`` computes for trees.

At every information set the player to move plays each action with probability
proportional to exp(lambda * v(h, a)), where v(h, a) is its expected payoff from taking a
there (the nodes of h weighted by how likely each is reached, then everyone's behaviour
from the child on). Every information set is its own "agent": the logit response is taken
there, not over whole plans. At lambda = 0 everyone plays uniformly; as lambda grows the
branch from there approaches a sequential equilibrium (the paper's theorem), so its end
is a refined Nash equilibrium of the tree.

How: the tree is read once into flat arrays; v for a profile is one pass forward (reach
probabilities) and one backward (expected payoffs), compiled with numba
(agent_qre_kernel.py; :meth:`AgentLogit.action_values_reference` is the same sweep in plain
Python, and the tests hold the two equal). The branch is traced in lambda by Newton's
method on the log-probabilities, x = log sigma,
    F(x) = x - log L_lambda(exp(x)) = 0,
with the exact Jacobian dF/dx (forward-mode derivatives of the sweeps, in the kernel). Each
step is predicted along the branch's tangent, dx/dlambda = -(dF/dx)^-1 dF/dlambda, then
corrected by Newton at the new lambda, and halved when Newton fails. Lambda is measured in
payoff units; step sizes against the payoff range, as in qre.py. A branch that turns back
in lambda (it can, as in normal form) stops at the turn with a note.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, Game
from gamesearch.theory import agent_qre_kernel as kernel
from gamesearch.theory.qre import golden_section_max

MAX_NODES = 20_000
"""Tree nodes read at most (the branch is recomputed over the whole tree at each step)."""
MAX_ACTIONS = 400
"""Information-set actions at most (the Jacobian is that size squared)."""
TOLERANCE = 1e-10
"""Newton stops when no log-probability moves the fixed point by more than this."""


@dataclass
class AgentPoint:
    """One point of the branch: lambda (in payoff units) and each player's behaviour
    strategy, information set -> {action: probability}."""

    lam: float
    profile: list[dict[Hashable, dict[Any, float]]]
    payoffs: tuple[float, ...] = ()
    """Each player's expected payoff when everyone plays ``profile``."""


@dataclass
class _Tree:
    """The game tree in flat lists, children after their parent (so a reversed sweep
    meets children first)."""

    mover: list[int] = field(default_factory=list)
    """Player to move, CHANCE, or -2 at a leaf."""
    children: list[list[int]] = field(default_factory=list)
    chance: list[list[float]] = field(default_factory=list)
    slot: list[int] = field(default_factory=list)
    """Index of the node's information set (-1 off decision nodes)."""
    payoff: dict[int, np.ndarray] = field(default_factory=dict)


class AgentLogit:
    """The logit response of every information set to a behaviour profile, over one tree."""

    def __init__(self, game: Game) -> None:
        info = getattr(game, "information_set", None)  # none: every node is its own set
        self.players = game.num_players
        self.tree = _Tree()
        self.infosets: list[tuple[int, Hashable, list]] = []
        index: dict[tuple[int, Hashable], int] = {}
        stack = [(game.initial_state(), -1)]
        t = self.tree
        while stack:  # depth first, parents before children
            s, parent = stack.pop()
            k = len(t.children)  # this node's number
            if k >= MAX_NODES:
                raise GameSearchError(f"{game.name}: more than {MAX_NODES:,} nodes; agent "
                                      "QRE reads the whole tree")
            t.children.append([])
            t.chance.append([])
            t.slot.append(-1)
            if parent >= 0:
                t.children[parent].append(k)
            if game.is_terminal(s):
                t.mover.append(-2)
                t.payoff[k] = np.array(game.utilities(s), float)
                continue
            mover = game.to_move(s)
            t.mover.append(mover)
            if mover == CHANCE:
                outcomes = game.chance_outcomes(s)
                t.chance[k] = [float(p) for _, p in outcomes]
                kids = [game.result(s, a) for a, _ in outcomes]
            else:
                acts = list(game.actions(s))
                key = (mover, info(s, mover) if info is not None else s)
                if key not in index:
                    index[key] = len(self.infosets)
                    self.infosets.append((mover, key[1], acts))
                t.slot[k] = index[key]
                kids = [game.result(s, a) for a in acts]
            stack.extend((c, k) for c in reversed(kids))
        self.offsets = np.cumsum([0] + [len(acts) for _, _, acts in self.infosets])
        if self.offsets[-1] > MAX_ACTIONS:
            raise GameSearchError(f"{game.name}: {int(self.offsets[-1])} information-set "
                                  f"actions; agent QRE here takes at most {MAX_ACTIONS}")
        values = np.array([u for u in self.tree.payoff.values()])
        self.scale = max(1.0, float(np.ptp(values))) if len(values) else 1.0

        self._compile()

    def _compile(self) -> None:
        """The tree as the kernel's arrays (agent_qre_kernel.py's layout)."""
        t = self.tree
        n = len(t.mover)
        ptr = np.zeros(n + 1, np.int64)
        ptr[1:] = np.cumsum([len(c) for c in t.children])
        prob = np.zeros(int(ptr[-1]))
        for k in range(n):
            if t.mover[k] == CHANCE:
                prob[ptr[k]:ptr[k + 1]] = t.chance[k]
        payoff = np.zeros((n, self.players))
        for k, u in t.payoff.items():
            payoff[k] = u
        self.arrays = (
            np.array(t.mover, np.int64), ptr,
            np.array([c for kids in t.children for c in kids], np.int64), prob,
            np.array(t.slot, np.int64), payoff,
            np.array([player for player, _, _ in self.infosets], np.int64),
            np.asarray(self.offsets, np.int64))

    def uniform(self) -> np.ndarray:
        """Everyone plays every action at every information set with equal probability."""
        sizes = np.diff(self.offsets)
        return np.concatenate([np.full(n, 1.0 / n) for n in sizes])

    def action_values(self, sigma: np.ndarray) -> np.ndarray:
        """v(h, a) for every information-set action, the payoff of h's player."""
        return kernel.sweep(np.asarray(sigma, float), *self.arrays)[0]

    def action_values_reference(self, sigma: np.ndarray) -> np.ndarray:
        """The same as :meth:`action_values`, in plain Python over the tree's lists: the
        readable definition the compiled sweep is tested against."""
        t = self.tree
        n = len(t.mover)
        reach = np.zeros(n)
        reach[0] = 1.0
        for k in range(n):  # parents come first
            if t.mover[k] == -2:
                continue
            if t.mover[k] == CHANCE:
                probs = t.chance[k]
            else:
                lo = self.offsets[t.slot[k]]
                probs = sigma[lo:lo + len(t.children[k])]
            for c, p in zip(t.children[k], probs):
                reach[c] = reach[k] * p
        value = np.zeros((n, self.players))
        for k in range(n - 1, -1, -1):  # children first
            if t.mover[k] == -2:
                value[k] = t.payoff[k]
            else:
                if t.mover[k] == CHANCE:
                    probs = t.chance[k]
                else:
                    lo = self.offsets[t.slot[k]]
                    probs = sigma[lo:lo + len(t.children[k])]
                value[k] = sum(p * value[c] for c, p in zip(t.children[k], probs))
        total = np.zeros(self.offsets[-1])
        weight = np.zeros(len(self.infosets))
        for k in range(n):
            h = t.slot[k]
            if h < 0:
                continue
            player = self.infosets[h][0]
            lo = self.offsets[h]
            w = reach[k] + 1e-300  # an unreached set: its nodes count alike
            weight[h] += w
            for j, c in enumerate(t.children[k]):
                total[lo + j] += w * value[c, player]
        return total / np.repeat(weight, np.diff(self.offsets))

    def residual(self, x: np.ndarray, lam: float) -> np.ndarray:
        """x - log L(exp(x)): zero exactly at the agent QRE at ``lam`` (payoff units)."""
        return kernel.residual(np.asarray(x, float), float(lam), *self.arrays)

    def jacobian(self, x: np.ndarray, lam: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(residual, its Jacobian in x, its derivative in lambda) at ``x``, exact."""
        return kernel.residual_and_jacobian(np.asarray(x, float), float(lam), *self.arrays)

    def solve(self, x: np.ndarray, lam: float, iterations: int = 30) -> np.ndarray | None:
        """Newton from ``x`` to the agent QRE at ``lam``; None if it does not converge."""
        found = self._newton(x, lam, iterations)
        return None if found is None else found[0]

    def _newton(self, x: np.ndarray, lam: float, iterations: int = 30
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int] | None:
        """(x, the Jacobian and dF/dlambda there, iterations used) at the agent QRE at
        ``lam``, by Newton from ``x``; None if it does not converge."""
        x = np.minimum(np.asarray(x, float), 0.0)
        # lam * v carries rounding of about lam * range * 1e-16: no closer fixed point exists
        tolerance = max(TOLERANCE, 1e-14 * lam * self.scale)
        for k in range(iterations):
            f, jac, dlam = self.jacobian(x, lam)
            if not np.all(np.isfinite(f)):
                return None
            if np.abs(f).max() < tolerance:
                return x, jac, dlam, k
            try:
                x = x - np.linalg.solve(jac, f)
            except np.linalg.LinAlgError:
                return None
            x = np.minimum(x, 0.0)  # log-probabilities
        f, jac, dlam = self.jacobian(x, lam)
        if np.all(np.isfinite(f)) and np.abs(f).max() < 100 * tolerance:
            return x, jac, dlam, iterations
        return None

    def point(self, lam: float, x: np.ndarray) -> AgentPoint:
        """The behaviour profile at ``x`` as one dictionary per player."""
        sigma = np.exp(x)
        profile: list[dict[Hashable, dict[Any, float]]] = [{} for _ in range(self.players)]
        for h, (player, key, acts) in enumerate(self.infosets):
            lo = self.offsets[h]
            profile[player][key] = {a: float(sigma[lo + j]) for j, a in enumerate(acts)}
        value = kernel.sweep(sigma, *self.arrays)[2]
        return AgentPoint(lam, profile, tuple(float(v) for v in value[0]))


def _trace(logit: AgentLogit, max_lambda: float, max_steps: int
           ) -> tuple[list[tuple[float, np.ndarray]], list[str]]:
    """The branch as (lambda, x) pairs from lambda = 0 to ``max_lambda``, and notes. Each
    step: the tangent predicts x at the next lambda, Newton corrects it; a failed step is
    halved, an easy one lengthened."""
    x = np.log(logit.uniform())
    lam = 0.0
    start = logit._newton(x, 0.0)
    assert start is not None  # the uniform profile is the QRE at 0
    _, jac, dlam, _ = start
    points = [(0.0, x)]
    step = min(0.1 / logit.scale, max_lambda)
    notes: list[str] = []
    for _ in range(max_steps):
        if lam >= max_lambda:
            break
        target = min(lam + step, max_lambda)
        try:
            tangent = np.linalg.solve(jac, -dlam)
        except np.linalg.LinAlgError:
            tangent = np.zeros_like(x)
        found = logit._newton(x + tangent * (target - lam), target)
        if found is None:
            found = logit._newton(x, target)
        if found is None:
            step /= 2
            if step < 1e-9 * max(1.0, lam):
                notes.append(f"the branch could not be followed past lambda = {lam:.6g} "
                             "(it may turn back there)")
                break
            continue
        x, jac, dlam, used = found
        lam = target
        points.append((lam, x))
        grow = 2.0 if used <= 3 else 1.25 if used <= 6 else 1.0
        step = min(step * grow, max(1.0 / logit.scale, lam))
    else:
        notes.append(f"stopped after {max_steps} steps at lambda = {lam:.6g}")
    return points, notes


def trace_agent_branch(game: Game, max_lambda: float, max_steps: int = 2_000
                       ) -> tuple[list[AgentPoint], list[str]]:
    """The agent logit QRE branch from lambda = 0 to ``max_lambda`` (payoff units), and
    notes (a branch that turns back in lambda stops there)."""
    if not max_lambda >= 0:
        raise GameSearchError("the largest lambda must be a nonnegative number")
    logit = AgentLogit(game)
    pairs, notes = _trace(logit, max_lambda, max_steps)
    return [logit.point(lam, x) for lam, x in pairs], notes


def agent_qre_at(game: Game, lam: float) -> AgentPoint:
    """The agent logit QRE on the principal branch at ``lam``."""
    points, notes = trace_agent_branch(game, lam)
    if points[-1].lam < lam:
        raise GameSearchError("; ".join(notes) or f"lambda {lam:g} was not reached")
    return points[-1]


def _order(logit: AgentLogit) -> list[int]:
    """The information sets player by player, each player's in the order first met: the
    order a profile lists them in, and the order counts are given in."""
    return sorted(range(len(logit.infosets)), key=lambda h: logit.infosets[h][0])


def agent_log_likelihood(point: AgentPoint, counts: Sequence[Sequence[float]]) -> float:
    """Sum over information sets and actions of count * log(probability played), counts
    given player by player, information set by information set, as the profile lists
    them."""
    rows = [probs for behaviour in point.profile for probs in behaviour.values()]
    return float(sum(c * np.log(max(p, 1e-300)) for row, probs in zip(counts, rows)
                     for c, p in zip(row, probs.values())))


def fit_agent_lambda(game: Game, counts: Sequence[Sequence[float]],
                     max_lambda: float = 100.0) -> tuple[AgentPoint, float]:
    """The maximum-likelihood point of the agent branch for observed play (how often each
    action was taken at each information set), with its log-likelihood: the best traced
    point, refined by golden-section search in lambda."""
    logit = AgentLogit(game)
    order = _order(logit)
    sizes = [len(logit.infosets[h][2]) for h in order]
    if len(counts) != len(sizes) or any(len(c) != n for c, n in zip(counts, sizes)):
        raise GameSearchError("agent QRE fit: give one count per action of every information "
                              f"set, player by player (sizes {sizes})")
    flat = [c for row in counts for c in row]
    if any(not c >= 0 for c in flat) or not any(flat) or not all(np.isfinite(flat)):
        raise GameSearchError("agent QRE fit: counts must be nonnegative and not all zero")
    points, _ = trace_agent_branch(game, max_lambda)
    values = [agent_log_likelihood(p, counts) for p in points]
    best = int(np.argmax(values))

    def x_of(point: AgentPoint) -> np.ndarray:
        x = np.empty(int(logit.offsets[-1]))
        for h, (player, key, acts) in enumerate(logit.infosets):
            lo = logit.offsets[h]
            x[lo:lo + len(acts)] = np.log([max(point.profile[player][key][a], 1e-300)
                                           for a in acts])
        return x

    start = x_of(points[best])

    def at(lam: float) -> tuple[AgentPoint | None, float]:
        x = logit.solve(start, lam)
        if x is None:
            return None, -np.inf
        point = logit.point(lam, x)
        return point, agent_log_likelihood(point, counts)

    a = points[max(best - 1, 0)].lam
    b = points[min(best + 1, len(points) - 1)].lam
    point, value = at(golden_section_max(lambda lam: at(lam)[1], a, b))
    if point is not None and value >= values[best]:
        return point, value
    return points[best], values[best]
