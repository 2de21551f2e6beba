"""Duplicate matches for team card games: the same deals played twice, seats swapped.

Luck of the deal dominates a handful of deals; in *duplicate* play (as bridge clubs do)
each deal is played twice, agent A holding side 1's cards the first time and side 2's the
second, so both agents meet the same cards. An agent only ever acts through the
information set of the seat to move (the agents here read nothing else).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from gamesearch.agent import Agent
from gamesearch.game import CHANCE, Game, State
from gamesearch.loop import run_game


@dataclass
class DuplicateResult:
    """Tricks (utilities) each agent took per deal, summed over both seatings."""

    a: str
    b: str
    deals: int = 0
    a_total: float = 0.0
    b_total: float = 0.0
    per_deal: list[tuple[float, float]] = field(default_factory=list)

    @property
    def a_mean(self) -> float:
        return self.a_total / (2 * self.deals) if self.deals else 0.0

    @property
    def b_mean(self) -> float:
        return self.b_total / (2 * self.deals) if self.deals else 0.0

    def as_dict(self) -> dict:
        return {"a": self.a, "b": self.b, "deals": self.deals, "a_mean": round(self.a_mean, 3),
                "b_mean": round(self.b_mean, 3)}


def deal(game: Game, rng: random.Random) -> State:
    """Play the chance nodes at the start (the deal) and return the first decision state:
    the game loop, stopped at the first player's turn."""
    def dealt(state: State, _: list) -> tuple[tuple, str] | None:
        return None if game.to_move(state) == CHANCE else ((), "dealt")

    return run_game(game, (), rng=rng, adjudicate=dealt).final


def play(game: Game, state: State, seats: list[Agent], rng: random.Random) -> tuple:
    """Play to the end with ``seats[p]`` acting for player p; the final utilities. Each
    agent is given a state drawn from its own information set, never the true deal; an
    illegal move raises, and the repetition rule applies where the game has one (the game
    loop, :func:`gamesearch.loop.run_game`)."""
    return run_game(game, seats, state, rng=rng).utilities


def duplicate_match(game: Game, a: Agent, b: Agent, deals: int, seed: int = 0
                    ) -> DuplicateResult:
    """A plays side 1 (players 1 and 3) then side 2 on each deal; B the other side."""
    rng = random.Random(seed)
    result = DuplicateResult(a.spec, b.spec)
    for _ in range(deals):
        start = deal(game, rng)
        first = play(game, start, [a, b, a, b], rng)
        second = play(game, start, [b, a, b, a], rng)
        a_tricks, b_tricks = first[0] + second[1], first[1] + second[0]
        result.deals += 1
        result.a_total += a_tricks
        result.b_total += b_tricks
        result.per_deal.append((a_tricks, b_tricks))
    return result
