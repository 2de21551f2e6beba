"""Every game as a PettingZoo AEC environment and one seat as a Gymnasium environment
(issue #40): PettingZoo's own ``api_test`` and Gymnasium's ``check_env`` are the checks."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from gamesearch.game import has_hidden_information  # noqa: E402
from gamesearch.games import entries, load_game  # noqa: E402
from gamesearch.interop.gymnasium import SeatEnv  # noqa: E402
from gamesearch.interop.pettingzoo import env  # noqa: E402
from gamesearch.interop.spaces import NoActionSpace, action_space, has_rich_observation  # noqa: E402

SMALL = {"go": "go:size=5", "pig": "pig:goal=20", "othello": "othello:size=6"}
"""Smaller parameters where a random game at the default size takes long."""

NO_ACTION_SPACE = {
    "checkers": "a move is a path of jumps (9x18x27): no numbering of modest size, and the "
                "game is far too big to enumerate",
    "backgammon": "a move is up to four checker moves for one roll: thousands of "
                  "combinations, no numbering yet, far too big to enumerate",
}
"""Games without a fixed action space: PettingZoo cannot take them (docs/INTEROP.md)."""


def built_in() -> list[str]:
    return [e.name for e in entries()]


@pytest.mark.parametrize("name", built_in())
def test_pettingzoo_api_test_passes(name: str) -> None:
    game = load_game(SMALL.get(name, name))
    if name in NO_ACTION_SPACE:
        with pytest.raises(NoActionSpace):  # still true? else remove the entry above
            action_space(game, budget=5_000)
        pytest.skip(NO_ACTION_SPACE[name])
    environment = env(game, render_mode="ansi", max_moves=2000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the dict observation is PettingZoo's classic form
        api_test(environment, num_cycles=1000)
    assert environment.terminations or environment.agents == []


def play(environment, seed: int) -> tuple[dict[str, float], list[int]]:
    """A random game to the end: each agent's summed rewards, the actions taken."""
    environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = {a: 0.0 for a in environment.possible_agents}
    taken = []
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        totals[agent] += reward
        if terminated or truncated:
            environment.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        taken.append(action)
        environment.step(action)
    return totals, taken


def test_rewards_are_the_utilities_and_masks_the_legal_moves() -> None:
    game = load_game("tictactoe")
    environment = env(game)
    environment.reset(seed=3)
    state = game.initial_state()
    for _ in range(4):
        mask = environment.observe(environment.agent_selection)["action_mask"]
        assert sorted(np.flatnonzero(mask)) == sorted(game.actions(state))
        move = int(np.flatnonzero(mask)[0])
        environment.step(move)
        state = game.result(state, move)
    totals, taken = play(environment, 7)
    final = game.initial_state()
    for a in taken:
        final = game.result(final, a)
    assert game.is_terminal(final)
    assert (totals["player_0"], totals["player_1"]) == tuple(map(float, game.utilities(final)))


def test_chance_is_sampled_inside_and_seeded() -> None:
    environment = env(load_game("pig:goal=20"))
    first, second = play(environment, 5), play(environment, 5)
    assert first == second  # same seed, same dice
    assert play(environment, 6)[1] != first[1]
    assert set(first[0].values()) == {-1.0, 1.0}


def test_hidden_information_observations_are_information_sets() -> None:
    """An agent's observation is the same in every state of its information set: Kuhn's
    player 0 holding the Queen cannot see whether player 1 holds the Jack or the King."""
    for name in ("kuhn_poker", "leduc_poker", "whist", "strategy_fusion"):
        game = load_game(name)
        assert has_hidden_information(game)
        actions = action_space(game)
        rng = random.Random(1)
        for _ in range(30):
            state = game.initial_state()
            for _ in range(rng.randrange(1, 12)):
                if game.is_terminal(state):
                    break
                state = game.result(state, rng.choice(list(game.actions(state))))
            if game.is_terminal(state) or game.to_move(state) < 0:
                continue
            player = game.to_move(state)
            other = game.sample_state(game.information_set(state, player), player, rng)
            from gamesearch.interop.spaces import observe
            assert np.array_equal(observe(game, actions, state, player),
                                  observe(game, actions, other, player)), name
    kuhn = load_game("kuhn_poker")
    environment = env(kuhn)
    environment.reset(seed=0)
    environment.state = ((1, 0), "")
    seen = environment.observe("player_0")["observation"]
    environment.state = ((1, 2), "")
    assert np.array_equal(seen, environment.observe("player_0")["observation"])
    assert not np.array_equal(seen, environment.observe("player_1")["observation"])


def test_rich_observations_and_derived_action_spaces() -> None:
    """Games with an encoding of their own give it; small games without a numbering get
    one by enumeration (docs/INTEROP.md lists both)."""
    rich = {e.name for e in entries() if has_rich_observation(e.factory())}
    assert {"tictactoe", "connect4", "othello", "go", "chess", "nim", "pig", "kuhn_poker",
            "leduc_poker", "whist"} <= rich
    takeaway = action_space(load_game("takeaway"))  # takes 1, 2 or 3 sticks
    assert takeaway.derived and takeaway.size == 3 and takeaway.index(3) == 2
    assert not action_space(load_game("chess")).derived
    board = env(load_game("connect4")).observation_space("player_0")["observation"]
    assert board.shape == (6, 7, 2)


@pytest.mark.parametrize("spec, opponent", [
    ("tictactoe", "alphabeta:depth=2"),
    ("connect4:width=5,height=4", "alphabeta:depth=2,pure=true"),
    ("nim", "alphabeta:depth=2"),
    ("othello:size=6", "alphabeta:depth=1"),
    ("pig:goal=20", "expectimax:depth=2"),
    ("kuhn_poker", "ismcts:iterations=50"),
])
def test_gymnasium_check_env_passes(spec: str, opponent: str) -> None:
    environment = SeatEnv(load_game(spec), opponent, seat=1, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no registered spec to test other render modes
        check_env(environment)
    observation, info = environment.reset(seed=2)
    assert observation["action_mask"].any() and np.array_equal(info["action_mask"],
                                                                observation["action_mask"])


def test_the_opponent_plays_and_illegal_actions_lose() -> None:
    """Against perfect tic-tac-toe play (alpha-beta to the end) the learner never wins."""
    environment = SeatEnv(load_game("tictactoe"), "alphabeta", seat=0)
    rng = np.random.default_rng(0)
    for seed in range(5):
        observation, _ = environment.reset(seed=seed)
        done, reward = False, 0.0
        while not done:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, reward, done, truncated, _ = environment.step(action)
        assert reward <= 0
    observation, _ = environment.reset(seed=0)
    environment.step(4)
    _, reward, done, _, info = environment.step(4)  # the centre is taken
    assert done and reward == -1.0 and info["illegal_action"]
