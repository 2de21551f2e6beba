"""The kernel contract states who moves next, and turns need not alternate (issue #37): a
game where taking exactly two sticks earns another turn is searched right by the compiled
negamax, and check_kernel compares that search with the rules' exact value. The old negamax
negated every child's value, so it answered this game wrong, and check_kernel did not look.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from gamesearch.game import Game
from gamesearch.kernels.contract import GameKernel
from gamesearch.kernels.search import kernel_alphabeta
from gamesearch.kernels.specialize import source_tag, specialize
from gamesearch.search import alphabeta
from gamesearch.testing import check_game, check_kernel
from gamesearch.testing.kernel_checks import rules_value

pytest.importorskip("numba")


class ExtraTurnSticks(Game):
    """A pile of sticks; take 1, 2 or 3; taking exactly 2 gives the same player another
    turn; whoever takes the last stick wins. State: (sticks left, player to move, the
    player who moved last)."""

    name = "extra-turn-sticks"
    num_players = 2
    zero_sum = True

    def __init__(self, sticks: int = 11) -> None:
        self.sticks = sticks

    def initial_state(self):
        return (self.sticks, 0, -1)

    def to_move(self, s):
        return s[1]

    def actions(self, s):
        return [a for a in (1, 2, 3) if a <= s[0]]

    def result(self, s, a):
        return (s[0] - a, s[1] if a == 2 else 1 - s[1], s[1])

    def is_terminal(self, s):
        return s[0] == 0

    def utilities(self, s):  # the player who moved last took the last stick
        return (1, -1) if s[2] == 0 else (-1, 1)

    @property
    def kernel(self) -> GameKernel:
        return extra_turn_kernel()


def legal(s, out):
    n = 0
    for take in range(3, 0, -1):
        if take <= s[0]:
            out[n] = take
            n += 1
    return n


def play(s, a):
    return (s[0] - a, s[1] if a == 2 else 1 - s[1], s[1])


def is_terminal(s):
    return s[0] == 0


def terminal_value(s):
    return 1.0 if s[2] == s[1] else -1.0  # the mover took the last stick (after a 2)


def evaluate(s):
    return 0.0


def to_move(s):
    return s[1]


def key(s):
    return 4 * s[0] + 2 * s[1] + (s[2] + 1) // 2


TEMPLATES = (legal, play, is_terminal, terminal_value, evaluate, to_move, key)


@functools.cache
def extra_turn_kernel() -> GameKernel:
    tag = source_tag(*TEMPLATES)
    return GameKernel(name="extra_turn_sticks", primitives=specialize(
        TEMPLATES, {}, f"extra_turn_sticks_{tag}"), max_actions=3,
        encode=lambda s: tuple(np.int64(x) for x in s), decode=int, tag=tag)


def test_the_rules_keep_the_protocol() -> None:
    assert check_game(ExtraTurnSticks()).terminals == 20


@pytest.mark.parametrize("sticks", range(1, 12))
def test_the_compiled_search_agrees_with_the_readable_one(sticks: int) -> None:
    game = ExtraTurnSticks(sticks)
    state = game.initial_state()
    readable = alphabeta(game, state).value
    assert rules_value(game, state) == readable
    assert kernel_alphabeta(game, state).value == readable
    assert extra_turn_kernel().exact_value(game.kernel.encode(state)) == readable


def test_check_kernel_compares_the_search_with_the_rules() -> None:
    game = ExtraTurnSticks()
    report = check_kernel(game, game.kernel)
    assert report.checks["kernel-search"] > 10
