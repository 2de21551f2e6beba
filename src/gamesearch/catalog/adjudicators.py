"""Tournament judges: the result under perfect play ends a game once it is known.

* ``gamesearch tournament connect4 --judge N``: the compiled solver, from N stones on;
* ``gamesearch tournament chess|checkers --tables DIR``: endgame tables built by
  ``gamesearch tables build`` end a game as soon as they hold its position, as tablebases
  adjudicate chess games (the tables know no fifty-move or forty-move rule: a won position
  is ruled won however long the win takes, as most tablebase adjudication does).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamesearch.errors import GameSearchError
from gamesearch.game import Game, State
from gamesearch.tables.sweep import DRAW, NO_POSITION_DISTANCE, WIN


@dataclass(frozen=True)
class Connect4Judge:
    """Connect Four: from ``stones`` stones on, the solver's win/draw/loss ends the game."""

    stones: int
    label = "solver"

    def __call__(self, game: Game, state: State, ply: int) -> tuple[float, float] | None:
        """The utilities under perfect play once enough stones are down, else None."""
        if state[2] < self.stones or game.is_terminal(state):
            return None
        from gamesearch.engines.connect4.solve import session_solver

        score = session_solver(game).solve(state, True).score  # the mover's viewpoint
        if score == 0:
            return (0.0, 0.0)
        mover = game.to_move(state)
        winner = mover if score > 0 else 1 - mover
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)


_OPEN_TABLES: dict[tuple[str, str], Any] = {}
"""Tables opened in this process (a worker opens a folder once and keeps it mapped)."""


@dataclass(frozen=True)
class TablesJudge:
    """Chess or checkers: the built tables in ``folder`` rule any position they hold."""

    game_name: str
    folder: str
    label = "tables"

    def tables(self) -> Any:
        """The folder's tables, opened once per process (one line if it holds none)."""
        key = (self.game_name, self.folder)
        if key not in _OPEN_TABLES:
            if self.game_name == "chess":
                from gamesearch.engines.chess.tables import Tables
            else:
                from gamesearch.engines.checkers.tables import Tables
            _OPEN_TABLES[key] = Tables(self.folder)
        return _OPEN_TABLES[key]

    def __call__(self, game: Game, state: State, ply: int) -> tuple[float, float] | None:
        """The utilities the tables give, or None where they do not hold the position."""
        if game.is_terminal(state):
            return None
        tables = self.tables()
        if self.game_name == "chess":
            from gamesearch.games.chess.rules import board_of

            found = tables.probe_board(board_of(state))
        else:
            found = tables.probe(state) if tables.covers(state[0]) else None
        if found is None or found[1] == NO_POSITION_DISTANCE:
            return None
        value = found[0]
        if value == DRAW:
            return (0.0, 0.0)
        mover = game.to_move(state)
        winner = mover if value == WIN else 1 - mover
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)


def make_tables_judge(game_name: str, folder: str) -> TablesJudge:
    """The tables judge of ``game_name`` reading ``folder`` (checked now: one line if the
    game has no tables or the folder holds none of its tables)."""
    if game_name not in ("chess", "checkers"):
        raise GameSearchError(f"--tables: {game_name} has no endgame tables; games with them: "
                              "checkers, chess")
    judge = TablesJudge(game_name, str(Path(folder).resolve()))
    judge.tables()
    return judge


JUDGES = {"connect4": Connect4Judge}


def make_judge(game_name: str, after: int) -> Connect4Judge:
    """The judge of ``game_name`` that rules from ``after`` stones (plies) on."""
    if game_name not in JUDGES:
        raise GameSearchError(f"--judge: no solver judge for {game_name}; games with one: "
                              f"{', '.join(sorted(JUDGES))}")
    if after < 0:
        raise GameSearchError("--judge takes a number of stones >= 0")
    return JUDGES[game_name](after)
