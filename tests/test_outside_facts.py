"""The searches and games against facts published elsewhere (each source named beside it)."""

import random
import time
from functools import reduce
from operator import xor
from pathlib import Path

import pytest

from budget import Clock
from gamesearch.agents import make_agent
from gamesearch.games import load_game
from gamesearch.search.alphabeta import alphabeta
from gamesearch.search.enumeration import count_game, perft
from gamesearch.search.minimax import minimax

DATA = Path(__file__).parent / "data"

# --- tic-tac-toe ------------------------------------------------------------------------
# 255,168 possible games and 5,478 legal positions (the empty board included): Wikipedia,
# "Tic-tac-toe", section Combinatorics; Henry Bottomley, "How many Tic-Tac-Toe (noughts and
# crosses) games are possible?" (2001). The game tree of 549,946 nodes, and the finished games
# split 131,184 won by X, 77,904 won by O, 46,080 drawn: Steve Schaefer, "Tic-Tac-Toe
# (Naughts and Crosses, Cheese and Crackers, etc.)", mathrec.org (2002).


def test_tictactoe_counts_match_the_published_figures() -> None:
    game = load_game("tictactoe")
    counted = count_game(game)
    assert counted.games == 255_168
    assert counted.positions == 5_478
    assert counted.nodes == 549_946
    assert counted.outcomes == {(1, -1): 131_184, (-1, 1): 77_904, (0, 0): 46_080}
    assert counted.as_dict(game)["outcomes"] == {"X wins": 131_184, "O wins": 77_904,
                                                 "draw": 46_080}
    # Moves from the empty board: 9, 9*8, 9*8*7, 9*8*7*6; the first wins come at ply 5
    # (1,440 of them, Schaefer), so ply 5 has 9*8*7*6*5 sequences and ply 6 fewer than *4.
    assert [perft(game, game.initial_state(), d) for d in range(1, 6)] == [
        9, 72, 504, 3024, 15120]
    assert perft(game, game.initial_state(), 6) == (15120 - 1440) * 4


def test_tictactoe_is_a_draw() -> None:
    game = load_game("tictactoe")
    start = game.initial_state()
    assert alphabeta(game, start).value == 0
    assert alphabeta(game, start, tt=False, order=False).value == 0
    # plain minimax agrees after the first move (X in the centre: O to move, still a draw)
    after_centre = game.result(start, 4)
    assert minimax(game, after_centre).value == 0


# --- Nim ----------------------------------------------------------------------------------
# Bouton, "Nim, a game with a complete mathematical theory", Annals of Mathematics 3 (1901):
# in normal play the player to move loses exactly when the nim-sum (XOR) of the piles is 0.
# Misère play (Bouton 1901, last section; Berlekamp, Conway & Guy, Winning Ways for your
# Mathematical Plays, chapter "Survival in the Lost World"): the same rule, except when no
# pile has more than one object; then the mover loses exactly when the number of
# (one-object) piles is odd.


def bouton_mover_loses(piles: tuple[int, ...], misere: bool) -> bool:
    """The published theory, written here independently of the game's own code."""
    if misere and max(piles) <= 1:
        return sum(piles) % 2 == 1
    return reduce(xor, piles, 0) == 0


def random_pile_sets(seed: int, count: int) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    sets = []
    while len(sets) < count:
        piles = tuple(rng.randint(0, 5) for _ in range(rng.randint(1, 4)))
        if sum(piles) > 0:
            sets.append(piles)
    return sets


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
def test_nim_exhaustive_search_agrees_with_bouton(misere: bool) -> None:
    sets = random_pile_sets(seed=1901 + misere, count=40)
    sets += [(1,), (1, 1), (1, 1, 1), (2, 2), (1, 2, 3), (3, 4, 5), (0, 1, 1, 1)]
    for piles in sets:
        game = load_game("nim", piles=piles, misere=misere)
        value = alphabeta(game, game.initial_state()).value
        assert (value == -1) == bouton_mover_loses(piles, misere), piles
        assert value in (-1, 1)


def test_nim_minimax_agrees_on_small_piles() -> None:
    for piles in [(1, 2), (2, 2), (1, 1, 2), (3, 1), (2, 3)]:
        for misere in (False, True):
            game = load_game("nim", piles=piles, misere=misere)
            value = minimax(game, game.initial_state()).value
            assert (value == -1) == bouton_mover_loses(piles, misere), (piles, misere)


def test_ii_nim_is_a_win_for_the_second_player() -> None:
    # The lectures' II-Nim (piles 2 and 2, whoever takes the last stick loses): MIN wins.
    game = load_game("ii-nim")
    assert minimax(game, game.initial_state()).value == -1
    assert alphabeta(game, game.initial_state()).value == -1


# --- Connect Four ------------------------------------------------------------------------
# Positions and exact scores from Pascal Pons' End-Easy benchmark set Test_L3_R1
# ("Solving Connect 4: how to build a perfect AI", blog.gamesolver.org); see the header of
# tests/data/connect4_end_easy.txt.


def end_easy_positions() -> list[tuple[str, int]]:
    rows = []
    for line in (DATA / "connect4_end_easy.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            moves, score = line.split()
            rows.append((moves, int(score)))
    return rows


def test_connect4_end_easy_scores_by_plain_alphabeta() -> None:
    game = load_game("connect4")
    positions = end_easy_positions()
    assert len(positions) >= 10
    for moves, score in positions:
        state = game.state_from_string(moves)
        assert alphabeta(game, state).value == score, moves
    # the same value without the table and without move ordering on the smaller ones
    for moves, score in positions[:4]:
        state = game.state_from_string(moves)
        assert alphabeta(game, state, tt=False, killers=False, history=False).value == score


def test_connect4_example_from_the_article() -> None:
    # Pons' test-protocol page: the position 44455554221 scores -15 for the player to move
    # (the opponent wins with its 7th stone: 7 - 22 = -15).
    # Every move lets the opponent win at once, so two plies prove the score: wins are
    # terminal values and evaluations lie inside (-1, 1).
    game = load_game("connect4")
    state = game.state_from_string("44455554221")
    assert minimax(game, state, depth=2).value == -15
    assert alphabeta(game, state, depth=2).value == -15
    assert alphabeta(game, state, depth=3, null_window="pvs").value == -15


# --- the time budget ------------------------------------------------------------------------

BUDGET_MARGIN = 0.15  # seconds: the clock is read every 64 expansions


def assert_kept(began: float, cpu_began: float, budget: float) -> None:
    """The call that started at ``began`` (wall) and ``cpu_began`` (this thread's CPU time)
    kept its ``budget`` (tests/budget.py says how a starved search is judged)."""
    clock = Clock()
    clock.began, clock.cpu_began = began, cpu_began
    clock.kept(budget, BUDGET_MARGIN)


@pytest.mark.parametrize("position", ["", "4453", "444433"])
def test_alphabeta_honours_its_time_budget(position: str) -> None:
    game = load_game("connect4")
    state = game.state_from_string(position)
    for budget in (0.2, 0.001):
        began, cpu = time.perf_counter(), time.thread_time()
        result = alphabeta(game, state, time=budget)
        assert_kept(began, cpu, budget)
        assert result.action in game.actions(state)
        assert result.stats.seconds <= budget + BUDGET_MARGIN


def test_timed_agent_always_answers_with_a_legal_move() -> None:
    game = load_game("connect4")
    agent = make_agent("alphabeta:time=0.05")
    state = game.initial_state()
    for _ in range(6):  # a few moves of a game; the agent keeps its table between them
        began, cpu = time.perf_counter(), time.thread_time()
        result = agent(game, state)
        assert_kept(began, cpu, 0.05)
        assert result.action in game.actions(state)
        state = game.result(state, result.action)


def test_prepared_kernel_agent_honours_its_budget_from_the_first_move() -> None:
    """With a compiled kernel, ``prepare`` pays the compile cost before the clock runs."""
    game = load_game("connect4")
    agent = make_agent("alphabeta:time=0.05")
    agent.prepare(game)
    state = game.initial_state()
    for _ in range(4):
        began, cpu = time.perf_counter(), time.thread_time()
        result = agent(game, state)
        assert_kept(began, cpu, 0.05)
        assert result.stats.extra.get("kernel", "").startswith("connect4")
        state = game.result(state, result.action)
