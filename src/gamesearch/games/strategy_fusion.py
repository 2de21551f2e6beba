"""The smallest game where averaging over deals is wrong (strategy fusion).

A coin is tossed and hidden from player 1 (CHANCE deals ``"heads"`` or ``"tails"``).
Player 1 may ``take`` a sure 3 chips, or ``gamble``: then name the coin (``heads`` or
``tails``) without seeing it, winning 4 chips if right and nothing if wrong. Player 2 has
no move (their utility is the negative: two-player zero-sum, so CFR and best responses run).

The true value of ``gamble`` is 2 (a blind guess is right half the time), so ``take`` (3) is
correct. Determinization samples the coin, solves each sample with the coin visible, and
on every sample the solver names the coin correctly: ``gamble`` averages 4 and is chosen.
The solver fused two strategies ("say heads on heads", "say tails on tails") that no real
player can follow, because the guess is made in one information set.
"""

from __future__ import annotations

import random

from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, Game

State = tuple[str, ...]


class StrategyFusion(Game):
    """Take 3 for sure, or gamble on guessing a hidden coin for 4."""

    name = "strategy_fusion"
    num_players = 2
    zero_sum = True
    sure, prize = 3.0, 4.0
    max_utility = 4.0  # the scale IS-MCTS normalizes rewards by

    def initial_state(self) -> State:
        return ()

    def to_move(self, state: State) -> int:
        return CHANCE if not state else 0

    def actions(self, state: State) -> list[str]:
        if not state:
            return ["heads", "tails"]
        return ["take", "gamble"] if len(state) == 1 else ["heads", "tails"]

    def chance_outcomes(self, state: State) -> list[tuple[str, float]]:
        return [("heads", 0.5), ("tails", 0.5)]

    def result(self, state: State, action: str) -> State:
        return state + (action,)

    def is_terminal(self, state: State) -> bool:
        return state[-1:] == ("take",) or len(state) == 3

    def utilities(self, state: State) -> tuple[float, float]:
        if state[1] == "take":
            return (self.sure, -self.sure)
        win = self.prize if state[2] == state[0] else 0.0
        return (win, -win)

    def render(self, state: State) -> str:
        coin = state[0] if state else "not tossed"
        return f"coin {coin}  choices {' '.join(state[1:]) or '-'}"

    def render_for(self, state: State, player: int) -> str:
        """What ``player`` sees: the choices made, never the coin."""
        return f"coin ?  choices {' '.join(state[1:]) or '-'}"

    def information_set(self, state: State, player: int) -> str:
        """Player 1 sees their own choices, never the coin: ``""``, ``"gamble"``."""
        return " ".join(state[1:])

    def sample_state(self, info: str, player: int, rng: random.Random) -> State:
        moves = tuple(info.split())
        if moves not in ((), ("gamble",), ("take",), ("gamble", "heads"), ("gamble", "tails")):
            raise GameSearchError(f"strategy_fusion: unknown information set {info!r}")
        return (rng.choice(["heads", "tails"]),) + moves
