"""Expectimax / expectiminimax against hand computations, and *-minimax against plain search."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, Game
from gamesearch.games.tree import TreeGame, random_tree
from gamesearch.search.chance import expectimax, expectiminimax


def test_expectimax_on_the_classic_tree_averages_min() -> None:
    # MIN replaced by a uniform chance node: (3+12+8)/3, (2+4+6)/3, (14+5+2)/3
    game = TreeGame([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    result = expectimax(game, 0)
    assert result.value == pytest.approx(23 / 3)
    assert result.action == 0
    assert result.action_values[1] == pytest.approx(4.0)
    assert result.action_values[2] == pytest.approx(7.0)


def test_expectimax_weights_once_by_probability() -> None:
    # CS188's expectimax slide: probabilities 1/2, 1/3, 1/6 over 8, 24, -12 give
    # 1/2*8 + 1/3*24 + 1/6*(-12) = 10 (weighted once, never also divided by the count).
    tree = {"player": "max", "children": [
        {"player": "chance", "children": [
            {"probability": 1 / 2, "value": 8},
            {"probability": 1 / 3, "value": 24},
            {"probability": 1 / 6, "value": -12}]},
        {"value": 9}]}
    game = TreeGame(tree)
    assert expectimax(game, 0).value == pytest.approx(10.0)
    assert expectiminimax(game, 0).value == pytest.approx(10.0)
    assert expectiminimax(game, 0).action == 0


def test_expectiminimax_max_chance_min_by_hand() -> None:
    # MAX -> chance(0.9, 0.1) -> MIN: left  = .9*min(2,3) + .1*min(1,4) = 1.9
    #                                  right = .9*min(20,30) + .1*min(1,400) = 18.1
    def side(a, b, c, d):
        return {"player": "chance", "children": [
            {"probability": 0.9, "player": "min", "children": [{"value": a}, {"value": b}]},
            {"probability": 0.1, "player": "min", "children": [{"value": c}, {"value": d}]}]}
    game = TreeGame({"player": "max", "children": [side(2, 3, 1, 4), side(20, 30, 1, 400)]})
    result = expectiminimax(game, 0)
    assert result.value == pytest.approx(18.1)
    assert result.action == 1
    assert result.action_values[0] == pytest.approx(1.9)
    # expectimax treats MIN as uniform chance: .9*25 + .1*200.5 = 42.55
    assert expectimax(game, 0).value == pytest.approx(42.55)
    for pruning in ("star1", "star2"):
        assert expectiminimax(game, 0, pruning=pruning, bounds=(0, 400)).value == \
            pytest.approx(18.1)


def test_opponent_model_probabilities_are_used_and_validated() -> None:
    game = TreeGame([[3, 12, 8], [2, 4, 6]])

    def model(g, s):  # the opponent picks its first move with probability 0.5
        acts = g.actions(s)
        return [(acts[0], 0.5), (acts[1], 0.25), (acts[2], 0.25)]

    result = expectimax(game, 0, opponent_model=model)
    assert result.action_values[0] == pytest.approx(0.5 * 3 + 0.25 * 12 + 0.25 * 8)
    assert result.value == pytest.approx(6.5)

    with pytest.raises(GameSearchError, match="sum to"):
        expectimax(game, 0, opponent_model=lambda g, s: [(0, 0.5), (1, 0.2)])
    with pytest.raises(GameSearchError, match="invalid probability"):
        expectimax(game, 0, opponent_model=lambda g, s: [(0, 1.5), (1, -0.5)])
    with pytest.raises(GameSearchError, match="not legal"):
        expectimax(game, 0, opponent_model=lambda g, s: [(7, 1.0)])


class BrokenDice(Game):
    """A one-move game whose chance node's probabilities do not sum to 1."""

    def initial_state(self):
        return "roll"

    def to_move(self, s):
        return CHANCE if s == "roll" else 0

    def actions(self, s):
        return [1, 2]

    def chance_outcomes(self, s):
        return [(1, 0.5), (2, 0.4)]

    def result(self, s, a):
        return a

    def is_terminal(self, s):
        return s != "roll"

    def utilities(self, s):
        return (s, -s)


def test_chance_probabilities_are_validated() -> None:
    with pytest.raises(GameSearchError, match="sum to 0.9"):
        expectiminimax(BrokenDice(), "roll")
    with pytest.raises(GameSearchError, match="sum to 0.9"):
        expectiminimax(BrokenDice(), "roll", pruning="star2", bounds=(0, 3))


def test_trace_reports_enter_leaf_exit_in_order() -> None:
    events = []
    game = TreeGame([[3, 12], [2, 4]])
    expectimax(game, 0, trace=lambda event, s, **data: events.append((event, s, data.get("value"))))
    assert [e for e, _, _ in events] == ["enter", "enter", "leaf", "leaf", "exit",
                                          "enter", "leaf", "leaf", "exit", "exit"]
    assert events[4][2] == pytest.approx(7.5)
    assert events[-1][2] == pytest.approx(7.5)


def test_bounds_are_required_and_checked() -> None:
    game = TreeGame([[3, 12], [2, 4]])
    with pytest.raises(GameSearchError, match="bounds"):
        expectiminimax(game, 0, pruning="star1")
    with pytest.raises(GameSearchError, match="outside the bounds"):
        expectiminimax(game, 0, pruning="star1", bounds=(0, 10))
    with pytest.raises(GameSearchError, match="unknown pruning"):
        expectiminimax(game, 0, pruning="star3", bounds=(0, 20))


def chance_tree(seed: int, depth: int) -> TreeGame:
    rng = random.Random(seed)
    return TreeGame(random_tree(rng, depth, branching=(1, 4), values=(-9, 9), chance=0.4))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 6))
def test_star1_and_star2_equal_plain_expectiminimax(seed: int, depth: int) -> None:
    game = chance_tree(seed, depth)
    plain = expectiminimax(game, 0)
    for pruning in ("star1", "star2"):
        pruned = expectiminimax(game, 0, pruning=pruning, bounds=(-9, 9))
        assert pruned.value == pytest.approx(plain.value, abs=1e-9), pruning
        if plain.action is not None:  # the chosen action is one of the best
            assert plain.action_values[pruned.action] == pytest.approx(plain.value, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9))
def test_star_pruning_equals_plain_with_loose_bounds_and_saves_nodes(seed: int) -> None:
    game = chance_tree(seed, 5)
    plain = expectiminimax(game, 0)
    star2 = expectiminimax(game, 0, pruning="star2", bounds=(-20, 30))
    assert star2.value == pytest.approx(plain.value, abs=1e-9)
    star1 = expectiminimax(game, 0, pruning="star1", bounds=(-9, 9))
    assert star1.stats.leaves <= plain.stats.leaves


def test_sampling_reports_the_sample_size_and_is_reproducible() -> None:
    leaves = [{"probability": 0.1, "value": v} for v in range(10)]
    game = TreeGame({"player": "max", "children": [{"player": "chance", "children": leaves},
                                                   {"value": 4.4}]})
    exact = expectiminimax(game, 0)
    assert exact.value == pytest.approx(4.5)
    sampled = expectiminimax(game, 0, samples=3, seed=1)
    assert sampled.stats.extra["sample_size"] == 3
    assert sampled.stats.extra["samples_drawn"] == 3
    assert sampled.stats.leaves == 3 + 1
    assert sampled.value == expectiminimax(game, 0, samples=3, seed=1).value
    many = expectiminimax(game, 0, samples=20000, seed=2)
    assert abs(many.action_values[0] - 4.5) < 0.1
    with pytest.raises(GameSearchError, match="sample size"):
        expectiminimax(game, 0, samples=0)


def test_a_chance_root_has_a_value_and_no_action() -> None:
    game = TreeGame({"player": "chance", "children": [
        {"probability": 0.25, "player": "max", "children": [{"value": 4}, {"value": 8}]},
        {"probability": 0.75, "value": 0}]})
    for search in (expectimax, expectiminimax):
        result = search(game, 0)
        assert result.value == pytest.approx(2.0) and result.action is None
