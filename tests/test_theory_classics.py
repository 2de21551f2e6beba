"""Classic normal-form games with known equilibria (sources in each test), dominance, the
zero-sum LP and the file formats."""

from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest

from gamesearch.errors import FileFormatError, GameSearchError
from gamesearch.theory import (
    NormalFormGame,
    best_responses,
    dominant_strategy_equilibria,
    dominated_strategies,
    is_nash,
    iterated_elimination,
    load_normal_form,
    maximin,
    minimax,
    nash,
    parse_game,
    pure_equilibria,
    saddle_points,
    solve_zero_sum,
)
from gamesearch.theory.formats import read_nfg, write_csv, write_json, write_nfg

DATA = Path(__file__).parent / "data" / "theory"
ALL_METHODS = ("support", "vertex", "lemke-howson")


def equilibria(game, method="support"):
    return nash(game, method).equilibria


def profile(*mixes):
    return tuple(tuple(F(p) for p in mix) for mix in mixes)


def test_matching_pennies_has_only_the_uniform_equilibrium():
    # Osborne, An Introduction to Game Theory (2004), sec. 4.1: the unique equilibrium mixes
    # 1/2-1/2 for both players.
    game = load_normal_form(DATA / "matching_pennies.json")
    for method in (*ALL_METHODS, "lp"):
        assert equilibria(game, method) == [profile((F(1, 2), F(1, 2)), (F(1, 2), F(1, 2)))]
    assert equilibria(game, "pure") == []
    assert solve_zero_sum(game).value == 0


def test_rock_paper_scissors_is_uniform_with_value_zero():
    # Rock-paper-scissors: the unique equilibrium plays each with 1/3 (Osborne 2004, ex. 4.4).
    rps = NormalFormGame.zero_sum([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    third = (F(1, 3),) * 3
    for method in (*ALL_METHODS, "lp"):
        assert equilibria(rps, method) == [(third, third)]
    assert solve_zero_sum(rps).value == 0
    assert maximin(rps)[0] == -1 and minimax(rps)[0] == 1 and saddle_points(rps) == []


def test_battle_of_the_sexes_has_two_pure_and_one_mixed_equilibrium():
    # Osborne 2004, sec. 4.3 (BoS with payoffs 2/1): the mixed equilibrium is (2/3, 1/3) for
    # player 1 and (1/3, 2/3) for player 2; here the CSV file uses 3/2, giving 3/5 and 2/5.
    game = load_normal_form(DATA / "battle_of_the_sexes.csv")
    expected = [profile((1, 0), (1, 0)), profile((F(3, 5), F(2, 5)), (F(2, 5), F(3, 5))),
                profile((0, 1), (0, 1))]
    for method in ("support", "vertex"):
        assert equilibria(game, method) == expected
    osborne = NormalFormGame.bimatrix([[2, 0], [0, 1]], [[1, 0], [0, 2]])
    assert profile((F(2, 3), F(1, 3)), (F(1, 3), F(2, 3))) in equilibria(osborne)
    assert pure_equilibria(game) == [(0, 0), (1, 1)]


def test_prisoners_dilemma_defect_is_dominant():
    # The prisoner's dilemma (Osborne 2004, sec. 2.2): Defect strictly dominates Cooperate
    # for both, so (Defect, Defect) is the only equilibrium and a dominant-strategy one.
    game = load_normal_form(DATA / "prisoners_dilemma.nfg")
    assert dominant_strategy_equilibria(game) == [(1, 1)]
    for method in (*ALL_METHODS, "pure"):
        assert equilibria(game, method) == [profile((0, 1), (0, 1))]
    steps = iterated_elimination(game).steps
    assert [(d.player, d.dominated) for _, d in steps] == [(0, 0), (1, 0)]


def test_chicken_has_two_pure_and_a_mixed_equilibrium():
    # Chicken (Wikipedia, "Chicken (game)", payoffs 0, -1/+1, -10 crash): pure equilibria
    # (Swerve, Straight) and (Straight, Swerve); mixed: Straight with probability 1/10.
    a = [[0, -1], [1, -10]]
    game = NormalFormGame.bimatrix(a, np.array(a).T)
    expected = [profile((1, 0), (0, 1)), profile((F(9, 10), F(1, 10)), (F(9, 10), F(1, 10))),
                profile((0, 1), (1, 0))]
    for method in ("support", "vertex"):
        assert equilibria(game, method) == expected
    assert sorted(map(str, equilibria(game, "lemke-howson"))) == sorted(
        map(str, [expected[0], expected[2]]))  # LH reaches the pure ones from every label


def test_iterated_elimination_gibbons_example():
    # Gibbons, A Primer in Game Theory (1992), fig. 1.1.1: Right is dominated by Middle, then
    # Down by Up, then Left by Middle: (Up, Middle) survives.
    a = [[1, 1, 0], [0, 0, 2]]
    b = [[0, 2, 1], [3, 1, 0]]
    game = NormalFormGame.bimatrix(a, b, strategies=[["Up", "Down"], ["Left", "Middle", "Right"]])
    result = iterated_elimination(game)
    assert result.survivors == [[0], [1]]
    assert [(d.player, d.dominated) for _, d in result.steps] == [(1, 2), (0, 1), (1, 0)]
    assert equilibria(game) == [profile((1, 0), (0, 1, 0))]


def test_domination_by_a_mixed_strategy_needs_the_lp():
    # Row 3 pays (1, 1); rows 1 and 2 pay (3, 0) and (0, 3). No pure row dominates it, but
    # the mix 1/2-1/2 pays (3/2, 3/2) > (1, 1) (Shoham and Leyton-Brown, Multiagent Systems,
    # sec. 4.5.2).
    game = NormalFormGame.bimatrix([[3, 0], [0, 3], [1, 1]], [[0, 0], [0, 0], [0, 0]])
    assert [d.dominated for d in dominated_strategies(game) if d.player == 0] == []
    mixed = [d for d in dominated_strategies(game, mixed=True) if d.player == 0]
    assert [d.dominated for d in mixed] == [2]
    by = mixed[0].by
    assert by[2] == 0 and all(sum(by[t] * r for t, r in enumerate(col)) > 1
                              for col in ([3, 0, 1], [0, 3, 1]))
    weak = dominated_strategies(NormalFormGame.bimatrix([[1, 1], [1, 0]], [[0, 0], [0, 0]]),
                                strict=False)
    assert [(d.player, d.dominated) for d in weak if d.player == 0] == [(0, 1)]


def test_zero_sum_lp_matches_a_hand_solved_game():
    # A 2x2 game without a saddle point: A = [[2, -1], [-1, 1]]; by the 2x2 formula the row
    # player plays (2/5, 3/5), the column player (2/5, 3/5), and the value is 1/5.
    game = NormalFormGame.zero_sum([[2, -1], [-1, 1]])
    solution = solve_zero_sum(game)
    assert solution.exact and solution.value == F(1, 5)
    assert solution.row == (F(2, 5), F(3, 5)) and solution.column == (F(2, 5), F(3, 5))
    assert maximin(game)[0] == -1 and minimax(game)[0] == 1


def test_saddle_point_matrix_lectures():
    # A matrix with a saddle point: maximin = minimax = 3 at (row 1, column 1) (AIMA 3rd ed.
    # fig. 5.2's values read as a matrix: row minima 3, 2, 2; column maxima 14, 12, 8).
    game = NormalFormGame.zero_sum([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    assert maximin(game) == (3, [0])
    assert minimax(game) == (8, [2])
    assert saddle_points(game) == []
    saddle = NormalFormGame.zero_sum([[4, 3, 5], [1, 2, 0], [6, 2, 1]])
    assert maximin(saddle) == (3, [0]) and minimax(saddle) == (3, [1])
    assert saddle_points(saddle) == [(0, 1)]
    assert solve_zero_sum(saddle).value == 3


def test_best_responses_to_pure_and_mixed_profiles():
    bos = NormalFormGame.bimatrix([[2, 0], [0, 1]], [[1, 0], [0, 2]])
    assert best_responses(bos, 0, [None, 0]) == [0]
    assert best_responses(bos, 1, [1, None]) == [1]
    # Against (1/3, 2/3) player 1 is indifferent: 2/3 = 2/3.
    assert best_responses(bos, 0, [None, (F(1, 3), F(2, 3))]) == [0, 1]
    assert best_responses(bos, 0, [None, (0.5, 0.5)]) == [0]


def test_three_player_pure_equilibria():
    # A 3-player coordination game: everyone gets 1 when all choose the same, else 0.
    payoffs = np.zeros((3, 2, 2, 2), dtype=int)
    payoffs[:, 0, 0, 0] = 1
    payoffs[:, 1, 1, 1] = 1
    game = NormalFormGame(payoffs)
    # In any split profile the lone player can switch and complete the coordination.
    assert pure_equilibria(game) == [(0, 0, 0), (1, 1, 1)]
    rng = np.random.default_rng(3)
    for _ in range(20):
        game = NormalFormGame(rng.integers(0, 4, (3, 2, 3, 2)))
        brute = []
        for cell in np.ndindex(*game.shape):
            pure = tuple(tuple(F(int(k == s)) for k in range(game.shape[i]))
                         for i, s in enumerate(cell))
            if is_nash(game, pure):
                brute.append(cell)
        assert pure_equilibria(game) == brute
    with pytest.raises(GameSearchError, match="two-player"):
        nash(game, "support")


def test_formats_round_trip():
    game = NormalFormGame.bimatrix([[3, F(1, 2)], [0, -2]], [[1, 0], [7, 2]],
                                   strategies=[["U", "D"], ["L", "R"]], title="t")
    for text, name in ((write_nfg(game), "g.nfg"), (write_nfg(game, outcomes=True), "g.nfg"),
                       (write_json(game), "g.json"), (write_csv(game), "g.csv")):
        back = parse_game(text, name)
        assert back.exact and np.array_equal(back.exact_payoffs, game.exact_payoffs), name
        assert back.strategies == game.strategies
    three = NormalFormGame(np.arange(24).reshape(3, 2, 2, 2))
    back = parse_game(write_nfg(three, outcomes=True), "three.nfg")
    assert np.array_equal(back.payoffs, three.payoffs)


def test_gambit_payoff_and_outcome_versions_agree():
    # The example in Gambit's documentation ("Game representation formats"): Selten (IJGT,
    # 75), figure 2, in both versions.
    payoff_version = ('NFG 1 R "Selten (IJGT, 75), Figure 2, normal form"\n'
                      '{ "Player 1" "Player 2" } { 3 2 }\n\n1 1 0 2 0 2 1 1 0 3 2 0\n')
    outcome_version = ('NFG 1 R "Selten (IJGT, 75), Figure 2, normal form"\n'
                       '{ "Player 1" "Player 2" }\n\n{ { "1" "2" "3" }\n{ "1" "2" }\n}\n""\n\n'
                       '{\n{ "" 1, 1 }\n{ "" 0, 2 }\n{ "" 0, 2 }\n{ "" 1, 1 }\n{ "" 0, 3 }\n'
                       '{ "" 2, 0 }\n}\n1 2 3 4 5 6\n')
    a, b = read_nfg(payoff_version), read_nfg(outcome_version)
    assert np.array_equal(a.payoffs, b.payoffs)
    assert a.payoff((1, 1)) == (0, 3) and a.payoff((2, 1)) == (2, 0)


@pytest.mark.parametrize(("text", "name", "message"), [
    ('NFG 1 R "x" { "A" "B" } { 2 2 }\n1 1 1 1\n1 1 1 z\n', "g.nfg", r"line 3 .*'z'"),
    ('NFG 1 R "x" { "A" "B" } { 2 2 }\n1 1 1 1\n', "g.nfg", "file ends"),
    ('NFG 1 R "x" { "A" "B" } { 2 2 }\n1 2 3 4 5 6 7 8 9\n', "g.nfg", "unexpected text"),
    ('NFG 1 R "x" { "A" "B" }\n{ { "a" } { "b" } }\n{ { "" 1, 2 } }\n3\n', "g.nfg",
     "outcome 3 of profile 1"),
    ('NFG 1 R "x" { "A" "B" }\n{ { "a" } { "b" } }\n{ { "" 1 } }\n1\n', "g.nfg",
     r"line 3.*payoff 2 of outcome 1"),
    (",L,R\nU,1 2,3 4\nD,1 2\n", "g.csv", "line 3: 1 cells"),
    (",L\nU,1 x\n", "g.csv", r"line 2, column 2: 'x' is not a number"),
    ('{"A": [[1, 2], [3]]}', "g.json", "ragged"),
    ('{"A": [[1, 2],\n [3, "q"]]}', "g.json", r"line 2, A\[1\]\[1\]: 'q'"),
    ('{"A": [[1, 2]],}', "g.json", "line 1"),
    ('{"A": [[1, NaN]]}', "g.json", "not a finite number"),
])
def test_file_errors_name_the_line_and_the_problem(text, name, message):
    with pytest.raises(FileFormatError, match=message):
        parse_game(text, name)


def test_bad_games_are_refused():
    with pytest.raises(GameSearchError, match="finite"):
        NormalFormGame.zero_sum([[1, float("nan")]])
    with pytest.raises(GameSearchError, match="shape"):
        NormalFormGame([[[1, 2]]])
    with pytest.raises(GameSearchError, match="zero-sum"):
        solve_zero_sum(NormalFormGame.bimatrix([[1]], [[1]]))
    with pytest.raises(GameSearchError, match="unknown method"):
        nash(NormalFormGame.zero_sum([[1]]), "magic")
