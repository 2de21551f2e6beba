"""Simplicial subdivision (theory/simpdiv.py): known equilibria, agreement with the complete
two-player enumeration, random N-player games, degenerate games, bounded work, the CLI."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch.errors import GameSearchError, LimitError
from gamesearch.theory import NormalFormGame, is_nash, nash
from gamesearch.theory.equilibrium import same_profile
from gamesearch.theory.formats import write_nfg
from gamesearch.theory.logit_nash import REGRET_TOL, max_regret
from gamesearch.theory.pure import pure_equilibria
from gamesearch.theory.simpdiv import Grid, grid_point, simpdiv, simplicial_path
from test_theory_nplayer import three_player_matching_pennies


def tolerance(game):
    return REGRET_TOL * max(1.0, float(np.ptp(game.payoffs)))


def solve(game, **options):
    """simpdiv's one equilibrium, checked against the definition at the method's tolerance."""
    found = simpdiv(game, **options) if options else nash(game, "simpdiv")
    assert found.method == "simpdiv" and len(found.equilibria) == 1
    profile = found.equilibria[0]
    assert max_regret(game, profile) <= tolerance(game)
    assert is_nash(game, profile)
    return profile


def test_three_player_matching_pennies_gives_the_unique_equilibrium():
    profile = solve(three_player_matching_pennies())
    assert np.allclose(profile, 0.5, atol=1e-12)


def test_three_player_matching_pennies_from_a_pure_start():
    start = ((1, 0), (1, 0), (0, 1))
    assert np.allclose(solve(three_player_matching_pennies(), start=start), 0.5, atol=1e-12)


@pytest.mark.parametrize("row, column", [
    ([[9, 0], [0, 1]], [[0, 1], [1, 0]]),                       # asymmetric pennies
    ([[0, -2, 3], [3, 0, -1], [-1, 4, 0]], None),               # weighted rock-paper-scissors
])
def test_unique_mixed_equilibrium_equals_support_enumeration(row, column):
    game = (NormalFormGame.zero_sum(row) if column is None
            else NormalFormGame.bimatrix(row, column))
    expected = nash(game, "support")
    assert len(expected.equilibria) == 1 and not expected.degenerate
    assert same_profile(solve(game), expected.equilibria[0], 1e-9)


def random_game(shape, seed, with_pure, dominant=0):
    """The first game of standard normal payoffs drawn from ``seed`` that has a pure
    equilibrium (or none, as ``with_pure`` says), its last ``dominant`` players having a
    strictly dominant first strategy. Continuous payoffs: nondegenerate."""
    rng = np.random.default_rng(seed)
    n = len(shape)
    while True:
        payoffs = rng.standard_normal((n, *shape))
        for i in range(n - dominant, n):
            head = [slice(None)] * n
            head[i] = 0
            payoffs[i][tuple(head)] += 2 * np.ptp(payoffs) + 1
        game = NormalFormGame(payoffs)
        if bool(pure_equilibria(game)) == with_pure:
            return game


@pytest.mark.parametrize("shape, seed", [((3, 3), s) for s in range(4)] + [((4, 4), 0),
                                         ((2, 5), 0)])
@pytest.mark.parametrize("with_pure", [True, False])
def test_random_two_player_result_is_one_support_enumeration_finds(shape, seed, with_pure):
    # Nondegenerate games: support enumeration finds every equilibrium.
    game = random_game(shape, 1000 + seed, with_pure)
    found = solve(game)
    assert any(same_profile(found, e, 1e-8) for e in nash(game, "support").equilibria)


@pytest.mark.parametrize("shape, seed", [((3, 3, 3), s) for s in range(3)]
                         + [((2, 3, 2, 3), s) for s in range(2)] + [((3, 2, 2, 2), 0)])
@pytest.mark.parametrize("with_pure", [True, False])
def test_random_n_player_games_are_verified(shape, seed, with_pure):
    profile = solve(random_game(shape, 2000 + seed, with_pure))
    pure = all(max(mix) == 1 for mix in profile)
    assert with_pure or not pure  # no pure equilibrium: a mixed one
    if pure:  # then one of the pure equilibria
        assert tuple(mix.index(1.0) for mix in profile) in pure_equilibria(
            random_game(shape, 2000 + seed, with_pure))


@pytest.mark.parametrize("shape, seed", [((3, 3, 3), s) for s in range(3)]
                         + [((3, 3, 2, 2), s) for s in range(2)])
@pytest.mark.parametrize("with_pure", [True, False])
def test_n_player_games_that_reduce_to_two_players_match_support_enumeration(
        shape, seed, with_pure):
    # Every player after the first two has a strictly dominant first strategy: the
    # equilibria are those of the first two players' bimatrix game with the others playing
    # it, and support enumeration lists all of those.
    n = len(shape)
    game = random_game(shape, 3000 + seed, with_pure, dominant=n - 2)
    profile = solve(game)
    for mix in profile[2:]:
        assert mix[0] == pytest.approx(1.0, abs=1e-12)
    rest = (slice(None), slice(None)) + (0,) * (n - 2)
    two = NormalFormGame.bimatrix(game.payoffs[0][rest], game.payoffs[1][rest])
    assert any(same_profile(profile[:2], e, 1e-8) for e in nash(two, "support").equilibria)


def test_a_pure_equilibrium_in_dominant_strategies():
    # Three-player public goods: contributing (strategy 1) costs 1 and gives each player
    # 0.5; defecting (strategy 2) is strictly dominant, so everyone defects.
    p = np.zeros((3, 2, 2, 2))
    for profile in np.ndindex(2, 2, 2):
        shared = 0.5 * profile.count(0)
        p[(slice(None), *profile)] = [shared - (1 if a == 0 else 0) for a in profile]
    assert solve(NormalFormGame(p)) == ((0.0, 1.0), (0.0, 1.0), (0.0, 1.0))


def test_a_coordination_game_gives_one_of_its_equilibria():
    # Everyone gets 1 when all choose the same: two pure equilibria and mixed ones.
    p = np.zeros((3, 2, 2, 2), dtype=int)
    p[:, 0, 0, 0] = p[:, 1, 1, 1] = 1
    solve(NormalFormGame(p))


@pytest.mark.parametrize("payoffs", [
    np.zeros((3, 2, 3, 2)),                                       # everything is a tie
    np.stack([np.ones((2, 2, 2)), np.zeros((2, 2, 2)), np.ones((2, 2, 2))]),  # ties too
    np.ones((2, 1, 4)),                                           # a one-strategy player
])
def test_degenerate_games_give_a_verified_equilibrium(payoffs):
    solve(NormalFormGame(payoffs))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=2, max_size=3).flatmap(
    lambda shape: st.lists(st.integers(-1, 1), min_size=len(shape) * int(np.prod(shape)),
                           max_size=len(shape) * int(np.prod(shape))).map(
        lambda cells: np.array(cells).reshape(len(shape), *shape))))
def test_small_integer_games_with_ties_are_solved(payoffs):
    # Payoffs in {-1, 0, 1}: ties everywhere, degenerate games; a verified equilibrium
    # always, never a hang (the work is bounded) nor an error.
    solve(NormalFormGame(payoffs))


def test_the_path_ends_at_an_approximate_equilibrium_that_refining_improves():
    rng = np.random.default_rng(7)
    game = NormalFormGame(rng.standard_normal((3, 3, 3, 3)))
    scale = max(1.0, float(np.ptp(game.payoffs)))
    grid = Grid(game, scale)
    centroid = [[1 / 3] * 3] * 3
    bests = []
    for m in (32, 256):
        vertices, pivots = simplicial_path(grid, grid_point(centroid, m), m, 10**6)
        assert len(vertices) <= 7 and pivots > 0  # a simplex of the 6-dimensional product
        for v in vertices:
            assert v.min() >= 0 and all(s.sum() == m for s in grid.mixes(v))
        best = min(max_regret(game, [list(mix) for mix in grid.mixes(v / m)])
                   for v in vertices)
        # The regret of an approximate equilibrium on the grid of mesh 1/m is of order
        # (payoff range) * (the simplices' dimension) / m; here it is 30 times smaller.
        assert best <= scale * 6 / m
        bests.append(best)
    assert bests[1] < bests[0] / 4


def test_grid_points_are_interior_and_sum_to_the_denominator():
    point = grid_point([[1.0, 0.0, 0.0], [0.2, 0.8]], 8)
    assert point.tolist() == [6, 1, 1, 2, 6]


def test_the_work_is_bounded_with_a_clear_error():
    game = NormalFormGame(np.random.default_rng(3).standard_normal((3, 3, 3, 3)))
    assert "grids: 4" in simpdiv(game).notes[0]  # it takes four grids, and so:
    with pytest.raises(LimitError, match="within 50 pivots"):
        simpdiv(game, max_pivots=50)
    with pytest.raises(LimitError, match="after 3 grids"):
        simpdiv(game, max_restarts=2)


@pytest.mark.parametrize("start", [((1, 0),), ((1, 0), (1, 0), (-1, 2)),
                                   ((1, 0), (0, 0), (1, 0)), ((1, 0), (1, "x"), (1, 0))])
def test_a_bad_start_is_a_clear_error(start):
    with pytest.raises(GameSearchError, match="start"):
        simpdiv(three_player_matching_pennies(), start=start)


def test_cli_nash_simpdiv(capsys, tmp_path):
    from gamesearch.cli.main import main

    path = tmp_path / "pennies3.nfg"
    path.write_text(write_nfg(three_player_matching_pennies()))
    main(["nash", str(path), "--method", "simpdiv", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["method"] == "simpdiv" and data["equilibria"] == [[[0.5, 0.5]] * 3]
    assert data["max_regret"] == [0.0]
    main(["nash", str(path), "--method", "simpdiv"])
    out = capsys.readouterr().out
    assert "simpdiv" in out and "maximum regret" in out
    for bad in ([str(tmp_path / "missing.nfg"), "--method", "simpdiv"],
                [str(path), "--method", "simplex"]):
        with pytest.raises(SystemExit) as exit_info:
            main(["nash", *bad])
        assert exit_info.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("error:")
