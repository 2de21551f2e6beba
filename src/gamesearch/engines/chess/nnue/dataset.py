"""The trainer's positions: rows of ``bench/chess_nnue_data.py`` (JSON lines with ``game``,
``fen``, ``score`` in centipawns for the side to move, ``result`` for the side to move),
read into the network's sparse inputs. Needs no JAX: the comparison with the hand
evaluation (bench/) and the tests read data too.

Each position becomes two rows of ``PIECES`` feature indices (``features.py``), the side
to move's perspective first, padded with ``PAD`` (= ``FEATURES``, a row of zeros the
trainer adds under the feature transformer): the first layer is then a gather-sum.
Validation is split by game (every ``holdout``-th game by number, the learning package's
``held_out``), so positions of one game are never on both sides; the split of a game
never changes as the file grows.

Several files read as one set (the generator's shards, the recorded games' positions):
each file's games are numbered after the games of the files before it, and a position (its
board, side to move, castling and en-passant square) that an earlier file already gave is
not read again, so one position is never in both the training and the validation set. Only
the last file may grow between a run and its resume (the others' game numbers would move;
the trainer checks ``Positions.digest`` and refuses).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gamesearch.engines.chess.nnue.features import FEATURES
from gamesearch.errors import GameSearchError

PIECES = 32
"""The most pieces on a board (the width of an index row)."""
PAD = FEATURES
"""The index of the zero row that fills an index row."""
MAX_CP = 100_000
"""Scores beyond this (centipawns) are refused as not a score."""

_TYPES = {c: i for i, c in enumerate("pnbrqk", start=1)}


class DataError(GameSearchError):
    """A data file that is missing or not rows of positions (one line, for users)."""


@dataclass(frozen=True)
class Positions:
    """Positions as arrays: ``us``/``them`` (n x PIECES int32 feature indices, the side to
    move's perspective first), ``score`` (centipawns, side to move), ``result`` (1 win,
    0.5 draw, 0 loss for the side to move), ``game`` (the game's number)."""

    us: np.ndarray
    them: np.ndarray
    score: np.ndarray
    result: np.ndarray
    game: np.ndarray

    def __len__(self) -> int:
        return int(self.score.shape[0])

    def digest(self) -> str:
        """A digest of every array: a resumed run checks it reads the positions it began
        with (not the same count of others, as when a file other than the last grew)."""
        hasher = hashlib.blake2b(digest_size=16)
        for array in (self.us, self.them, self.score, self.result, self.game):
            hasher.update(np.ascontiguousarray(array).tobytes())
        return hasher.hexdigest()

    def subset(self, mask: np.ndarray) -> Positions:
        """The positions where ``mask`` is true."""
        return Positions(self.us[mask], self.them[mask], self.score[mask],
                         self.result[mask], self.game[mask])


def fen_features(fen: str) -> tuple[list[int], list[int]]:
    """The features on in a FEN's position from the side to move and from the other side
    (each in ascending order, as ``features.active_features``), read from the FEN's
    placement field directly (about ten times faster than building a board)."""
    fields = fen.split()
    if len(fields) < 2 or fields[1] not in ("w", "b"):
        raise ValueError("not a FEN")
    white_to_move = fields[1] == "w"
    ranks = fields[0].split("/")
    if len(ranks) != 8:
        raise ValueError("not a FEN")
    white: list[int] = []
    black: list[int] = []
    for row, rank in enumerate(ranks):
        file = 0
        for ch in rank:
            if ch.isdigit():
                file += int(ch)
                continue
            kind = _TYPES.get(ch.lower())
            if kind is None or file > 7:
                raise ValueError("not a FEN")
            square = (7 - row) * 8 + file
            is_white = ch.isupper()
            white.append(((0 if is_white else 1) * 6 + kind - 1) * 64 + square)
            black.append(((1 if is_white else 0) * 6 + kind - 1) * 64 + (square ^ 56))
            file += 1
        if file != 8:
            raise ValueError("not a FEN")
    if len(white) > PIECES:
        raise ValueError("more than 32 pieces")
    white.sort()
    black.sort()
    return (white, black) if white_to_move else (black, white)


Paths = str | os.PathLike[str] | Sequence[str | os.PathLike[str]]
"""One data file or several, read in order as one set."""


Row = tuple[str, tuple[list[int], list[int]], int, float, int]
"""A position read: its FEN, ``fen_features`` of it, score, result and game number."""


def _file_rows(path: Path) -> Iterator[Row]:
    """One file's whole lines as rows (game numbers its own); DataError, in one line naming
    the file and line, for anything that is not one."""
    if not path.is_file():
        raise DataError(f"data file {str(path)!r} does not exist or is not a file")
    try:
        with path.open("rb") as handle:
            for number, raw in enumerate(handle, start=1):
                if not raw.endswith(b"\n"):
                    return  # a line being written by the generator: not yet a position
                try:
                    row = json.loads(raw)
                    fen = str(row["fen"])
                    features = fen_features(fen)
                    cp, res, g = int(row["score"]), float(row.get("result", 0.5)), \
                        int(row["game"])
                    if abs(cp) > MAX_CP or res not in (0.0, 0.5, 1.0) or g < 0:
                        raise ValueError("a value out of range")
                except (ValueError, KeyError, TypeError, AttributeError) as exc:
                    raise DataError(f"data file {str(path)!r} line {number} is not a "
                                    f"position of bench/chess_nnue_data.py ({exc})") from None
                yield fen, features, cp, res, g
    except OSError as exc:
        raise DataError(f"data file {str(path)!r} cannot be read ({exc.strerror})") from None


def read_rows(paths: Paths, limit: int | None = None) -> Iterator[Row]:
    """The first ``limit`` positions (all without one) of the data files, games numbered on
    across files and a position an earlier file gave skipped (known by a 64-bit digest of
    its FEN's first four fields)."""
    files = [Path(paths)] if isinstance(paths, (str, os.PathLike)) else [Path(p) for p in paths]
    if not files:
        raise DataError("no data file given")
    given, offset = 0, 0
    earlier: set[int] = set()
    for index, path in enumerate(files):
        if limit is not None and given >= limit:
            return
        mine: set[int] = set()
        later = index + 1 < len(files)
        last = -1
        for fen, features, cp, res, g in _file_rows(path):
            if limit is not None and given >= limit:
                return
            last = max(last, g)
            if index or later:
                key = _key(fen)
                if key in earlier:
                    continue
                if later:
                    mine.add(key)
            given += 1
            yield fen, features, cp, res, offset + g
        earlier |= mine
        offset += last + 1


def _key(fen: str) -> int:
    """A position's key: a 64-bit digest of its FEN's first four fields (the same in every
    process, unlike ``hash``; a collision among a few million positions is about 1e-7)."""
    digest = hashlib.blake2b(" ".join(fen.split()[:4]).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def read_positions(paths: Paths, limit: int | None = None) -> Positions:
    """The first ``limit`` positions (all without one) of one data file or several
    (``read_rows``) as the network's inputs."""
    us, them, score, result, game = [], [], [], [], []
    for _fen, (a, b), cp, res, g in read_rows(paths, limit):
        us.append(a + [PAD] * (PIECES - len(a)))
        them.append(b + [PAD] * (PIECES - len(b)))
        score.append(cp)
        result.append(res)
        game.append(g)
    if not score:
        raise DataError(f"data {_named(paths)} holds no positions")
    return Positions(np.array(us, np.int32).reshape(-1, PIECES),
                     np.array(them, np.int32).reshape(-1, PIECES),
                     np.array(score, np.float32), np.array(result, np.float32),
                     np.array(game, np.int64))


def _named(paths: Paths) -> str:
    """The files' names for a message."""
    if isinstance(paths, (str, os.PathLike)):
        return f"file {str(paths)!r}"
    return "files " + ", ".join(repr(str(p)) for p in paths)


__all__ = ["DataError", "PAD", "PIECES", "Paths", "Positions", "fen_features", "Row",
           "read_positions", "read_rows"]
