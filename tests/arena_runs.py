"""A tournament run through the command line, for the arena tests: its stored games."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

CLI = [sys.executable, "-c", "import sys; from gamesearch.cli.main import main; main(sys.argv[1:])"]


def tournament_rows(game: str, db: Path, players: tuple[str, ...] | list[str], games: int = 2,
                    extra: tuple[str, ...] | list[str] = ()) -> list[tuple]:
    """Run ``gamesearch tournament GAME`` (it must exit 0) and return each stored game as
    (id, reason, score of the player who moved first), by id."""
    args = [*CLI, "tournament", game, "--games", str(games), "--db", str(db), *extra]
    for spec in players:
        args += ["--players", spec]
    done = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(db) as con:
        return con.execute("SELECT g.id, g.reason, r.score_first FROM games g "
                           "JOIN results r ON r.game = g.id ORDER BY g.id").fetchall()
