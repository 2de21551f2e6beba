"""Every game's default opponent answers within about 2 s once prepared (issue 13: the
backgammon default, then expectiminimax depth 3, took 122 s for its first move).

``prepare`` compiles kernels (or loads numba's cache) before any clock runs, as ``play`` and
``match`` call it; the move itself is what a user waits for. The bound is loose (3 s) for a
busy machine: the measured first moves are 0.01-0.9 s (docs/BENCHMARKS.md).
"""

from __future__ import annotations

import random
import time

import pytest

from gamesearch.agents import make_agent
from gamesearch.catalog import default_agents
from gamesearch.game import CHANCE
from gamesearch.games import load_game

DEFAULT_AGENTS = default_agents()


@pytest.mark.parametrize("name", sorted(DEFAULT_AGENTS))
def test_default_opponent_answers_quickly(name: str) -> None:
    game = load_game(name)
    rng = random.Random(0)
    state = game.initial_state()
    while game.to_move(state) == CHANCE:
        state = game.result(state, rng.choice(list(game.actions(state))))
    specs = DEFAULT_AGENTS[name]
    agent = make_agent(specs[min(game.to_move(state), len(specs) - 1)])
    agent.prepare(game)
    start = time.perf_counter()
    result = agent(game, state)
    seconds = time.perf_counter() - start
    assert result.action in list(game.actions(state))
    assert seconds < 3.0, f"{name}: {agent.spec} took {seconds:.2f} s for its first move"


def test_backgammon_default_plays_a_game_opening_quickly() -> None:
    """Ten moves of the default backgammon player after prepare: each well under 2 s."""
    game = load_game("backgammon")
    agent = make_agent(DEFAULT_AGENTS["backgammon"][0])
    agent.prepare(game)
    rng = random.Random(3)
    state, worst, moves = game.initial_state(), 0.0, 0
    while moves < 10 and not game.is_terminal(state):
        if game.to_move(state) == CHANCE:
            state = game.result(state, rng.choice(list(game.actions(state))))
            continue
        start = time.perf_counter()
        state = game.result(state, agent(game, state).action)
        worst = max(worst, time.perf_counter() - start)
        moves += 1
    assert worst < 2.0, f"a depth-2 backgammon move took {worst:.2f} s"
