"""The ``kernel-mcts`` agent: compiled UCT for any game with a kernel."""

from __future__ import annotations

from gamesearch.agent import Agent
from gamesearch.game import Game, State
from gamesearch.result import SearchResult


class KernelMCTSAgent(Agent):
    """Compiled UCT with random play-outs (``simulations`` per move)."""

    def __init__(self, simulations: int = 20000, c: float = 1.4142, seed: int = 0) -> None:
        self.simulations, self.c, self.seed = simulations, c, seed
        self.spec = "kernel-mcts"
        self.moves = 0

    def __call__(self, game: Game, state: State) -> SearchResult:
        from gamesearch.kernels.search import kernel_mcts

        self.moves += 1
        return kernel_mcts(game, state, self.simulations, self.c, self.seed + self.moves)

    def reset(self) -> None:
        self.moves = 0


def kernel_mcts_agent(simulations: int = 20000, c: float = 1.4142, seed: int = 0) -> Agent:
    return KernelMCTSAgent(simulations, c, seed)
