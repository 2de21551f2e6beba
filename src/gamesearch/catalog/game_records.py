"""A played game in its kind's own record format (PGN for chess, SGF for Go, PDN for
checkers: each engine's ``GameEntry.record``), so it opens in that game's other programs.
Shared by ``play --record`` and the web page's "Save game"."""

from __future__ import annotations

from typing import Any

from gamesearch.entry import RecordFormat
from gamesearch.errors import GameSearchError
from gamesearch.records import record_file_is_ours, record_is_ours  # noqa: F401


def formats() -> dict[str, RecordFormat]:
    """Game name: its record format, for every game that has one."""
    from gamesearch.games import entries

    return {entry.name: entry.record for entry in entries() if entry.record is not None}


def game_of_format(suffix: str) -> str:
    """The name of the game whose records are ``suffix`` files (``pgn``: chess)."""
    for name, record in formats().items():
        if record.suffix == suffix:
            return name
    raise GameSearchError(f"no game keeps its records as {suffix.upper()}")


def record_format(game: Any) -> tuple[str, str]:
    """(suffix, name) of the game's record format; GameSearchError for a game without one."""
    known = formats()
    if game.name not in known:
        kinds = ", ".join(f"{name} ({known[name].suffix.upper()})" for name in sorted(known))
        raise GameSearchError(f"{game.name} has no record format; records are kept for "
                              f"{kinds}")
    record = known[game.name]
    return record.suffix, record.title


def looks_like(game: Any, text: str) -> bool:
    """Whether ``text`` reads as a record file of the game's kind (PGN and PDN open with a
    tag pair, SGF with a game tree)."""
    record = formats().get(game.name)
    return record is not None and record.looks_like(text.lstrip())


def record_text(game: Any, start: Any, moves: list[str], players: list[str],
                utilities: list[float] | None) -> str:
    """One game (from ``start``, ``moves`` in the game's notation, ``utilities`` None while
    unfinished) as its kind's record text; GameSearchError at an illegal move."""
    record_format(game)
    actions, state = [], start
    for text in moves:
        action = game.string_to_action(state, text)
        actions.append(action)
        state = game.result(state, action)
    names = (list(players) + ["?", "?"])[:2]
    return formats()[game.name].write(game, start, actions, list(moves), names, utilities,
                                      state)
