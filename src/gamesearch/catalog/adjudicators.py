"""Tournament judges: a game's exact solver ends a game once the result under perfect
play is known (``gamesearch tournament --judge N``), as tablebases adjudicate chess games.
Connect Four only for now: its compiled solver answers quickly once N stones are down."""

from __future__ import annotations

from dataclasses import dataclass

from gamesearch.errors import GameSearchError
from gamesearch.game import Game, State


@dataclass(frozen=True)
class Connect4Judge:
    """Connect Four: from ``stones`` stones on, the solver's win/draw/loss ends the game."""

    stones: int

    def __call__(self, game: Game, state: State, ply: int) -> tuple[float, float] | None:
        """The utilities under perfect play once enough stones are down, else None."""
        if state[2] < self.stones or game.is_terminal(state):
            return None
        from gamesearch.catalog.connect4 import session_solver

        score = session_solver(game).solve(state, True).score  # the mover's viewpoint
        if score == 0:
            return (0.0, 0.0)
        mover = game.to_move(state)
        winner = mover if score > 0 else 1 - mover
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)


JUDGES = {"connect4": Connect4Judge}


def make_judge(game_name: str, after: int) -> Connect4Judge:
    """The judge of ``game_name`` that rules from ``after`` stones (plies) on."""
    if game_name not in JUDGES:
        raise GameSearchError(f"--judge: no solver judge for {game_name}; games with one: "
                              f"{', '.join(sorted(JUDGES))}")
    if after < 0:
        raise GameSearchError("--judge takes a number of stones >= 0")
    return JUDGES[game_name](after)
