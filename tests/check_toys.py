"""Toy games (and a toy kernel) for the contract checks: a correct one, and one broken
copy per check, each breaking exactly one rule of the protocol."""

from __future__ import annotations

import itertools
import types

from gamesearch.errors import IllegalActionError
from gamesearch.game import CHANCE, Game
from gamesearch.kernels.contract import GameKernel


class DiePile(Game):
    """A die makes a pile of 3 or 4 sticks; players take 1 or 2; taking the last one wins.

    State: (pile, player to move); the pile is -1 before the die is thrown.
    """

    name = "die-pile"

    def initial_state(self):
        return (-1, CHANCE)

    def to_move(self, s):
        return s[1]

    def actions(self, s):
        if s[0] < 0:
            return [3, 4]
        return [a for a in (1, 2) if a <= s[0]]

    def chance_outcomes(self, s):
        return [(3, 0.5), (4, 0.5)]

    def result(self, s, a):
        if s[0] < 0:
            return (a, 0)
        return (s[0] - a, 1 - s[1])

    def is_terminal(self, s):
        return s[0] == 0

    def utilities(self, s):  # the player who just moved took the last stick
        return (1, -1) if s[1] == 1 else (-1, 1)

    def evaluate(self, s, player):
        """Exact: the mover wins unless the pile is a multiple of 3."""
        mover_wins = s[0] % 3 != 0
        return 0.5 if mover_wins == (player == s[1]) else -0.5


class HiddenCoin(Game):
    """A coin is tossed unseen; player 1 says heads or tails: +1 if right, -1 if wrong.

    State: () before the toss, (coin,) then, (coin, guess) at the end.
    """

    name = "hidden-coin"

    def initial_state(self):
        return ()

    def to_move(self, s):
        return CHANCE if not s else 0

    def actions(self, s):
        return ["heads", "tails"]

    def chance_outcomes(self, s):
        return [("heads", 0.5), ("tails", 0.5)]

    def result(self, s, a):
        return s + (a,)

    def is_terminal(self, s):
        return len(s) == 2

    def utilities(self, s):
        return (1, -1) if s[0] == s[1] else (-1, 1)

    def information_set(self, s, player):
        return "guessed" if len(s) == 2 else "unseen coin"

    def sample_state(self, info, player, rng):
        return (rng.choice(["heads", "tails"]),)


# --- one broken copy per check ------------------------------------------------------------
class NoPlayers(DiePile):
    num_players = 0


class ListStart(DiePile):
    def initial_state(self):
        return [-1, CHANCE]


class FlickeringEnd(DiePile):
    calls = itertools.count()

    def is_terminal(self, s):
        return s[0] == 0 or (s[0] == 1 and next(self.calls) % 2 == 0)


class MoverOutOfRange(DiePile):
    def to_move(self, s):
        return 2 if s[0] == 1 else s[1]


class RepeatedAction(DiePile):
    def actions(self, s):
        return super().actions(s) + ([1] if s[0] >= 1 else [])


class ShortChance(DiePile):
    def chance_outcomes(self, s):
        return [(3, 0.5), (4, 0.4)]


class CountingResult(DiePile):
    calls = itertools.count()

    def result(self, s, a):
        if s[0] == 2 and next(self.calls) % 3 == 0:
            return (0, 1 - s[1])
        return super().result(s, a)


class BothWin(DiePile):
    def utilities(self, s):
        return (1, 1)


class OverTheTop(DiePile):
    max_utility = 0.5


class SplitTeam(DiePile):
    zero_sum = False
    num_players = 3

    def team(self, player):
        return player % 2  # players 1 and 3 are a team, but 3 never scores

    def utilities(self, s):
        return (*super().utilities(s), 0)


class KeyWithoutMover(DiePile):
    def state_key(self, s):
        return s[0]


class Endless(DiePile):
    def result(self, s, a):
        return (s[0], 1 - s[1]) if s[0] > 0 and a == 1 else super().result(s, a)


class MisreadMoves(DiePile):
    def string_to_action(self, s, text):
        if s[0] < 0:
            return super().string_to_action(s, text)
        return 3 - int(text)


class ForgetfulPositions(DiePile):
    def state_from_string(self, text):
        return self.initial_state()


class PrintedPile(DiePile):
    """Writes a position as ``pile/mover`` too, and reads it back."""

    def state_to_string(self, s):
        return f"{s[0]}/{s[1]}"

    def state_from_string(self, text):
        if "/" in text:
            pile, mover = text.split("/")
            return (int(pile), int(mover))
        return super().state_from_string(text)


class MisprintedPile(PrintedPile):
    def state_to_string(self, s):
        return f"{s[0]}/0"


class PeekingSampler(HiddenCoin):
    def information_set(self, s, player):
        return s[0]

    def sample_state(self, info, player, rng):
        return ("tails",)


class CrashingParser(DiePile):
    def string_to_action(self, s, text):
        return int(text) if s[0] >= 0 else super().string_to_action(s, text)


class BlindOnlooker(HiddenCoin):
    """Player 2's samples forget the toss (player 1's are right)."""

    def information_set(self, s, player):
        return ("moves", len(s))

    def sample_state(self, info, player, rng):
        return () if player == 1 else ("heads",)


class SilentRender(DiePile):
    def render(self, s):
        return None


class NanEvaluation(DiePile):
    def evaluate(self, s, player):
        return float("nan") if s[0] == 1 else super().evaluate(s, player)


class LosingOrder(DiePile):
    def order_actions(self, s, actions):
        return actions[:1]


BROKEN = {
    "attributes": NoPlayers,
    "initial-state": ListStart,
    "terminal-test": FlickeringEnd,
    "to-move": MoverOutOfRange,
    "legal-actions": RepeatedAction,
    "chance-outcomes": ShortChance,
    "transition": CountingResult,
    "utilities": BothWin,
    "keys": KeyWithoutMover,
    "termination": Endless,
    "action-strings": MisreadMoves,
    "positions": ForgetfulPositions,
    "information-sets": PeekingSampler,
    "render": SilentRender,
    "bad-input": CrashingParser,
    "evaluation": NanEvaluation,
    "action-order": LosingOrder,
}
"""Each check of check_game, and a toy game that only it catches."""


# --- a toy kernel for DiePile, in plain Python (the checks call numba or Python alike) -----
def _legal(s, out):
    n = 0
    for a in (1, 2):
        if a <= s[0]:
            out[n] = a
            n += 1
    return n


PRIMITIVES = {
    "legal": _legal,
    "play": lambda s, a: (s[0] - a, 1 - s[1]),
    "is_terminal": lambda s: s[0] == 0,
    "terminal_value": lambda s: -1.0,  # the player to move did not take the last stick
    "evaluate": lambda s: 0.5 if s[0] % 3 else -0.5,
    "to_move": lambda s: s[1],
    "key": lambda s: 2 * s[0] + s[1],
}

BROKEN_PRIMITIVES = {
    "kernel-legal": {"legal": lambda s, out: _legal((min(s[0], 1), s[1]), out)},
    "kernel-play": {"play": lambda s, a: (s[0] - a, s[1])},
    "kernel-terminal": {"is_terminal": lambda s: s[0] <= 1},
    "kernel-terminal-value": {"terminal_value": lambda s: 1.0},
    "kernel-to-move": {"to_move": lambda s: 0},
    "kernel-evaluate": {"evaluate": lambda s: 0.25},
    "kernel-keys": {"key": lambda s: s[0]},
}
"""Each check of check_kernel, and the primitive that breaks it."""


def die_pile_kernel(**replace) -> GameKernel:
    """DiePile's kernel, with primitives replaced by broken ones where given."""
    def decode(a):
        if a not in (1, 2):
            raise IllegalActionError(f"no action {a}")
        return a

    return GameKernel(name="die-pile", primitives=types.SimpleNamespace(
        **{**PRIMITIVES, **replace}), max_actions=2, encode=tuple, decode=decode, tag="toy")
