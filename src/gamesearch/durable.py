"""Files that survive kill -9 and never clobber a user's work: the rules every long job follows.

Why this module exists: long jobs (matches, CFR training, opening books, tables,
tournaments) must lose no finished work when killed at any moment, and must never
overwrite a file that a person made. So every writer in gamesearch goes through here:

* :func:`atomic_write` / :func:`atomic_writer`: the new content goes to a temporary file
  in the same folder, is flushed and fsynced, then renamed over the target (``os.replace``
  is atomic on POSIX) and the folder is fsynced. A reader sees the old file or the new
  one, never half of one; the previous version stays until the new one is complete.
* :func:`check_output`: before writing, the target's folder must exist and the target,
  when it exists, must be one of ours (each file format says how it recognises its own
  files: a magic key in an ``.npz``, a header line in a log) unless ``force`` is given.
* :class:`LineLog`: an append-only file of lines (a header line, then one record per
  line), each line handed to the operating system as it finishes (safe from kill -9) and
  fsynced at least once a second (safe from power cuts but for that second); a line torn
  by a kill (the file does not end with a newline) is cut off on reopening and redone.
* :func:`npz_kind` / :data:`MAGIC_KEY`: ``.npz`` files we write carry a ``gamesearch``
  entry naming their kind, so they are recognised as ours.
* :func:`hold_lock` / :func:`hold_folder_lock`: a running job locks its output, so a
  second run on the same file or folder is refused instead of undoing the first's work.
* :class:`StopRequest`: Ctrl-C asks a long loop to stop at its next safe point (a second
  Ctrl-C interrupts at once), so counters and sums are never left half updated.
"""

from __future__ import annotations

import contextlib
import glob
import io
import os
import signal
import sys
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from gamesearch.errors import GameSearchError

try:
    import fcntl
except ImportError:  # Windows: no advisory locks
    fcntl = None  # type: ignore[assignment]

MAGIC_KEY = "gamesearch"
"""The entry of an ``.npz`` written by gamesearch; its value names the kind of file."""


class OutputFileError(GameSearchError):
    """An output file that cannot or must not be written (missing folder, someone else's)."""


def check_output(path: str | Path, is_ours: Callable[[Path], bool] | None,
                 force: bool = False, what: str = "file",
                 remedy: str = "choose another name or add --force to overwrite it") -> Path:
    """The output ``path``, checked: its folder exists, it is not a folder, and it is ours.

    A file that exists and that ``is_ours`` does not recognise is refused unless ``force``:
    gamesearch never overwrites a file it did not make. With ``is_ours=None`` (a format
    that carries no mark, such as a plain .csv) every existing file is refused without
    ``force``. An empty file counts as ours (there is nothing in it to lose). ``remedy``
    ends the error message (commands without ``--force`` say what to do instead).
    """
    path = Path(path)
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise OutputFileError(f"cannot write {what} {str(path)!r}: folder {str(parent)!r} "
                              "does not exist")
    if path.is_dir():
        raise OutputFileError(f"cannot write {what} {str(path)!r}: it is a folder")
    if not path.exists() or force or path.stat().st_size == 0:
        return path
    if is_ours is None:
        raise OutputFileError(f"{str(path)!r} exists; {remedy}")
    if not is_ours(path):
        raise OutputFileError(f"{str(path)!r} exists and is not a gamesearch {what}; {remedy}")
    return path


def fsync_folder(folder: str | Path) -> None:
    """Make a rename or a new file in ``folder`` durable (no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_writer(path: str | Path, binary: bool = True) -> Iterator[IO[Any]]:
    """Write ``path`` all or nothing: yields a handle on a temporary file in the same folder,
    which replaces ``path`` (after flush and fsync) only when the block ends without error."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as err:
        raise OutputFileError(f"cannot write {str(path)!r}: {err.strerror}") from None
    try:
        os.chmod(temp, _mode_for(path))  # mkstemp's 0600 would hide the file from others
        with os.fdopen(fd, "wb" if binary else "w", **({} if binary else {"newline": ""})
                       ) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException as err:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(err, OSError):  # disk full, permissions: one line, the old file kept
            raise OutputFileError(f"cannot write {str(path)!r}: {err.strerror or err}"
                                  ) from None
        raise
    fsync_folder(folder)


def _mode_for(path: Path) -> int:
    """The permissions a replacement of ``path`` gets: the old file's, or the umask's."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask


def remove_stale_temps(path: str | Path) -> None:
    """Delete temporary files that a killed :func:`atomic_writer` left beside ``path``."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    for temp in folder.glob(f".{glob.escape(path.name)}.*.tmp"):
        with contextlib.suppress(OSError):
            temp.unlink()


def atomic_write(path: str | Path, data: bytes | str) -> None:
    """Replace ``path`` by ``data`` atomically (see :func:`atomic_writer`)."""
    with atomic_writer(path, binary=isinstance(data, bytes)) as handle:
        handle.write(data)


def npz_kind(path: str | Path) -> str | None:
    """The kind written in an ``.npz`` file's :data:`MAGIC_KEY` entry, or None (not ours,
    not an npz, unreadable). Reads only that entry."""
    import numpy as np

    try:
        with zipfile.ZipFile(path) as archive:
            if f"{MAGIC_KEY}.npy" not in archive.namelist():
                return None
            with archive.open(f"{MAGIC_KEY}.npy") as entry:
                value = np.lib.format.read_array(io.BytesIO(entry.read(4096)),
                                                 allow_pickle=False)
        return str(value)
    except Exception:  # noqa: BLE001 (damaged: not one of ours)
        return None


def npz_keys(path: str | Path) -> set[str]:
    """The array names in an ``.npz`` file (empty when it is not a readable one)."""
    try:
        with zipfile.ZipFile(path) as archive:
            return {name.removesuffix(".npy") for name in archive.namelist()}
    except Exception:  # noqa: BLE001 (damaged: not one of ours)
        return set()


PNG_MARK = {"Software": "gamesearch"}
"""The metadata our pictures carry (matplotlib's ``savefig(metadata=PNG_MARK)``)."""


def png_is_ours(path: str | Path) -> bool:
    """Whether ``path`` is a PNG whose text chunks say gamesearch drew it (reads 64 KiB)."""
    head = _head(Path(path))
    if not head.startswith(b"\x89PNG\r\n\x1a\n"):
        return False
    return b"tEXtSoftware\x00gamesearch" in head


class LineLog:
    """An append-only file of text lines: ``header`` first, then one record per line.

    Opening reads the complete lines (:attr:`lines`, header excluded) and cuts off a
    last line torn by a kill (no final newline), reporting it in :attr:`torn`. A new
    file gets its header atomically (temporary file, fsync, rename). :meth:`append`
    writes one line and flushes it before returning, so a returned append survives
    kill -9; it fsyncs at least every ``sync_every`` seconds (power cuts). ``header_is_ours``
    tells our files from others (refused unless ``force``, in which case the file is
    started afresh).
    """

    def __init__(self, path: str | Path, header: str,
                 header_is_ours: Callable[[str], bool], force: bool = False,
                 what: str = "file", sync_every: float = 1.0) -> None:
        self.path = check_output(path, lambda p: header_is_ours(_first_line(p)), force, what)
        self.lines: list[str] = []
        self.torn = ""
        self.header = header
        self.sync_every = sync_every
        self._synced = time.monotonic()
        first = _first_line(self.path) if self.path.exists() else ""
        if not (header_is_ours(first) and b"\n" in _head(self.path)):
            atomic_write(self.path, header + "\n")  # new, empty, --force, or a cut header
        self._handle: IO[bytes] | None = hold_lock(self.path, what)
        try:
            remove_stale_temps(self.path)
            self._read()
        except BaseException:
            self.close()
            raise

    def _read(self) -> None:
        """Read the complete lines through the locked handle; cut off a torn last line."""
        assert self._handle is not None
        self._handle.seek(0)
        data = self._handle.read()
        complete = data.rfind(b"\n") + 1
        self.torn = data[complete:].decode("utf-8", "replace")
        if self.torn:
            self._handle.truncate(complete)
            self._handle.flush()
            os.fsync(self._handle.fileno())
        self._handle.seek(0, os.SEEK_END)
        try:
            text = data[:complete].decode("utf-8")
        except UnicodeDecodeError:
            raise OutputFileError(f"{self.path.name}: not UTF-8 text") from None
        found = text.split("\n")[:-1]
        self.header_line = found[0]
        self.lines = found[1:]

    def append(self, line: str) -> None:
        """Add one record line: handed to the operating system before this returns (so it
        survives kill -9), fsynced at least every :attr:`sync_every` seconds and on close
        (so a power cut loses at most that much; an fsync per line costs milliseconds)."""
        if "\n" in line:
            raise ValueError("a log record must be one line")
        if self._handle is None:
            raise ValueError(f"{self.path.name}: the log is closed")
        try:
            self._handle.write(line.encode("utf-8") + b"\n")
            self._handle.flush()
            if time.monotonic() - self._synced >= self.sync_every:
                self.sync()
        except OSError as err:  # disk full and the like: one line; the lines before are kept
            raise OutputFileError(f"cannot append to {str(self.path)!r}: "
                                  f"{err.strerror or err}") from None

    def sync(self) -> None:
        """fsync what was appended so far."""
        if self._handle is not None:
            self._handle.flush()
            os.fsync(self._handle.fileno())
        self._synced = time.monotonic()

    def close(self) -> None:
        """fsync and close the file, which releases it for other processes."""
        if self._handle is not None:
            with contextlib.suppress(OSError):
                self.sync()
            self._handle.close()
            self._handle = None

    def __enter__(self) -> LineLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _head(path: Path) -> bytes:
    """The first 64 KiB of a file (b'' when unreadable)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(65536)
    except OSError:
        return b""


def _first_line(path: Path) -> str:
    """The first line of a file, at most 64 KiB of it, as text ('' when unreadable)."""
    return _head(path).split(b"\n", 1)[0].decode("utf-8", "replace")


def hold_lock(path: Path, what: str = "file") -> IO[bytes]:
    """Open the file ``path`` for reading and writing and hold an exclusive lock on it until
    the handle is closed: two runs writing the same output would undo each other's work,
    so the second is refused with one line."""
    try:
        handle = open(path, "r+b")  # noqa: SIM115 (returned to the caller)
    except OSError as err:
        raise OutputFileError(f"cannot open {what} {str(path)!r}: {err.strerror}") from None
    if not _locked(handle.fileno(), path):
        handle.close()
        raise _busy(path, what)
    return handle


def hold_folder_lock(folder: Path, what: str = "folder") -> int:
    """Hold an exclusive lock on ``folder`` (its descriptor, released by ``os.close``): the
    files inside are replaced by renames, so the folder is what a run locks."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError as err:
        raise OutputFileError(f"cannot open {what} {str(folder)!r}: {err.strerror}") from None
    if not _locked(fd, folder):
        os.close(fd)
        raise _busy(folder, what)
    return fd


def _locked(fd: int, path: Path) -> bool:
    """Take the lock without waiting; False if another process holds it, or if ``path``
    was replaced meanwhile. Always True where the system has no advisory locks."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return os.fstat(fd).st_ino == os.stat(path).st_ino
    except OSError:
        return False


def _busy(path: Path, what: str) -> OutputFileError:
    return OutputFileError(f"{what} {str(path)!r} is being written by another running "
                           "gamesearch; wait for it to end or choose another name")


class StopRequest:
    """Ctrl-C as a request: the first SIGINT sets :attr:`requested` (the loop stops at its
    next safe point, keeping counters consistent); a second one raises KeyboardInterrupt.

    Use as a context manager around the loop; outside the main thread it does nothing.
    """

    def __init__(self) -> None:
        self.requested = False
        self._previous: Any = None

    def _handle(self, signum: int, frame: object) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True
        print("stopping at the next safe point (Ctrl-C again to stop at once)",
              file=sys.stderr)

    def __enter__(self) -> StopRequest:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
            self._previous = None


__all__ = ["MAGIC_KEY", "LineLog", "OutputFileError", "StopRequest", "atomic_write",
           "atomic_writer", "check_output", "fsync_folder", "hold_folder_lock", "hold_lock",
           "npz_keys", "npz_kind", "PNG_MARK", "png_is_ours",
           "remove_stale_temps"]
