"""Fixed action spaces and fixed-size observations for any game of the protocol.

Reinforcement-learning libraries want what the protocol leaves free: every action of a game
numbered once (a ``Discrete(n)`` space and a mask of the legal ones) and an observation of
one fixed shape. Both come from optional capabilities of the game where it has them, and
are derived where they can be (docs/INTEROP.md):

* actions: ``num_distinct_actions()`` and ``action_index(action)`` (the game numbers its
  actions itself, the OpenSpiel way); else, for a small game, every reachable state is
  enumerated once and the player actions are numbered in the order the walk first meets
  them; else :class:`NoActionSpace` says why there is none.
* observations: ``observation_tensor(state, player)`` with ``observation_shape`` (a rich
  encoding of what the player knows, values in ``observation_bounds``, by default 0..1);
  else the generic encoding of :func:`generic_observation`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable
from typing import Any

import numpy as np

from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, Game, State, has_hidden_information

ENUMERATION_BUDGET = 50_000
"""The most states walked to derive the action space of a game that does not number its
actions (a few seconds of pure-Python rules)."""


class NoActionSpace(GameSearchError):
    """The game neither numbers its actions nor is small enough to enumerate."""


class ActionSpace:
    """Every action of one game, numbered 0..size-1."""

    def __init__(self, game: Game, size: int, index: Any, derived: bool) -> None:
        self.game = game
        self.size = size
        self._index = index
        self.derived = derived
        """True when the numbering came from enumerating the game (not from the game)."""

    def index(self, action: Hashable) -> int:
        """The number of an action."""
        return int(self._index(action))

    def legal(self, state: State) -> dict[int, Hashable]:
        """The legal actions of a player's state by number."""
        return {self.index(a): a for a in self.game.actions(state)}

    def mask(self, state: State) -> np.ndarray:
        """The legal actions of a player's state as 0/1 (int8) over the whole space."""
        mask = np.zeros(self.size, dtype=np.int8)
        for action in self.game.actions(state):
            mask[self.index(action)] = 1
        return mask


def action_space(game: Game, budget: int = ENUMERATION_BUDGET) -> ActionSpace:
    """The game's fixed action space: its own numbering (``num_distinct_actions`` and
    ``action_index``) or one derived by enumerating its states (at most ``budget``)."""
    count = getattr(game, "num_distinct_actions", None)
    index = getattr(game, "action_index", None)
    if count is not None and index is not None:
        return ActionSpace(game, int(count()), index, derived=False)
    numbers = _enumerate_actions(game, budget)
    return ActionSpace(game, len(numbers), numbers.__getitem__, derived=True)


def _enumerate_actions(game: Game, budget: int) -> dict[Hashable, int]:
    """Walk every reachable state (breadth first); number the player actions met."""
    start = game.initial_state()
    seen = {start}
    queue = deque([start])
    numbers: dict[Hashable, int] = {}
    while queue:
        state = queue.popleft()
        if game.is_terminal(state):
            continue
        mover = game.to_move(state)
        for action in game.actions(state):
            if mover != CHANCE and action not in numbers:
                numbers[action] = len(numbers)
            child = game.result(state, action)
            if child not in seen:
                if len(seen) >= budget:
                    raise NoActionSpace(
                        f"{game.name}: no fixed action space: the game does not number its "
                        f"actions (num_distinct_actions, action_index) and has more than "
                        f"{budget} states to enumerate"
                    )
                seen.add(child)
                queue.append(child)
    if not numbers:
        raise NoActionSpace(f"{game.name}: no player ever moves")
    return numbers


def has_rich_observation(game: Game) -> bool:
    """Whether the game encodes its states itself (``observation_tensor``)."""
    return callable(getattr(game, "observation_tensor", None)) and hasattr(
        game, "observation_shape"
    )


def observation_shape(game: Game, actions: ActionSpace) -> tuple[int, ...]:
    """The shape of every observation of the game."""
    if has_rich_observation(game):
        return tuple(int(n) for n in game.observation_shape)
    return (2 * game.num_players + actions.size,)


def observation_bounds(game: Game) -> tuple[float, float]:
    """The least and greatest value of an observation's entries."""
    if has_rich_observation(game):
        low, high = getattr(game, "observation_bounds", (0.0, 1.0))
        return float(low), float(high)
    return 0.0, 1.0


def observe(
    game: Game, actions: ActionSpace, state: State, player: int, last: Hashable | None = None
) -> np.ndarray:
    """What ``player`` observes of ``state`` (float32, :func:`observation_shape`)."""
    if has_rich_observation(game):
        tensor = np.asarray(game.observation_tensor(state, player), dtype=np.float32)
        return tensor.reshape(observation_shape(game, actions))
    return generic_observation(game, actions, state, player, last)


def generic_observation(
    game: Game, actions: ActionSpace, state: State, player: int, last: Hashable | None
) -> np.ndarray:
    """The encoding of a game that has none of its own: the observing seat (one-hot over
    the players), the seat to move (one-hot; none at the end or at chance) and, in a game
    without hidden information, the last player action (one-hot over the action space).
    It is honest (it shows nothing a player may not know) and poor: it does not describe
    the position, so a learner must remember the moves itself."""
    n = game.num_players
    out = np.zeros(2 * n + actions.size, dtype=np.float32)
    out[player] = 1.0
    if not game.is_terminal(state):
        mover = game.to_move(state)
        if mover != CHANCE:
            out[n + mover] = 1.0
    if last is not None and not has_hidden_information(game):
        out[2 * n + actions.index(last)] = 1.0
    return out

