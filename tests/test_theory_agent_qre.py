"""Agent quantal response equilibria of extensive-form games (theory/agent_qre.py): equal
to the normal-form QRE where the tree is a simultaneous game, uniform at lambda = 0, and
ending in the known equilibria of Selten's horse, beer-quiche and Kuhn poker."""

from __future__ import annotations

import numpy as np
import pytest

from gamesearch.errors import GameSearchError
from gamesearch.games import load_game
from gamesearch.theory.agent_qre import (
    agent_log_likelihood,
    agent_qre_at,
    fit_agent_lambda,
    trace_agent_branch,
)
from gamesearch.theory.behaviour import behaviour_regret, expected_payoffs
from gamesearch.theory.efg import read_efg
from gamesearch.theory.normal_form import NormalFormGame
from gamesearch.theory.qre import qre_at
from test_theory_efg import BEER_QUICHE, HORSE

# a 2x3 game written as a tree: 2 moves without seeing 1's move (one information set)
SIMULTANEOUS = """EFG 2 R "simultaneous" { "1" "2" }
""
p "" 1 1 "" { "T" "B" } 0
p "" 2 1 "" { "L" "C" "R" } 0
t "" 1 "" { 3 1 }
t "" 2 "" { 0 2 }
t "" 3 "" { 1 0 }
p "" 2 1 0
t "" 4 "" { 0 0 }
t "" 5 "" { 2 3 }
t "" 6 "" { 1 4 }
"""
MATRIX = np.array([[[3, 0, 1], [0, 2, 1]], [[1, 2, 0], [0, 3, 4]]], float)


@pytest.mark.parametrize("lam", [0.5, 2.0, 6.0])
def test_a_simultaneous_tree_gives_the_normal_form_qre(lam):
    """With one information set each, every agent is a whole player: the agent QRE is the
    normal-form logit QRE (qre.py, itself checked against Gambit)."""
    tree = agent_qre_at(read_efg(SIMULTANEOUS), lam).profile
    normal = qre_at(NormalFormGame(MATRIX), lam).profile
    ours = [list(tree[0][(0, 1)].values()), list(tree[1][(1, 1)].values())]
    assert np.allclose(ours[0], normal[0], atol=1e-7)
    assert np.allclose(ours[1], normal[1], atol=1e-7)


def test_the_branch_starts_uniform_and_lambda_grows():
    points, notes = trace_agent_branch(read_efg(BEER_QUICHE), 10.0)
    assert notes == [] and points[0].lam == 0 and points[-1].lam == 10.0
    assert all(a.lam < b.lam for a, b in zip(points, points[1:]))
    for behaviour in points[0].profile:
        for probs in behaviour.values():
            assert all(abs(p - 1 / len(probs)) < 1e-12 for p in probs.values())


def test_seltens_horse_ends_in_its_perfect_equilibrium():
    """The branch's limit is a sequential equilibrium: 1 and 2 go across, 3 plays L with
    probability at least 3/4 (the component Selten's perfection selects)."""
    game = read_efg(HORSE)
    end = agent_qre_at(game, 1000.0).profile
    assert end[0][(0, 1)]["A"] > 0.999 and end[1][(1, 1)]["a"] > 0.999
    assert end[2][(2, 1)]["L"] >= 0.75
    assert max(behaviour_regret(game, end)) < 1e-6


def test_beer_quiche_selects_pooling_on_beer():
    """Both types have beer, the receiver does not duel after beer and duels after quiche
    with probability at least 1/2: the pooling equilibrium the intuitive criterion keeps."""
    game = read_efg(BEER_QUICHE)
    end = agent_qre_at(game, 1000.0).profile
    assert end[0][(0, 1)]["beer"] > 0.999 and end[0][(0, 2)]["beer"] > 0.999
    assert end[1][(1, 1)]["not"] > 0.999 and end[1][(1, 2)]["duel"] >= 0.5
    assert max(behaviour_regret(game, end)) < 1e-6


def test_kuhn_poker_approaches_its_value():
    game = load_game("kuhn_poker")
    point = agent_qre_at(game, 100.0)
    end = point.profile
    assert abs(expected_payoffs(game, end)[0] + 1 / 18) < 2e-3
    assert np.allclose(point.payoffs, expected_payoffs(game, end), atol=1e-12)
    assert max(behaviour_regret(game, end)) < 5e-3


def test_bad_requests_are_clear_errors():
    with pytest.raises(GameSearchError, match="nonnegative"):
        trace_agent_branch(read_efg(HORSE), -1.0)
    with pytest.raises(GameSearchError, match="nodes"):
        trace_agent_branch(load_game("tictactoe"), 1.0)


def test_a_perfect_information_tree_takes_each_node_as_its_own_set():
    """Without information sets every decision node is an agent; at a large lambda the
    branch plays the backward-induction moves (II-Nim: the first player loses)."""
    end = agent_qre_at(load_game("ii-nim"), 200.0)
    assert end.payoffs[0] < -0.99 and end.payoffs[1] > 0.99


def test_the_qre_command_reads_a_tree(tmp_path):
    """`gamesearch qre FILE.efg`: each information set's behaviour, the payoffs, a plot;
    bad requests are one line, exit 2."""
    import json
    import subprocess
    import sys

    path = tmp_path / "bq.efg"
    path.write_text(BEER_QUICHE)
    plot = tmp_path / "branch.png"

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "gamesearch", "qre", str(path), *args],
                              capture_output=True, text=True, timeout=120)

    out = cli("--lambda", "2", "--plot", str(plot))
    assert out.returncode == 0, out.stderr
    assert "receiver: quiche" in out.stdout and "expected payoffs" in out.stdout
    assert plot.stat().st_size > 10_000
    fitted = cli("--fit", "70,30;95,5;20,80;75,25", "--json")
    assert fitted.returncode == 0 and json.loads(fitted.stdout)["lambda"] > 0
    for args, words in ((("--fit", "1,2"), "one count per action"),
                        (("--lambda", "-1"), "nonnegative"),
                        (("--plot", str(plot)), "not overwriting")):
        bad = cli(*args)
        assert bad.returncode == 2 and words in bad.stderr and "Traceback" not in bad.stderr
        assert len(bad.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("lam", [0.7, 3.0])
def test_the_fit_recovers_the_lambda_that_made_the_play(lam):
    """Counts proportional to the agent QRE at lambda give back that lambda, and no other
    lambda explains them better (McKelvey and Palfrey's estimation, per information set)."""
    game = read_efg(BEER_QUICHE)
    made = agent_qre_at(game, lam)
    counts = [[1000 * p for p in probs.values()] for b in made.profile for probs in b.values()]
    point, value = fit_agent_lambda(game, counts, 50.0)
    assert abs(point.lam - lam) < 1e-4 * lam
    for other in (lam / 2, lam * 2):
        assert agent_log_likelihood(agent_qre_at(game, other), counts) < value
    with pytest.raises(GameSearchError, match="one count per action"):
        fit_agent_lambda(game, counts[:-1])
    with pytest.raises(GameSearchError, match="nonnegative"):
        fit_agent_lambda(game, [[-1, 1]] + counts[1:])


def _reference_trees() -> dict:
    """The web lab's example trees and Kuhn poker: the benchmark's trees."""
    from pathlib import Path

    examples = Path(__file__).resolve().parent.parent / "src" / "gamesearch" / "data" / "efg"
    trees = {path.stem: read_efg(path.read_text()) for path in sorted(examples.glob("*.efg"))}
    trees["kuhn_poker"] = load_game("kuhn_poker")
    return trees


def test_the_compiled_tracer_gives_the_old_tracers_answers():
    """The points recorded from the finite-difference Newton tracer (plain Python sweeps)
    before the sweep was compiled and the Jacobian made exact: the same to 1e-9."""
    import json
    from pathlib import Path

    trees = _reference_trees()
    data = json.loads((Path(__file__).parent / "data" / "agent_qre_reference.json").read_text())
    assert len(data["points"]) == 12
    for row in data["points"]:
        point = agent_qre_at(trees[row["game"]], row["lambda"])
        flat = [p for b in point.profile for probs in b.values() for p in probs.values()]
        assert np.allclose(flat, row["probabilities"], atol=1e-9), (row["game"], row["lambda"])


def test_the_compiled_sweep_and_the_exact_jacobian_agree_with_the_readable_forms():
    """Action values: the kernel against the plain-Python sweep, on random profiles. The
    Jacobian in x and the derivative in lambda: against central differences."""
    from gamesearch.theory.agent_qre import AgentLogit

    rng = np.random.default_rng(7)
    for game in _reference_trees().values():
        logit = AgentLogit(game)
        sigma = rng.random(int(logit.offsets[-1]))
        assert np.allclose(logit.action_values(sigma), logit.action_values_reference(sigma),
                           rtol=0, atol=1e-13)
        x = np.log(0.5 * logit.uniform() + 0.5 * sigma / sigma.sum())
        f, jac, dlam = logit.jacobian(x, 1.7)
        assert np.allclose(f, logit.residual(x, 1.7), atol=1e-15)
        eps = 1e-6
        numeric = np.empty_like(jac)
        for j in range(len(x)):
            e = np.zeros_like(x)
            e[j] = eps
            numeric[:, j] = (logit.residual(x + e, 1.7) - logit.residual(x - e, 1.7)) / (2 * eps)
        assert np.abs(jac - numeric).max() < 1e-7
        numeric_lam = (logit.residual(x, 1.7 + eps) - logit.residual(x, 1.7 - eps)) / (2 * eps)
        assert np.abs(dlam - numeric_lam).max() < 1e-7


@pytest.mark.parametrize("lam", [0.5, 2.0, 10.0])
def test_the_agent_qre_matches_gambits(lam, tmp_path):
    """Gambit's logit QRE of the same .efg text at the same lambda (behaviour strategies,
    agent form): every action's probability to 1e-7. Skipped without pygambit."""
    gbt = pytest.importorskip("pygambit")
    from gamesearch.theory.efg import write_efg

    for name, game in _reference_trees().items():
        text = write_efg(game) if name == "kuhn_poker" else None
        if text is None:
            from pathlib import Path

            text = (Path(__file__).resolve().parent.parent / "src" / "gamesearch" / "data"
                    / "efg" / f"{name}.efg").read_text()
        path = tmp_path / f"{name}.efg"
        path.write_text(text)
        gambit_game = gbt.read_efg(str(path))
        theirs = gbt.qre.logit_solve_lambda(gambit_game, [lam])[0]
        ours = agent_qre_at(read_efg(text), lam).profile
        flat = 0
        for p, player in enumerate(gambit_game.players):
            for infoset in player.infosets:
                for action in infoset.actions:
                    mine = ours[p][(p, infoset.number + 1)][action.label]
                    assert abs(mine - float(theirs[flat])) < 1e-7, (name, action.label)
                    flat += 1
