"""Reading input files and JSON safely: one clear error for every way the input is bad.

Every reader of user files goes through here, so a directory, a named pipe, a device
(``/dev/zero``), a socket, a file that is not UTF-8, a file over its format's limit
(:data:`INPUT_LIMITS`), JSON nested thousands deep or a number of thousands of digits is
refused with a :class:`FileFormatError` that names the file, never a traceback, a hang or a
huge allocation.

The rule (:func:`read_input`): an input is a regular file (symbolic links are followed),
checked with ``stat`` before it is opened (opening a named pipe for reading would wait for
a writer for ever), opened without blocking and checked again on the open handle (the path
may have been replaced in between), and at most its limit plus one byte is read (a file
that grows while it is read is still refused, not read without end).
"""

from __future__ import annotations

import io
import json
import os
import stat
from pathlib import Path
from typing import Any

from gamesearch.errors import FileFormatError

MIB = 1024 * 1024

MAX_INPUT_BYTES = 64 * MIB
"""Input files larger than this are refused before reading (64 MiB), unless their format
has its own limit in :data:`INPUT_LIMITS`."""

INPUT_LIMITS: dict[str, int] = {
    "game file": 64 * MIB,         # .nfg, .efg, .json, .csv games (theory commands)
    "tree file": 64 * MIB,         # tree JSON (tree, normal-form, spe)
    "test case": 16 * MIB,         # pacman tree test cases
    "benchmark file": 64 * MIB,    # connect4 benchmark positions
    "openings file": 16 * MIB,     # tournament --openings
    "layout file": 1 * MIB,        # pacman .lay (also bounded by its cell count)
    "match file": 256 * MIB,       # match --out JSON lines, read by pgn/sgf/pdn write
    "games file": 256 * MIB,       # a teacher's Go games (train supervised go)
    "PGN file": 20_000_000,        # games/chess/pgn.py MAX_TEXT
    "PDN file": 50_000_000,        # games/checkers/pdn.py MAX_TEXT
    "SGF file": 10_000_000,        # games/go/sgf.py MAX_BYTES
    "weights file": 64 * MIB,      # learned weights (.npz, .json) named by an agent
    "opening book": 256 * MIB,     # connect4 books (.npz)
    "checkpoint": 1024 * MIB,      # training checkpoints (.npz) resumed by a run
    "positions file": 256 * MIB,   # connect4 scored positions (JSON lines)
    "table manifest": 16 * MIB,    # endgame tables' manifest.json
}
"""The largest input accepted, in bytes, by what the file is (the ``what`` that
:func:`read_input` names in its messages); other inputs get :data:`MAX_INPUT_BYTES`."""

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def file_kind(mode: int) -> str:
    """What a ``st_mode`` describes, in words: 'a regular file', 'a directory', 'a named
    pipe (FIFO)', 'a character device', ..."""
    if stat.S_ISREG(mode):
        return "a regular file"
    return next((words for test, words in _KINDS if test(mode)), "not a regular file")


def input_limit(what: str) -> int:
    """The size limit of an input of kind ``what`` (:data:`INPUT_LIMITS`)."""
    return INPUT_LIMITS.get(what, MAX_INPUT_BYTES)


def check_input(path: str | Path, what: str = "file", limit: int | None = None) -> os.stat_result:
    """``path``'s status after the input rule: it exists, is a regular file (a link is
    followed) and holds at most ``limit`` bytes (default: :func:`input_limit`); else one
    :class:`FileFormatError` naming the file. Nothing is opened."""
    if str(path) == "":  # Path("") is the current folder: say what was really given
        raise FileFormatError(f"no {what} given (the name is empty)")
    shown = _shown_name(path)
    limit = input_limit(what) if limit is None else limit
    try:
        found = os.stat(path)
    except FileNotFoundError:
        raise FileFormatError(f"{what} {shown} does not exist") from None
    except (OSError, ValueError) as err:
        raise FileFormatError(f"cannot read {what} {shown}: "
                              f"{getattr(err, 'strerror', None) or err}") from None
    if not stat.S_ISREG(found.st_mode):
        kind = file_kind(found.st_mode)
        detail = ", not a file" if kind == "a directory" else "; only regular files are read"
        raise FileFormatError(f"{what} {shown} is {kind}{detail}")
    if found.st_size > limit:
        raise FileFormatError(f"{what} {shown} has {found.st_size:,} bytes; the limit is "
                              f"{limit:,}")
    return found


def open_input(path: str | Path, what: str = "file", limit: int | None = None) -> io.FileIO:
    """The input file ``path`` opened for reading in binary (the caller closes it), after
    the module's rule: checked with ``stat`` before opening, opened without blocking,
    checked again on the handle; a file over ``limit`` bytes (default: :func:`input_limit`
    of ``what``) or anything but a regular file is one :class:`FileFormatError`."""
    shown = repr(str(path))
    limit = input_limit(what) if limit is None else limit
    check_input(path, what, limit)  # before opening: a named pipe's open would block
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_NOCTTY", 0))
    except OSError as err:
        raise FileFormatError(f"cannot read {what} {shown}: {err.strerror}") from None
    handle = io.FileIO(fd, "rb")
    try:
        found = os.fstat(fd)
    except OSError as err:
        handle.close()
        raise FileFormatError(f"cannot read {what} {shown}: {err.strerror}") from None
    if not stat.S_ISREG(found.st_mode) or found.st_size > limit:  # replaced since the check
        handle.close()
        check_input(path, what, limit)
        raise FileFormatError(f"{what} {shown} changed while it was opened")
    return handle


def read_input(path: str | Path, what: str = "file", limit: int | None = None) -> bytes:
    """The bytes of the input file ``path`` (see the module's rule): a missing file, a
    directory, a named pipe, a device, a socket or a file over ``limit`` bytes (default:
    :func:`input_limit` of ``what``) is one :class:`FileFormatError` naming the file. At
    most ``limit + 1`` bytes are read, so a file growing meanwhile is refused too."""
    limit = input_limit(what) if limit is None else limit
    with open_input(path, what, limit) as handle:
        chunks, size = [], 0
        try:
            while size <= limit:
                chunk = handle.read(min(limit + 1 - size, 1 << 20))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
        except OSError as err:
            raise FileFormatError(f"cannot read {what} {str(path)!r}: {err.strerror}") from None
    if size > limit:
        raise FileFormatError(f"{what} {str(path)!r} has more than {limit:,} bytes (the limit)")
    return b"".join(chunks)


MAX_JSON_DEPTH = 200
"""JSON nested deeper than this is refused: the recursive readers and searches behind it
would exhaust Python's stack (a legal tree this deep is far beyond any lecture's)."""

MAX_NUMBER_DIGITS = 100
"""Integers with more digits than this are refused (Python refuses 4,300; arithmetic on
such numbers would be slow long before)."""


def path_exists(path: str | Path) -> bool:
    """Whether ``path`` names an existing file; a name the system cannot even look up (too
    long, a folder in it that is a file) is a :class:`FileFormatError` naming the problem,
    not an ``OSError`` traceback."""
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as err:
        raise FileFormatError(f"{_shown_name(path)}: {err.strerror or err}") from None
    except ValueError:  # a NUL byte in the name
        return False
    return True


def _shown_name(path: str | Path) -> str:
    """A file name as a one-line message shows it: quoted, a very long one cut short."""
    name = str(path)
    if len(name) <= 255:  # a name the system could hold is shown whole
        return repr(name)
    return repr(f"{name[:40]}... ({len(name):,} characters)")


def read_text(path: str | Path, what: str = "file", limit: int | None = None,
              fallback: str | None = None) -> str:
    """The text of a UTF-8 input file (:func:`read_input`'s rule); text that is not UTF-8
    is decoded as ``fallback`` when given (old archives are often Latin-1), else one
    :class:`FileFormatError` naming the file and line."""
    shown = repr(str(path))
    data = read_input(path, what, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        if fallback is not None:
            return data.decode(fallback, errors="replace")
        line = data[:err.start].count(b"\n") + 1
        raise FileFormatError(f"{what} {shown}: not UTF-8 text (byte {data[err.start]:#04x} "
                              f"on line {line})") from None


def _bounded_int(text: str) -> int:
    digits = len(text.lstrip("+-"))
    if digits > MAX_NUMBER_DIGITS:
        raise _TooLong(f"an integer of {digits:,} digits (the limit is {MAX_NUMBER_DIGITS})")
    return int(text)


def _no_constant(text: str) -> Any:
    raise _TooLong(f"{text} is not a finite number")


class _TooLong(ValueError):
    """Raised inside json.loads by the number hooks; turned into a FileFormatError."""


def load_json(text: str, source: str) -> Any:
    """Parse JSON text: syntax errors with their line and column; numbers too long,
    ``NaN``/``Infinity`` and nesting deeper than :data:`MAX_JSON_DEPTH` refused."""
    try:
        data = json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant)
    except json.JSONDecodeError as err:
        raise FileFormatError(f"{source}: not valid JSON at line {err.lineno}, column "
                              f"{err.colno}: {err.msg}") from None
    except _TooLong as err:
        raise FileFormatError(f"{source}: {err}") from None
    except RecursionError:
        raise FileFormatError(f"{source}: JSON nested more than {MAX_JSON_DEPTH} levels "
                              "deep") from None
    depth = nesting_depth(data)
    if depth > MAX_JSON_DEPTH:
        raise FileFormatError(f"{source}: JSON nested {depth} levels deep; the limit is "
                              f"{MAX_JSON_DEPTH}")
    return data


def nesting_depth(data: Any) -> int:
    """How deeply lists and objects nest (0 for a number or string), found without
    recursion so that any depth can be measured."""
    deepest = 0
    stack = [(data, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            depth += 1
            deepest = max(deepest, depth)
            stack.extend((child, depth) for child in item)
    return deepest


__all__ = ["INPUT_LIMITS", "MAX_INPUT_BYTES", "MAX_JSON_DEPTH", "MAX_NUMBER_DIGITS",
           "check_input", "file_kind", "input_limit", "load_json", "nesting_depth",
           "open_input", "read_input", "read_text"]
