"""The games of a match file (``match --out``) or a tournament database, for the commands
that export them (``pdn write``, ``sgf write``, ``pgn write``)."""

from __future__ import annotations

import json
from pathlib import Path

from gamesearch.errors import GameSearchError


def records_of(source: Path, game: str) -> tuple[list[dict], str]:
    """Every finished game of ``source`` (seats, opening, moves, utilities, start) and the
    game's label (``go:size=7``); refused unless the games are of ``game``."""
    from gamesearch.arena.db import ResultsDB, is_results_db
    from gamesearch.textinput import check_input

    if not source.exists():
        raise GameSearchError(f"no file {str(source)!r}")
    check_input(source, "match file or results database", 1 << 40)  # regular files only
    if is_results_db(source):
        with ResultsDB(source) as db:
            label = str(db.config.get("game"))
            start = db.config.get("start")
            records = [{**r, "start": start} for r in db.records()]
    else:
        records, label = _match_records(source)
    if label.split(":")[0] != game:
        raise GameSearchError(f"{str(source)!r} holds {label!r} games, not {game}")
    return records, label


def _match_records(path: Path) -> tuple[list[dict], str]:
    """The games of a ``gamesearch match --out`` file (JSON lines)."""
    from gamesearch.textinput import read_input

    records, header = [], None
    try:
        text = read_input(path, "match file").decode("utf-8")
    except UnicodeDecodeError:
        raise GameSearchError(f"{str(path)!r} is not a gamesearch match file (not text)") \
            from None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            raise GameSearchError(f"{str(path)!r} line {number} is not JSON: not a match "
                                  "file") from None
        if not isinstance(row, dict):
            raise GameSearchError(f"{str(path)!r} line {number}: not a match file")
        if row.get("type") == "match":
            header = row
        elif row.get("type") == "game" and header is not None:
            seats = [header["a"], header["b"]] if row.get("a_seat") == 0 else \
                [header["b"], header["a"]]
            records.append({"index": row.get("index"), "seats": seats, "opening": [],
                            "moves": row.get("moves", []), "utilities": row.get("utilities"),
                            "start": header.get("start")})
    if header is None:
        raise GameSearchError(f"{str(path)!r} is not a gamesearch match file (no header)")
    return records, str(header.get("game"))


def read_record_text(path: Path, limit: int, what: str) -> str:
    """The text of a game-record file (PDN, PGN): one clear line when it is missing or over
    ``limit`` bytes (or not a regular file); Latin-1 when it is not UTF-8 (old archives
    often are)."""
    from gamesearch.textinput import read_text

    if not path.exists():
        raise GameSearchError(f"no file {str(path)!r}")
    return read_text(path, f"{what} file", limit, fallback="latin-1")
