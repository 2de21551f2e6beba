"""Exact best responses and exploitability: how much a strategy can be beaten by.

A best response to a fixed opponent strategy picks, at each of the responder's information
sets, the action with the highest value summed over the set's histories, each weighted by
the probability that chance and the opponent reach it. The *exploitability* of a profile is
the mean of the two best-response values, ``(BR_1(sigma_2) + BR_2(sigma_1)) / 2``: zero
exactly at a Nash equilibrium (OpenSpiel's ``exploitability``; twice it is ``NashConv``).

:func:`best_response_reference` is the readable recursion over the game protocol (the
specification); :func:`best_response_value` runs the compiled loop on a flattened tree.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from gamesearch.game import CHANCE, Game, State
from gamesearch.imperfect import kernels
from gamesearch.imperfect.tree import GameTree, Strategy, build_tree


def _probability(game: Game, state: State, strategy: Strategy, action) -> float:
    """The probability the strategy gives ``action`` (uniform where the set is missing)."""
    key = game.information_set(state, game.to_move(state))
    row = strategy.get(key)
    if row is None:
        return 1.0 / len(game.actions(state))
    return row.get(game.action_to_string(state, action), 0.0) / sum(row.values())


def best_response_reference(game: Game, strategy: Strategy, responder: int
                            ) -> tuple[float, dict[str, str]]:
    """Best-response value for ``responder`` against ``strategy``, and the chosen actions.

    The readable recursion: group the responder's histories by information set, weighting
    each by the opponent's and chance's probability of reaching it; the action chosen at a
    set maximizes the weighted sum of its children's values (which may in turn depend on
    later choices, computed on demand: perfect recall makes this well founded).
    """
    members: dict[str, list[tuple[State, float]]] = defaultdict(list)

    def collect(state: State, reach: float) -> None:
        if game.is_terminal(state):
            return
        mover = game.to_move(state)
        if mover == CHANCE:
            for outcome, p in game.chance_outcomes(state):
                collect(game.result(state, outcome), reach * p)
            return
        if mover == responder:
            members[game.information_set(state, mover)].append((state, reach))
            for action in game.actions(state):
                collect(game.result(state, action), reach)
            return
        for action in game.actions(state):
            p = _probability(game, state, strategy, action)
            collect(game.result(state, action), reach * p)

    choice: dict[str, object] = {}

    def best_action(key: str) -> object:
        if key not in choice:
            histories = members[key]
            legal = list(game.actions(histories[0][0]))
            scores = [sum(reach * value(game.result(h, a)) for h, reach in histories)
                      for a in legal]
            choice[key] = legal[int(np.argmax(scores))]
        return choice[key]

    def value(state: State) -> float:
        if game.is_terminal(state):
            return game.utilities(state)[responder]
        mover = game.to_move(state)
        if mover == CHANCE:
            return sum(p * value(game.result(state, o)) for o, p in game.chance_outcomes(state))
        if mover == responder:
            key = game.information_set(state, mover)
            return value(game.result(state, best_action(key)))
        return sum(_probability(game, state, strategy, a) * value(game.result(state, a))
                   for a in game.actions(state))

    root = game.initial_state()
    collect(root, 1.0)
    result = value(root)
    shown = {k: game.action_to_string(members[k][0][0], a) for k, a in choice.items()}
    return result, shown


def _tree_args(tree: GameTree) -> tuple:
    return (tree.node_type, tree.player, tree.infoset, tree.parent, tree.action_index,
            tree.edge_prob, tree.first_child, tree.num_children, tree.utility,
            tree.depth_start, tree.infoset_num_actions)


def best_response_value(tree: GameTree, probs: np.ndarray, responder: int
                        ) -> tuple[float, Strategy]:
    """Best-response value for ``responder`` against the array strategy, and the response
    as a pure strategy dict (its own information sets only); the compiled loop."""
    value, best = kernels.best_response(*_tree_args(tree), probs, responder)
    response: Strategy = {}
    for i, key in enumerate(tree.infoset_keys):
        if tree.infoset_player[i] == responder:
            response[key] = {a: float(k == best[i]) for k, a in enumerate(tree.infoset_actions[i])}
    return float(value), response


def expected_value(tree: GameTree, probs: np.ndarray) -> float:
    """Player 1's expected utility when both players follow the array strategy."""
    values = np.zeros(tree.num_nodes)
    kernels.compute_values(tree.node_type, tree.infoset, tree.first_child, tree.num_children,
                           tree.edge_prob, tree.utility, probs, values)
    return float(values[0])


def nash_conv(tree: GameTree, probs: np.ndarray) -> float:
    """Sum of what each player gains by switching to a best response (0 at equilibrium)."""
    v = expected_value(tree, probs)
    gain_first = best_response_value(tree, probs, 0)[0] - v
    gain_second = best_response_value(tree, probs, 1)[0] + v
    return gain_first + gain_second


def exploitability(game_or_tree: Game | GameTree, strategy: Strategy | np.ndarray) -> float:
    """Exact exploitability, ``NashConv / 2``, of a strategy dict or array."""
    tree = game_or_tree if isinstance(game_or_tree, GameTree) else build_tree(game_or_tree)
    probs = tree.to_array(strategy) if isinstance(strategy, dict) else strategy
    return nash_conv(tree, probs) / 2.0
