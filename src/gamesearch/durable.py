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
* :func:`output_target`: outputs are regular files only. An existing folder, device
  (``/dev/zero``), named pipe or socket is refused in one line, also with ``force``; a
  symbolic link is written through (its target is checked by the same rules and replaced,
  the link kept), a link to nothing is refused. A missing folder is never created unless
  the command says it makes one (one line instead). :func:`atomic_writer` applies the same
  rules, so no writer can rename a file over a device or a link.
* :func:`check_suffix`: an output whose format is chosen by its extension names the
  extensions it accepts when given another.
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
import logging
import os
import signal
import stat
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from gamesearch.errors import GameSearchError
from gamesearch.textinput import file_kind

try:
    import fcntl
except ImportError:  # Windows: no advisory locks
    fcntl = None  # type: ignore[assignment]

LOG = logging.getLogger("gamesearch")
"""Messages for the person at the terminal go through logging, never print: the faces
decide where they appear (Python's last-resort handler writes warnings to stderr)."""

MAGIC_KEY = "gamesearch"
"""The entry of an ``.npz`` written by gamesearch; its value names the kind of file."""


class OutputFileError(GameSearchError):
    """An output file that cannot or must not be written (missing folder, someone else's)."""


def output_target(path: str | Path, what: str = "file") -> Path:
    """The file that writing ``path`` replaces, after the output rules: its folder exists,
    and it is new or a regular file; a symbolic link gives its target, checked by the same
    rules (the link is kept, its target replaced). A folder, device, named pipe, socket, a
    link to nothing or a missing folder is one :class:`OutputFileError`."""
    path = Path(path)
    shown = repr(str(path))
    if path.is_symlink():
        try:
            target = Path(os.path.realpath(path, strict=True))
        except (OSError, RuntimeError):
            raise OutputFileError(f"cannot write {what} {shown}: it is a symbolic link to "
                                  f"{os.readlink(path)!r}, which does not exist") from None
        return output_target(target, what)
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise OutputFileError(f"cannot write {what} {shown}: folder {str(parent)!r} "
                              "does not exist")
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return path
    except (OSError, ValueError) as err:
        raise OutputFileError(f"cannot write {what} {shown}: "
                              f"{getattr(err, 'strerror', None) or err}") from None
    if stat.S_ISDIR(mode):
        raise OutputFileError(f"cannot write {what} {shown}: it is a folder")
    if not stat.S_ISREG(mode):
        raise OutputFileError(f"cannot write {what} {shown}: it is {file_kind(mode)}; "
                              "gamesearch writes only regular files")
    return path


def check_output(path: str | Path, is_ours: Callable[[Path], bool] | None,
                 force: bool = False, what: str = "file",
                 remedy: str = "choose another name or add --force to overwrite it") -> Path:
    """The file to write for the output ``path``: :func:`output_target`'s rules (a regular
    file in a folder that exists; a link gives its target), and it is ours.

    A file that exists and that ``is_ours`` does not recognise is refused unless ``force``:
    gamesearch never overwrites a file it did not make. With ``is_ours=None`` (a format
    that carries no mark, such as a plain .csv) every existing file is refused without
    ``force``. An empty regular file counts as ours (there is nothing in it to lose). A
    device, named pipe, socket or folder is refused even with ``force``. ``remedy`` ends
    the error message (commands without ``--force`` say what to do instead). Callers write
    the returned path.
    """
    target = output_target(path, what)
    if not target.exists() or force or target.stat().st_size == 0:
        return target
    if is_ours is None:
        raise OutputFileError(f"{str(path)!r} exists; {remedy}")
    if not is_ours(target):
        raise OutputFileError(f"{str(path)!r} exists and is not a gamesearch {what}; {remedy}")
    return target


def output_folder(folder: str | Path, what: str = "folder", parents: bool = False) -> Path:
    """The output folder ``folder`` (a run's files go inside), made when missing: only its
    last level, unless ``parents`` (a default a command documents), so a mistyped path
    never grows folders up from the root. An existing file, device or pipe in its place,
    or a missing parent, is one :class:`OutputFileError`."""
    folder = Path(folder)
    shown = repr(str(folder))
    try:
        mode = os.stat(folder).st_mode
    except FileNotFoundError:
        mode = None
    except (OSError, ValueError) as err:
        raise OutputFileError(f"cannot use {what} {shown}: "
                              f"{getattr(err, 'strerror', None) or err}") from None
    if mode is not None:
        if not stat.S_ISDIR(mode):
            raise OutputFileError(f"{what} {shown} is {file_kind(mode)}, not a folder")
        return folder
    if folder.is_symlink():
        raise OutputFileError(f"{what} {shown} is a symbolic link to "
                              f"{os.readlink(folder)!r}, which does not exist")
    parent = folder.parent if str(folder.parent) else Path(".")
    if not parent.is_dir() and not parents:
        raise OutputFileError(f"cannot make {what} {shown}: folder {str(parent)!r} "
                              "does not exist")
    try:
        folder.mkdir(parents=parents, exist_ok=True)
    except OSError as err:
        raise OutputFileError(f"cannot make {what} {shown}: {err.strerror or err}") from None
    return folder


def check_suffix(path: str | Path, accepted: tuple[str, ...], what: str = "file") -> str:
    """The extension of ``path`` (lower case, with its dot) when it is one of ``accepted``;
    else one :class:`OutputFileError` naming the accepted ones."""
    suffix = Path(path).suffix.lower()
    if suffix not in accepted:
        names = ", ".join(accepted)
        raise OutputFileError(f"cannot write {what} {str(path)!r}: "
                              + (f"unknown extension {suffix!r}" if suffix
                                 else "no extension") + f"; use one of {names}")
    return suffix


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
    which replaces ``path`` (after flush and fsync) only when the block ends without error.

    ``path`` must pass :func:`output_target` (a regular file or a new one; a link's target
    is what is replaced), so no caller can rename a file over a device or a pipe."""
    path = output_target(path)
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


def _is_regular(path: str | Path) -> bool:
    """Whether ``path`` is a regular file (a link is followed); False when it is not there."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def npz_kind(path: str | Path) -> str | None:
    """The kind written in an ``.npz`` file's :data:`MAGIC_KEY` entry, or None (not ours,
    not an npz, unreadable). Reads only that entry."""
    import numpy as np

    try:
        if not _is_regular(path):
            return None
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
        if not _is_regular(path):
            return set()
        with zipfile.ZipFile(path) as archive:
            return {name.removesuffix(".npy") for name in archive.namelist()}
    except Exception:  # noqa: BLE001 (damaged: not one of ours)
        return set()


PNG_MARK = {"Software": "gamesearch"}
"""The metadata our pictures carry (matplotlib's ``savefig(metadata=PNG_MARK)``)."""


def head(path: str | Path) -> bytes:
    """The first 64 KiB of ``path`` when it is a regular file, else b'' (never blocks): what
    the ``is_ours`` tests of the file formats look at."""
    return _head(Path(path))


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
    """The first 64 KiB of a regular file (b'' when unreadable or not a regular file: a
    named pipe would block, a device never end)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return b""
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with open(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return b""
            return handle.read(65536)
    except (OSError, ValueError):
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
        LOG.warning("stopping at the next safe point (Ctrl-C again to stop at once)")

    def __enter__(self) -> StopRequest:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
            self._previous = None


__all__ = ["MAGIC_KEY", "LineLog", "OutputFileError", "StopRequest", "atomic_write",
           "atomic_writer", "check_output", "check_suffix", "fsync_folder", "head",
           "output_folder", "output_target", "hold_folder_lock", "hold_lock",
           "npz_keys", "npz_kind", "PNG_MARK", "png_is_ours",
           "remove_stale_temps"]
