"""Vertex enumeration's compiled pivoting walk against the brute-force reference and Gambit."""

from fractions import Fraction as F

import numpy as np
import pytest

from gamesearch.errors import GameSearchError
from gamesearch.theory import NormalFormGame
from gamesearch.theory.equilibrium import is_nash, same_profile
from gamesearch.theory.lemke_howson import positive
from gamesearch.theory.nash import nash
from gamesearch.theory.vertex_enumeration import (
    polytope_vertices,
    polytope_vertices_reference,
)


def _as_sets(points: np.ndarray, labels: np.ndarray) -> dict[frozenset, tuple]:
    out = {}
    for p, mask in zip(points, labels):
        out[frozenset(t for t in range(64) if (int(mask) >> t) & 1)] = tuple(p)
    return out


@pytest.mark.parametrize("seed", range(12))
def test_walk_finds_the_same_vertices_as_brute_force(seed):
    rng = np.random.default_rng(seed)
    k, d = rng.integers(2, 7, size=2)
    # Small integers make many games degenerate: ties in the ratio test must branch.
    c = positive(rng.integers(0, 4, (k, d)).astype(float)) if seed % 2 else \
        positive(rng.standard_normal((k, d)))
    walked = _as_sets(*polytope_vertices(c)[:2])
    brute = {labels: point for point, labels in polytope_vertices_reference(c, None)}
    assert walked.keys() == brute.keys()
    for labels, point in brute.items():
        assert np.allclose(walked[labels], point, atol=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_exact_degenerate_games_give_verified_extreme_equilibria(seed):
    rng = np.random.default_rng(100 + seed)
    m, n = rng.integers(2, 5, size=2)
    game = NormalFormGame.bimatrix(rng.integers(0, 3, (m, n)), rng.integers(0, 3, (m, n)))
    found = nash(game, "vertex")
    assert found.equilibria
    for profile in found.equilibria:
        assert all(isinstance(p, F) for mix in profile for p in mix)
        assert is_nash(game, profile)


def test_too_many_strategies_is_one_clear_error():
    game = NormalFormGame.bimatrix(np.ones((40, 30)), np.ones((40, 30)))
    with pytest.raises(GameSearchError, match="at most 62"):
        nash(game, "vertex")


@pytest.mark.parametrize("size", [4, 7, 9])
def test_same_equilibria_as_gambit_enummixed(size):
    gbt = pytest.importorskip("pygambit")
    rng = np.random.default_rng(size)
    a, b = rng.standard_normal((size, size)), rng.standard_normal((size, size))
    ours = nash(NormalFormGame.bimatrix(a, b), "vertex").equilibria
    theirs = gbt.nash.enummixed_solve(gbt.Game.from_arrays(a, b), rational=False).equilibria
    theirs = [tuple(tuple(float(eq[p][s]) for s in p.strategies) for p in eq.game.players)
              for eq in theirs]
    assert len(ours) == len(theirs)
    for profile in theirs:
        assert any(same_profile(profile, mine, 1e-7) for mine in ours)


@pytest.mark.parametrize("seed", range(5))
def test_same_extreme_equilibria_as_gambit_on_degenerate_integer_games(seed):
    gbt = pytest.importorskip("pygambit")
    rng = np.random.default_rng(200 + seed)
    m, n = rng.integers(2, 6, size=2)
    a, b = rng.integers(0, 3, (m, n)), rng.integers(0, 3, (m, n))
    ours = set(nash(NormalFormGame.bimatrix(a, b), "vertex").equilibria)
    result = gbt.nash.enummixed_solve(gbt.Game.from_arrays(a, b), rational=True)
    theirs = {tuple(tuple(F(str(eq[p][s])) for s in p.strategies) for p in eq.game.players)
              for eq in result.equilibria}
    assert ours == theirs
