"""The strategy an agent plays, read off at every information set, and so its exploitability.

Any agent (determinization, IS-MCTS, a person) defines a strategy: ask it for a move at one
history of each information set. Its exploitability then says exactly how far it is from
optimal, on the same scale as CFR's (docs/HIDDEN.md).
"""

from __future__ import annotations

from gamesearch.agent import Agent
from gamesearch.game import CHANCE, Game, State
from gamesearch.imperfect.tree import Strategy


def representatives(game: Game) -> dict[str, State]:
    """One history of each information set (the first met, depth first)."""
    found: dict[str, State] = {}

    def walk(state: State) -> None:
        if game.is_terminal(state):
            return
        mover = game.to_move(state)
        if mover != CHANCE:
            found.setdefault(game.information_set(state, mover), state)
        for action in game.actions(state):
            walk(game.result(state, action))

    walk(game.initial_state())
    return found


def agent_strategy(game: Game, agent: Agent) -> Strategy:
    """The pure strategy the agent plays: its move at each information set, probability 1."""
    strategy: Strategy = {}
    for key, state in representatives(game).items():
        choice = agent(game, state).action
        strategy[key] = {game.action_to_string(state, a): float(a == choice)
                         for a in game.actions(state)}
    return strategy
