"""Tournament judges: the result under perfect play ends a game once it is known.

* ``gamesearch tournament GAME --judge N``: the game's solver judge (its entry's ``judge``,
  Connect Four's compiled solver), from N stones on;
* ``gamesearch tournament GAME --tables DIR``: endgame tables built by ``gamesearch tables
  build`` (the entry's ``tables_probe``) end a game as soon as they hold its position, as
  tablebases adjudicate chess games (the tables know no fifty-move or forty-move rule: a won
  position is ruled won however long the win takes, as most tablebase adjudication does).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamesearch.errors import GameSearchError
from gamesearch.game import Game, State
from gamesearch.tables.sweep import DRAW, NO_POSITION_DISTANCE, WIN

_OPEN_TABLES: dict[tuple[str, str], Any] = {}
"""Probes opened in this process (a worker opens a folder once and keeps it mapped)."""


def _with(field: str) -> list[str]:
    from gamesearch.games import entries

    return sorted(entry.name for entry in entries() if getattr(entry, field) is not None)


@dataclass(frozen=True)
class TablesJudge:
    """A game's built tables in ``folder`` rule any position they hold."""

    game_name: str
    folder: str
    label = "tables"

    def probe(self) -> Any:
        """The folder's tables as a probe, opened once per process (one line if it holds
        none)."""
        from gamesearch.games import game_entry

        key = (self.game_name, self.folder)
        if key not in _OPEN_TABLES:
            _OPEN_TABLES[key] = game_entry(self.game_name).tables_probe(self.folder)
        return _OPEN_TABLES[key]

    def __call__(self, game: Game, state: State, ply: int) -> tuple[float, float] | None:
        """The utilities the tables give, or None where they do not hold the position."""
        if game.is_terminal(state):
            return None
        found = self.probe()(state)
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
    from gamesearch.games import game_entry

    if game_entry(game_name).tables_probe is None:
        raise GameSearchError(f"--tables: {game_name} has no endgame tables; games with them: "
                              f"{', '.join(_with('tables_probe'))}")
    judge = TablesJudge(game_name, str(Path(folder).resolve()))
    judge.probe()
    return judge


def make_judge(game_name: str, after: int) -> Any:
    """The judge of ``game_name`` that rules from ``after`` stones (plies) on."""
    from gamesearch.games import game_entry

    judge = game_entry(game_name).judge
    if judge is None:
        raise GameSearchError(f"--judge: no solver judge for {game_name}; games with one: "
                              f"{', '.join(_with('judge'))}")
    if after < 0:
        raise GameSearchError("--judge takes a number of stones >= 0")
    return judge(after)
