"""The rules of Bachet's game: the worked example of docs/ADDING_A_GAME.md.

tests/test_adding_a_game.py checks that every code block of that page is a part of this
file or of engine.py, so the page shows code that runs and passes check_game and
check_kernel.
"""

from __future__ import annotations

import functools

import numpy as np

from gamesearch.errors import GameSearchError, IllegalActionError
from gamesearch.game import Game
from gamesearch.kernels.contract import GameKernel
from gamesearch.kernels.specialize import source_tag, specialize


# --- step 1: the rules --------------------------------------------------------------------
class Bachet(Game):
    """Bachet's game: take 1 to ``max_take`` sticks from one pile; taking the last one wins."""

    name = "bachet"
    num_players = 2
    zero_sum = True

    def __init__(self, sticks: int = 21, max_take: int = 3) -> None:
        if not (1 <= sticks <= 1000 and 1 <= max_take <= 10):
            raise GameSearchError(f"bachet: sticks 1-1000 and max_take 1-10, not "
                                  f"{sticks} and {max_take}")
        self.sticks, self.max_take = sticks, max_take

    def initial_state(self) -> tuple[int, int]:
        return (self.sticks, 0)  # (sticks left, player to move)

    def to_move(self, state: tuple[int, int]) -> int:
        return state[1]

    def actions(self, state: tuple[int, int]) -> list[int]:
        return list(range(1, min(self.max_take, state[0]) + 1))

    def result(self, state: tuple[int, int], take: int) -> tuple[int, int]:
        return (state[0] - take, 1 - state[1])

    def is_terminal(self, state: tuple[int, int]) -> bool:
        return state[0] == 0

    def utilities(self, state: tuple[int, int]) -> tuple[int, int]:
        # the player who just moved took the last stick and wins
        return (1, -1) if state[1] == 1 else (-1, 1)

    def string_to_action(self, state: tuple[int, int], text: str) -> int:
        text = text.strip()
        if not (text.isascii() and text.isdigit()):
            raise IllegalActionError(f"malformed move {text!r}: give a number of sticks")
        if int(text) not in self.actions(state):
            raise IllegalActionError(f"illegal move {text!r}: take 1 to "
                                     f"{min(self.max_take, state[0])}")
        return int(text)

    @property
    def kernel(self) -> GameKernel:
        """The compiled kernel (step 4), made on first use."""
        return make_kernel(self.max_take)

    def __repr__(self) -> str:
        return f"Bachet(sticks={self.sticks}, max_take={self.max_take})"


# --- step 4: the kernel --------------------------------------------------------------------
def legal(s, out):
    """Take as many as allowed first (MAX_TAKE is bound at compile time)."""
    n = 0
    for take in range(MAX_TAKE, 0, -1):  # noqa: F821
        if take <= s[0]:
            out[n] = take
            n += 1
    return n


def play(s, a):
    return (s[0] - a, 1 - s[1])


def is_terminal(s):
    return s[0] == 0


def terminal_value(s):
    return -1.0  # the player to move did not take the last stick


def evaluate(s):
    return 0.0


def to_move(s):
    return s[1]


def key(s):
    return 2 * s[0] + s[1]


TEMPLATES = (legal, play, is_terminal, terminal_value, evaluate, to_move, key)


@functools.cache
def make_kernel(max_take: int) -> GameKernel:
    """Bachet's GameKernel for one ``max_take`` (compiled once, cached on disk)."""
    tag = source_tag(*TEMPLATES)
    return GameKernel(
        name=f"bachet_{max_take}",
        primitives=specialize(TEMPLATES, {"MAX_TAKE": max_take}, f"bachet_{max_take}_{tag}"),
        max_actions=max_take,
        encode=lambda state: (np.int64(state[0]), np.int64(state[1])),
        decode=int,
        tag=tag,
    )
