"""Any game of the protocol as a PettingZoo AEC environment: ``env(game)``.

Agents are ``player_0`` .. ``player_{N-1}`` (the protocol's players). Each observation is a
dict ``{"observation": ..., "action_mask": ...}`` as in PettingZoo's classic games: what the
agent knows of the state (:func:`gamesearch.interop.spaces.observe`; in a game with hidden
information only its information set) and its legal actions over the game's fixed action
space (zeros when it is not its turn). Chance nodes never reach the agents: the
environment samples them with the generator seeded by ``reset(seed=...)``. Rewards are the
utilities at the end of the game (0 before). ``max_moves`` truncates a long game.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from gamesearch.errors import IllegalActionError
from gamesearch.game import CHANCE, Game, sample_action
from gamesearch.interop.spaces import (
    ActionSpace,
    action_space,
    observation_bounds,
    observation_shape,
    observe,
)


def agent_name(player: int) -> str:
    """The PettingZoo name of a protocol player."""
    return f"player_{player}"


class GameEnv(AECEnv):
    """A game as an AEC environment (see the module's documentation)."""

    metadata = {"render_modes": ["ansi"], "name": "gamesearch", "is_parallelizable": False}

    def __init__(
        self, game: Game, render_mode: str | None = None, max_moves: int | None = None,
        actions: ActionSpace | None = None,
    ) -> None:
        super().__init__()
        self.game = game
        self.render_mode = render_mode
        self.max_moves = max_moves
        self.actions = actions or action_space(game)
        self.metadata = {**self.metadata, "name": f"gamesearch_{game.name}"}
        self.possible_agents = [agent_name(p) for p in range(game.num_players)]
        low, high = observation_bounds(game)
        shape = observation_shape(game, self.actions)
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(low, high, shape=shape, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(self.actions.size,), dtype=np.int8),
        })
        self._action_space = spaces.Discrete(self.actions.size)
        self._rng = random.Random()
        self.state: Any = None
        self.last_action: Hashable | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        """The same Dict space for every agent."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(n)`` over the game's numbered actions."""
        return self._action_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game (chance at the start is sampled with the seeded generator)."""
        if seed is not None:
            self._rng = random.Random(seed)
            self._action_space.seed(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.moves = 0
        self.last_action = None
        self.state = self._past_chance(self.game.initial_state())
        self._select_after(None)

    def _past_chance(self, state: Any) -> Any:
        game = self.game
        while not game.is_terminal(state) and game.to_move(state) == CHANCE:
            state = game.result(state, sample_action(game, state, self._rng))
        return state

    def _select_after(self, mover: int | None) -> None:
        game, state = self.game, self.state
        if game.is_terminal(state) or self._truncated():
            # every agent sees the end once, starting with the one after the last mover
            start = 0 if mover is None else (mover + 1) % game.num_players
            self.agent_selection = agent_name(start)
        else:
            self.agent_selection = agent_name(game.to_move(state))

    def _truncated(self) -> bool:
        return self.max_moves is not None and self.moves >= self.max_moves

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent`` knows now, and its legal actions."""
        player = self.possible_agents.index(agent)
        game, state = self.game, self.state
        mask = np.zeros(self.actions.size, dtype=np.int8)
        if not game.is_terminal(state) and game.to_move(state) == player:
            mask = self.actions.mask(state)
        return {
            "observation": observe(game, self.actions, state, player, self.last_action),
            "action_mask": mask,
        }

    def step(self, action: int | None) -> None:
        """Play the selected agent's action (its number); at the end, retire the agent."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        player = self.possible_agents.index(agent)
        legal = self.actions.legal(self.state)
        if action is None or int(action) not in legal:
            raise IllegalActionError(f"{game.name}: action {action!r} is not legal for {agent}")
        self._cumulative_rewards[agent] = 0.0
        move = legal[int(action)]
        self.state = self._past_chance(game.result(self.state, move))
        self.last_action = move
        self.moves += 1
        self.rewards = {a: 0.0 for a in self.agents}
        if game.is_terminal(self.state):
            for p, u in enumerate(game.utilities(self.state)):
                self.rewards[agent_name(p)] = float(u)
            self.terminations = {a: True for a in self.agents}
        elif self._truncated():
            self.truncations = {a: True for a in self.agents}
        self._select_after(player)
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The game's text picture of the state (``render_mode="ansi"``)."""
        if self.render_mode != "ansi":
            return None
        return self.game.render(self.state)

    def close(self) -> None:
        """Nothing to release."""

    def __str__(self) -> str:
        return self.metadata["name"]


def env(game: Game, render_mode: str | None = None, max_moves: int | None = None) -> GameEnv:
    """An AEC environment of a game (``env(load_game("connect4:width=5,height=4"))``)."""
    return GameEnv(game, render_mode=render_mode, max_moves=max_moves)
