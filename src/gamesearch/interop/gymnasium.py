"""One seat of a game as a Gymnasium environment; gamesearch agents play the other seats.

``SeatEnv(game, opponents="alphabeta:depth=2", seat=0)``: the learner plays ``seat``; every
other seat is played by an agent made from the spec (one spec for all, or one per other
seat, in seat order), which sees only what its seat may see (a determinization of its
information set in a game with hidden information). Chance is sampled by the environment.
``reset(seed=s)`` seeds chance and the opponents that take a ``seed``, so an episode is
replayed exactly. Observations, the action space and masks are those of the PettingZoo
environment (:mod:`gamesearch.interop.pettingzoo`); the mask is also in ``info``. The
reward is the learner's utility at the end (0 before). An illegal action ends the episode
with ``illegal_reward`` and ``info["illegal_action"] = True`` (Gymnasium's checker plays
random actions, so it must not raise).
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Hashable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from gamesearch.agent import Agent
from gamesearch.agents import AGENTS, make_agent
from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, Game, player_view, sample_action
from gamesearch.interop.spaces import (
    ActionSpace,
    action_space,
    observation_bounds,
    observation_shape,
    observe,
)
from gamesearch.spec import parse_spec


class SeatEnv(gymnasium.Env):
    """A game from one seat (see the module's documentation)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self, game: Game, opponents: str | Agent | Sequence[str | Agent] = "random",
        seat: int = 0, render_mode: str | None = None, illegal_reward: float = -1.0,
        max_moves: int | None = None, actions: ActionSpace | None = None,
    ) -> None:
        if not 0 <= seat < game.num_players:
            raise GameSearchError(
                f"{game.name}: seat {seat} is not one of 0..{game.num_players - 1}")
        others = [p for p in range(game.num_players) if p != seat]
        if isinstance(opponents, (str, Agent)):
            opponents = [opponents] * len(others)
        if len(opponents) != len(others):
            raise GameSearchError(f"{game.name}: {len(others)} other seats, "
                                  f"{len(opponents)} opponents given")
        self.game, self.seat, self.render_mode = game, seat, render_mode
        self.illegal_reward, self.max_moves = float(illegal_reward), max_moves
        self.specs = dict(zip(others, opponents))
        self.opponents: dict[int, Agent] = {p: self._agent(o, None) for p, o in self.specs.items()}
        self.actions = actions or action_space(game)
        low, high = observation_bounds(game)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(low, high, shape=observation_shape(game, self.actions),
                                      dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(self.actions.size,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(self.actions.size)
        self._rng = random.Random()
        self.state: Any = None
        self.last_action: Hashable | None = None
        self.moves = 0

    @staticmethod
    def _agent(spec: str | Agent, seed: int | None) -> Agent:
        if not isinstance(spec, str):
            return spec
        agent = make_agent(spec)
        name, params = parse_spec(spec)
        if seed is not None and "seed" not in params and \
                "seed" in inspect.signature(AGENTS[name].factory).parameters:
            agent = make_agent(spec, seed=seed)
        return agent

    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict[str, np.ndarray], dict]:
        """A new game, played by the opponents until the learner's first turn."""
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
            self.action_space.seed(seed)
            self.opponents = {p: self._agent(o, seed + p) for p, o in self.specs.items()}
        for agent in self.opponents.values():
            agent.reset()
        self.moves, self.last_action = 0, None
        self.state = self.game.initial_state()
        self._until_learner()
        return self._observation(), self._info()

    def _until_learner(self) -> None:
        game = self.game
        while not game.is_terminal(self.state) and not self._truncated():
            mover = game.to_move(self.state)
            if mover == CHANCE:
                self.state = game.result(self.state, sample_action(game, self.state, self._rng))
                continue
            if mover == self.seat:
                return
            view = player_view(game, self.state, mover, self._rng)
            action = self.opponents[mover](game, view).action
            self.state = game.result(self.state, action)
            self.last_action = action
            self.moves += 1

    def _truncated(self) -> bool:
        return self.max_moves is not None and self.moves >= self.max_moves

    def _observation(self) -> dict[str, np.ndarray]:
        game, state = self.game, self.state
        mask = np.zeros(self.actions.size, dtype=np.int8)
        if not game.is_terminal(state) and game.to_move(state) == self.seat:
            mask = self.actions.mask(state)
        return {"observation": observe(game, self.actions, state, self.seat, self.last_action),
                "action_mask": mask}

    def _info(self, **extra: Any) -> dict:
        return {"action_mask": self._observation()["action_mask"], **extra}

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict]:
        """Play the learner's action, then the others' until its next turn or the end."""
        game = self.game
        legal = self.actions.legal(self.state)
        if int(action) not in legal:
            return self._observation(), self.illegal_reward, True, False, self._info(
                illegal_action=True)
        move = legal[int(action)]
        self.state = game.result(self.state, move)
        self.last_action = move
        self.moves += 1
        self._until_learner()
        if game.is_terminal(self.state):
            reward = float(game.utilities(self.state)[self.seat])
            return self._observation(), reward, True, False, self._info()
        return self._observation(), 0.0, False, self._truncated(), self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions now (the name sb3-contrib's MaskablePPO looks for)."""
        return self._observation()["action_mask"].astype(bool)

    def render(self) -> str | None:
        """The game's text picture of the state (``render_mode="ansi"``)."""
        if self.render_mode != "ansi":
            return None
        return self.game.render(self.state)
