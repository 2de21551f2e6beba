"""Nim with any piles, in normal play (taking the last object wins) or misère play (loses).

The lectures' II-Nim is ``Nim(piles=(2, 2), misere=True)``. Theory (Bouton 1901): in normal
play the player to move loses exactly when the nim-sum (XOR of the piles) is 0; in misère
play the same holds unless every pile has at most one object, when the mover loses exactly
when the number of non-empty piles is odd (Berlekamp, Conway, Guy, *Winning Ways*, ch. 15).
"""

from __future__ import annotations

from functools import reduce
from operator import xor

from gamesearch.errors import GameSearchError, IllegalActionError
from gamesearch.game import Game

NimState = tuple[tuple[int, ...], int]  # (piles, player to move)

MAX_PILE = 1000
"""Piles above this are refused: a move list of billions would never finish (or fit)."""


class Nim(Game):
    """Players alternately take one or more objects from one pile."""

    name = "nim"

    def __init__(self, piles: tuple[int, ...] = (3, 4, 5), misere: bool = False) -> None:
        piles = tuple(piles)
        if not piles or any(not isinstance(p, int) or p < 0 for p in piles):
            raise GameSearchError(f"nim: piles must be non-negative integers, got {piles!r}")
        if max(piles) > MAX_PILE:
            raise GameSearchError(f"nim: a pile of {max(piles)} is over the limit {MAX_PILE}")
        self.piles = piles
        self.misere = bool(misere)

    def initial_state(self) -> NimState:
        return (self.piles, 0)

    def to_move(self, state: NimState) -> int:
        return state[1]

    def actions(self, state: NimState) -> list[tuple[int, int]]:
        return [(i, k) for i, n in enumerate(state[0]) for k in range(n, 0, -1)]

    def result(self, state: NimState, action: tuple[int, int]) -> NimState:
        piles, player = state
        i, k = action
        return (piles[:i] + (piles[i] - k,) + piles[i + 1:], 1 - player)

    def is_terminal(self, state: NimState) -> bool:
        return not any(state[0])

    def utilities(self, state: NimState) -> tuple[int, int]:
        # The previous player took the last object: in normal play they won.
        mover_wins = self.misere
        mover = state[1]
        u = 1 if mover_wins else -1
        return (u, -u) if mover == 0 else (-u, u)

    # --- for learning libraries (docs/INTEROP.md) -----------------------------------------
    def num_distinct_actions(self) -> int:
        """Taking k from pile i, for every k up to the pile's size at the start."""
        return sum(self.piles)

    def action_index(self, action: tuple[int, int]) -> int:
        """Pile by pile, then by the number taken (1 first)."""
        pile, k = action
        return sum(self.piles[:pile]) + k - 1

    @property
    def observation_shape(self) -> tuple[int]:
        """Each pile over its size at the start, then whether the observer is to move."""
        return (len(self.piles) + 1,)

    def observation_tensor(self, state: NimState, player: int) -> list[float]:
        """:attr:`observation_shape`."""
        piles, mover = state
        return [n / start if start else 0.0 for n, start in zip(piles, self.piles)] + [
            float(mover == player)]

    # --- theory, used as the evaluation function --------------------------------------
    def mover_wins(self, piles: tuple[int, ...]) -> bool:
        """Bouton's theorem (and its misère form): does the player to move win?"""
        nim_sum = reduce(xor, piles, 0)
        if self.misere and all(p <= 1 for p in piles):
            return sum(piles) % 2 == 0
        return nim_sum != 0

    def evaluate(self, state: NimState, player: int) -> float:
        """The exact theoretical value: Nim is solved, so one ply of search plays perfectly."""
        win = self.mover_wins(state[0])
        return 1.0 if win == (state[1] == player) else -1.0

    # --- people ---------------------------------------------------------------------
    def action_to_string(self, state: NimState, action: tuple[int, int]) -> str:
        return f"{action[0] + 1}:{action[1]}"

    def string_to_action(self, state: NimState, text: str) -> tuple[int, int]:
        try:
            pile_text, count_text = text.strip().split(":")
            pile, count = int(pile_text) - 1, int(count_text)
        except ValueError:
            raise IllegalActionError(
                f"malformed move {text!r}: write PILE:COUNT, e.g. 2:3 takes 3 from pile 2"
            ) from None
        piles = state[0]
        if not 0 <= pile < len(piles):
            raise IllegalActionError(f"illegal move {text!r}: there is no pile {pile + 1}")
        if not 1 <= count <= piles[pile]:
            raise IllegalActionError(
                f"illegal move {text!r}: pile {pile + 1} has {piles[pile]}, take 1 to it"
            )
        return (pile, count)

    def state_from_string(self, text: str) -> NimState:
        """Piles as numbers (``3,4,5``), the first player to move; or moves from this
        game's start written as PILE:COUNT (``1:2, 3:1``; nothing: the start)."""
        if ":" in text or not text.strip():
            return super().state_from_string(text)
        try:
            piles = tuple(int(p) for p in text.replace(",", " ").split() if p.isascii())
            if len(piles) != len(text.replace(",", " ").split()):
                raise ValueError
        except ValueError:
            raise IllegalActionError(
                f"position {text!r}: give piles as numbers, e.g. 3,4,5"
            ) from None
        if not piles or min(piles) < 0:
            raise IllegalActionError(f"position {text!r}: piles must be non-negative")
        if max(piles) > MAX_PILE:
            raise IllegalActionError(f"position {text!r}: a pile of {max(piles)} is over the "
                                     f"limit {MAX_PILE}")
        return (piles, 0)

    def render(self, state: NimState) -> str:
        lines = [f"pile {i + 1}: {'|' * n} ({n})" for i, n in enumerate(state[0])]
        rule = "misère: taking the last object loses" if self.misere else "taking the last wins"
        return "\n".join(lines + [f"({rule})"])

    def __repr__(self) -> str:
        return f"Nim(piles={self.piles}, misere={self.misere})"
