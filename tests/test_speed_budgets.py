"""Anytime agents answer close to their time budget (issue 13: mcts:time=0.1 on backgammon
overshot by up to 746 ms; compiled Connect Four alpha-beta time=1 by 454 ms). The target,
p99 within 50 ms, is measured by bench/time_budgets.py; these tests use generous margins
for a busy machine but would catch the old mechanisms (a play-out always run to its end,
a node budget guessed from an earlier iteration's speed)."""

from __future__ import annotations

import random
import time

from budget import Clock, load_factor
from gamesearch.agents import make_agent
from gamesearch.game import CHANCE
from gamesearch.games import load_game
from gamesearch.search.mcts import MCTS


def test_mcts_drops_a_play_out_still_running_at_the_deadline() -> None:
    """Play-out moves that take 30 ms each: a tic-tac-toe play-out takes 150-250 ms, so
    finishing the one under way overshot by up to that much (0.456 s here before)."""
    game = load_game("tictactoe")

    def slow(game, state, rng):
        time.sleep(0.03)
        return rng.choice(list(game.actions(state)))

    searcher = MCTS(game, time=0.3, seed=2, rollout=slow)
    start = time.perf_counter()
    result = searcher.search(game.initial_state())
    elapsed = time.perf_counter() - start
    assert result.action in list(game.actions(game.initial_state()))
    assert result.stats.iterations >= 1
    # the play-outs sleep: a loaded machine wakes them late, so the slack grows with the load
    # (idle: 80 ms; the old overshoot was a whole play-out, 150-250 ms)
    assert elapsed < 0.3 + 0.08 * load_factor(), f"took {elapsed:.3f} s for a 0.3 s budget"
    root = searcher.root  # the dropped pass left nothing behind: every child was visited
    assert all(child.visits > 0 for child in root.children.values())
    assert root.visits == result.stats.iterations


def test_compiled_alphabeta_stops_inside_an_iteration_on_time() -> None:
    game = load_game("connect4")
    agent = make_agent("alphabeta:time=0.3")
    agent.prepare(game)
    rng = random.Random(5)
    for _ in range(4):
        state = game.initial_state()
        for _ in range(rng.randrange(0, 8)):
            state = game.result(state, rng.choice(list(game.actions(state))))
        agent.reset()
        clock = Clock()
        agent(game, state)
        clock.kept(0.3, 0.1)  # within 100 ms: by the wall clock, or by CPU time if starved


def test_mcts_on_backgammon_stays_near_its_budget() -> None:
    game = load_game("backgammon")
    agent = make_agent("mcts:time=0.05,seed=2")
    rng = random.Random(2)
    state, moves = game.initial_state(), 0
    while moves < 6 and not game.is_terminal(state):
        if game.to_move(state) == CHANCE:
            actions, weights = zip(*game.chance_outcomes(state))
            state = game.result(state, rng.choices(actions, weights)[0])
            continue
        clock = Clock()
        state = game.result(state, agent(game, state).action)
        clock.kept(0.05, 0.15)  # within 150 ms: by the wall clock, or by CPU time if starved
        moves += 1
