"""Nash equilibria of an N-player normal-form game by the global Newton method of Govindan
and Wilson, "A global Newton method to compute Nash equilibria", *Journal of Economic
Theory* 110 (2003), which Gambit's ``gnm`` computes (through Blum, Shelton and Koller's
GameTracer).

The idea. Give every pure strategy s a bonus lambda * b_s on top of its payoff. For lambda
large enough the perturbed game has one equilibrium: each player plays its strategy with
the largest b. Kohlberg and Mertens' structure theorem says the equilibria of the perturbed
games over the ray lambda in (-inf, inf) form, generically, one curve through that
equilibrium, homeomorphic to the line; wherever it meets lambda = 0 it gives an equilibrium
of the game itself, an odd number of them.

Coordinates. Kohlberg and Mertens' homeomorphism writes an equilibrium sigma of the game
with payoffs V as one vector z = sigma + V(sigma) + lambda b, and sigma = r(z), r being the
projection of each player's block of z onto its simplex (subtract one number per player,
keep the positive part). So the curve is the zero set of
    H(z, lambda) = z - r(z) - V(r(z)) - lambda b.
Where each player's support is fixed, r is affine, H is a polynomial of degree N - 1, and
its Jacobian is dH/dz = I - (I + DV) R (R: r's Jacobian, DV: the payoffs' derivatives in
the strategies). The direction of travel is dz = -adj(dH/dz) b, dlambda = -det(dH/dz),
which keeps its orientation through turning points (where lambda changes direction).

Tracing. Within a support "cell" the path is followed in ``steps`` Euler steps, each a
fraction of the linear estimate of the distance to the next support change (a strategy
entering, or leaving, its player's support) or to lambda = 0, each corrected by Newton's
method on H at its lambda. Two players: the path is linear in each cell and one exact step
reaches the boundary. At lambda = 0 the point is refined by Newton and kept as an
equilibrium; tracing stops when lambda passes ``end_lambda`` going down (Gambit's rule),
when the path leaves every cell for good, or after ``max_cells`` cells.

As Gambit does, payoffs are first rescaled to [0, 1] and b to unit length; the default b is
1 on each player's first strategy, 0 on the rest (Gambit's default), so both trace the same
path. Every equilibrium reported is verified: its maximum regret is at most ``REGRET_TOL``
times the payoff range (polished by Newton on its support when the path's point is not).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from gamesearch.errors import GameSearchError
from gamesearch.theory.equilibrium import EquilibriumSet, unique_profiles
from gamesearch.theory.logit_nash import REGRET_TOL, max_regret, polish
from gamesearch.theory.normal_form import NormalFormGame, Profile
from gamesearch.theory.qre import payoffs_and_jacobian

MAX_CELLS = 2_000
"""Support cells crossed at most before the trace stops with a note."""
MAX_STRATEGIES = 200
"""Pure strategies (all players together) at most: the Jacobian is that size squared."""


class _Path:
    """H(z, lambda) over one game, with each player's support as the current cell."""

    def __init__(self, payoffs: np.ndarray, b: np.ndarray) -> None:
        self.payoffs = payoffs
        self.n = payoffs.shape[0]
        self.shape = payoffs.shape[1:]
        self.offsets = np.r_[0, np.cumsum(self.shape)]
        self.b = b
        self.m = int(self.offsets[-1])

    def blocks(self):
        """Each player's (first, past-last) index in the flat vectors."""
        return zip(self.offsets[:-1], self.offsets[1:])

    def sigma(self, z: np.ndarray, support: np.ndarray) -> np.ndarray:
        """r(z) on the cell: z minus each player's level on its support, zero elsewhere."""
        out = np.zeros(self.m)
        for lo, hi in self.blocks():
            keep = support[lo:hi]
            out[lo:hi][keep] = z[lo:hi][keep] - self.level(z, support, lo, hi)
        return out

    def true_support(self, z: np.ndarray) -> np.ndarray:
        """The support of r(z) itself: each player's strategies above its level."""
        out = np.zeros(self.m, bool)
        for lo, hi in self.blocks():
            top = np.sort(z[lo:hi])[::-1]
            sums = np.cumsum(top) - 1.0
            k = int(np.max(np.flatnonzero(top - sums / np.arange(1, len(top) + 1) > 0))) + 1
            out[lo:hi] = z[lo:hi] > sums[k - 1] / k
        return out

    @staticmethod
    def level(z: np.ndarray, support: np.ndarray, lo: int, hi: int) -> float:
        """The number subtracted from a player's block: its support sums to one."""
        keep = support[lo:hi]
        return float((z[lo:hi][keep].sum() - 1.0) / keep.sum())

    def values(self, sigma: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(V: each pure strategy's payoff against the others, DV: its derivatives)."""
        mixes = [sigma[lo:hi] for lo, hi in self.blocks()]
        u, d = payoffs_and_jacobian(self.payoffs, mixes)
        jac = np.zeros((self.m, self.m))
        for i, (lo, hi) in enumerate(self.blocks()):
            for k, (lo2, hi2) in enumerate(self.blocks()):
                if k != i:
                    jac[lo:hi, lo2:hi2] = d[i][k]
        return np.concatenate(u), jac

    def retraction_jacobian(self, support: np.ndarray) -> np.ndarray:
        """R = dr/dz on the cell: identity minus the mean, within each player's support."""
        r = np.zeros((self.m, self.m))
        for lo, hi in self.blocks():
            idx = lo + np.flatnonzero(support[lo:hi])
            r[np.ix_(idx, idx)] = -1.0 / len(idx)
            r[idx, idx] += 1.0
        return r

    def residual(self, z: np.ndarray, lam: float, support: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
        """(H(z, lambda), dH/dz) on the cell."""
        sigma = self.sigma(z, support)
        v, dv = self.values(sigma)
        h = z - sigma - v - lam * self.b
        jac = np.eye(self.m) - (np.eye(self.m) + dv) @ self.retraction_jacobian(support)
        return h, jac

    def correct(self, z: np.ndarray, lam: float, support: np.ndarray, iterations: int = 10
                ) -> tuple[np.ndarray, float]:
        """Newton on H(., lambda) from z, kept only while it shrinks the residual:
        (z, the residual's size)."""
        h, jac = self.residual(z, lam, support)
        size = float(np.abs(h).max())
        for _ in range(iterations):
            if size < 1e-14:
                break
            try:
                trial = z - np.linalg.solve(jac, h)
            except np.linalg.LinAlgError:
                break
            h2, jac2 = self.residual(trial, lam, support)
            size2 = float(np.abs(h2).max())
            if not size2 < size:
                break
            z, h, jac, size = trial, h2, jac2, size2
        return z, size

    def direction(self, z: np.ndarray, lam: float, support: np.ndarray
                  ) -> tuple[np.ndarray, float]:
        """(dz, dlambda) = -(adj(dH/dz) b, det(dH/dz)), scaled to unit length. The
        adjugate, not the inverse: dH/dz is singular wherever lambda stands still (for
        example while one player's mix moves against another's pure strategy)."""
        _, jac = self.residual(z, lam, support)
        adj, det = adjugate(jac)
        dz, dlam = -(adj @ self.b), -det
        norm = float(np.sqrt(dz @ dz + dlam * dlam))
        if not norm > 0:
            raise np.linalg.LinAlgError("the path's direction vanishes")
        return dz / norm, dlam / norm

    def distance(self, z: np.ndarray, dz: np.ndarray, support: np.ndarray, skip: int
                 ) -> tuple[float, int]:
        """(time, strategy) of the first support change along z + t dz, the linear
        estimate; (inf, -1) when none lies ahead. ``skip``: the strategy just changed."""
        best, which = np.inf, -1
        for lo, hi in self.blocks():
            level = self.level(z, support, lo, hi)
            dlevel = float(dz[lo:hi][support[lo:hi]].mean())
            for i in range(lo, hi):
                gap, rate = z[i] - level, dz[i] - dlevel  # > 0 exactly on the support
                if i == skip:
                    continue
                if (gap > 0) != support[i]:  # overshot a boundary: cross it now
                    return 0.0, i
                # toward the boundary: a support strategy's gap falling, another's rising
                # (a gap of exactly 0 rising is a crossing now, at t = 0)
                if not (rate < 0 if support[i] else rate > 0):
                    continue
                t = max(0.0, -gap / rate)
                if t < best:
                    best, which = t, i
        return best, which


def adjugate(a: np.ndarray) -> tuple[np.ndarray, float]:
    """(adj(a), det(a)) up to one common positive factor, from the singular value
    decomposition a = U S V^T: adj(a) = det(U V^T) V adj(S) U^T, adj(S) holding the
    products of all singular values but one (so a singular ``a`` has a nonzero adjugate
    when its rank is one short)."""
    u, s, vt = np.linalg.svd(a)
    sign = float(np.linalg.det(u) * np.linalg.det(vt))  # +1 or -1
    with np.errstate(divide="ignore"):
        logs = np.log(s)
    others = np.array([np.sum(np.delete(logs, i)) for i in range(len(s))])
    top = float(np.max(others))
    if not np.isfinite(top):  # rank two or more short: no direction at all
        return np.zeros_like(a), 0.0
    weights = np.exp(others - top)
    return sign * (vt.T * weights) @ u.T, sign * float(np.exp(np.sum(logs) - top))


def _perturbation(game: NormalFormGame, perturbation: Sequence[Sequence[float]] | None
                  ) -> np.ndarray:
    """b as one flat unit vector, checked: each player's largest entry must be unique."""
    if perturbation is None:
        blocks = [np.eye(1, s).ravel() for s in game.shape]
    else:
        if len(perturbation) != game.num_players or any(
                len(p) != s for p, s in zip(perturbation, game.shape)):
            raise GameSearchError("gnm: the perturbation needs one number per strategy of "
                                  f"every player (shape {list(game.shape)})")
        blocks = [np.asarray(p, float) for p in perturbation]
    for i, block in enumerate(blocks):
        if not np.all(np.isfinite(block)) or np.sum(block == block.max()) != 1:
            raise GameSearchError(f"gnm: the perturbation must have a unique largest entry "
                                  f"for {game.players[i]}")
    b = np.concatenate(blocks)
    return b / np.linalg.norm(b)


def gnm(game: NormalFormGame, perturbation: Sequence[Sequence[float]] | None = None,
        end_lambda: float = -10.0, steps: int = 20, max_cells: int = MAX_CELLS
        ) -> EquilibriumSet:
    """The equilibria on the global Newton path of ``game`` from ``perturbation`` (default:
    each player's first strategy favoured, as in Gambit), each verified; any number of
    players. Not all equilibria: those the path meets, an odd number on a generic path."""
    if game.num_players < 2:
        raise GameSearchError("gnm needs at least two players")
    if sum(game.shape) > MAX_STRATEGIES:
        raise GameSearchError(f"gnm: {sum(game.shape)} strategies in all; at most "
                              f"{MAX_STRATEGIES} here")
    if not end_lambda < 0:
        raise GameSearchError("gnm: end_lambda must be negative")
    raw = np.asarray(game.payoffs, float)
    low, high = float(raw.min()), float(raw.max())
    scaled = (raw - low) / (high - low) if high > low else raw - low
    b = _perturbation(game, perturbation)
    path = _Path(scaled, b)
    # the perturbed game's lone equilibrium: everyone plays its largest-b strategy
    support = np.zeros(path.m, bool)
    for lo, hi in path.blocks():
        support[lo + int(np.argmax(b[lo:hi]))] = True
    sigma = support.astype(float)
    v, _ = path.values(sigma)
    start = 0.0  # the bonus that makes those strategies strictly best, plus one
    for lo, hi in path.blocks():
        s = lo + int(np.argmax(b[lo:hi]))
        for i in range(lo, hi):
            if i != s:
                start = max(start, (v[i] - v[s]) / (b[s] - b[i]))
    path.b = b = b * (start + 1.0)  # lambda = 1 at the start, as Gambit counts it
    lam = 1.0
    z = sigma + v + b
    found: list[np.ndarray] = []
    notes: list[str] = []
    skip = -1
    two = game.num_players == 2
    seen: dict[tuple[bytes, int], int] = {}
    for _ in range(max_cells):
        left = 1 if two else steps
        crossed = False
        while left > 0:
            try:
                dz, dlam = path.direction(z, lam, support)
            except np.linalg.LinAlgError:
                notes.append(f"the path met a singular point at lambda = {lam:.6g}")
                return _result(game, found, notes)
            t_cell, which = path.distance(z, dz, support, skip)
            t_zero = -lam / dlam if lam * dlam < 0 else np.inf
            if t_cell == np.inf and t_zero == np.inf:
                if dlam < 0 and lam < end_lambda or t_cell == np.inf and two:
                    return _result(game, found, notes)
                t_cell = max(1.0, abs(lam))  # nothing ahead: keep walking
            target = min(t_cell, t_zero)
            t = target if two else target / left
            z = z + t * dz
            # an equilibrium only where the step reached lambda = 0; a step of length 0 at
            # lambda = 0 (on a cell's boundary just after one was found) crosses the boundary
            reached = t == t_zero
            lam = 0.0 if reached else lam + t * dlam
            if not two:
                z, _ = path.correct(z, lam, support)
            if reached:
                z, size = path.correct(z, 0.0, support, 30)
                found.append(path.sigma(z, support))
                skip = -1
                continue
            if lam < end_lambda and dlam < 0:
                return _result(game, found, notes)
            if t == t_cell or (left == 1 and target == t_cell):
                crossed = which >= 0
                break
            left -= 1
        if crossed:
            before = support.copy()
            support = path.true_support(z)
            if np.array_equal(support, before):  # exactly on the boundary: step across
                support[which] = not support[which]
            elif support[which] == before[which]:
                support[which] = not before[which]
            for lo, hi in path.blocks():
                if not support[lo:hi].any():  # never leave a player without a strategy
                    support[lo:hi] = before[lo:hi]
            skip = which
            key = (support.tobytes(), which)
            seen[key] = seen.get(key, 0) + 1
            if seen[key] > 20:  # the same crossing again and again: the trace is lost
                notes.append(f"the path kept recrossing one support boundary near lambda = "
                             f"{lam:.6g}; stopped there (equilibria further on are missed)")
                return _result(game, found, notes)
    notes.append(f"stopped after {max_cells} support changes at lambda = {lam:.6g}")
    return _result(game, found, notes)


def _result(game: NormalFormGame, found: list[np.ndarray], notes: list[str]
            ) -> EquilibriumSet:
    """The path's zeros as profiles of ``game``, each verified (polished on its support
    when needed); those that fail are left out with a note."""
    shape = game.shape
    offsets = np.r_[0, np.cumsum(shape)]
    tol = REGRET_TOL * max(1.0, float(np.ptp(game.payoffs)))
    kept: list[Profile] = []
    for flat in found:
        mix = [np.clip(flat[offsets[i]:offsets[i + 1]], 0.0, None) for i in range(len(shape))]
        profile: Profile = tuple(tuple(float(p) for p in m / m.sum()) for m in mix)
        if max_regret(game, profile) > tol:
            supports = [list(np.flatnonzero(m > 1e-9)) for m in mix]
            with np.errstate(all="ignore"):
                polished = polish(game, profile, supports)
            if polished is None or max_regret(game, polished) > tol:
                notes.append("a zero of the path failed the equilibrium check (maximum "
                             f"regret {max_regret(game, profile):.3g}) and is left out")
                continue
            profile = polished
        kept.append(profile)
    unique = unique_profiles(kept, 1e-8)
    notes.insert(0, f"{len(unique)} equilibri{'um' if len(unique) == 1 else 'a'} on the "
                 "path, each verified: maximum regret at most " f"{tol:.3g}")
    return EquilibriumSet("gnm", unique, False, notes=notes)
