"""N-player normal form: pure equilibria, the logit-branch Nash solver, logit QRE."""

import json

import numpy as np
import pytest

from gamesearch.errors import GameSearchError
from gamesearch.theory import NormalFormGame
from gamesearch.theory.formats import write_nfg
from gamesearch.theory.logit_nash import max_regret
from gamesearch.theory.nash import nash
from gamesearch.theory.pure import pure_equilibria
from gamesearch.theory.qre import fit_lambda, qre_at, trace_branch


def three_player_matching_pennies() -> NormalFormGame:
    """Jordan (1993): 1 wants to match 2, 2 to match 3, 3 to mismatch 1. Its only
    equilibrium is everyone mixing 1/2-1/2, and it has no pure one."""
    p = np.zeros((3, 2, 2, 2), dtype=int)
    for a in range(2):
        for b in range(2):
            for c in range(2):
                p[:, a, b, c] = [1 if a == b else -1, 1 if b == c else -1,
                                 1 if c != a else -1]
    return NormalFormGame(p, title="three-player matching pennies")


def test_three_player_matching_pennies():
    game = three_player_matching_pennies()
    assert pure_equilibria(game) == []
    found = nash(game, "logit")
    assert len(found.equilibria) == 1
    assert np.allclose(found.equilibria[0], 0.5, atol=1e-12)
    assert max_regret(game, found.equilibria[0]) <= 1e-12


def test_three_player_coordination_pure_equilibria():
    # Everyone gets 1 when all choose the same, else 0: exactly the two unanimous profiles.
    p = np.zeros((3, 2, 2, 2), dtype=int)
    p[:, 0, 0, 0] = 1
    p[:, 1, 1, 1] = 1
    assert pure_equilibria(NormalFormGame(p)) == [(0, 0, 0), (1, 1, 1)]


@pytest.mark.parametrize("shape", [(3, 3, 3), (2, 2, 2, 2), (4, 3, 2)])
def test_logit_nash_is_verified_on_random_games(shape):
    rng = np.random.default_rng(sum(shape))
    game = NormalFormGame(rng.standard_normal((len(shape), *shape)))
    found = nash(game, "logit")
    assert len(found.equilibria) == 1
    assert max_regret(game, found.equilibria[0]) <= 1e-9


def test_two_player_methods_refuse_three_players_with_a_hint():
    with pytest.raises(GameSearchError, match="logit"):
        nash(three_player_matching_pennies(), "vertex")


def test_qre_branch_starts_uniform_and_reaches_nash():
    game = NormalFormGame.bimatrix([[9, 0], [0, 1]], [[0, 1], [1, 0]])
    branch = trace_branch(game, 1000.0)
    assert branch[0].lam == 0 and branch[0].profile == ((0.5, 0.5), (0.5, 0.5))
    assert branch[-1].lam == 1000.0
    # The mixed equilibrium: row mixes 1/2-1/2, column plays Left with 1/10.
    assert np.allclose(branch[-1].profile, ((0.5, 0.5), (0.1, 0.9)), atol=1e-2)


def test_qre_at_a_lambda_matches_gambit():
    gbt = pytest.importorskip("pygambit")
    a, b = np.array([[9, 0], [0, 1]]), np.array([[0, 1], [1, 0]])
    gambit = gbt.Game.from_arrays(a, b)
    for theirs in gbt.qre.logit_solve_lambda(gambit, [0.5, 2.0, 7.0]):
        ours = qre_at(NormalFormGame.bimatrix(a, b), theirs.lam)
        expected = [[float(theirs.profile[p][s]) for s in p.strategies]
                    for p in gambit.players]
        assert np.allclose(ours.profile, expected, atol=1e-8)


def test_qre_at_a_lambda_three_players_is_a_fixed_point():
    rng = np.random.default_rng(5)
    game = NormalFormGame(rng.standard_normal((3, 2, 3, 2)))
    point = qre_at(game, 3.0)
    for i, mix in enumerate(point.profile):
        values = np.array(game.strategy_payoffs(i, point.profile), dtype=float)
        logit = np.exp(3.0 * (values - values.max()))
        assert np.allclose(mix, logit / logit.sum(), atol=1e-9)


def test_fit_lambda_recovers_the_lambda_that_made_the_data():
    game = NormalFormGame.bimatrix([[9, 0], [0, 1]], [[0, 1], [1, 0]])
    truth = qre_at(game, 0.8)
    counts = [[1e6 * p for p in mix] for mix in truth.profile]
    point, _ = fit_lambda(game, counts)
    assert point.lam == pytest.approx(0.8, rel=1e-5)


def test_fit_lambda_matches_gambit():
    gbt = pytest.importorskip("pygambit")
    a, b = np.array([[9, 0], [0, 1]]), np.array([[0, 1], [1, 0]])
    counts = [[80.0, 20.0], [30.0, 70.0]]
    gambit = gbt.Game.from_arrays(a, b)
    theirs = gbt.qre.logit_estimate(gambit.mixed_strategy_profile(counts))
    point, value = fit_lambda(NormalFormGame.bimatrix(a, b), counts)
    assert point.lam == pytest.approx(theirs.lam, rel=1e-5)
    assert value == pytest.approx(theirs.log_like, rel=1e-9)


@pytest.mark.parametrize("counts", [[[1, 2]], [[-1, 1], [1, 1]], [[0, 0], [0, 0]]])
def test_fit_lambda_bad_counts_are_clear_errors(counts):
    game = NormalFormGame.bimatrix([[1, 0], [0, 1]], [[1, 0], [0, 1]])
    with pytest.raises(GameSearchError, match="logit fit"):
        fit_lambda(game, counts)


def test_cli_nash_reads_a_three_player_nfg(capsys, tmp_path):
    from gamesearch.cli.main import main

    path = tmp_path / "pennies3.nfg"
    path.write_text(write_nfg(three_player_matching_pennies()))
    main(["nash", str(path), "--method", "logit", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert len(data["equilibria"]) == 1 and data["max_regret"][0] <= 1e-12
    main(["nash", str(path), "--method", "logit"])
    assert "maximum regret" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_info:
        main(["nash", str(path), "--method", "vertex"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_cli_qre_branch_lambda_fit_and_plot(capsys, tmp_path):
    from gamesearch.cli.main import main

    path = tmp_path / "asym.nfg"
    path.write_text(write_nfg(NormalFormGame.bimatrix([[9, 0], [0, 1]], [[0, 1], [1, 0]])))
    main(["qre", str(path), "--lambda", "1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["lambda"] == 1.0 and abs(data["profile"][0][0] - 0.8935763305568) < 1e-8
    main(["qre", str(path), "--fit", "80,20;30,70", "--json"])
    assert abs(json.loads(capsys.readouterr().out)["lambda"] - 0.61030883) < 1e-6
    plot = tmp_path / "branch.png"
    main(["qre", str(path), "--max-lambda", "50", "--plot", str(plot)])
    assert "plot written" in capsys.readouterr().out and plot.stat().st_size > 1000
    for bad in (["--fit", "1,x"], ["--fit", "1,2,3;1,1"], ["--lambda", "-1"],
                ["--plot", str(plot)]):
        with pytest.raises(SystemExit) as exit_info:
            main(["qre", str(path), *bad])
        assert exit_info.value.code == 2
        assert capsys.readouterr().err.count("\n") == 1
