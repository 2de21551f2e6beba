"""OpenSpiel's games through the adapter (issue #40), checked against OpenSpiel's own
results: Kuhn poker's value -1/18 (Kuhn 1950, OpenSpiel's CFR tests), OpenSpiel's own
exploitability of our CFR strategy for Leduc, tic-tac-toe a draw, OpenSpiel's alpha-beta
on its Nim and on a Connect Four endgame (which our own Connect Four solver also solves)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import policy as spiel_policy  # noqa: E402
from open_spiel.python.algorithms import exploitability as spiel_exploitability  # noqa: E402
from open_spiel.python.algorithms import minimax as spiel_minimax  # noqa: E402

from gamesearch.agents import make_agent  # noqa: E402
from gamesearch.errors import GameSearchError  # noqa: E402
from gamesearch.game import CHANCE  # noqa: E402
from gamesearch.games import game_entry, load_game  # noqa: E402
from gamesearch.imperfect.best_response import expected_value, exploitability  # noqa: E402
from gamesearch.imperfect.cfr import CFRSolver  # noqa: E402
from gamesearch.interop.openspiel import load  # noqa: E402
from gamesearch.search.alphabeta import alphabeta  # noqa: E402
from gamesearch.testing import check_game  # noqa: E402


def test_cfr_on_openspiel_kuhn_poker_reaches_minus_one_eighteenth() -> None:
    game = load_game("openspiel:name=kuhn_poker")
    solver = CFRSolver(game, plus=True)
    solver.run(2000)
    probs = solver.average()
    assert expected_value(solver.tree, probs) == pytest.approx(float(Fraction(-1, 18)), abs=1e-3)
    assert exploitability(solver.tree, probs) < 1e-2


def test_openspiel_measures_our_leduc_strategy_as_nearly_unexploitable() -> None:
    """OpenSpiel's exploitability() of the strategy our CFR+ computed on its leduc_poker."""
    game = load_game("openspiel:name=leduc_poker")
    solver = CFRSolver(game, plus=True)
    solver.run(400)
    ours = solver.average_strategy()
    table = spiel_policy.TabularPolicy(game.spiel)
    for state in table.states:
        row = table.policy_for_key(state.information_state_string())
        probs = ours[state.information_state_string()]
        history = tuple(state.history())
        for action in state.legal_actions():
            row[action] = probs[game.action_to_string(history, action)]
    theirs = spiel_exploitability.exploitability(game.spiel, table)
    assert theirs < 0.01
    uniform = spiel_exploitability.exploitability(game.spiel, spiel_policy.UniformRandomPolicy(
        game.spiel))
    assert uniform > 1.0  # the measure does tell strategies apart
    assert theirs == pytest.approx(exploitability(solver.tree, solver.average()), abs=1e-6)


def test_openspiel_tic_tac_toe_is_a_draw_for_our_alphabeta() -> None:
    game = load_game("openspiel:name=tic_tac_toe")
    assert alphabeta(game, game.initial_state()).value == 0
    won = game.initial_state()
    for action in (4, 1):  # X in the centre, O on an edge: lost for O
        won = game.result(won, action)
    assert alphabeta(game, won).value == 1


def test_openspiel_nim_agrees_with_openspiel_alphabeta_and_our_nim() -> None:
    for piles, misere in (((1, 2, 3), False), ((1, 2, 4), False), ((2, 2, 1), True)):
        text = f"nim(pile_sizes={';'.join(map(str, piles))},is_misere={misere})"
        theirs, _ = spiel_minimax.alpha_beta_search(pyspiel.load_game(text))
        adapted = load(text)
        ours = alphabeta(adapted, adapted.initial_state()).value
        native = load_game("nim", piles=piles, misere=misere)
        assert ours == theirs == alphabeta(native, native.initial_state()).value, text


def test_openspiel_connect_four_endgames_agree_with_our_solver() -> None:
    """Random positions with 14 empty cells: OpenSpiel's alpha-beta on its connect_four,
    ours on the adapted game and our Connect Four solver give the same outcome."""
    spiel = pyspiel.load_game("connect_four")
    adapted = load(spiel)
    native = load_game("connect4")
    solve = game_entry("connect4").solver
    rng = random.Random(4)
    checked = 0
    while checked < 3:
        state = spiel.new_initial_state()
        for _ in range(28):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        moves = tuple(state.history())
        theirs, _ = spiel_minimax.alpha_beta_search(spiel, state.clone(),
                                                    maximizing_player_id=state.current_player())
        ours = alphabeta(adapted, moves).value
        report = solve(native, native.state_from_string("".join(str(m + 1) for m in moves)),
                       {"pure": True})
        outcome = (report["value"] > 0) - (report["value"] < 0)  # a score for the mover
        assert theirs == ours == outcome, moves
        checked += 1


def test_adapted_games_pass_check_game() -> None:
    for name in ("kuhn_poker", "leduc_poker", "tic_tac_toe", "pig(winscore=10)",
                 "matrix_rps", "breakthrough(rows=5,columns=5)", "liars_dice"):
        check_game(load(name), playouts=8)


def test_mcts_and_determinization_play_adapted_games() -> None:
    game = load_game("openspiel:name=tic_tac_toe")
    mcts, rand = make_agent("mcts:iterations=300,seed=1"), make_agent("random:seed=2")
    rng = random.Random(0)
    for _ in range(3):  # MCTS as X never loses to random play
        state = game.initial_state()
        while not game.is_terminal(state):
            agent = mcts if game.to_move(state) == 0 else rand
            state = game.result(state, agent(game, state).action)
        assert game.utilities(state)[0] >= 0
    pig = load_game("openspiel:name=pig,params=winscore=10")
    state = pig.initial_state()
    while pig.to_move(state) == CHANCE:
        state = pig.result(state, rng.choice(pig.actions(state)))
    assert make_agent("mcts:iterations=50,seed=1")(pig, state).action in pig.actions(state)
    kuhn = load_game("openspiel:name=kuhn_poker")
    deal = kuhn.result(kuhn.result(kuhn.initial_state(), 2), 0)  # K against J
    info = kuhn.information_set(deal, 0)
    for seed in range(5):
        sampled = kuhn.sample_state(info, 0, random.Random(seed))
        assert sampled[0] == 2 and sampled[1] in (0, 1)
        assert kuhn.information_set(sampled, 0) == info


def test_simultaneous_moves_turn_based_or_refused_in_one_line() -> None:
    rps = load_game("openspiel:name=matrix_rps")
    solver = CFRSolver(rps, plus=True)
    solver.run(300)
    strategy = solver.average_strategy()
    assert all(abs(p - 1 / 3) < 0.02 for row in strategy.values() for p in row.values())
    with pytest.raises(GameSearchError, match="simultaneous moves") as refused:
        load_game("openspiel:name=matrix_rps,simultaneous=refuse")
    assert "\n" not in str(refused.value)
    with pytest.raises(GameSearchError, match="unknown game"):
        load_game("openspiel:name=no_such_game")


def test_adapted_games_are_pettingzoo_environments() -> None:
    pytest.importorskip("pettingzoo")
    import warnings

    from pettingzoo.test import api_test

    from gamesearch.interop.pettingzoo import env

    for name in ("kuhn_poker", "connect_four", "pig(winscore=10)"):
        environment = env(load(name))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            api_test(environment, num_cycles=1000)
        assert environment.actions.size == environment.game.spiel.num_distinct_actions()


def test_the_snippets_of_docs_interop_run() -> None:
    """Every Python block of docs/INTEROP.md runs as written."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "INTEROP.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 3
    for block in blocks:
        exec(compile(block, "docs/INTEROP.md", "exec"), {})
