"""Kuhn poker and Leduc hold'em: sizes, payoffs and information sets checked against facts.

Sizes and the uniform strategy's NashConv are OpenSpiel's (open_spiel 2.0.2, games
``kuhn_poker`` and ``leduc_poker``: histories and information-state strings counted by
walking their trees; ``exploitability.nash_conv`` of ``UniformRandomPolicy``; the Kuhn figure
is also in OpenSpiel's exploitability_test.py).
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, check_chance_outcomes, sample_action
from gamesearch.games import load_game
from gamesearch.imperfect.best_response import nash_conv
from gamesearch.imperfect.tree import build_tree


@pytest.mark.parametrize("name, histories, infosets, uniform_nash_conv", [
    ("kuhn_poker", 58, 12, 11 / 12),
    ("leduc_poker", 9457, 936, 4.747222222222222),
])
def test_sizes_and_uniform_nash_conv_match_openspiel(name, histories, infosets,
                                                     uniform_nash_conv):
    tree = build_tree(load_game(name))
    assert tree.num_nodes == histories
    assert tree.num_infosets == infosets
    assert nash_conv(tree, tree.uniform()) == pytest.approx(uniform_nash_conv, abs=1e-9)


def test_kuhn_payoffs():
    game = load_game("kuhn_poker")
    k, j = 2, 0
    assert game.utilities(((k, j), "pp")) == (1, -1)   # showdown, antes only
    assert game.utilities(((j, k), "bb")) == (-2, 2)   # bet called: 2 chips
    assert game.utilities(((j, k), "bp")) == (1, -1)   # the bluff works
    assert game.utilities(((k, j), "pbp")) == (-1, 1)  # player 1 folds
    assert game.utilities(((j, k), "pbb")) == (-2, 2)


def test_leduc_payoffs_pairs_beat_high_cards_and_stakes_add_up():
    game = load_game("leduc_poker")
    js, kh, jh, qs, qh = 0, 5, 1, 2, 3
    # Round 1 raise-call (2 each), round 2 raise-reraise-call (8 each), ante 1: 11 chips.
    state = ((js, kh, jh), "rc", "rrc")
    assert game.is_terminal(state)
    assert game.utilities(state) == (11, -11)  # the pair of jacks beats the king
    assert game.utilities(((js, kh, qs), "cc", "cc")) == (-1, 1)  # king high wins
    assert game.utilities(((qs, qh, js), "cc", "rc")) == (0, 0)  # same rank: split
    assert game.utilities(((qs, kh), "rrf", "")) == (-3, 3)  # player 1 folds: loses 1 + 2
    assert game.to_move(((qs, kh), "rc", "")) == CHANCE
    assert game.actions(((qs, kh), "rr", "")) == ["f", "c"]  # two raises at most
    assert game.actions(((qs, kh), "", "")) == ["c", "r"]  # no fold without a bet


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_chance_nodes_are_distributions_and_payoffs_zero_sum(name):
    game, rng = load_game(name), random.Random(1)
    for _ in range(200):
        state = game.initial_state()
        while not game.is_terminal(state):
            if game.to_move(state) == CHANCE:
                check_chance_outcomes(game.chance_outcomes(state))
            state = game.result(state, sample_action(game, state, rng))
        assert sum(game.utilities(state)) == 0


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(["kuhn_poker", "leduc_poker"]), seed=st.integers(0, 10**6),
       stop=st.integers(2, 12))
def test_sampled_states_agree_with_what_the_player_saw(name, seed, stop):
    """sample_state(information_set(s, p)) is a state in the same information set."""
    game, rng = load_game(name), random.Random(seed)
    state = game.initial_state()
    for _ in range(stop):
        if game.is_terminal(state):
            break
        state = game.result(state, sample_action(game, state, rng))
    if game.is_terminal(state) or game.to_move(state) == CHANCE and len(state[0]) < 2:
        return
    for player in (0, 1):
        info = game.information_set(state, player)
        sampled = game.sample_state(info, player, rng)
        assert game.information_set(sampled, player) == info
        assert len(set(sampled[0])) == len(sampled[0])  # no card dealt twice


def test_malformed_information_sets_are_named():
    with pytest.raises(GameSearchError, match="Xx"):
        load_game("leduc_poker").sample_state("Xx:", 0, random.Random(0))
    with pytest.raises(GameSearchError, match="pb"):
        load_game("kuhn_poker").sample_state("pb", 0, random.Random(0))
