"""Reading input files and JSON safely: one clear error for every way the input is bad.

Every reader of user files goes through here, so a directory, a file that is not UTF-8, a
file of gigabytes, JSON nested thousands deep or a number of thousands of digits is refused
with a :class:`FileFormatError` that names the file, never a traceback, a hang or a huge
allocation.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from gamesearch.errors import FileFormatError

MAX_INPUT_BYTES = 64 * 1024 * 1024
"""Input files larger than this are refused before reading (64 MiB)."""

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
    except FileNotFoundError:
        return False
    except NotADirectoryError:
        return False
    except OSError as err:
        name = str(path)
        shown = name if len(name) <= 60 else f"{name[:40]}... ({len(name):,} characters)"
        raise FileFormatError(f"{shown!r}: {err.strerror or err}") from None
    except ValueError:  # a NUL byte in the name
        return False
    return True


def read_text(path: str | Path, what: str = "file") -> str:
    """The text of a UTF-8 file; a missing file, a directory, a file too large or not UTF-8
    is one :class:`FileFormatError` naming the file."""
    if str(path) == "":  # Path("") is the current folder: say what was really given
        raise FileFormatError(f"no {what} given (the name is empty)")
    path = Path(path)
    shown = repr(str(path))
    if not path_exists(path):
        raise FileFormatError(f"{what} {shown} does not exist")
    if path.is_dir():
        raise FileFormatError(f"{what} {shown} is a directory, not a file")
    try:
        size = os.stat(path).st_size
        if size > MAX_INPUT_BYTES:
            raise FileFormatError(f"{what} {shown} has {size:,} bytes; the limit is "
                                  f"{MAX_INPUT_BYTES:,}")
        data = path.read_bytes()
    except OSError as err:
        raise FileFormatError(f"cannot read {what} {shown}: {err.strerror}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
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


__all__ = ["MAX_INPUT_BYTES", "MAX_JSON_DEPTH", "MAX_NUMBER_DIGITS", "load_json",
           "nesting_depth", "read_text"]
