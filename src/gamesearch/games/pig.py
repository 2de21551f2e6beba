"""Pig, the jeopardy dice game (Neller & Presser, "Optimal Play of the Dice Game Pig", 2004).

Two players race to ``goal`` points (100). On a turn the player rolls a die again and
again: a 1 ("pig") loses the turn total and passes the turn; 2..6 add to the turn total.
Instead of rolling, the player may *hold*: the turn total is banked and the turn passes.
A turn starts with a roll (holding a zero turn total is not a move). The game ends as soon
as a player's score plus turn total reaches the goal (holding then is the only sensible
move, so it is made for them).

A state is ``(scores, turn_total, player, rolling)``: ``rolling`` marks the chance node
between the decision to roll and the die showing a number.
"""

from __future__ import annotations

from typing import NamedTuple

from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE, Game

ROLL, HOLD = "roll", "hold"
DIE = tuple(range(1, 7))


class PigState(NamedTuple):
    """Scores of both players, the mover's turn total, whose turn, and a pending roll."""

    scores: tuple[int, int]
    turn_total: int
    player: int
    rolling: bool


class Pig(Game):
    """Two-player Pig to ``goal`` points; utilities +1 for the winner, -1 for the loser."""

    name = "pig"
    utility_bounds = (-1.0, 1.0)

    def __init__(self, goal: int = 100) -> None:
        if not isinstance(goal, int) or goal < 2:
            raise GameSearchError(f"pig: goal {goal!r} must be an integer of at least 2")
        self.goal = goal

    def initial_state(self) -> PigState:
        return PigState((0, 0), 0, 0, False)

    def to_move(self, s: PigState) -> int:
        return CHANCE if s.rolling else s.player

    def actions(self, s: PigState) -> list:
        if s.rolling:
            return list(DIE)
        return [ROLL, HOLD] if s.turn_total > 0 else [ROLL]

    def chance_outcomes(self, s: PigState) -> list[tuple[int, float]]:
        return [(face, 1 / 6) for face in DIE]

    def result(self, s: PigState, a) -> PigState:
        if s.rolling:
            if a == 1:  # pig: the turn total is lost and the turn passes
                return PigState(s.scores, 0, 1 - s.player, False)
            return PigState(s.scores, s.turn_total + a, s.player, False)
        if a == ROLL:
            return PigState(s.scores, s.turn_total, s.player, True)
        scores = list(s.scores)
        scores[s.player] += s.turn_total
        return PigState((scores[0], scores[1]), 0, 1 - s.player, False)

    def is_terminal(self, s: PigState) -> bool:
        return s.scores[s.player] + s.turn_total >= self.goal or max(s.scores) >= self.goal

    def utilities(self, s: PigState) -> tuple[float, float]:
        winner = s.player if s.scores[s.player] + s.turn_total >= self.goal else 1 - s.player
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    def evaluate(self, s: PigState, player: int) -> float:
        """A crude race estimate: the share of the remaining distance already covered."""
        mine = s.scores[player] + (s.turn_total if s.player == player else 0)
        theirs = s.scores[1 - player] + (s.turn_total if s.player != player else 0)
        return (mine - theirs) / self.goal

    # --- for learning libraries (docs/INTEROP.md) -----------------------------------------
    observation_shape = (4,)
    """The observer's score, the other's, the turn total (each over the goal), its turn."""

    def num_distinct_actions(self) -> int:
        """Roll (0) and hold (1); the die's faces are chance's, not numbered."""
        return 2

    def action_index(self, action: str) -> int:
        """0 for roll, 1 for hold."""
        return 0 if action == ROLL else 1

    def observation_tensor(self, s: PigState, player: int) -> list[float]:
        """:attr:`observation_shape`, scores capped at the goal."""
        goal = self.goal
        return [min(s.scores[player], goal) / goal, min(s.scores[1 - player], goal) / goal,
                min(s.turn_total, goal) / goal, float(s.player == player)]

    def render(self, s: PigState) -> str:
        who = "rolling" if s.rolling else "to decide"
        return (f"scores {s.scores[0]} : {s.scores[1]} (goal {self.goal}), player "
                f"{s.player + 1} {who}, turn total {s.turn_total}")

    def state_key(self, s: PigState) -> PigState:
        return s

    def __repr__(self) -> str:
        return f"Pig(goal={self.goal})"
