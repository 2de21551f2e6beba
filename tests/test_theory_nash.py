"""Equilibrium methods checked against the definition, against each other, against their
readable references, and against Nashpy (a test-only dependency)."""

import warnings
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch.theory import NormalFormGame, is_nash, nash
from gamesearch.theory.degeneracy import is_degenerate
from gamesearch.theory.equilibrium import same_profile
from gamesearch.theory.lemke_howson import lemke_howson, lemke_howson_reference
from gamesearch.theory.support_enumeration import support_enumeration_reference


def random_float_game(rng, m, n):
    # Continuous random payoffs: nondegenerate with probability 1.
    return NormalFormGame.bimatrix(rng.standard_normal((m, n)), rng.standard_normal((m, n)))


def sets_equal(xs, ys, tol=1e-6):
    return len(xs) == len(ys) and all(any(same_profile(x, y, tol) for y in ys) for x in xs)


@st.composite
def integer_games(draw):
    m = draw(st.integers(1, 4))
    n = draw(st.integers(1, 4))
    cells = st.integers(-6, 6)
    a = draw(st.lists(st.lists(cells, min_size=n, max_size=n), min_size=m, max_size=m))
    b = draw(st.lists(st.lists(cells, min_size=n, max_size=n), min_size=m, max_size=m))
    return NormalFormGame.bimatrix(a, b)


@settings(max_examples=60, deadline=None)
@given(integer_games())
def test_every_equilibrium_returned_is_one_exactly(game):
    # Exact games are checked with no tolerance: no player gains by any pure deviation.
    for method in ("support", "vertex", "lemke-howson", "pure"):
        found = nash(game, method)
        assert found.exact
        for profile in found.equilibria:
            assert all(isinstance(p, F) for mix in profile for p in mix)
            assert is_nash(game, profile), (method, profile)
    # Every finite game has an equilibrium (Nash 1951); Lemke-Howson always finds one.
    assert nash(game, "lemke-howson").equilibria


@settings(max_examples=60, deadline=None)
@given(integer_games())
def test_enumerations_agree_on_nondegenerate_integer_games(game):
    support = nash(game, "support")
    if support.degenerate or is_degenerate(game, support.equilibria):
        return
    vertex = nash(game, "vertex")
    reference = support_enumeration_reference(game)
    assert support.equilibria == vertex.equilibria == reference.equilibria
    # A nondegenerate game has an odd number of equilibria (Shapley 1974), and every
    # equilibrium Lemke-Howson reaches is among them.
    assert len(support.equilibria) % 2 == 1
    for profile in nash(game, "lemke-howson").equilibria:
        assert profile in support.equilibria


def test_float_games_every_method_agrees_and_holds_to_tolerance():
    rng = np.random.default_rng(7)
    for _ in range(30):
        m, n = rng.integers(1, 6, size=2)
        game = random_float_game(rng, m, n)
        support = nash(game, "support")
        assert not support.degenerate and not support.exact
        assert sets_equal(support.equilibria, nash(game, "vertex").equilibria)
        assert sets_equal(support.equilibria, support_enumeration_reference(game).equilibria)
        for profile in support.equilibria:
            assert is_nash(game, profile, tol=1e-9)
        for profile in nash(game, "lemke-howson").equilibria:
            assert any(same_profile(profile, q) for q in support.equilibria)


def test_lemke_howson_kernel_follows_the_reference_walk():
    rng = np.random.default_rng(11)
    for _ in range(15):
        m, n = rng.integers(2, 7, size=2)
        exact = NormalFormGame.bimatrix(rng.integers(-50, 50, (m, n)),
                                        rng.integers(-50, 50, (m, n)))
        floats = random_float_game(rng, m, n)
        for label in range(m + n):
            assert lemke_howson(exact, label)[0] == lemke_howson_reference(exact, label)[0]
            assert same_profile(lemke_howson(floats, label)[0],
                                lemke_howson_reference(floats, label)[0], 1e-9)
    # Payoffs in -2..2 tie often: the kernel's float walk with its lexicographic rule must
    # still follow the exact reference (checked on the float kernel's raw output).
    from gamesearch.theory.lemke_howson import positive
    from gamesearch.theory.lemke_howson_kernel import lemke_howson_float

    ties = 0
    for _ in range(60):
        m, n = rng.integers(2, 5, size=2)
        game = NormalFormGame.bimatrix(rng.integers(-2, 3, (m, n)), rng.integers(-2, 3, (m, n)))
        for label in range(m + n):
            reference, t = lemke_howson_reference(game, label)
            ties += t > 0
            x, y, _, _ = lemke_howson_float(positive(game.payoffs[0]), positive(game.payoffs[1]),
                                            label, 10**6)
            assert same_profile((tuple(x / x.sum()), tuple(y / y.sum())), reference, 1e-9)
            assert is_nash(game, reference)
    assert ties > 50  # the degenerate case really was exercised


def test_degenerate_games_are_reported():
    # Every row pays the column player the same: any column is a best response to anything,
    # so the game is degenerate (and has a continuum of equilibria).
    game = NormalFormGame.bimatrix([[1, 0], [0, 1]], [[0, 0], [0, 0]])
    for method in ("support", "vertex"):
        found = nash(game, method)
        assert found.degenerate
        assert any("degenerate" in note for note in found.notes)
    # Lemke-Howson meets ties in its ratio test and says so.
    tie = NormalFormGame.bimatrix([[3, 3], [2, 5], [0, 6]], [[3, 3], [2, 6], [3, 1]])
    found = nash(tie, "lemke-howson")
    assert found.degenerate and found.equilibria
    assert all(is_nash(tie, p) for p in found.equilibria)
    assert not nash(NormalFormGame.bimatrix([[2, 0], [0, 1]], [[1, 0], [0, 2]])).degenerate



def test_equilibrium_sets_equal_nashpys_on_random_nondegenerate_games():
    nash_lib = pytest.importorskip("nashpy", reason="nashpy is a test-only dependency")
    rng = np.random.default_rng(2024)
    for _ in range(25):
        m, n = rng.integers(2, 6, size=2)
        a, b = rng.standard_normal((m, n)), rng.standard_normal((m, n))
        game = NormalFormGame.bimatrix(a, b)
        ours = nash(game, "support").equilibria
        # Nashpy's vertex enumeration finds every equilibrium: the sets must be equal.
        vertices = [tuple(map(tuple, eq)) for eq in nash_lib.Game(a, b).vertex_enumeration()]
        assert sets_equal(ours, vertices)
        assert sets_equal(nash(game, "vertex").equilibria, vertices)
        # Nashpy's support enumeration tests best responses with float ==, and so misses
        # some equilibria whose payoffs differ in the last bit (nashpy 0.0.43,
        # algorithms/support_enumeration.py, is_ne); what it does find, we find too.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            theirs = [tuple(map(tuple, eq)) for eq in nash_lib.Game(a, b).support_enumeration()]
        assert all(any(same_profile(t, o) for o in ours) for t in theirs)
        # Nashpy's Lemke-Howson assumes positive payoffs (it does not shift them), so it gets
        # the same game shifted; equilibria and the pivoting path do not change.
        positive = nash_lib.Game(a - a.min() + 1, b - b.min() + 1)
        for label in range(m + n):
            mine = lemke_howson(game, label)[0]
            theirs_lh = tuple(map(tuple, positive.lemke_howson(label)))
            assert is_nash(game, mine)
            # Where the answers differ, Nashpy's is not an equilibrium at all (seen on about
            # 5% of labels of these games with nashpy 0.0.43); otherwise they are the same.
            assert same_profile(mine, theirs_lh, 1e-8) or not is_nash(game, theirs_lh, 1e-6)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.integers(0, 10**6))
def test_zero_sum_lp_value_is_every_equilibriums_payoff(m, n, seed):
    # Von Neumann: every equilibrium of a zero-sum game pays the value; the LP's exact
    # strategies guarantee it from both sides.
    rng = np.random.default_rng(seed)
    game = NormalFormGame.zero_sum(rng.integers(-9, 10, (m, n)))
    from gamesearch.theory import solve_zero_sum

    solution = solve_zero_sum(game)
    assert solution.exact
    assert is_nash(game, (solution.row, solution.column))
    for profile in nash(game, "lemke-howson").equilibria:
        assert game.expected_payoffs(profile)[0] == solution.value


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5), st.integers(1, 4), st.integers(0, 10**6), st.booleans())
def test_every_dominator_returned_dominates(m, n, seed, strict):
    from gamesearch.theory import dominated_strategies

    rng = np.random.default_rng(seed)
    game = NormalFormGame.bimatrix(rng.integers(0, 6, (m, n)), rng.integers(0, 6, (m, n)))
    for d in dominated_strategies(game, strict=strict, mixed=True):
        rows = np.moveaxis(game.matrix(d.player), d.player, 0).reshape(game.shape[d.player], -1)
        advantage = [sum(p * rows[t, c] for t, p in enumerate(d.by)) - rows[d.dominated, c]
                     for c in range(rows.shape[1])]
        assert all(isinstance(p, F) for p in d.by) and sum(d.by) == 1 and d.by[d.dominated] == 0
        if strict:
            assert min(advantage) > 0
        else:
            assert min(advantage) >= 0 and max(advantage) > 0


def test_vertex_enumeration_finds_the_extreme_equilibria_of_a_degenerate_game():
    # A = [[3, 3], [2, 5], [0, 6]], B = [[3, 3], [2, 6], [3, 1]]. By hand: against Top the
    # column player is indifferent, and Top is a best response to y iff y1 >= 2/3: a segment
    # of equilibria from (Top, (1, 0)) to (Top, (2/3, 1/3)). Otherwise only the mix
    # (0, 1/3, 2/3) against (1/3, 2/3) works (rows 2 and 3 both pay 4 > 3; columns both pay
    # 8/3). The extreme equilibria are the segment's ends and that mix.
    game = NormalFormGame.bimatrix([[3, 3], [2, 5], [0, 6]], [[3, 3], [2, 6], [3, 1]])
    found = nash(game, "vertex")
    assert found.degenerate
    assert found.equilibria == [
        ((F(1), F(0), F(0)), (F(1), F(0))),
        ((F(1), F(0), F(0)), (F(2, 3), F(1, 3))),
        ((F(0), F(1, 3), F(2, 3)), (F(1, 3), F(2, 3))),
    ]
