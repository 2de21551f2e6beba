"""Alpha-beta in every configuration returns the minimax value (hypothesis, random trees)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch.games.tree import TreeGame, random_tree
from gamesearch.search import alphabeta, iterative_deepening, minimax, mtdf
from gamesearch.search.tt import TranspositionTable

CONFIGS = [
    {},
    {"tt": False},
    {"tt": False, "killers": False, "history": False},
    {"order": False, "killers": False, "history": False, "tt": False},
    {"null_window": "pvs"},
    {"null_window": "pvs", "tt": False},
    {"tt": TranspositionTable(4)},  # a tiny table: replacement must stay correct
]


def tree_from_seed(seed: int, depth: int) -> TreeGame:
    rng = random.Random(seed)
    return TreeGame(random_tree(rng, depth, branching=(1, 4), values=(-9, 9)))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 6))
def test_alphabeta_equals_minimax_on_random_trees(seed: int, depth: int) -> None:
    game = tree_from_seed(seed, depth)
    expected = minimax(game, 0).value
    for config in CONFIGS:
        assert alphabeta(game, 0, **config).value == expected, config
    assert mtdf(game, 0).value == expected
    assert mtdf(game, 0, tt=False, guess=5).value == expected


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 6))
def test_best_action_achieves_the_value(seed: int, depth: int) -> None:
    game = tree_from_seed(seed, depth)
    result = alphabeta(game, 0)
    child = game.result(0, result.action)
    value = minimax(game, child).value if not game.is_terminal(child) else game.utility(child, 0)
    # minimax at the child is from the child's mover's viewpoint (MIN): convert back.
    if not game.is_terminal(child) and game.to_move(child) != 0:
        value = -value
    assert value == result.value


def test_classic_tree_prunes_two_leaves() -> None:
    game = TreeGame([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    seen = []
    result = alphabeta(game, 0, tt=False, killers=False, history=False,
                       trace=lambda event, s, **kw: event == "leaf" and seen.append(s))
    assert result.value == 3 == minimax(game, 0).value
    assert len(seen) == 7  # two of the nine leaves are never looked at
    assert result.stats.leaves == 7


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9))
def test_iterative_deepening_agrees_with_fixed_depth(seed: int) -> None:
    from gamesearch.games.connect4 import ConnectFour

    rng = random.Random(seed)
    game = ConnectFour()
    state = game.initial_state()
    for _ in range(rng.randint(0, 12)):
        if game.is_terminal(state):
            break
        state = game.result(state, rng.choice(game.actions(state)))
    if game.is_terminal(state):
        return
    results = list(iterative_deepening(game, state, max_depth=4))
    for result in results:
        fixed = alphabeta(game, state, depth=result.stats.depth, tt=False)
        assert result.value == fixed.value
        assert minimax(game, state, depth=result.stats.depth).value == fixed.value
