"""``gamesearch play --record FILE``: each game played in the terminal appended to FILE in
its kind's record format (catalog/game_records.py: PGN, SGF or PDN), an abandoned game too
(its result unknown)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def check_record(path: Path, game: Any) -> Path:
    """The record file, checked before the game starts: a game with a record format, a
    writable place, and no file there that is not a record of that kind."""
    from gamesearch.catalog.game_records import looks_like, record_format
    from gamesearch.durable import check_output, head
    from gamesearch.errors import GameSearchError

    try:
        _, what = record_format(game)
    except GameSearchError as error:
        raise GameSearchError(f"--record: {error}; use --json") from None
    return check_output(path, lambda p: looks_like(game, head(p).decode("utf-8", "replace")),
                        what=what, remedy="choose another name (the game is added to a "
                        "record file of its kind)")


def append_record(path: Path, game: Any, start: Any, moves: list[str], players: list[str],
                  utilities: list[float] | None) -> None:
    """Add the game to ``path``, atomically: the old games and the new one, or the old file
    untouched."""
    from gamesearch.catalog.game_records import record_text
    from gamesearch.durable import atomic_write, output_target
    from gamesearch.textinput import read_text

    text = record_text(game, start, moves, players, utilities)
    path = output_target(path, "game record")
    old = read_text(path, "game record", fallback="latin-1") if path.exists() else ""
    from gamesearch.catalog.game_records import formats

    joint = formats()[game.name].separator
    atomic_write(path, (old.rstrip() + joint if old.strip() else "") + text.strip() + "\n")
