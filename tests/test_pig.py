"""Pig solved by value iteration, checked against independent computations and the paper."""

import json
import random

import numpy as np
import pytest
import scipy.sparse
import scipy.sparse.linalg

from gamesearch.cli.main import main
from gamesearch.engines.pig.solver import bellman_update, solve_pig, solve_pig_reference
from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE
from gamesearch.games import load_game
from gamesearch.games.pig import HOLD, ROLL, PigState
from gamesearch.search.chance import expectiminimax


def test_compiled_layered_solver_equals_the_plain_python_sweep() -> None:
    for goal in (2, 5, 12):
        fast, slow = solve_pig(goal), solve_pig_reference(goal)
        assert np.nanmax(np.abs(fast.P - slow.P)) < 1e-10
        assert np.array_equal(np.isnan(fast.P), np.isnan(slow.P))


def policy_values_by_linear_solve(goal: int, roll: np.ndarray) -> np.ndarray:
    """Exact win probabilities when both players follow the policy ``roll[i, j, k]``:
    one sparse linear system (no iteration at all), an independent computation."""
    index = {}
    for i in range(goal):
        for j in range(goal):
            for k in range(goal - i):
                index[i, j, k] = len(index)
    rows, cols, vals, b = [], [], [], np.zeros(len(index))

    def term(row: int, state: tuple, coef: float) -> None:  # coef * x(state), 1 past the goal
        i, j, k = state
        if i + k >= goal:
            b[row] -= coef
        else:
            rows.append(row)
            cols.append(index[state])
            vals.append(coef)

    for (i, j, k), row in index.items():
        term(row, (i, j, k), 1.0)
        if roll[i, j, k]:  # x = (1 - x(j,i,0))/6 + sum_r x(i,j,k+r)/6
            b[row] += 1 / 6
            term(row, (j, i, 0), 1 / 6)
            for r in range(2, 7):
                term(row, (i, j, k + r), -1 / 6)
        else:  # x = 1 - x(j, i+k, 0)
            b[row] += 1
            term(row, (j, i + k, 0), 1.0)
    A = scipy.sparse.csr_matrix((vals, (rows, cols)), shape=(len(index), len(index)))
    x = scipy.sparse.linalg.spsolve(A, b)
    out = np.full((goal, goal, goal), np.nan)
    for state, row in index.items():
        out[state] = x[row]
    return out


def test_value_iteration_matches_an_exact_linear_solve_of_its_policy() -> None:
    goal = 15
    solution = solve_pig(goal)
    roll = np.zeros((goal, goal, goal), dtype=bool)
    for i in range(goal):
        for j in range(goal):
            for k in range(goal - i):
                roll[i, j, k] = solution.should_roll(i, j, k)
    exact = policy_values_by_linear_solve(goal, roll)
    assert np.nanmax(np.abs(exact - solution.P)) < 1e-9
    # ... and that policy is optimal: no single decision can be improved (Bellman residual)
    assert np.nanmax(np.abs(bellman_update(exact) - exact)) < 1e-9


def test_a_worse_policy_is_worse_for_the_first_player() -> None:
    goal = 15
    always_hold_at_5 = np.zeros((goal, goal, goal), dtype=bool)
    always_hold_at_5[:, :, :5] = True
    values = policy_values_by_linear_solve(goal, always_hold_at_5)
    # its values are not a fixed point of the optimality equations: some decision improves
    assert np.nanmax(np.abs(bellman_update(values) - values)) > 1e-3


def test_goal_100_first_player_wins_with_the_published_probability() -> None:
    # Neller & Presser, "Optimal Play of the Dice Game Pig", The UMAP Journal 25(1), 2004:
    # the optimal first player wins with probability about 0.5306 (goal 100).
    solution = solve_pig(100)
    assert solution.win_probability() == pytest.approx(0.5306, abs=5e-5)
    assert solution.residual < 1e-11
    # from 0 : 0 the optimal player holds at a turn total above Knizia's "hold at 20" rule
    assert 20 < solution.hold_at()[0, 0] <= 25


def test_game_rules_agree_with_the_solver_equations() -> None:
    """Expectiminimax over the Pig game protocol, cut off with the solved values, gives the
    solved values back: the rules and the equations describe the same game."""
    goal = 20
    game = load_game("pig", goal=goal)
    solution = solve_pig(goal)

    def solved(s: PigState, player: int) -> float:
        i, j = s.scores[s.player], s.scores[1 - s.player]
        p = solution.roll_value(i, j, s.turn_total) if s.rolling else \
            solution.win_probability(i, j, s.turn_total)
        v = 2 * p - 1
        return v if player == s.player else -v

    rng = random.Random(3)
    for _ in range(40):
        i, j = rng.randrange(goal), rng.randrange(goal)
        k = rng.randrange(goal - i)
        s = PigState((i, j), k, 0, False)
        result = expectiminimax(game, s, depth=2, evaluate=solved)
        assert result.value == pytest.approx(2 * solution.win_probability(i, j, k) - 1,
                                             abs=1e-9)
        want = ROLL if solution.should_roll(i, j, k) else HOLD
        if k > 0 and abs(solution.roll_value(i, j, k) - solution.hold_value(i, j, k)) > 1e-9:
            assert result.action == want


def test_pig_rules() -> None:
    game = load_game("pig:goal=10")
    s = game.initial_state()
    assert game.actions(s) == [ROLL]
    s = game.result(s, ROLL)
    assert game.to_move(s) == CHANCE
    assert sum(p for _, p in game.chance_outcomes(s)) == pytest.approx(1)
    s = game.result(s, 4)
    assert game.actions(s) == [ROLL, HOLD] and s.turn_total == 4
    s = game.result(game.result(s, ROLL), 1)  # pig: the turn total is lost
    assert s == PigState((0, 0), 0, 1, False)
    s = game.result(game.result(game.result(s, ROLL), 6), ROLL)
    s = game.result(s, 5)  # 11 >= 10: player 2 wins at once
    assert game.is_terminal(s) and game.utilities(s) == (-1.0, 1.0)
    with pytest.raises(GameSearchError, match="goal"):
        load_game("pig:goal=1")


def test_solve_pig_cli_json(capsys) -> None:
    main(["solve", "pig", "--goal", "12", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["win_probability"] == pytest.approx(solve_pig_reference(12).win_probability(),
                                                    abs=1e-10)
    assert data["goal"] == 12 and data["best_action"] == ROLL


def test_the_solved_table_beats_hold_at_20_as_a_player() -> None:
    """Playing the table against Knizia's 'hold at 20' rule, alternating who starts, wins
    more than half of the games (the table maximizes the chance of winning)."""
    from gamesearch.agents import make_agent
    from gamesearch.game import sample_action

    game = load_game("pig", goal=30)
    optimal = make_agent("pig-optimal")
    rng = random.Random(11)
    wins = 0
    games = 400
    for n in range(games):
        s = game.initial_state()
        me = n % 2
        while not game.is_terminal(s):
            if s.rolling:
                s = game.result(s, sample_action(game, s, rng))
            elif s.player == me:
                s = game.result(s, optimal(game, s).action)
            else:
                s = game.result(s, HOLD if s.turn_total >= 20 else ROLL)
        wins += game.utilities(s)[me] > 0
    assert wins / games > 0.5
