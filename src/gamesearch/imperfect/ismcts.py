"""Information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012, SO-ISMCTS).

One tree for the player to move, whose nodes are reached by sequences of actions, not by
states. Each iteration draws a *determinization* (a full state consistent with the player's
information set), descends the tree choosing among the actions legal in that
determinization by UCB1 where every child's count of trials is its *availability* (how
often it was legal when its parent was visited), adds one node, plays randomly to the end
and backs the result up: each node scores the utility of the player who moved into it.
Unlike determinization, the statistics of all deals share one tree, so an action is judged
by how it does across deals with the same later choices (less strategy fusion).
"""

from __future__ import annotations

import math
import random
import time

from gamesearch.agent import Agent
from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, Game, State, sample_action
from gamesearch.result import SearchResult, SearchStats


class Node:
    """A tree node: the action that led here, who played it, and its statistics."""

    __slots__ = ("parent", "action", "player", "children", "visits", "reward", "available")

    def __init__(self, parent: Node | None, action, player: int | None) -> None:
        self.parent, self.action, self.player = parent, action, player
        self.children: dict = {}
        self.visits = 0
        self.reward = 0.0
        self.available = 1

    def ucb(self, c: float) -> float:
        return self.reward / self.visits + c * math.sqrt(math.log(self.available) / self.visits)


def ismcts(game: Game, state: State, iterations: int = 1000, c: float = 0.7,
           rng: random.Random | None = None) -> SearchResult:
    """Run SO-ISMCTS from the mover's information set; the most visited action wins."""
    rng = rng or random.Random()
    start = time.perf_counter()
    root_player = game.to_move(state)
    if root_player == CHANCE or game.is_terminal(state):
        raise GameSearchError("ismcts needs a position where a player is to move")
    info = game.information_set(state, root_player)
    scale = float(getattr(game, "max_utility", 1.0)) or 1.0
    root = Node(None, None, None)
    nodes = 1
    for _ in range(iterations):
        world = game.sample_state(info, root_player, rng)
        node = root
        # Selection and expansion, in the determinization `world`.
        while not game.is_terminal(world):
            mover = game.to_move(world)
            if mover == CHANCE:
                outcome = sample_action(game, world, rng)
                node = node.children.setdefault(outcome, Node(node, outcome, None))
                world = game.result(world, outcome)
                continue
            legal = list(game.actions(world))
            for action in legal:
                if action in node.children:
                    node.children[action].available += 1
            untried = [a for a in legal if a not in node.children]
            if untried:
                action = rng.choice(untried)
                node.children[action] = child = Node(node, action, mover)
                nodes += 1
                node, world = child, game.result(world, action)
                break
            action = max(legal, key=lambda a: node.children[a].ucb(c))
            node, world = node.children[action], game.result(world, action)
        # Simulation.
        while not game.is_terminal(world):
            world = game.result(world, sample_action(game, world, rng))
        utilities = game.utilities(world)
        # Backpropagation.
        while node is not None:
            node.visits += 1
            if node.player is not None:
                node.reward += utilities[node.player] / scale
            node = node.parent
    best = max(root.children.values(), key=lambda n: n.visits)
    stats = SearchStats(nodes=nodes, iterations=iterations,
                        seconds=time.perf_counter() - start)
    values = {n.action: scale * n.reward / n.visits for n in root.children.values()}
    return SearchResult(scale * best.reward / best.visits, best.action, [best.action], stats,
                        values, pov=best.player)


class ISMCTSAgent(Agent):
    """Information-set MCTS with ``iterations`` determinized simulations per move."""

    def __init__(self, iterations: int = 1000, c: float = 0.7, seed: int | None = None) -> None:
        if iterations < 1:
            raise GameSearchError(f"ismcts: iterations must be >= 1, got {iterations}")
        self.iterations, self.c = iterations, c
        self.rng = random.Random(seed)
        self.spec = f"ismcts:iterations={iterations}"

    def __call__(self, game: Game, state: State) -> SearchResult:
        legal = list(game.actions(state))
        if len(legal) == 1:
            return SearchResult(None, legal[0], [legal[0]], SearchStats())
        return ismcts(game, state, self.iterations, self.c, self.rng)
