"""A Nash equilibrium of an N-player normal-form game by simplicial subdivision: van der
Laan and Talman's restart algorithm on the product of the players' strategy simplices, the
grid refined at each restart, the result polished on its support and verified.

Why: it needs nothing of the game but its payoffs, works for any number of players and
strategies, and follows a path of grid simplices in integer coordinates, so unlike the
logit branch (logit_nash.py) it has no step size that can fail; each path ends, at an
approximate equilibrium. Sources: G. van der Laan, A. J. J. Talman and L. van der Heyden,
"Simplicial variable dimension algorithms for solving the nonlinear complementarity
problem on a product of unit simplices using a general labelling", *Mathematics of
Operations Research* 12 (1987); R. D. McKelvey and A. McLennan, "Computation of equilibria
in finite games", *Handbook of Computational Economics* I (1996), the section on simplicial
subdivision. Gambit's ``gambit-simpdiv`` implements van der Laan, Talman and van der
Heyden's algorithm as that survey describes it, with the same scheme as here: refine the
grid, restart from the last approximate fixed point, stop when the maximum regret relative
to the payoff range is small. This module is written from those descriptions (no code
taken from anywhere), with an integer labelling: one pair (player, strategy) per point.

The algorithm, with I the set of all pairs h = (player i, strategy j):

* Grid. Probabilities are multiples of 1/m: a point is an integer vector X >= 0 whose
  entries for each player sum to m. The start v is an interior grid point (every entry at
  least 1; by default the one nearest the centroid, everyone uniform). The directions
  q(i, j) = e(i, j-1) - e(i, j) (j-1 taken cyclically) move probability from j to the
  previous strategy of the same player; a player's directions sum to 0.
* Regions. For T, a subset of I lacking at least one strategy of every player,
  A(T) = {v + sum over h in T of lambda_h q(h) / m : lambda >= 0}, a |T|-dimensional cone
  triangulated by the Freudenthal (Kuhn) simplices of the lattice lambda in Z^T. The cones
  of the largest T cover the product of simplices, and a face lambda_h = 0 of A(T) is
  A(T - h), triangulated alike.
* Labels. Point x gets the pair (i, j) with x_ij > 0 whose payoff falls furthest short of
  player i's best reply (payoffs over the payoff range): the worst strategy in use.
* Path. From the 0-simplex {v} in A({}), follow the simplices of A(T) whose vertices carry
  every label of T: a label k outside T raises the dimension (T gets k); a label twice
  means the other vertex that carries it is replaced (a Kuhn pivot); a pivot that would
  leave A(T) through lambda_h = 0 lowers the dimension (T loses h). A label (i, j) needs
  x_ij > 0, so the path never reaches the simplices' boundary through a facet and stays
  among the grid points; it cannot cycle, so it ends, at a simplex on which some player i
  has every label. One of them is (i, b) with b a best reply of i near there: at that
  vertex every strategy in use, of any player, falls short of its best reply by no more
  than b does, which is almost 0: an approximate equilibrium, with a maximum regret of the
  order of the mesh 1/m.
* Restarts. The best of the last simplex's vertices and their mean (least maximum regret)
  is the start on a grid twice as fine; starting near an approximate equilibrium, the path
  is short.
* Stop. After each grid the approximate point is polished: Newton on the indifference
  equations of a support (logit_nash.polish_on_supports), the supports being the
  strategies played with more than a few grid steps of probability. A result (polished, or
  the grid point itself) counts only if its maximum regret is at most REGRET_TOL of the
  payoff range, as in logit_nash. After 1 + ``max_restarts`` grids, or ``max_pivots``
  pivots in all, without one, LimitError is raised.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from gamesearch.errors import GameSearchError, LimitError
from gamesearch.theory.equilibrium import EquilibriumSet
from gamesearch.theory.logit_nash import (
    REGRET_TOL,
    max_regret,
    polish_on_supports,
    supports_above,
)
from gamesearch.theory.normal_form import NormalFormGame, Profile
from gamesearch.theory.qre import MAX_CELLS

START_GRID = 4
"""The first grid: probabilities in quarters (more if a player has more strategies)."""

MAX_RESTARTS = 30
"""Restarts on a finer grid at most (the last grid 2^30 times finer than the first)."""

MAX_PIVOTS = 200_000
"""Simplex pivots allowed over all restarts together."""

POLISH_STEPS = 15
"""Newton steps per support: from a good start Newton needs a few; a wrong support would
take all 50 of logit_nash's default, and the next grid gives another chance anyway."""

SUPPORT_STEPS = (4.0, 2.0, 1.0, 0.5)
"""A strategy is taken to be in the support when played with more than this many grid
steps (1/m) of probability; each threshold gives one support to polish on."""


class Grid:
    """The product of the players' simplices at one game's sizes: directions, labels."""

    def __init__(self, game: NormalFormGame, scale: float) -> None:
        self.sizes = list(game.shape)
        self.offsets = np.r_[0, np.cumsum(self.sizes)].astype(int)
        self.owner = np.repeat(np.arange(len(self.sizes)), self.sizes)
        n = len(self.sizes)
        payoffs = np.asarray(game.payoffs, dtype=float) / scale
        # Player i's payoffs with its own axis first: contracting the others' mixes from
        # the last axis leaves the payoff of each of i's pure strategies.
        self.own_first = [np.moveaxis(payoffs[i], i, 0) for i in range(n)]

    def direction(self, h: int) -> np.ndarray:
        """q(h) = e(i, j-1) - e(i, j) for h = (i, j): probability moves from j to j-1."""
        i = self.owner[h]
        lo, size = self.offsets[i], self.sizes[i]
        q = np.zeros(self.offsets[-1], dtype=np.int64)
        q[lo + (h - lo - 1) % size] += 1
        q[h] -= 1
        return q

    def mixes(self, x: np.ndarray) -> list[np.ndarray]:
        """The profile of a flat probability vector, one array per player."""
        return [x[self.offsets[i]:self.offsets[i + 1]] for i in range(len(self.sizes))]

    def shortfalls(self, x: np.ndarray) -> list[np.ndarray]:
        """For each player and pure strategy, how far its payoff against the others' mixes
        in ``x`` falls short of the player's best reply (payoffs over the payoff range)."""
        mixes = self.mixes(x)
        out = []
        n = len(mixes)
        for i in range(n):
            values = self.own_first[i]
            for k in reversed(range(n)):
                if k != i:
                    values = values @ mixes[k]
            out.append(values.max() - values)
        return out

    def label(self, point: np.ndarray, m: int) -> int:
        """The label of grid point ``point`` (probabilities point / m): the pair (i, j),
        flattened, with x_ij > 0 whose payoff falls furthest short of i's best reply."""
        y = np.concatenate(self.shortfalls(point / m))
        y[point == 0] = -np.inf
        return int(np.argmax(y))


def grid_point(profile: Sequence[Sequence[float]], m: int) -> np.ndarray:
    """An interior grid point near ``profile`` on the grid of mesh 1/m, as integers: one
    unit for every strategy, the other m - s_i shared out by largest remainders."""
    parts = []
    for mix in profile:
        p = np.clip(np.asarray(mix, dtype=float), 0.0, None)
        p = p / p.sum()
        free = m - len(p)  # what is left after one unit for every strategy
        share = p * free
        base = np.floor(share).astype(np.int64)
        left = free - int(base.sum())
        order = np.argsort(-(share - base), kind="stable")
        base[order[:left]] += 1
        parts.append(base + 1)
    return np.concatenate(parts)


def simplicial_path(grid: Grid, start: np.ndarray, m: int, max_pivots: int
                    ) -> tuple[list[np.ndarray], int]:
    """Follow the path from the grid point ``start`` (mesh 1/m) to a simplex on which some
    player has all its labels; its vertices and the number of pivots taken."""
    sizes = grid.sizes
    cache: dict[bytes, int] = {}

    def label(point: np.ndarray) -> int:
        key = point.tobytes()
        if key not in cache:
            if point.min() < 0:  # the argument in the module docstring excludes this
                raise GameSearchError("simpdiv: internal error, the path left the simplices")
            cache[key] = grid.label(point, m)
        return cache[key]

    q = [grid.direction(h) for h in range(grid.offsets[-1])]
    in_t: set[int] = set()                 # T: the labels the region is spanned by
    count = [0] * len(sizes)               # |T_i| per player
    base: dict[int, int] = {}              # lambda of the simplex's first vertex, on T
    order: list[int] = []                  # the Kuhn permutation: vertex r+1 = r + q(order[r])
    vertices = [start.copy()]
    labels = [label(start)]
    new = 0                                # the vertex that just came in
    pivots = 0
    while True:
        pivots += 1
        if pivots > max_pivots:
            raise LimitError(f"simpdiv: no approximate equilibrium within {max_pivots} "
                             f"pivots on the grid of mesh 1/{m}")
        h = labels[new]
        if h not in in_t:
            player = int(grid.owner[h])
            if count[player] + 1 == sizes[player]:
                return vertices, pivots     # player has every label: done
            in_t.add(h)                     # one dimension more: A(T + h)
            count[player] += 1
            base[h] = 0
            order.append(h)
            vertices.append(vertices[-1] + q[h])
            labels.append(label(vertices[-1]))
            new = len(vertices) - 1
            continue
        out = next(r for r, lab in enumerate(labels) if lab == h and r != new)
        while True:  # replace vertex ``out``; lowering the dimension repeats this
            t = len(order)
            if out == 0:
                first = order.pop(0)
                base[first] += 1
                order.append(first)
                vertices.pop(0)
                labels.pop(0)
                vertices.append(vertices[-1] + q[first])
                labels.append(label(vertices[-1]))
                new = t
            elif out < t:
                order[out - 1], order[out] = order[out], order[out - 1]
                vertices[out] = vertices[out - 1] + q[order[out - 1]]
                labels[out] = label(vertices[out])
                new = out
            else:
                last = order[-1]
                if base[last] == 0:  # the facet lies on lambda_last = 0: drop last from T
                    in_t.discard(last)
                    count[int(grid.owner[last])] -= 1
                    del base[last]
                    order.pop()
                    vertices.pop()
                    labels.pop()
                    if not order:
                        raise GameSearchError("simpdiv: internal error, the path returned "
                                              "to its start")
                    out = labels.index(last)
                    continue
                base[last] -= 1
                order.insert(0, order.pop())
                vertices.pop()
                labels.pop()
                vertices.insert(0, vertices[0] - q[last])
                labels.insert(0, label(vertices[0]))
                new = 0
            break


def _start_profile(game: NormalFormGame, start: Profile | None) -> Profile:
    """The start as floats (default: the centroid); a clear error when it is no profile."""
    if start is None:
        return tuple(tuple(1.0 / s for _ in range(s)) for s in game.shape)
    try:
        mixes = [np.asarray(mix, dtype=float) for mix in start]
    except (TypeError, ValueError):
        mixes = []
    if len(mixes) != game.num_players or any(
            mix.shape != (s,) or not np.all(np.isfinite(mix)) or mix.min() < 0
            or not mix.sum() > 0 for mix, s in zip(mixes, game.shape)):
        raise GameSearchError("simpdiv: the start needs one nonnegative number per strategy "
                              f"of every player, not all zero (shape {list(game.shape)})")
    return tuple(tuple(float(p) for p in mix / mix.sum()) for mix in mixes)


def simpdiv(game: NormalFormGame, start: Profile | None = None,
            max_restarts: int = MAX_RESTARTS, max_pivots: int = MAX_PIVOTS,
            start_grid: int = START_GRID) -> EquilibriumSet:
    """One Nash equilibrium of an N-player game by simplicial subdivision with restarts
    from ``start`` (default: the centroid, everyone uniform), polished and verified."""
    if int(np.prod(game.shape)) > MAX_CELLS:
        raise GameSearchError(f"simpdiv: the game has {int(np.prod(game.shape))} profiles; "
                              f"at most {MAX_CELLS} are supported")
    here = _start_profile(game, start)
    scale = max(1.0, float(np.ptp(game.payoffs)))
    tol = REGRET_TOL * scale
    grid = Grid(game, scale)
    m = max(int(start_grid), max(game.shape))
    pivots = 0
    best = np.inf
    for restart in range(max_restarts + 1):
        try:
            vertices, used = simplicial_path(grid, grid_point(here, m), m, max_pivots - pivots)
        except LimitError:
            seen = f"; the best profile had maximum regret {best:.3g}" if best < np.inf else ""
            raise LimitError(f"simpdiv: no verified equilibrium within {max_pivots} pivots "
                             f"({restart + 1} grids, the last of mesh 1/{m}{seen})") from None
        pivots += used
        points = [np.mean(vertices, axis=0) / m] + [v / m for v in vertices]
        profiles = [tuple(tuple(float(p) for p in mix) for mix in grid.mixes(x))
                    for x in points]
        gain, here = min(((max_regret(game, p), p) for p in profiles), key=lambda c: c[0])
        found: tuple[float, Profile] | None = (gain, here)
        if gain > tol:
            supports = supports_above(here, [k / m for k in SUPPORT_STEPS])
            found = polish_on_supports(game, here, supports, tol, POLISH_STEPS)
        if found is not None and found[0] <= tol:
            return EquilibriumSet("simpdiv", [found[1]], False, notes=[
                f"maximum regret {found[0]:.3g} (verified: at most {tol:.3g}); "
                f"grids: {restart + 1}, the last of mesh 1/{m}; pivots: {pivots}"])
        best = min(best, gain, found[0] if found is not None else np.inf)
        m *= 2
    raise LimitError(f"simpdiv: no verified equilibrium after {max_restarts + 1} grids "
                     f"({pivots} pivots; the best profile has maximum regret {best:.3g}, "
                     f"more than {tol:.3g})")
