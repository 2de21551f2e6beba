"""The results database of a tournament: SQLite (the standard library's sqlite3).

Schema (docs/ARENA.md shows it with examples of queries):

* ``meta(key, value)``: ``kind = gamesearch-tournament``, ``schema = 1``, and
  ``config``: the tournament's settings as JSON (game, players, schedule, rules); a
  resumed tournament must have the same config.
* ``commands(id, argv, started)``: every command line that ran the tournament.
* ``players(id, spec)``: id = the player's index in the config's player list.
* ``games(id, round, first, second, opening, reason, seconds, worker, command, finished)``:
  one row per finished game; id = the schedule's index, so a game cannot be stored twice.
* ``moves(game, ply, move, seconds, score)``: the moves after the opening.
* ``results(game, score_first, utilities)``: 1, 1/2 or 0 for the player in seat 0.

A game's three kinds of rows are written in one transaction when it ends (a kill loses at
most the games still being played). The database file is locked while a tournament
writes it; a second run on the same file is refused with one line.

The database is in WAL mode (``FILE-wal`` and ``FILE-shm`` lie beside it while it is
open, or after a kill) with ``synchronous = FULL``. Every opening, also the test whether
a file is ours, goes through an ordinary SQLite connection, which replays a WAL or rolls
back a hot journal left by a kill: a tournament killed in the middle of a commit resumes
and reports with every finished game. ``--force`` replaces only a file that is not a
results database; it never deletes one (nor its games).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any

from gamesearch.arena.play import GameOutcome
from gamesearch.arena.schedule import Pairing
from gamesearch.durable import check_output, head, hold_lock
from gamesearch.errors import GameSearchError

KIND = "gamesearch-tournament"
SCHEMA = 1

TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS commands (id INTEGER PRIMARY KEY, argv TEXT NOT NULL,
    started TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (id INTEGER PRIMARY KEY, spec TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (id INTEGER PRIMARY KEY, round INTEGER NOT NULL,
    first INTEGER NOT NULL REFERENCES players(id),
    second INTEGER NOT NULL REFERENCES players(id),
    opening TEXT NOT NULL, reason TEXT NOT NULL, seconds REAL NOT NULL, worker TEXT NOT NULL,
    command INTEGER REFERENCES commands(id), finished TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS moves (game INTEGER NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL, move TEXT NOT NULL, seconds REAL NOT NULL, score REAL,
    PRIMARY KEY (game, ply));
CREATE TABLE IF NOT EXISTS results (game INTEGER PRIMARY KEY REFERENCES games(id),
    score_first REAL NOT NULL, utilities TEXT NOT NULL);
"""


class DatabaseError(GameSearchError):
    """A results database that cannot be used (corrupt, locked, someone else's)."""


def _uri(path: Path) -> str:
    """An SQLite URI for ``path`` that opens it read-write when the file may be written
    (so that a hot journal or a WAL left by a kill is recovered), else read-only."""
    from urllib.parse import quote

    mode = "rw" if os.access(path, os.W_OK) and os.access(path.parent if str(path.parent)
                                                        else Path("."), os.W_OK) else "ro"
    return f"file:{quote(str(path.resolve()))}?mode={mode}"


def is_results_db(path: Path) -> bool:
    """Whether ``path`` is a gamesearch tournament database: a regular file that SQLite
    opens (recovering what a kill left: a hot journal, a WAL) holding our ``meta`` kind."""
    if head(path)[:16] != b"SQLite format 3\x00":  # '' for a device or a pipe
        return False
    try:
        con, snapshot = _read_connection(path, 5.0)
        try:
            row = con.execute("SELECT value FROM meta WHERE key = 'kind'").fetchone()
        finally:
            con.close()
            _remove_snapshot(snapshot)
        return row is not None and row[0] == KIND
    except (OSError, sqlite3.Error):
        return False


def _read_connection(path: Path, timeout: float) -> tuple[sqlite3.Connection, Path | None]:
    """A connection that reads ``path``, and the folder of a private copy where one was
    needed. SQLite reads a WAL in place only where it may write the WAL's index; a database
    killed mid-tournament in a folder this user cannot write (a WAL and no index beside it)
    is read from a copy of the file and its WAL, which SQLite recovers: every committed game
    is seen, and the original files are not touched."""
    uri = _uri(path)
    try:
        con = sqlite3.connect(uri, uri=True, timeout=timeout)
        try:
            con.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error:
            con.close()
            raise
        return con, None
    except sqlite3.OperationalError:
        wal = path.with_name(path.name + "-wal")
        if not uri.endswith("mode=ro") or not wal.is_file():
            raise
    folder = Path(tempfile.mkdtemp(prefix="gamesearch-report-"))
    try:
        shutil.copyfile(path, folder / path.name)
        shutil.copyfile(wal, folder / wal.name)
        return sqlite3.connect(str(folder / path.name), timeout=timeout), folder
    except BaseException:
        _remove_snapshot(folder)
        raise


def _remove_snapshot(folder: Path | None) -> None:
    """Remove the private copy that :func:`_read_connection` made, if it made one."""
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def _sidecars(path: Path) -> list[Path]:
    """The files SQLite keeps beside a database: its rollback journal, WAL and WAL index."""
    return [path.with_name(path.name + suffix) for suffix in ("-journal", "-wal", "-shm")]


class ResultsDB:
    """A tournament's database, opened for writing (locked) or reading."""

    def __init__(self, path: str | Path, config: dict[str, Any] | None = None,
                 force: bool = False, argv: list[str] | None = None) -> None:
        """Open ``path``; with ``config``, for a tournament with these settings (a new file is
        made; an existing one must hold the same tournament). Without, read-only."""
        self.path = Path(path)
        self.lock: IO[bytes] | None = None
        self.snapshot: Path | None = None  # a private copy read in place of the file
        self.command: int | None = None
        if config is None:
            if not self.path.exists():
                raise DatabaseError(f"no results database {str(self.path)!r}")
            if not self.path.is_file():
                from gamesearch.textinput import file_kind

                raise DatabaseError(f"{str(self.path)!r} is "
                                    f"{file_kind(self.path.stat().st_mode)}, not a results "
                                    "database; only regular files are read")
            if not is_results_db(self.path):
                raise DatabaseError(f"{str(self.path)!r} is not a gamesearch results database "
                                    "(or it is damaged)")
            try:
                self.con, self.snapshot = _read_connection(self.path, 2.0)
                self.con.execute("PRAGMA foreign_keys = ON")
            except sqlite3.Error as err:
                raise DatabaseError(f"cannot open {str(self.path)!r}: {err}") from None
            self.config = self._config()
            return
        self.path = check_output(self.path, is_results_db, force, "results database",
                                 "choose another --db file")
        if not self.path.exists():
            self.path.touch()
        self.lock = hold_lock(self.path, "results database")  # before looking: no other run
        try:
            # new, empty, or not ours with --force: never one of our databases
            fresh = self.path.stat().st_size == 0 or not is_results_db(self.path)
            if fresh:
                self.lock.truncate(0)  # in place: the lock stays on this file
                for extra in _sidecars(self.path):  # an old journal must not roll back into it
                    if extra.exists():
                        extra.unlink()
            self.con = self._connect(str(self.path))
            self._wal()
            if fresh:
                self._create(config)
            else:
                found = self._config()
                if found != json.loads(json.dumps(config)):
                    diff = sorted(k for k in set(found) | set(config)
                                  if found.get(k) != json.loads(json.dumps(config.get(k))))
                    raise DatabaseError(f"{self.path.name} holds another tournament (its "
                                        f"{', '.join(diff)} differ); use a new --db file")
            self.config = config
            with self.con:
                cur = self.con.execute("INSERT INTO commands (argv, started) VALUES (?, ?)",
                                       (json.dumps(argv if argv is not None else sys.argv),
                                        _now()))
                self.command = cur.lastrowid
        except BaseException:
            self.close()
            raise

    def _wal(self) -> None:
        """WAL mode (a kill mid-commit leaves the WAL, replayed on opening) with full
        syncs (a committed game survives a power cut too)."""
        try:
            self.con.execute("PRAGMA journal_mode = WAL")
            self.con.execute("PRAGMA synchronous = FULL")
        except sqlite3.Error as err:
            raise DatabaseError(f"cannot open {str(self.path)!r}: {err}") from None

    def _connect(self, target: str, uri: bool = False) -> sqlite3.Connection:
        try:
            con = sqlite3.connect(target, uri=uri, timeout=2.0)
            con.execute("PRAGMA foreign_keys = ON")
            return con
        except sqlite3.Error as err:
            raise DatabaseError(f"cannot open {str(self.path)!r}: {err}") from None

    def _create(self, config: dict[str, Any]) -> None:
        try:
            with self.con:
                self.con.executescript(TABLES)
                self.con.executemany("INSERT INTO meta VALUES (?, ?)",
                                     [("kind", KIND), ("schema", str(SCHEMA)),
                                      ("config", json.dumps(config))])
                self.con.executemany("INSERT INTO players VALUES (?, ?)",
                                     list(enumerate(config["players"])))
        except sqlite3.Error as err:
            raise DatabaseError(f"cannot write {str(self.path)!r}: {err}") from None

    def _config(self) -> dict[str, Any]:
        try:
            rows = dict(self.con.execute("SELECT key, value FROM meta").fetchall())
            if rows.get("kind") != KIND:
                raise DatabaseError(f"{str(self.path)!r} is not a gamesearch results database")
            if rows.get("schema") != str(SCHEMA):
                raise DatabaseError(f"{self.path.name}: schema {rows.get('schema')} is not "
                                    f"the one this gamesearch reads ({SCHEMA})")
            return json.loads(rows["config"])
        except (sqlite3.Error, KeyError, ValueError) as err:
            raise DatabaseError(f"{str(self.path)!r} is damaged: {err}") from None

    def finished(self) -> set[int]:
        """The indices of the games already stored."""
        return {row[0] for row in self._query("SELECT game FROM results")}

    def add(self, pairing: Pairing, opening: list[str], outcome: GameOutcome) -> None:
        """Store one finished game (its game, moves and result rows in one transaction)."""
        g = pairing.index
        try:
            with self.con:
                self.con.execute(
                    "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (g, pairing.round, pairing.first, pairing.second, " ".join(opening),
                     outcome.reason, outcome.seconds, outcome.worker, self.command, _now()))
                self.con.executemany(
                    "INSERT INTO moves VALUES (?, ?, ?, ?, ?)",
                    [(g, ply, m, s, v) for ply, (m, s, v) in enumerate(outcome.moves)])
                self.con.execute("INSERT INTO results VALUES (?, ?, ?)",
                                 (g, outcome.score_first, json.dumps(outcome.utilities)))
        except sqlite3.IntegrityError:
            raise DatabaseError(f"{self.path.name}: game {g} is stored already") from None
        except sqlite3.Error as err:
            raise DatabaseError(f"cannot write {str(self.path)!r}: {err}") from None

    def games(self) -> list[tuple[int, int, int, float, str]]:
        """(game, first, second, score of first, reason) for every stored game, by index."""
        return self._query("SELECT g.id, g.first, g.second, r.score_first, g.reason FROM games g "
                           "JOIN results r ON r.game = g.id ORDER BY g.id")

    def records(self) -> list[dict[str, Any]]:
        """Every stored game in full, by index: the seats' specs, the opening, the moves
        after it and the utilities (what ``gamesearch pdn write`` exports)."""
        specs = self.players()
        moves: dict[int, list[str]] = {}
        for game, move in self._query("SELECT game, move FROM moves ORDER BY game, ply"):
            moves.setdefault(game, []).append(move)
        rows = self._query("SELECT g.id, g.first, g.second, g.opening, r.utilities FROM games g "
                           "JOIN results r ON r.game = g.id ORDER BY g.id")
        return [{"index": g, "seats": [specs[first], specs[second]],
                 "opening": opening.split(), "moves": moves.get(g, []),
                 "utilities": json.loads(utilities)}
                for g, first, second, opening, utilities in rows]

    def players(self) -> list[str]:
        """The players' specs, by id."""
        return [row[0] for row in self._query("SELECT spec FROM players ORDER BY id")]

    def _query(self, sql: str, args: tuple = ()) -> list:
        try:
            return self.con.execute(sql, args).fetchall()
        except sqlite3.Error as err:
            raise DatabaseError(f"cannot read {str(self.path)!r}: {err}") from None

    def close(self) -> None:
        """Release the database (and its lock)."""
        con = getattr(self, "con", None)
        if con is not None:
            con.close()
            self.con = None  # type: ignore[assignment]
        _remove_snapshot(self.snapshot)
        self.snapshot = None
        if self.lock is not None:
            self.lock.close()
            self.lock = None

    def __enter__(self) -> ResultsDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")

