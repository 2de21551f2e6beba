"""Connect Four opening books built by our own solver, shipped or loaded as .npz files.

A book of depth N holds the exact score of every position with at most N stones (one entry
per mirror pair, keyed like the solver's table). Building it solves only the positions with
exactly N stones; shallower scores follow by negamax over the book itself. The solved
positions are appended to ``FILE.partial`` as they finish (each line flushed; a header line
names the board and depth), so a killed build resumes where it stopped; the finished book
is written atomically to FILE and the partial file removed. A FILE (or FILE.partial) that
gamesearch did not write is never overwritten without ``force``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from gamesearch.durable import (
    MAGIC_KEY,
    LineLog,
    atomic_writer,
    check_output,
    npz_keys,
    npz_kind,
    remove_stale_temps,
)
from gamesearch.errors import FileFormatError, GameSearchError
from gamesearch.games.connect4 import ConnectFour
from gamesearch.shipped import shipped

BOOK_DIR = shipped("connect4")
BOOK_KIND = "connect4-book"
"""The kind an opening book carries in its magic entry (see gamesearch.durable)."""
PARTIAL_MAGIC = "# gamesearch connect4 book"
"""How the first line of a build's ``.partial`` file starts."""


def canonical_key(game: ConnectFour, state: tuple) -> int:
    """current + mask, or that of the mirror image when smaller (the solver's key)."""
    key = state[0] + state[1]
    h1, col = game.h1, (1 << game.h1) - 1
    mirror = 0
    for c in range(game.width):
        mirror |= ((key >> (c * h1)) & col) << ((game.width - 1 - c) * h1)
    return min(key, mirror)


@dataclass
class OpeningBook:
    """Exact scores of shallow positions: sorted canonical keys and their scores."""

    width: int
    height: int
    depth: int
    keys: np.ndarray
    values: np.ndarray

    def get(self, game: ConnectFour, state: tuple) -> int | None:
        """The book's score for the player to move, or None when absent."""
        if state[2] > self.depth:
            return None
        key = canonical_key(game, state)
        i = int(np.searchsorted(self.keys, key))
        if i < len(self.keys) and int(self.keys[i]) == key:
            return int(self.values[i])
        return None

    def save(self, path: str | Path) -> None:
        """Write the book atomically to exactly ``path``, marked as ours (:data:`BOOK_KIND`)."""
        with atomic_writer(path) as handle:
            np.savez_compressed(handle, **{MAGIC_KEY: np.array(BOOK_KIND)}, keys=self.keys,
                                values=self.values,
                                meta=np.array([self.width, self.height, self.depth], np.int64))

    @classmethod
    def load(cls, path: str | Path) -> OpeningBook:
        """Read a book written by :meth:`save`; a broken file is named in the error."""
        from gamesearch.textinput import open_input

        with open_input(path, "opening book") as handle:
            try:
                with np.load(handle, allow_pickle=False) as data:
                    width, height, depth = (int(x) for x in data["meta"])
                    keys = data["keys"].astype(np.int64)
                    values = data["values"].astype(np.int8)
            except Exception as err:  # noqa: BLE001 (a damaged zip raises a dozen types)
                raise FileFormatError(f"opening book {str(path)!r}: {_why(err)}") from None
        if len(keys) != len(values) or np.any(np.diff(keys) <= 0):
            raise FileFormatError(f"opening book {str(path)!r}: keys not sorted or sizes differ")
        return cls(width, height, depth, keys, values)


def _why(err: Exception) -> str:
    """Why an .npz did not load, in words of ours: numpy's own message about pickled data
    suggests loading it unsafely, which gamesearch never does with a user's file."""
    if isinstance(err, ValueError) and "pickle" in str(err):
        return "it holds pickled Python objects, which gamesearch never loads"
    return str(err) or type(err).__name__


def is_book(path: str | Path) -> bool:
    """Whether ``path`` is an opening book written by gamesearch (also before the magic key)."""
    return npz_kind(path) == BOOK_KIND or npz_keys(path) >= {"keys", "values", "meta"}


def default_book(width: int, height: int) -> OpeningBook | None:
    """The book shipped with the package for this board size, if any."""
    path = BOOK_DIR / f"book_{width}x{height}.npz"
    return OpeningBook.load(path) if path.exists() else None


def positions_by_ply(game: ConnectFour, depth: int) -> list[dict[int, tuple]]:
    """Every non-terminal position with 0..depth stones, one per mirror pair, by ply."""
    levels = [{canonical_key(game, game.initial_state()): game.initial_state()}]
    for _ in range(depth):
        nxt: dict[int, tuple] = {}
        for state in levels[-1].values():
            for column in game.actions(state):
                child = game.result(state, column)
                if not game.is_terminal(child):
                    nxt.setdefault(canonical_key(game, child), child)
        levels.append(nxt)
    return levels


def solved_in_partial(partial: str | Path) -> int | None:
    """How many solved positions an interrupted build's ``.partial`` file holds (a header
    line, then one line per position; the last may have come after the last progress
    report); None when it cannot be read."""
    try:
        with open(partial, "rb") as handle:
            return max(0, handle.read().count(b"\n") - 1)
    except OSError:
        return None


def partial_header(width: int, height: int, depth: int) -> str:
    """The first line of a build's ``.partial`` file: what it belongs to, and that it is ours."""
    return f"{PARTIAL_MAGIC} {width}x{height} depth {depth}"


def read_partial(log: LineLog) -> dict[int, int]:
    """The scores already solved by an interrupted build (its complete ``key score`` lines)."""
    done: dict[int, int] = {}
    for number, line in enumerate(log.lines, 2):
        parts = line.split()
        try:
            if len(parts) != 2:
                raise ValueError
            key, score = int(parts[0]), int(parts[1])
        except ValueError:
            raise FileFormatError(f"{str(log.path)!r} line {number}: expected 'key score'"
                                  ) from None
        done[key] = score
    return done


def build_book(width: int, height: int, depth: int, path: str | Path,
               progress: Callable[[int, int], None] | None = None,
               log_table: int | None = None, force: bool = False,
               backend: Any = None) -> OpeningBook:
    """Solve every position with ``depth`` stones (resuming from ``path``.partial), back the
    scores up to the empty board, and write the book to ``path``.

    Each solved position is on disk before the next starts; the book itself is written
    atomically. ``path`` (and its ``.partial``) must be ours or absent unless ``force``.
    A finished book of the same size and depth at ``path`` is returned as it is (the same
    command after a finished build does no work); ``force`` builds it again. ``backend``
    (anything with ``imap_unordered(fn, tasks)``, e.g. the arena's process pool or Ray)
    solves the positions in parallel; without it they are solved here, one by one.
    """

    game = ConnectFour(width, height)
    if not 0 <= depth <= game.cells:
        raise GameSearchError(f"book depth {depth}: give 0-{game.cells}")
    path = check_output(path, is_book, force, "opening book")
    remove_stale_temps(path)
    finished = _finished_book(path, width, height, depth)
    if finished is not None and not force:  # the same command after the build finished
        if progress:
            progress(len(finished.keys), len(finished.keys))
        return finished
    header = partial_header(width, height, depth)
    with LineLog(Path(str(path) + ".partial"), header,
                 lambda line: line.startswith(PARTIAL_MAGIC), force, "partial book") as log:
        if log.header_line != header:
            raise FileFormatError(f"{str(log.path)!r} belongs to another build "
                                  f"({log.header_line[len(PARTIAL_MAGIC):].strip()}); "
                                  "remove it or build that book")
        scores = read_partial(log)
        levels = positions_by_ply(game, depth)
        leaves = levels[depth]
        todo = [(k, s) for k, s in sorted(leaves.items()) if k not in scores]
        total, finished = len(leaves), len(leaves) - len(todo)
        if progress:
            progress(finished, total)
        # the positions as independent tasks (here, or on a backend's workers); each score
        # is logged as it arrives
        tasks = [(width, height, log_table, state) for _, state in todo]
        solved = (enumerate(map(solve_position, tasks)) if backend is None
                  else backend.imap_unordered(solve_position, tasks))
        for i, score in solved:
            key = todo[i][0]
            scores[key] = score
            log.append(f"{key} {score}")
            finished += 1
            if progress:
                progress(finished, total)
    for ply in range(depth - 1, -1, -1):
        for key, state in levels[ply].items():
            scores[key] = backed_up_score(game, state, scores)
    wanted = set().union(*[set(level) for level in levels])
    keys = np.array(sorted(k for k in scores if k in wanted), np.int64)
    values = np.array([scores[int(k)] for k in keys], np.int8)
    book = OpeningBook(width, height, depth, keys, values)
    book.save(path)
    log.path.unlink(missing_ok=True)
    return book


_SOLVERS: dict[tuple[int, int, int | None], Any] = {}
"""One solver per board size in each worker process, kept between tasks (its table too)."""


def solve_position(task: tuple[int, int, int | None, tuple]) -> int:
    """The exact score of one book position (a backend task: width, height, table size,
    state), by a solver this process keeps."""
    from gamesearch.engines.connect4.solver import Connect4Solver

    width, height, log_table, state = task
    solver = _SOLVERS.get((width, height, log_table))
    if solver is None:
        solver = Connect4Solver(width, height, **({} if log_table is None else
                                                  {"log_table": log_table}))
        _SOLVERS[(width, height, log_table)] = solver
    return int(solver.solve(state).score)


def _finished_book(path: Path, width: int, height: int, depth: int) -> OpeningBook | None:
    """The book at ``path`` when it is a finished build of this size and depth (no
    ``.partial`` beside it), else None."""
    if not path.exists() or Path(str(path) + ".partial").exists() or not is_book(path):
        return None
    try:
        book = OpeningBook.load(path)
    except FileFormatError:
        return None
    return book if (book.width, book.height, book.depth) == (width, height, depth) else None


def backed_up_score(game: ConnectFour, state: tuple, scores: dict[int, int]) -> int:
    """Negamax over the children: a win at once, a full-board draw, or a book entry."""
    mover = game.to_move(state)
    best = None
    for column in game.actions(state):
        child = game.result(state, column)
        if game.is_terminal(child):
            value = game.utilities(child)[mover]
        else:
            value = -scores[canonical_key(game, child)]
        best = value if best is None else max(best, value)
    return best
