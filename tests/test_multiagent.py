"""Multi-agent search: rounds vs plies, max^n against a brute-force reference, paranoid
alpha-beta against paranoid minimax, on random N-player trees and the take-away game."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch.errors import GameSearchError
from gamesearch.games.takeaway import TakeAway
from gamesearch.games.tree import TreeGame
from gamesearch.search import (
    alphabeta,
    maxn,
    minimax,
    multi_agent_alphabeta,
    multi_agent_minimax,
    paranoid,
)


def random_nplayer_tree(rng: random.Random, depth: int, players: int, *,
                        rotate: bool = True, lo: int = 0, hi: int = 9,
                        constant_sum: int | None = None) -> dict:
    """Object-form tree with vector leaves; players move 0, 1, ..., N-1, 0, ... when
    ``rotate``, else each inner node's player is random (agents skipped or moving twice).
    Inner nodes carry an ``eval`` for depth-limited search."""

    def leaf() -> list:
        if constant_sum is None:
            return [rng.randint(lo, hi) for _ in range(players)]
        cuts = sorted(rng.randint(0, constant_sum) for _ in range(players - 1))
        edges = [0, *cuts, constant_sum]
        return [edges[i + 1] - edges[i] for i in range(players)]

    def node(d: int, player: int) -> dict:
        if d == 0:
            return {"value": leaf()}
        nxt = (player + 1) % players if rotate else rng.randrange(players)
        children = [node(d - 1, nxt) for _ in range(rng.randint(1, 3))]
        return {"player": player, "eval": rng.randint(-9, 9), "children": children}

    return node(depth, 0)


def brute_force_maxn(game, s) -> tuple:
    """The definition, written independently: the first child best for the mover."""
    if game.is_terminal(s):
        return tuple(game.utilities(s))
    p = game.to_move(s)
    values = [brute_force_maxn(game, game.result(s, a)) for a in game.actions(s)]
    best = max(v[p] for v in values)
    return next(v for v in values if v[p] == best)


def rounds_reference(game, s, root, rounds_left) -> float:
    """MAX against MIN agents where a round ends when the turn returns to ``root``."""
    if game.is_terminal(s):
        return game.utilities(s)[root]
    if rounds_left == 0:
        return game.evaluate(s, root)
    p = game.to_move(s)
    values = []
    for a in game.actions(s):
        child = game.result(s, a)
        back = not game.is_terminal(child) and game.to_move(child) == root
        values.append(rounds_reference(game, child, root, rounds_left - back))
    return max(values) if p == root else min(values)


# --- max^n -------------------------------------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 5), st.integers(2, 4), st.booleans())
def test_maxn_equals_brute_force(seed: int, depth: int, players: int, rotate: bool) -> None:
    game = TreeGame(random_nplayer_tree(random.Random(seed), depth, players, rotate=rotate))
    result = maxn(game, 0)
    assert result.value == brute_force_maxn(game, 0)
    # the chosen action leads to a child with that very vector (ties: the first such child)
    assert brute_force_maxn(game, game.result(0, result.action)) == result.value
    assert result.action_values[result.action] == result.value


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 5), st.integers(2, 4), st.booleans())
def test_shallow_pruning_keeps_the_maxn_value(seed: int, depth: int, players: int,
                                              rotate: bool) -> None:
    total = 10
    game = TreeGame(random_nplayer_tree(random.Random(seed), depth, players, rotate=rotate,
                                        constant_sum=total))
    plain = maxn(game, 0)
    pruned = maxn(game, 0, bound=total)
    assert pruned.value == plain.value
    assert pruned.action == plain.action
    assert pruned.stats.leaves <= plain.stats.leaves


def test_shallow_pruning_prunes_on_takeaway() -> None:
    # winner takes all (sum 1): once a player finds its win, its siblings are skipped
    game = TakeAway(players=3, sticks=9, max_take=3, per_stick=0, bonus=1)
    plain = maxn(game, game.initial_state())
    pruned = maxn(game, game.initial_state(), bound=game.total)
    assert pruned.value == plain.value
    assert pruned.stats.cutoffs > 0
    assert pruned.stats.leaves < plain.stats.leaves


def test_maxn_on_a_hand_made_three_player_tree() -> None:
    # Player 0 chooses between two nodes of player 1, whose children are player-2 nodes
    # collapsed to leaves here. At B player 1 picks (1,5,2) over (6,4,0): its own 5 > 4.
    # At C player 1 ties between (3,3,3) and (0,3,9): the first wins.
    tree = {"player": 0, "children": [
        {"name": "B", "player": 1, "children": [{"value": [6, 4, 0]}, {"value": [1, 5, 2]}]},
        {"name": "C", "player": 1, "children": [{"value": [3, 3, 3]}, {"value": [0, 3, 9]}]},
    ]}
    result = maxn(TreeGame(tree), 0)
    assert result.value == (3, 3, 3)
    assert result.pv == [1, 0]


def test_takeaway_two_players_is_the_subtraction_game() -> None:
    # Winning Ways ch. 2: taking 1..k, last stick wins, the mover loses iff n % (k+1) == 0.
    for k in (2, 3):
        for n in range(1, 13):
            game = TakeAway(players=2, sticks=n, max_take=k, per_stick=0, bonus=1)
            s = game.initial_state()
            mover_wins = n % (k + 1) != 0
            assert maxn(game, s).value[0] == (1 if mover_wins else 0)
            assert minimax(game, s).value == (1 if mover_wins else 0)


def test_maxn_depth_limited_uses_the_evaluation_vector() -> None:
    game = TakeAway(players=3, sticks=10)
    s = game.initial_state()
    result = maxn(game, s, depth=1)
    # after one move the evaluation of each player is exactly its score plus a share
    for a, v in result.action_values.items():
        child = game.result(s, a)
        assert v == tuple(game.evaluate(child, p) for p in range(3))
    assert sum(result.value) == pytest.approx(game.total)


# --- paranoid -----------------------------------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 5), st.integers(2, 4), st.booleans())
def test_paranoid_alphabeta_equals_paranoid_minimax(seed: int, depth: int, players: int,
                                                    rotate: bool) -> None:
    game = TreeGame(random_nplayer_tree(random.Random(seed), depth, players, rotate=rotate))
    expected = minimax(game, 0).value
    assert paranoid(game, 0).value == expected
    assert paranoid(game, 0, tt=False, killers=False, history=False).value == expected
    # the coalition's guarantee is never above what max^n promises the root player
    assert expected <= maxn(game, 0).value[0]


def test_paranoid_on_takeaway_matches_minimax_and_bounds_maxn() -> None:
    game = TakeAway(players=3, sticks=8, max_take=3)
    s = game.initial_state()
    value = paranoid(game, s).value
    assert value == minimax(game, s).value
    assert value <= maxn(game, s).value[0]
    for depth in (1, 2, 4):
        assert paranoid(game, s, depth=depth).value == minimax(game, s, depth=depth).value


# --- one MAX against several MIN agents, in rounds ------------------------------------------


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 6), st.integers(2, 3), st.integers(1, 3))
def test_rounds_are_plies_times_agents_when_agents_rotate(seed: int, depth: int,
                                                          players: int, rounds: int) -> None:
    game = TreeGame(random_nplayer_tree(random.Random(seed), depth, players))
    plies = minimax(game, 0, depth=rounds * players).value
    assert multi_agent_minimax(game, 0, rounds=rounds).value == plies
    assert multi_agent_alphabeta(game, 0, rounds=rounds).value == plies
    assert alphabeta(game, 0, depth=rounds * players).value == plies


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 6), st.integers(2, 3), st.integers(1, 3))
def test_rounds_follow_the_turn_when_agents_do_not_rotate(seed: int, depth: int,
                                                          players: int, rounds: int) -> None:
    game = TreeGame(random_nplayer_tree(random.Random(seed), depth, players, rotate=False))
    expected = rounds_reference(game, 0, 0, rounds)
    assert multi_agent_minimax(game, 0, rounds=rounds).value == expected
    assert multi_agent_alphabeta(game, 0, rounds=rounds).value == expected
    assert multi_agent_alphabeta(game, 0, rounds=rounds, tt=False).value == expected


def test_pacman_with_two_ghosts_counts_rounds() -> None:
    game = TakeAway(players=3, sticks=12)  # "Pacman" is player 1, the ghosts players 2, 3
    s = game.initial_state()
    result = multi_agent_alphabeta(game, s, rounds=2)
    assert result.value == minimax(game, s, depth=6).value
    assert result.stats.depth == 6 and result.stats.extra["rounds"] == 2  # plies
    assert len(result.pv) == 6  # the line spans two full rounds
    assert multi_agent_minimax(game, s).value == minimax(game, s).value


def test_rounds_under_a_time_budget_deepen_to_the_same_value() -> None:
    game = TakeAway(players=3, sticks=12)
    s = game.initial_state()
    timed = multi_agent_alphabeta(game, s, rounds=2, time=10.0)
    assert timed.value == multi_agent_minimax(game, s, rounds=2).value
    assert timed.action in game.actions(s)


def test_rounds_trace_shows_game_states() -> None:
    game = TakeAway(players=3, sticks=6)
    s = game.initial_state()
    seen = []
    multi_agent_minimax(game, s, rounds=1, trace=lambda e, st_, **kw: seen.append(st_))
    assert seen[0] == s  # the caller sees the game's own states, not the view's


def test_bad_rounds_are_named() -> None:
    game = TakeAway()
    with pytest.raises(GameSearchError, match="rounds"):
        multi_agent_minimax(game, game.initial_state(), rounds=0)


def test_maxn_and_paranoid_agents_play_three_player_takeaway() -> None:
    from gamesearch.agents import make_agent

    game = TakeAway(players=3, sticks=10)
    agents = [make_agent("maxn:depth=3"), make_agent("paranoid:depth=3"),
              make_agent("mcts:iterations=200,seed=7")]
    state = game.initial_state()
    while not game.is_terminal(state):
        result = agents[game.to_move(state)](game, state)
        assert result.action in game.actions(state)
        state = game.result(state, result.action)
    assert sum(game.utilities(state)) == game.total
    maxn_result = agents[0](game, game.initial_state())
    assert isinstance(maxn_result.value, tuple) and len(maxn_result.value) == 3
    assert maxn_result.value == maxn(game, game.initial_state(), depth=3).value
