"""pgx's Go (the trainer's rules) against our readable rules: move for move on random
games, the area score with draws, the input planes (bench/go_pgx_check.py plays
thousands)."""

from __future__ import annotations

import random

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("pgx")

import jax.numpy as jnp  # noqa: E402

from gamesearch.engines.go.jax_rules import area_margin, go_jax  # noqa: E402
from gamesearch.engines.go.net_agent import planes  # noqa: E402
from gamesearch.engines.go.pgx_check import compare_random_games  # noqa: E402
from gamesearch.games.go.rules import Go, area_score  # noqa: E402


def test_pgx_plays_random_games_as_our_rules_do() -> None:
    report = compare_random_games(24, seed=3, batch=24)
    counts = report["counts"]
    assert report["mismatches"] == []
    assert counts["games"] == 24 and counts["positions"] > 2000
    assert counts["captures"] > 50
    assert counts["games ended by two passes"] > 0
    assert counts["games ended at the move cap"] > 0


def test_the_area_score_matches_ours_and_an_equal_score_is_a_draw() -> None:
    rng = random.Random(5)
    rules = Go(size=9, komi=7.0)
    margin = jax.jit(lambda b, w: area_margin(b, w, 7.0))
    for _ in range(30):
        cells = "".join(rng.choice("XO.....") for _ in range(81))
        black = jnp.asarray([c == "X" for c in cells]).reshape(9, 9)
        white = jnp.asarray([c == "O" for c in cells]).reshape(9, 9)
        b, w = area_score(cells, 9)
        assert float(margin(black, white)) == b - w - 7.0
    # Black's 44 points against White's 37: with komi 7 an equal score, a draw (pgx: White)
    cells = "X" * 44 + "O" * 37
    assert rules.utilities((cells, 0, 2, 2, frozenset())) == (0.0, 0.0)
    black = jnp.asarray([c == "X" for c in cells]).reshape(9, 9)
    assert float(margin(black, ~black)) == 0.0


def test_the_numpy_planes_are_the_jax_observation() -> None:
    game, rules = go_jax(9, 7.0), Go()
    step, observe = jax.jit(game.step), jax.jit(game.observe)
    rng = random.Random(11)
    state, jstate = rules.initial_state(), game.initial()
    for _ in range(60):
        legal = rules.actions(state)
        assert np.array_equal(planes(state[0], state[1], legal), np.asarray(observe(jstate)))
        move = rng.choice(legal[:-1])
        state = rules.result(state, move)
        jstate, reward = step(jstate, jnp.int32(move))
        assert float(reward) == 0.0
    assert game.shape == (9, 9, 4) and game.inputs == 9 * 9 * 4 and game.actions == 82
