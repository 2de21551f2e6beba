"""The whole game flattened into arrays: the form CFR and best responses run on.

A two-player zero-sum game with chance and information sets is walked once, breadth first,
so a node's children are contiguous and come after it, and the nodes of one depth are one
slice. Each history becomes one row (its type, player, information set, parent, the
probability of the edge from its parent and its utility for player 1); each information
set one row (its key, player and actions). A top-down loop over the rows computes reach
probabilities and a bottom-up loop computes values: that is all CFR needs.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, Game, State

TERMINAL, CHANCE_NODE, DECISION = 0, 1, 2

Strategy = dict[str, dict[str, float]]
"""A (behaviour) strategy: information-set key -> action string -> probability."""


@dataclass
class GameTree:
    """A game's histories and information sets as numpy arrays (see the module docstring)."""

    game: Game
    node_type: np.ndarray
    player: np.ndarray
    infoset: np.ndarray
    parent: np.ndarray
    action_index: np.ndarray
    edge_prob: np.ndarray
    first_child: np.ndarray
    num_children: np.ndarray
    utility: np.ndarray
    depth_start: np.ndarray
    infoset_keys: list[str]
    infoset_player: np.ndarray
    infoset_num_actions: np.ndarray
    infoset_actions: list[list[str]]
    infoset_index: dict[str, int] = field(default_factory=dict)

    @property
    def num_nodes(self) -> int:
        return len(self.node_type)

    @property
    def num_infosets(self) -> int:
        return len(self.infoset_keys)

    @property
    def max_actions(self) -> int:
        return int(self.infoset_num_actions.max()) if self.num_infosets else 1

    def uniform(self) -> np.ndarray:
        """The uniform strategy as an array (rows: information sets; padded with zeros)."""
        probs = np.zeros((self.num_infosets, self.max_actions))
        for i, n in enumerate(self.infoset_num_actions):
            probs[i, :n] = 1.0 / n
        return probs

    def to_array(self, strategy: Strategy) -> np.ndarray:
        """A strategy dict as an array; information sets it leaves out are played uniformly."""
        probs = self.uniform()
        for key, row in strategy.items():
            if key not in self.infoset_index:
                raise GameSearchError(f"{self.game.name}: unknown information set {key!r}")
            i = self.infoset_index[key]
            actions = self.infoset_actions[i]
            unknown = set(row) - set(actions)
            if unknown:
                raise GameSearchError(f"{self.game.name}: information set {key!r} has no "
                                      f"action {sorted(unknown)[0]!r}; actions: {actions}")
            total = sum(row.values())
            if total <= 0 or any(p < 0 for p in row.values()):
                raise GameSearchError(f"{self.game.name}: information set {key!r}: "
                                      f"probabilities {row} are not a distribution")
            probs[i, :] = 0.0
            for k, action in enumerate(actions):
                probs[i, k] = row.get(action, 0.0) / total
        return probs

    def to_dict(self, probs: np.ndarray, digits: int | None = None) -> Strategy:
        """An array strategy as the dict format (optionally rounded for printing)."""
        strategy: Strategy = {}
        for i, key in enumerate(self.infoset_keys):
            row = {}
            for k, action in enumerate(self.infoset_actions[i]):
                p = float(probs[i, k])
                row[action] = round(p, digits) if digits is not None else p
            strategy[key] = row
        return strategy


def build_tree(game: Game, root: State | None = None) -> GameTree:
    """Walk the whole game breadth first and flatten it (two players, zero-sum)."""
    if game.num_players != 2 or not game.zero_sum:
        raise GameSearchError(f"{game.name}: CFR here needs a two-player zero-sum game")
    if getattr(game, "information_set", None) is None:
        raise GameSearchError(f"{game.name}: the game defines no information sets")
    state = game.initial_state() if root is None else root
    rows: list[tuple] = []  # (type, player, infoset, parent, action_index, prob, depth)
    utility: list[float] = []
    keys: list[str] = []
    index: dict[str, int] = {}
    owner: list[int] = []
    actions_of: list[list[str]] = []
    infoset_depth: list[int] = []
    first_child: list[int] = []
    num_children: list[int] = []
    queue = deque([(state, -1, 0, 1.0, 0)])
    while queue:
        state, parent, action_index, prob, depth = queue.popleft()
        me = len(rows)
        if game.is_terminal(state):
            rows.append((TERMINAL, -1, -1, parent, action_index, prob, depth))
            utility.append(float(game.utilities(state)[0]))
            first_child.append(0)
            num_children.append(0)
            continue
        mover = game.to_move(state)
        utility.append(0.0)
        first_child.append(me + len(queue) + 1)
        if mover == CHANCE:
            outcomes = game.chance_outcomes(state)
            rows.append((CHANCE_NODE, -1, -1, parent, action_index, prob, depth))
            num_children.append(len(outcomes))
            for k, (outcome, p) in enumerate(outcomes):
                queue.append((game.result(state, outcome), me, k, p, depth + 1))
            continue
        key = game.information_set(state, mover)
        legal = list(game.actions(state))
        names = [game.action_to_string(state, a) for a in legal]
        if key not in index:
            index[key] = len(keys)
            keys.append(key)
            owner.append(mover)
            actions_of.append(names)
            infoset_depth.append(depth)
        i = index[key]
        if owner[i] != mover or actions_of[i] != names:
            raise GameSearchError(f"{game.name}: information set {key!r} is shared by "
                                  "different players or action lists")
        if infoset_depth[i] != depth:
            raise GameSearchError(f"{game.name}: information set {key!r} spans depths")
        rows.append((DECISION, mover, i, parent, action_index, prob, depth))
        num_children.append(len(legal))
        for k, action in enumerate(legal):
            queue.append((game.result(state, action), me, k, 1.0, depth + 1))
    table = np.array([r[:6] for r in rows], dtype=np.float64)
    depths = np.array([r[6] for r in rows], dtype=np.int64)
    depth_start = np.searchsorted(depths, np.arange(depths.max() + 2))
    return GameTree(
        game=game,
        node_type=table[:, 0].astype(np.int8),
        player=table[:, 1].astype(np.int8),
        infoset=table[:, 2].astype(np.int32),
        parent=table[:, 3].astype(np.int32),
        action_index=table[:, 4].astype(np.int32),
        edge_prob=table[:, 5].copy(),
        first_child=np.array(first_child, dtype=np.int32),
        num_children=np.array(num_children, dtype=np.int32),
        utility=np.array(utility, dtype=np.float64),
        depth_start=depth_start.astype(np.int64),
        infoset_keys=keys,
        infoset_player=np.array(owner, dtype=np.int8),
        infoset_num_actions=np.array([len(a) for a in actions_of], dtype=np.int32),
        infoset_actions=actions_of,
        infoset_index=index,
    )
