"""The global Newton method (theory/gnm.py): every equilibrium it reports is one, it finds
the known equilibria of published games, and its set is Gambit's gnm_solve's on the same
games from the same perturbation (when pygambit is installed)."""

from __future__ import annotations

import numpy as np
import pytest

from gamesearch.errors import GameSearchError
from gamesearch.theory import NormalFormGame
from gamesearch.theory.equilibrium import same_profile
from gamesearch.theory.gnm import _Path, adjugate, gnm
from gamesearch.theory.logit_nash import max_regret
from gamesearch.theory.nash import nash
from test_theory_nplayer import three_player_matching_pennies

BATTLE = NormalFormGame.bimatrix([[3, 0], [0, 2]], [[2, 0], [0, 3]])


def catalogue() -> dict[str, NormalFormGame]:
    """The games both methods are compared on: classics and seeded random N-player games
    (standard-normal payoffs, the shapes the benchmark uses)."""
    games = {"three-player matching pennies": three_player_matching_pennies(),
             "battle of the sexes": BATTLE}
    for shape, seed in (((3, 3), 0), ((5, 5), 1), ((2, 2, 2), 0), ((2, 2, 2), 1),
                        ((3, 3, 3), 1), ((3, 3, 3), 2), ((4, 4, 4), 0), ((4, 3, 2), 1)):
        rng = np.random.default_rng(seed * 100 + sum(shape))
        games[f"{shape} #{seed}"] = NormalFormGame(rng.standard_normal((len(shape), *shape)))
    return games


def test_the_adjugate_is_the_determinant_times_the_inverse_and_survives_singularity():
    a = np.array([[2.0, 1.0], [1.0, 3.0]])
    adj, det = adjugate(a)
    scale = 5.0 / det  # one common positive factor
    assert scale > 0 and np.allclose(adj * scale, [[3, -1], [-1, 2]])
    adj, det = adjugate(np.array([[1.0, 2.0], [2.0, 4.0]]))
    assert det == 0 or abs(det) < 1e-12
    assert np.allclose(adj / np.abs(adj).max(), [[1, -0.5], [-0.5, 0.25]])


def test_jordans_three_player_matching_pennies_has_one_equilibrium_everyone_mixing():
    """Jordan (1993): the unique equilibrium is everyone mixing 1/2-1/2."""
    found = nash(three_player_matching_pennies(), "gnm")
    assert len(found.equilibria) == 1
    assert np.allclose(found.equilibria[0], 0.5, atol=1e-10)


def test_battle_of_the_sexes_path_meets_all_three_equilibria():
    """The path from Gambit's default perturbation meets both pure equilibria and the
    mixed one (3/5, 2/5), (2/5, 3/5): an odd number, as the structure theorem says."""
    found = gnm(BATTLE)
    expected = [((1, 0), (1, 0)), ((0.6, 0.4), (0.4, 0.6)), ((0, 1), (0, 1))]
    assert len(found.equilibria) == 3
    assert all(any(same_profile(p, q, 1e-9) for p in found.equilibria) for q in expected)


def test_a_strategy_exactly_on_its_boundary_and_rising_enters_now():
    """A gap of exactly 0 moving into the support is a crossing at t = 0 (Jordan's game puts
    the path there at lambda*, where every player's switch falls at once; missed, the path
    ran on to lambda = 0 at a pure profile that is no equilibrium)."""
    path = _Path(np.zeros((2, 2, 2)), np.array([1.0, 0.0, 1.0, 0.0]))
    z = np.array([2.0, 1.0, 2.0, 0.5])  # player 1: sigma (1, 0), strategy 1 on its boundary
    support = np.array([True, False, True, False])
    assert path.distance(z, np.array([0.0, 1.0, 0.0, 0.0]), support, -1) == (0.0, 1)
    t, which = path.distance(z, np.array([0.0, -1.0, 0.0, 0.0]), support, -1)
    assert which != 1  # moving away from the support: no crossing for it


@pytest.mark.parametrize("name", list(catalogue()))
def test_every_equilibrium_reported_is_one(name):
    game = catalogue()[name]
    found = gnm(game)
    assert found.equilibria and len(found.equilibria) % 2 == 1
    scale = max(1.0, float(np.ptp(game.payoffs)))
    assert all(max_regret(game, p) <= 1e-9 * scale for p in found.equilibria)


@pytest.mark.parametrize("name", list(catalogue()))
def test_the_set_is_gambits(name):
    gbt = pytest.importorskip("pygambit")
    game = catalogue()[name]
    ours = gnm(game).equilibria
    gambit_game = gbt.Game.from_arrays(*np.asarray(game.payoffs, float))
    theirs = [tuple(tuple(float(eq[p][s]) for s in p.strategies) for p in gambit_game.players)
              for eq in gbt.nash.gnm_solve(gambit_game).equilibria]
    assert all(any(same_profile(p, q, 1e-6) for q in theirs) for p in ours)
    assert all(any(same_profile(p, q, 1e-6) for q in ours) for p in theirs)


def test_bad_requests_are_clear_errors():
    with pytest.raises(GameSearchError, match="unique largest"):
        gnm(BATTLE, perturbation=[[1, 1], [1, 0]])
    with pytest.raises(GameSearchError, match="one number per strategy"):
        gnm(BATTLE, perturbation=[[1, 0]])
    with pytest.raises(GameSearchError, match="negative"):
        gnm(BATTLE, end_lambda=1.0)


def test_the_nash_command_offers_gnm(tmp_path):
    import json
    import subprocess
    import sys

    from gamesearch.theory.formats import write_nfg

    path = tmp_path / "jordan.nfg"
    path.write_text(write_nfg(three_player_matching_pennies()))
    out = subprocess.run([sys.executable, "-m", "gamesearch", "nash", str(path), "--method",
                          "gnm", "--json"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["method"] == "gnm" and len(data["equilibria"]) == 1
    assert max(data["max_regret"]) < 1e-9
