"""Take-away for N players: a small general-sum game for max^n, paranoid and MCTS.

One pile of sticks; the players move in turn (1, 2, ..., N, 1, ...) and take 1 to
``max_take`` sticks. Each player scores ``per_stick`` points for every stick it took, and
whoever takes the last stick scores ``bonus`` more. Utilities are non-negative and always
sum to ``sticks * per_stick + bonus``: the bound max^n's shallow pruning needs.

With two players, ``per_stick=0`` and ``bonus=1`` it is the classic subtraction game
("last stick wins"): the player to move loses exactly when the pile is a multiple of
``max_take + 1`` (Berlekamp, Conway & Guy, *Winning Ways*, ch. 2, subtraction games).

A state is ``(sticks_left, player_to_move, scores)``.
"""

from __future__ import annotations

from gamesearch.errors import GameSearchError, IllegalActionError
from gamesearch.game import Game

TakeAwayState = tuple[int, int, tuple[float, ...]]


class TakeAway(Game):
    """N players take 1..max_take sticks in turn; sticks score, the last one scores a bonus."""

    name = "takeaway"
    zero_sum = False

    def __init__(self, players: int = 3, sticks: int = 10, max_take: int = 3,
                 per_stick: float = 1, bonus: float = 5) -> None:
        if not 2 <= players <= 8:
            raise GameSearchError(f"takeaway: players={players} must be 2-8")
        if sticks < 1 or max_take < 1:
            raise GameSearchError(f"takeaway: sticks={sticks} and max_take={max_take} must be "
                                  "at least 1")
        if per_stick < 0 or bonus < 0:
            raise GameSearchError("takeaway: per_stick and bonus must be non-negative")
        self.num_players = players
        self.sticks, self.max_take = sticks, max_take
        self.per_stick, self.bonus = per_stick, bonus
        self.total = sticks * per_stick + bonus
        """Every terminal state's utilities sum to this (shallow pruning's bound)."""

    def initial_state(self) -> TakeAwayState:
        return (self.sticks, 0, (0,) * self.num_players)

    def to_move(self, state: TakeAwayState) -> int:
        return state[1]

    def actions(self, state: TakeAwayState) -> list[int]:
        return list(range(1, min(self.max_take, state[0]) + 1))

    def result(self, state: TakeAwayState, action: int) -> TakeAwayState:
        left, mover, scores = state
        left -= action
        gain = action * self.per_stick + (self.bonus if left == 0 else 0)
        scores = tuple(s + gain if p == mover else s for p, s in enumerate(scores))
        return (left, (mover + 1) % self.num_players, scores)

    def is_terminal(self, state: TakeAwayState) -> bool:
        return state[0] == 0

    def utilities(self, state: TakeAwayState) -> tuple[float, ...]:
        return state[2]

    def evaluate(self, state: TakeAwayState, player: int) -> float:
        """Points so far plus an equal share of what is still on the table (the
        evaluations of all players sum to the same total as the utilities)."""
        left, _, scores = state
        return scores[player] + (left * self.per_stick + self.bonus) / self.num_players

    def string_to_action(self, state: TakeAwayState, text: str) -> int:
        text = text.strip()
        if not (text.isascii() and text.isdigit() and len(text) <= 6):
            raise IllegalActionError(f"malformed move {text!r}: give a number of sticks")
        take = int(text)
        if take not in self.actions(state):
            raise IllegalActionError(f"illegal move {text!r}: take 1-"
                                     f"{min(self.max_take, state[0])} sticks")
        return take

    def render(self, state: TakeAwayState) -> str:
        left, mover, scores = state
        shown = ", ".join(f"player {p + 1}: {s:g}" for p, s in enumerate(scores))
        return f"{'|' * left} ({left} left), {self.player_name(mover)} to move; {shown}"

    def __repr__(self) -> str:
        return (f"TakeAway(players={self.num_players}, sticks={self.sticks}, "
                f"max_take={self.max_take}, per_stick={self.per_stick}, bonus={self.bonus})")
