"""The compiled backgammon search equals the readable one: plays, values, actions, nodes."""

import random

import numpy as np
import pytest

from gamesearch.games.backgammon import Backgammon
from gamesearch.games.backgammon_kernel import _W as WEIGHTS
from gamesearch.games.backgammon_kernel import (
    MAX_PLAYS,
    arrays,
    evaluate,
    expectiminimax_kernel,
    generate,
)
from gamesearch.search.chance import expectiminimax


def positions(count: int, seed: int = 3) -> list:
    game, rng, found = Backgammon(), random.Random(seed), []
    while len(found) < count:
        s = game.initial_state()
        while not game.is_terminal(s) and len(found) < count:
            if s.dice is not None and rng.random() < 0.1:
                found.append(s)
            s = game.result(s, rng.choice(game.actions(s)))
    return found


def test_compiled_plays_equal_the_rules() -> None:
    game = Backgammon()
    out = np.empty((MAX_PLAYS, 52), dtype=np.int64)
    dies = np.empty(MAX_PLAYS, dtype=np.int64)
    for s in positions(150):
        my, opp = arrays(s)
        n = generate(my, opp, s.dice[0], s.dice[1], out, dies)
        compiled = [(tuple(map(int, out[i, :26])), tuple(map(int, out[i, 26:51])))
                    for i in range(n)]
        readable = [(p[0], p[1][:25]) for _, p in game.plays(s)]
        assert compiled == readable  # the same plays, in the same order
        assert evaluate(my, opp, WEIGHTS) == pytest.approx(game.evaluate(s, s.player))


def test_compiled_search_equals_expectiminimax() -> None:
    game = Backgammon()
    for depth, states in ((1, positions(10, seed=5)), (2, positions(40, seed=8)[-2:])):
        for s in states:
            plain = expectiminimax(game, s, depth=depth)
            fast = expectiminimax_kernel(game, s, depth=depth)
            assert fast.value == pytest.approx(plain.value, abs=1e-12)
            assert fast.action == plain.action
            assert (fast.stats.nodes, fast.stats.leaves) == (plain.stats.nodes,
                                                             plain.stats.leaves)


def test_compiled_star_pruning_equals_the_readable_one_and_plain() -> None:
    game = Backgammon()
    for s in positions(30, seed=8)[-2:]:
        for pruning in ("star1", "star2"):
            readable = expectiminimax(game, s, depth=2, pruning=pruning)
            compiled = expectiminimax_kernel(game, s, depth=2, pruning=pruning)
            assert compiled.value == readable.value and compiled.action == readable.action
            assert (compiled.stats.nodes, compiled.stats.leaves) == (readable.stats.nodes,
                                                                     readable.stats.leaves)
    # depth 3 on a position with a handful of plays (keeps the test short)
    s = min((p for p in positions(60, seed=9) if len(game.actions(p)) >= 4),
            key=lambda p: len(game.actions(p)))
    plain = expectiminimax_kernel(game, s, depth=3)
    for pruning in ("star1", "star2"):
        pruned = expectiminimax_kernel(game, s, depth=3, pruning=pruning)
        assert pruned.value == pytest.approx(plain.value, abs=1e-12)
        assert pruned.stats.visited < plain.stats.visited
