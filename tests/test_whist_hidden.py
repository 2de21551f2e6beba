"""Whist, double dummy, determinization and IS-MCTS.

Double-dummy values are checked against a plain recursion without pruning; sampled deals
against the rules (replaying what was seen must be legal); the players against exact
averages of double-dummy values over every consistent deal (enumerated), and the
strategy-fusion game against its exact best response.
"""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch.agents import RandomAgent, make_agent
from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, sample_action
from gamesearch.games import load_game
from gamesearch.games.whist_double_dummy import DoubleDummy
from gamesearch.imperfect.best_response import best_response_value
from gamesearch.imperfect.determinization import DeterminizationAgent, determinized_values
from gamesearch.imperfect.double_dummy import perfect_information_values
from gamesearch.imperfect.ismcts import ismcts
from gamesearch.imperfect.match import deal, duplicate_match
from gamesearch.imperfect.tree import build_tree


def position(game, seed: int, plays: int):
    """A random deal and ``plays`` random cards played."""
    rng = random.Random(seed)
    state = deal(game, rng)
    for _ in range(plays):
        if game.is_terminal(state):
            break
        state = game.result(state, sample_action(game, state, rng))
    return state


def replay_legal(game, state) -> bool:
    """Rebuild the deal from ``state`` and replay its plays, checking each is legal."""
    hands, plays, _, _ = state
    dealt = [list(h) for h in hands]
    for p, c in plays:
        dealt[p].append(c)
    replay = (tuple(tuple(sorted(h)) for h in dealt), (), 0, (0, 0))
    for _, card in plays:
        if card not in game.actions(replay):
            return False
        replay = game.result(replay, card)
    return replay == state


def consistent_deals(game, state, player):
    """Every full state in the player's information set, by brute force."""
    info = game.information_set(state, player)
    hands, plays, _, _ = state
    others = [p for p in range(4) if p != player]
    unseen = sorted(c for p in others for c in hands[p])
    sizes = [len(hands[p]) for p in others]
    found = set()
    for order in itertools.permutations(unseen):
        new = list(hands)
        at = 0
        for p, n in zip(others, sizes):
            new[p] = tuple(sorted(order[at:at + n]))
            at += n
        candidate = (tuple(new), plays, state[2], state[3])
        if replay_legal(game, candidate) and game.information_set(candidate, player) == info:
            found.add(candidate)
    return found


def test_rules_follow_suit_and_highest_of_suit_led_wins():
    game = load_game("whist", suits=4, ranks=2)  # cards: 0 = KS, 1 = AS, 2 = KH, 3 = AH...
    start = (((0, 2), (1, 4), (3, 6), (5, 7)), (), 0, (0, 0))
    assert game.card_name(1) == "AS" and game.card_name(2) == "KH"
    s = game.result(start, 0)                  # player 1 leads KS
    assert game.actions(s) == [1]              # player 2 must follow with AS
    s = game.result(s, 1)
    assert game.actions(s) == [3, 6]           # player 3 has no spade: anything
    for card in (3, 5):
        s = game.result(s, card)
    assert s[2] == 1 and s[3] == (0, 1)        # AS won: player 2 leads, side 2 has a trick
    with pytest.raises(GameSearchError, match="ranks=3"):
        load_game("whist", suits=3, ranks=3)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), plays=st.integers(0, 11), dealt=st.integers(0, 12))
def test_sampled_deals_never_contradict_what_the_player_saw(seed, plays, dealt):
    game = load_game("whist", suits=4, ranks=3)
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(dealt):  # part-way through the deal too
        state = game.result(state, sample_action(game, state, rng))
    if dealt == 12:
        state = position(game, seed, plays)
    for player in range(4):
        info = game.information_set(state, player)
        sampled = game.sample_state(info, player, rng)
        assert game.information_set(sampled, player) == info
        assert sorted(c for h in sampled[0] for c in h) == sorted(
            c for h in state[0] for c in h) or dealt < 12
        if game.to_move(state) != CHANCE:
            assert replay_legal(game, sampled)  # every card played was legal in that deal


def test_sampling_reaches_every_consistent_deal_evenly():
    game = load_game("whist", suits=4, ranks=2)
    state = position(game, seed=3, plays=5)
    player = game.to_move(state)
    exact = consistent_deals(game, state, player)
    rng = random.Random(0)
    counts = {}
    draws = 200 * len(exact)
    for _ in range(draws):
        s = game.sample_state(game.information_set(state, player), player, rng)
        counts[s] = counts.get(s, 0) + 1
    assert set(counts) == exact
    assert max(counts.values()) < 1.5 * draws / len(exact)  # uniform: each ~1/len


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), plays=st.integers(0, 8))
def test_double_dummy_equals_the_plain_recursion(seed, plays):
    game = load_game("whist", suits=4, ranks=3)
    state = position(game, seed, plays)
    if game.is_terminal(state):
        return
    assert DoubleDummy(game).card_values(state) == perfect_information_values(game, state)


def test_double_dummy_top_cards_take_every_trick():
    game = load_game("whist", suits=4, ranks=2)
    # Player 1 holds the aces of spades and hearts, player 3 those of diamonds and clubs.
    state = (((1, 3), (0, 2), (5, 7), (4, 6)), (), 0, (0, 0))
    assert DoubleDummy(game).tricks(state) == 2
    assert DoubleDummy(game).card_values(state) == {1: 2.0, 3: 2.0}


def exact_average(game, state):
    """The mean double-dummy value of each card over all consistent deals."""
    player = game.to_move(state)
    deals = consistent_deals(game, state, player)
    dd = DoubleDummy(game)
    totals = {}
    for world in deals:
        for card, v in dd.card_values(world).items():
            totals.setdefault(card, []).append(v)
    return {c: sum(v) / len(v) for c, v in totals.items()}, totals


@pytest.mark.parametrize("seed, plays", [(1, 0), (2, 1), (5, 2), (7, 4)])
def test_determinization_estimates_the_exact_average_over_deals(seed, plays):
    game = load_game("whist", suits=4, ranks=2)
    state = position(game, seed, plays)
    exact, _ = exact_average(game, state)
    estimate, _ = determinized_values(game, state, 400, random.Random(seed))
    for card, value in exact.items():
        assert estimate[card] == pytest.approx(value, abs=0.12)
    chosen = DeterminizationAgent(samples=400, seed=seed)(game, state).action
    assert exact[chosen] >= max(exact.values()) - 0.12


def test_players_choose_a_card_that_is_best_in_every_deal():
    """Where one card does at least as well as every other on every consistent deal (and
    better on average), determinization and IS-MCTS both play such a card."""
    game = load_game("whist", suits=4, ranks=2)
    checked = 0
    for seed in range(40):
        state = position(game, seed, seed % 4)
        if len(game.actions(state)) < 2:
            continue
        exact, per_deal = exact_average(game, state)
        cards = list(exact)
        dominant = [c for c in cards if all(
            all(x >= y for x, y in zip(per_deal[c], per_deal[d])) for d in cards)]
        if not dominant or max(exact.values()) == min(exact.values()):
            continue
        checked += 1
        assert DeterminizationAgent(samples=30, seed=seed)(game, state).action in dominant
        assert ismcts(game, state, 1500, rng=random.Random(seed)).action in dominant
        if checked == 4:
            break
    assert checked == 4


@pytest.mark.parametrize("spec", ["pimc:samples=10,seed=4", "ismcts:iterations=200,seed=4"])
def test_players_read_only_the_information_set(spec):
    """Two deals the player cannot tell apart get the same move (same seed)."""
    game = load_game("whist", suits=4, ranks=3)
    rng = random.Random(9)
    for seed in range(5):
        state = position(game, seed, 3)
        player = game.to_move(state)
        other = game.sample_state(game.information_set(state, player), player, rng)
        assert make_agent(spec)(game, state).action == make_agent(spec)(game, other).action


def test_strategy_fusion_fools_determinization_but_not_the_exact_answer():
    game = load_game("strategy_fusion")
    state = game.result(game.initial_state(), "heads")
    pimc = DeterminizationAgent(samples=20, seed=0)(game, state)
    assert pimc.action == "gamble" and pimc.action_values["gamble"] == 4.0  # fused guesses
    tree = build_tree(game)
    value, response = best_response_value(tree, tree.uniform(), 0)  # player 2 has no move
    assert value == 3.0 and response[""] == {"take": 1.0, "gamble": 0.0}
    search = ismcts(game, state, 2000, rng=random.Random(0))
    assert search.action == "take" and search.action_values["gamble"] < 2.6  # truly 2


def test_duplicate_match_determinization_beats_random():
    game = load_game("whist", suits=4, ranks=3)
    result = duplicate_match(game, make_agent("pimc:samples=8,seed=1"), RandomAgent(2), 6)
    assert result.a_total + result.b_total == 6 * 2 * game.hand_size
    assert result.a_mean > result.b_mean


def test_cli_solves_a_dealt_whist_position_and_the_fusion_game(capsys):
    import json

    from gamesearch.cli.main import main

    # Dealt in order to players 1, 2, 3, 4, 1, ...: player 1 holds AS KH QD.
    main(["solve", "whist", "--position", "AS KS QS AH KH QH AD KD QD AC KC QC", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert report["card_values"] == {"AS": 2.0, "KH": 1.0, "QD": 2.0}
    main(["solve", "strategy_fusion", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert report["value"] == pytest.approx(3, abs=1e-3)
    assert report["strategy"][""]["take"] == pytest.approx(1, abs=1e-3)
    with pytest.raises(SystemExit) as exit_info:
        main(["solve", "whist"])
    assert exit_info.value.code == 2 and "dealt position" in capsys.readouterr().err


def test_exploitability_of_the_sampling_players_is_computed_exactly():
    """Read each agent's strategy off every information set and measure it exactly."""
    from gamesearch.imperfect.agent_strategy import agent_strategy
    from gamesearch.imperfect.best_response import exploitability

    fusion = load_game("strategy_fusion")
    # Gambling is worth 2 against taking 3: NashConv 1, exploitability 1/2.
    assert exploitability(fusion, agent_strategy(fusion, make_agent("pimc:seed=0"))) == 0.5
    ismcts_agent = make_agent("ismcts:iterations=2000,seed=0")
    assert exploitability(fusion, agent_strategy(fusion, ismcts_agent)) == 0.0
    kuhn = load_game("kuhn_poker")
    pimc_kuhn = agent_strategy(kuhn, make_agent("pimc:samples=20,seed=0"))
    assert pimc_kuhn["K"]["b"] == 0.0  # seeing "through" the cards, it never bets a king
    assert exploitability(kuhn, pimc_kuhn) > 0.1  # measured 1/6; CFR+ reaches 1e-5
