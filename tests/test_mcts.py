"""MCTS (UCT): tactics, convergence to minimax, seeds, time budget, tree reuse, N players
and chance."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import Clock
from gamesearch.agents import make_agent
from gamesearch.errors import GameSearchError
from gamesearch.games.connect4 import ConnectFour
from gamesearch.games.takeaway import TakeAway
from gamesearch.games.tictactoe import TicTacToe
from gamesearch.games.tree import TreeGame, random_tree
from gamesearch.search import MCTS, maxn, mcts, minimax, paranoid


@pytest.mark.parametrize("position, best", [
    ("xx.oo....", {2}),          # X completes the top row
    ("x.x.o....", {1}),          # O must block square 2
    ("xo.xo....", {6}),          # X wins at 7 before O can win at 8
])
def test_tictactoe_tactics(position: str, best: set) -> None:
    game = TicTacToe()
    state = game.state_from_string(position)
    result = mcts(game, state, iterations=2000, seed=3)
    assert result.action in best
    assert result.action in game.actions(state)


def test_tictactoe_immediate_win_value_is_a_win() -> None:
    game = TicTacToe()
    result = mcts(game, game.state_from_string("xx.oo...."), iterations=500, seed=1)
    assert result.value == 1.0  # every simulation through the winning move is a win
    assert result.pv == [2]


@pytest.mark.parametrize("moves, best", [
    ("445566", {2, 6}),  # X has 4-5-6 on the bottom row: 3 or 7 wins at once
    ("17273", {3}),      # X has 1-2-3 on the bottom row: O must block column 4
    ("121314", {0}),     # X completes a vertical four in column 1 (O threatens 5)
])
def test_connect4_tactics(moves: str, best: set) -> None:
    game = ConnectFour()
    state = game.state_from_string(moves)
    result = mcts(game, state, iterations=1500, seed=5)
    assert result.action in best


def test_converges_to_the_minimax_choice_on_random_trees() -> None:
    checked = 0
    for seed in range(50):
        game = TreeGame(random_tree(random.Random(seed), 4, branching=(2, 3), values=(-9, 9)))
        values = minimax(game, 0).action_values
        ranked = sorted(values.values(), reverse=True)
        if len(ranked) > 1 and ranked[0] - ranked[1] < 2:
            continue  # a near tie at the root: either choice is fine, nothing to test
        result = mcts(game, 0, iterations=2000, seed=seed)
        assert values[result.action] == ranked[0], seed
        checked += 1
    assert checked >= 25


def test_same_seed_same_search() -> None:
    game = ConnectFour()
    state = game.state_from_string("4433")
    a = mcts(game, state, iterations=400, seed=11)
    b = mcts(game, state, iterations=400, seed=11)
    assert a.action == b.action and a.pv == b.pv and a.value == b.value
    assert a.stats.extra["visits"] == b.stats.extra["visits"]
    assert a.stats.nodes == b.stats.nodes


def test_statistics_describe_the_tree() -> None:
    game = TicTacToe()
    state = game.initial_state()
    result = mcts(game, state, iterations=300, seed=2)
    stats = result.stats
    assert stats.iterations == 300
    assert stats.nodes == 301  # every iteration from the empty board adds one node
    assert sum(stats.extra["visits"].values()) == 300
    assert stats.extra["root_visits"] == 300
    most = max(stats.extra["visits"].values())
    assert stats.extra["visits"][game.action_to_string(state, result.action)] == most
    assert result.pv[0] == result.action


def test_time_budget_is_honoured() -> None:
    game = ConnectFour()
    state = game.initial_state()
    clock = Clock()
    result = mcts(game, state, time=0.2, seed=1)
    clock.kept(0.2, 0.15)  # one more play-out at most overshoots
    assert result.action in game.actions(state)
    assert result.stats.iterations > 10


def test_tree_reuse_keeps_the_statistics() -> None:
    game = TicTacToe()
    searcher = MCTS(game, iterations=1000, seed=4)
    s0 = game.initial_state()
    first = searcher.search(s0)
    after_me = game.result(s0, first.action)
    reply, reply_node = searcher.root.children[first.action].most_visited()
    kept = reply_node.visits
    assert kept > 0
    s1 = game.result(after_me, reply)
    second = searcher.search(s1)
    assert second.stats.extra["reused_visits"] == kept
    assert second.stats.extra["root_visits"] == kept + 1000
    # a state not in the tree starts afresh
    searcher.reset()
    third = searcher.search(s1)
    assert third.stats.extra["reused_visits"] == 0


def test_n_players_take_their_own_component() -> None:
    # 3 players, last stick wins; with 3 sticks left the mover takes them all and wins
    game = TakeAway(players=3, sticks=3, max_take=3, per_stick=0, bonus=1)
    result = mcts(game, game.initial_state(), iterations=500, seed=1)
    assert result.action == 3
    assert result.stats.extra["value_vector"] == (1.0, 0.0, 0.0)


def test_n_players_follow_maxn_not_paranoia() -> None:
    # Player 2 picks (5,9,0) under A (9 > 1) and (8,5,5) under B (5 > 0), so max^n gives
    # player 1 8 by playing B; a paranoid player 1 fears (0,0,9) and plays A. Selection by
    # each mover's own component must find B.
    tree = {"player": 0, "children": [
        {"action": "A", "player": 1, "children": [{"value": [5, 9, 0]}, {"value": [9, 1, 0]}]},
        {"action": "B", "player": 1, "children": [{"value": [8, 5, 5]}, {"value": [0, 0, 9]}]},
    ]}
    game = TreeGame(tree)
    assert maxn(game, 0).action == 1 and paranoid(game, 0).action == 0
    result = mcts(game, 0, iterations=2000, seed=1)
    assert result.action == 1
    assert result.value == pytest.approx(8, abs=0.5)
    assert result.stats.extra["value_vector"] == pytest.approx((8, 5, 5), abs=0.5)


def test_chance_nodes_are_sampled_by_probability() -> None:
    # A gamble worth 0.9*10 + 0.1*(-10) = 8 against a sure 5: the expectation decides.
    tree = {"player": "max", "children": [
        {"action": "sure", "value": 5},
        {"action": "gamble", "player": "chance", "children": [
            {"probability": 0.9, "value": 10}, {"probability": 0.1, "value": -10}]},
    ]}
    game = TreeGame(tree)
    result = mcts(game, 0, iterations=3000, seed=1)
    assert result.action == 1
    assert result.value == pytest.approx(8, abs=1.0)


def test_evaluation_at_the_leaf_instead_of_play_outs() -> None:
    game = ConnectFour()
    state = game.state_from_string("17273")
    result = mcts(game, state, iterations=800, seed=1, evaluate=True)
    assert result.action == 3


def test_custom_rollout_policy_is_used() -> None:
    calls = []

    def first_action(game, state, rng):
        calls.append(state)
        return game.actions(state)[0]

    game = TicTacToe()
    mcts(game, game.initial_state(), iterations=50, seed=1, rollout=first_action)
    assert calls


def test_bad_budgets_are_named() -> None:
    game = TicTacToe()
    with pytest.raises(GameSearchError, match="iterations"):
        mcts(game, game.initial_state(), iterations=0)
    with pytest.raises(GameSearchError, match="time"):
        mcts(game, game.initial_state(), time=-1)


def test_mcts_agent_reuses_its_tree_and_resets() -> None:
    game = TicTacToe()
    agent = make_agent("mcts:iterations=300,c=1.4,seed=7")
    state = game.initial_state()
    while not game.is_terminal(state):
        result = agent(game, state)
        assert result.action in game.actions(state)
        state = game.result(state, result.action)
    assert result.stats.extra["reused_visits"] > 0
    agent.reset()
    again = agent(game, game.initial_state())
    assert again.stats.extra["reused_visits"] == 0
    timed = make_agent("mcts:time=0.05,seed=1")(game, game.initial_state())
    assert timed.action in game.actions(game.initial_state())
    c4 = ConnectFour()
    block = make_agent("mcts:iterations=800,seed=1,evaluate=true")(
        c4, c4.state_from_string("17273"))
    assert block.action == 3


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 60))
def test_any_budget_gives_a_legal_action_and_consistent_counts(seed: int,
                                                               iterations: int) -> None:
    rng = random.Random(seed)
    game = ConnectFour() if seed % 2 else TicTacToe()
    state = game.initial_state()
    for _ in range(rng.randint(0, 8)):
        if game.is_terminal(state):
            break
        state = game.result(state, rng.choice(game.actions(state)))
    if game.is_terminal(state):
        return
    result = mcts(game, state, iterations=iterations, seed=seed)
    assert result.action in game.actions(state)
    assert result.stats.iterations == iterations
    assert sum(result.stats.extra["visits"].values()) == iterations
    assert 2 <= result.stats.nodes <= iterations + 1
    # the most visited line is a legal line of play
    s = state
    for action in result.pv:
        assert action in game.actions(s)
        s = game.result(s, action)


def test_tree_reuse_passes_chance_nodes() -> None:
    # MAX moves, chance decides, MAX moves again: the second search finds its state
    # two plies down (below the chance node) and keeps its visits.
    def leaf(v):
        return {"value": v}
    tree = {"player": "max", "children": [
        {"player": "chance", "children": [
            {"probability": 0.5, "player": "max", "children": [leaf(1), leaf(3)]},
            {"probability": 0.5, "player": "max", "children": [leaf(2), leaf(-4)]}]},
        leaf(0)]}
    game = TreeGame(tree)
    searcher = MCTS(game, iterations=300, seed=3)
    first = searcher.search(0)
    assert first.action == 0  # the gamble is worth 0.5*3 + 0.5*2 = 2.5 > 0
    chance_state = game.result(0, 0)
    after = game.result(chance_state, 1)
    kept = searcher.root.children[0].children[1].visits
    second = searcher.search(after)
    assert second.stats.extra["reused_visits"] == kept > 0
    assert second.action == 0  # 2 > -4


def test_mcts_beats_a_random_player_at_tictactoe() -> None:
    game = TicTacToe()
    wins = losses = 0
    for i in range(10):
        agent = make_agent(f"mcts:iterations=300,seed={i}")
        rng = random.Random(100 + i)
        me = i % 2
        state = game.initial_state()
        while not game.is_terminal(state):
            if game.to_move(state) == me:
                action = agent(game, state).action
            else:
                action = rng.choice(game.actions(state))
            state = game.result(state, action)
        u = game.utilities(state)[me]
        wins += u > 0
        losses += u < 0
    assert wins >= 8 and losses == 0, (wins, losses)
