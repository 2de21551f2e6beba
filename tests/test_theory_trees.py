"""Trees to matrices and back to play: the lectures' example, zero-sum trees against
search.minimax, backward induction, and the sequence form on Kuhn poker."""

import json
import random
from fractions import Fraction as F
from pathlib import Path

import pytest

from gamesearch.errors import GameSearchError
from gamesearch.games import load_game
from gamesearch.games.tree import TreeGame, random_tree
from gamesearch.search import minimax as search_minimax
from gamesearch.theory import (
    backward_induction,
    is_nash,
    maximin,
    minimax,
    pure_equilibria,
    solve_sequence_form,
    to_normal_form,
)
from gamesearch.theory.extensive import play
from gamesearch.theory.pure import pure_profile
from theory_examples import LECTURE_TREE, KuhnPoker

DATA = Path(__file__).parent / "data" / "theory"


def test_lecture_tree_has_4_and_3_pure_strategies():
    game = TreeGame.from_file(DATA / "lecture_tree.json")
    assert game.to_data() == TreeGame(LECTURE_TREE).to_data()
    full = to_normal_form(game)
    assert full.game.shape == (4, 3)
    assert full.game.strategies == [["L.x", "L.y", "R.x", "R.y"], ["a", "b", "c"]]
    reduced = to_normal_form(game, reduced=True)
    assert reduced.game.shape == (3, 3)
    assert reduced.game.strategies == [["L.x", "L.y", "R"], ["a", "b", "c"]]
    # A plan maps each decision point to an action: A's full plans cover both of its nodes.
    assert all(len(plan) == 2 for plan in full.plans[0])
    assert [len(plan) for plan in reduced.plans[0]] == [2, 2, 1]
    for normal in (full, reduced):
        assert maximin(normal.game) == (3, [0]) and minimax(normal.game) == (3, [0])
        assert pure_equilibria(normal.game) == [(0, 0)]
    result = search_minimax(game, game.initial_state())
    assert result.value == 3
    names = [game.action_to_string(s, a) for s, a in zip([0, 1], result.pv)]
    assert names == ["L", "a"]  # the pure equilibrium (L.x, a) plays L then a


def _zero_sum_tree(seed, branching, chance=0.0):
    rng = random.Random(seed)
    return TreeGame(random_tree(rng, depth=3, branching=branching, values=(-9, 9),
                                chance=chance))


@pytest.mark.parametrize("reduced", [False, True])
def test_maximin_equals_minimax_equals_the_tree_value(reduced):
    # Zermelo/Kuhn: a finite two-player zero-sum game of perfect information has a saddle
    # point in pure strategies, and its value is the minimax value of the tree.
    for seed in range(25):
        game = _zero_sum_tree(seed, (1, 2) if not reduced else (1, 3))
        value = search_minimax(game, game.initial_state()).value
        normal = to_normal_form(game, reduced=reduced)
        assert maximin(normal.game)[0] == minimax(normal.game)[0] == value
        equilibria = pure_equilibria(normal.game)
        assert equilibria and all(normal.game.payoff(e)[0] == value for e in equilibria)
        # Backward induction's plan profile is one of these pure equilibria, and its path of
        # play is a principal variation of minimax.
        spe = backward_induction(game)
        assert spe.payoffs[0] == value
        plans = [{s: a for s, a in spe.strategy.items() if game.to_move(s) == p}
                 for p in range(2)]
        assert play(game, game.initial_state(), plans)[0] == value
        state = game.initial_state()
        for a in spe.path:
            # minimax reports values for the player to move there; MIN's is MAX's negated.
            v = search_minimax(game, state).value
            assert (v if game.to_move(state) == 0 else -v) == value
            state = game.result(state, a)
        assert game.utilities(state)[0] == value


def test_backward_induction_plan_is_a_pure_equilibrium_of_the_full_normal_form():
    for seed in range(15):
        game = _zero_sum_tree(100 + seed, (1, 2))
        normal = to_normal_form(game)
        spe = backward_induction(game)
        cell = tuple(
            next(k for k, plan in enumerate(normal.plans[p])
                 if all(spe.strategy[s] == a for s, a in plan.items()))
            for p in range(2))
        assert cell in pure_equilibria(normal.game)
        assert is_nash(normal.game, pure_profile(normal.game, cell))


def test_trees_with_chance_still_have_a_saddle_point():
    for seed in range(10):
        game = _zero_sum_tree(200 + seed, (1, 2), chance=0.4)
        normal = to_normal_form(game, reduced=True)
        value = backward_induction(game).payoffs[0]
        assert maximin(normal.game)[0] == minimax(normal.game)[0] == value


def test_nim_normal_form_value_is_the_minimax_value():
    # The lectures' II-Nim: the second player wins (value -1 for the first).
    for spec in ("ii-nim", "nim:piles=1-2", "nim:piles=3"):
        game = load_game(spec)
        normal = to_normal_form(game, reduced=True)
        value = search_minimax(game, game.initial_state()).value
        assert maximin(normal.game)[0] == minimax(normal.game)[0] == value
        assert value == (-1 if spec == "ii-nim" else 1)


def test_entry_game_subgame_perfection_removes_the_empty_threat():
    # Osborne, An Introduction to Game Theory (2004), sec. 5.2 (entry game): Out gives
    # (1, 2); In then Acquiesce (2, 1), Fight (0, 0). The only subgame-perfect equilibrium is
    # (In, Acquiesce); (Out, Fight) is a Nash equilibrium resting on an empty threat.
    tree = {"player": 0, "children": [
        {"action": "In", "player": 1, "children": [
            {"action": "Acquiesce", "value": [2, 1]}, {"action": "Fight", "value": [0, 0]}]},
        {"action": "Out", "value": [1, 2]}]}
    game = TreeGame(tree)
    spe = backward_induction(game)
    assert spe.payoffs == (2, 1) and spe.ties == []
    assert [game.action_to_string(s, a) for s, a in zip([0, 1], spe.path)] == ["In", "Acquiesce"]
    normal = to_normal_form(game).game
    names = [normal.profile_name(e) for e in pure_equilibria(normal)]
    assert names == ["(In, Acquiesce)", "(Out, Fight)"]


def test_ties_are_reported_with_whether_they_matter():
    # Player 2 is indifferent between l and r, which pay player 1 differently (1 or 3).
    tree = {"player": 0, "children": [
        {"action": "A", "player": 1, "children": [
            {"action": "l", "value": [1, 0]}, {"action": "r", "value": [3, 0]}]},
        {"action": "B", "player": 1, "children": [
            {"action": "l", "value": [2, 5]}, {"action": "r", "value": [0, 5]}]},
        {"action": "C", "value": [2, 2]}]}
    game = TreeGame(tree)
    spe = backward_induction(game)
    assert len(spe.ties) == 3  # both of player 2's nodes, and player 1 at the root (2 = 2)
    by_player = {(t.player, tuple(t.actions)) for t in spe.ties}
    assert (1, (0, 1)) in by_player
    assert all(t.matters for t in spe.ties if t.player == 1)
    assert spe.payoffs == (2, 5)


def test_three_player_tree_with_vector_leaves():
    tree = {"player": 0, "children": [
        {"action": "a", "player": 1, "children": [
            {"action": "c", "player": 2, "children": [
                {"action": "e", "value": [1, 2, 3]}, {"action": "f", "value": [4, 5, 1]}]},
            {"action": "d", "value": [0, 1, 0]}]},
        {"action": "b", "value": [2, 0, 9]}]}
    game = TreeGame(tree)
    spe = backward_induction(game)
    # Player 3 picks e (3 > 1); player 2 then gets 2 from c versus 1 from d: c; player 1
    # compares 1 (a) with 2 (b): b.
    assert spe.payoffs == (2, 0, 9)
    normal = to_normal_form(game).game
    assert normal.shape == (2, 2, 2)
    assert len(pure_equilibria(normal)) >= 1


def test_kuhn_poker_value_is_minus_one_eighteenth():
    # Kuhn (1950): the game is worth -1/18 to the first player. Player 2's optimal strategy
    # is unique: with K always bet or call; with Q check, and call a bet 1/3 of the time;
    # with J fold to a bet and bet 1/3 of the time after a check. Player 1's optimal
    # strategies form a family: bluff with J at rate alpha in [0, 1/3], bet K at 3 alpha,
    # call with Q at alpha + 1/3, never bet Q, fold J, call with K.
    solution = solve_sequence_form(KuhnPoker())
    assert solution.exact and solution.value == F(-1, 18)
    p1, p2 = solution.strategies
    assert p2[("K", "p")]["b"] == 1 and p2[("K", "b")]["b"] == 1
    assert p2[("Q", "p")]["b"] == 0 and p2[("Q", "b")]["b"] == F(1, 3)
    assert p2[("J", "p")]["b"] == F(1, 3) and p2[("J", "b")]["b"] == 0
    alpha = p1[("J", "")]["b"]
    assert 0 <= alpha <= F(1, 3)
    assert p1[("K", "")]["b"] == 3 * alpha and p1[("Q", "pb")]["b"] == alpha + F(1, 3)
    assert p1[("Q", "")]["b"] == 0 and p1[("J", "pb")]["b"] == 0 and p1[("K", "pb")]["b"] == 1


def test_sequence_form_on_a_perfect_information_tree_is_minimax():
    class Visible(TreeGame):
        def information_set(self, state, player):
            return state

    for seed in range(5):
        rng = random.Random(300 + seed)
        game = Visible(random_tree(rng, depth=3, branching=(1, 3), values=(-9, 9)))
        assert solve_sequence_form(game).value == search_minimax(game, 0).value


def test_sequence_form_needs_information_sets():
    with pytest.raises(GameSearchError, match="information_set"):
        solve_sequence_form(load_game("ii-nim"))


# --- the command line ---------------------------------------------------------------------
def run(capsys, *args):
    from gamesearch.cli.main import main

    main(list(args))
    return capsys.readouterr().out


def test_cli_nash_json_gives_fraction_strings(capsys):
    out = run(capsys, "nash", str(DATA / "battle_of_the_sexes.csv"), "--json")
    data = json.loads(out)
    assert data["equilibria"] == [[["1", "0"], ["1", "0"]], [["3/5", "2/5"], ["2/5", "3/5"]],
                                  [["0", "1"], ["0", "1"]]]
    for method in ("vertex", "lemke-howson", "pure", "support"):
        data = json.loads(run(capsys, "nash", str(DATA / "prisoners_dilemma.nfg"),
                              "--method", method, "--json"))
        assert data["equilibria"] == [[["0", "1"], ["0", "1"]]]
    data = json.loads(run(capsys, "nash", str(DATA / "matching_pennies.json"), "--method",
                          "lp", "--json"))
    assert data["equilibria"] == [[["1/2", "1/2"], ["1/2", "1/2"]]]
    assert "3/5" in run(capsys, "nash", str(DATA / "battle_of_the_sexes.csv"))


def test_cli_dominance_normal_form_and_spe(capsys):
    data = json.loads(run(capsys, "dominance", str(DATA / "prisoners_dilemma.nfg"),
                          "--iterated", "--json"))
    assert data["survivors"] == [["Defect"], ["Defect"]]
    assert data["dominant_strategy_equilibria"] == ["(Defect, Defect)"]
    out = run(capsys, "normal-form", str(DATA / "lecture_tree.json"))
    assert "4 x 3" in out and "R.y" in out
    data = json.loads(run(capsys, "normal-form", str(DATA / "lecture_tree.json"), "--reduced",
                          "--json"))
    assert data["strategies"] == [["L.x", "L.y", "R"], ["a", "b", "c"]]
    assert data["maximin"] == data["minimax"] == "3"
    data = json.loads(run(capsys, "spe", str(DATA / "lecture_tree.json"), "--json"))
    assert data["payoffs"] == ["3", "-3"] and data["path"] == ["L", "a"] and data["ties"] == []


def test_cli_bad_file_is_one_line_and_exit_2(capsys, tmp_path):
    from gamesearch.cli.main import main

    bad = tmp_path / "bad.nfg"
    bad.write_text('NFG 1 R "x" { "A" "B" } { 2 2 }\n1 1 1 1\n1 1 q 1\n')
    with pytest.raises(SystemExit) as exit_info:
        main(["nash", str(bad)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 3" in err and "'q'" in err


def test_cli_sequence_form_solves_a_registered_game(capsys, monkeypatch):
    from gamesearch.games import REGISTRY, GameEntry

    monkeypatch.setitem(REGISTRY, "kuhn-test", GameEntry("kuhn-test", "test", KuhnPoker))
    data = json.loads(run(capsys, "sequence-form", "kuhn-test", "--json"))
    assert data["value"] == "-1/18" and data["exact"] is True
    assert "-1/18" in run(capsys, "sequence-form", "kuhn-test")
    from gamesearch.cli.main import main

    with pytest.raises(SystemExit) as exit_info:
        main(["sequence-form", "ii-nim"])
    assert exit_info.value.code == 2 and "information_set" in capsys.readouterr().err
