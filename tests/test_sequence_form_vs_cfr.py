"""Issue 6 meets issue 5: the sequence-form LP and CFR agree on the registered poker games.

Kuhn poker's value for the first player is -1/18 (Kuhn 1950). The LP's strategy must be
unexploitable (measured by the hidden-information module's exact best response), and
CFR+'s average strategy must approach the LP's value within its own exploitability.
"""

import pytest

from gamesearch.games import load_game
from gamesearch.imperfect.best_response import exploitability
from gamesearch.imperfect.cfr import CFRSolver
from gamesearch.theory.sequence_form import solve_sequence_form


def merged(strategies: tuple[dict, dict]) -> dict:
    both = {}
    for strategy in strategies:
        for info, probs in strategy.items():
            both[info] = {a: float(p) for a, p in probs.items()}
    return both


def test_kuhn_sequence_form_agrees_with_cfr() -> None:
    game = load_game("kuhn_poker")
    lp = solve_sequence_form(game)
    assert float(lp.value) == pytest.approx(-1 / 18, abs=1e-9)
    assert exploitability(game, merged(lp.strategies)) < 1e-9

    solver = CFRSolver(game, plus=True)
    solver.run(2000)
    eps = exploitability(solver.tree, solver.average())
    assert eps < 1e-3
    from gamesearch.imperfect.best_response import expected_value

    cfr_value = expected_value(solver.tree, solver.average())
    assert abs(cfr_value - float(lp.value)) <= 2 * eps + 1e-9
