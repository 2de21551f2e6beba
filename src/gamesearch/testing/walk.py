"""Random play-outs for the checks: every position they pass through is checked."""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator
from typing import Any

from gamesearch.game import CHANCE
from gamesearch.testing.failure import Trail, require


def random_action(game: Any, state: Hashable, rng: random.Random) -> Hashable:
    """A random action: a chance node's outcome by its probability, a player's uniformly."""
    if game.to_move(state) == CHANCE:
        outcomes = list(game.chance_outcomes(state))
        r = rng.random()
        for outcome, p in outcomes:
            r -= p
            if r <= 0:
                return outcome
        return outcomes[-1][0]
    return rng.choice(list(game.actions(state)))


def walk(game: Any, trail: Trail, rng: random.Random, playouts: int,
         max_moves: int) -> Iterator[Hashable]:
    """Yield every position of ``playouts`` random play-outs from the start, terminal
    positions included; the trail always holds the moves that led to the yielded one.
    A play-out longer than ``max_moves`` fails the ``termination`` check."""
    for _ in range(playouts):
        with trail.guard("initial-state", "initial_state()"):
            trail.start(game.initial_state())
        for _ in range(max_moves + 1):
            state = trail.state
            yield state
            with trail.guard("terminal-test", "is_terminal(s)"):
                over = game.is_terminal(state)
            if over:
                break
            with trail.guard("transition", "choosing and playing a random action"):
                action = random_action(game, state, rng)
                trail.push(action, game.result(state, action))
        else:
            require(trail, "termination", False,
                    f"a random play-out did not end within {max_moves} moves")
