"""Backgammon's own agent (``gammon``): the depth-2 player on the game's compiled kernel.

It lives in the catalog because it joins a game (backgammon's rules and kernel) with an
algorithm (expectiminimax and its *-minimax pruning)."""

from __future__ import annotations

from gamesearch.agents import Agent
from gamesearch.games.backgammon_kernel import expectiminimax_kernel
from gamesearch.result import SearchResult


class GammonAgent(Agent):
    """The depth-2 backgammon player: expectiminimax with the hand-written evaluation, on the
    compiled kernel where it applies (a backgammon decision node, no sampling), else the
    readable search with *-minimax pruning."""

    interactive = False

    def __init__(self, depth: int = 2, pruning: str | None = "star2",
                 samples: int | None = None, seed: int | None = None,
                 kernel: bool = True) -> None:
        self.depth, self.pruning, self.samples, self.seed = depth, pruning, samples, seed
        self.kernel = kernel
        self.spec = "gammon"

    def __call__(self, game, state) -> SearchResult:
        from gamesearch.games.backgammon import Backgammon
        from gamesearch.search.chance import expectiminimax

        if (self.kernel and isinstance(game, Backgammon) and state.dice is not None
                and self.samples is None and self.depth >= 1):
            return expectiminimax_kernel(game, state, self.depth, pruning=self.pruning)
        return expectiminimax(game, state, depth=self.depth, pruning=self.pruning,
                              samples=self.samples, seed=self.seed)

    def prepare(self, game) -> None:
        """Compile the kernel (or load it from numba's cache) before any clock runs: about
        20 s the first time on a machine (``gamesearch warmup`` does it ahead), then under a
        second; afterwards a depth-2 move takes milliseconds."""
        import random

        from gamesearch.game import CHANCE
        from gamesearch.games.backgammon import Backgammon

        if not (self.kernel and isinstance(game, Backgammon)):
            return
        state, rng = game.initial_state(), random.Random(0)
        while game.to_move(state) == CHANCE:  # the opening roll
            state = game.result(state, rng.choice(list(game.actions(state))))
        expectiminimax_kernel(game, state, 1, pruning=self.pruning)

    def reset(self) -> None:
        """Nothing is kept between games."""
