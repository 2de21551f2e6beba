"""Spec strings: ``name:key=value,key=value`` for agents and games (``alphabeta:depth=8``).

Values are converted by the annotations of the function that receives them, so a spec
is checked against the real parameters: unknown keys and unconvertible values raise a
:class:`SpecError` that names the spec.
"""

from __future__ import annotations

import inspect
import math
import re
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gamesearch.errors import SpecError


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name:k=v,k=v`` (also ``name(k=v,k=v)``) into the name and raw string values."""
    text = spec.strip()
    if not text:
        raise SpecError("empty spec")
    if text.endswith(")") and "(" in text:
        name, _, rest = text[:-1].partition("(")
    else:
        name, _, rest = text.partition(":")
    name = name.strip().lower()
    params: dict[str, str] = {}
    if rest.strip():
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise SpecError(f"spec {spec!r}: expected key=value, got {part.strip()!r}")
            params[key.strip().replace("-", "_")] = value.strip()
    return name, params


MAX_NUMBER_LENGTH = 100
"""Longer number texts are refused before conversion (no 4,300-digit integers, no hangs)."""


@dataclass(frozen=True)
class Range:
    """The values a numeric parameter accepts: ``low <= value <= high`` (either end open)."""

    low: float | None = None
    high: float | None = None
    low_open: bool = False
    """``low < value`` rather than ``low <= value`` (a time budget must be positive)."""

    def text(self) -> str:
        """The range in words, as help and error messages show it: ``1..1000``, ``> 0``."""
        if self.low is not None and self.high is not None and not self.low_open:
            return f"{_plain(self.low)}..{_plain(self.high)}"
        parts = []
        if self.low is not None:
            parts.append(f"{'>' if self.low_open else '>='} {_plain(self.low)}")
        if self.high is not None:
            parts.append(f"<= {_plain(self.high)}")
        return " and ".join(parts) or "any"

    def check(self, value: Any, where: str) -> None:
        """Raise a :class:`SpecError` naming the range when ``value`` lies outside it."""
        if isinstance(value, tuple):
            for item in value:
                self.check(item, where)
            return
        if value is None or isinstance(value, (bool, str)):
            return
        low_bad = self.low is not None and (value <= self.low if self.low_open
                                            else value < self.low)
        if low_bad or (self.high is not None and value > self.high):
            raise SpecError(f"{where}: {_plain(value)} is out of range (give {self.text()})")


def _plain(x: float) -> str:
    if isinstance(x, int) and abs(x) < 10**15:
        return str(x)
    return str(int(x)) if float(x).is_integer() and abs(x) < 1e15 else f"{x:g}"


@dataclass(frozen=True)
class Option:
    """A named option of a command-line face (a game's solver): its type, range and help."""

    type: type
    help: str
    range: Range | None = None

    def read(self, value: str, where: str) -> Any:
        """The value converted and checked; a :class:`SpecError` names what is wrong."""
        converted = convert(value, self.type, where)
        if self.range is not None:
            self.range.check(converted, where)
        return converted

    def metavar(self) -> str:
        """How help shows the value: ``INT``, ``FLOAT``, ``FILE``; empty for a flag."""
        return type_text(self.type)


def type_text(annotation: Any) -> str:
    """A parameter's type in words for help: INT, FLOAT, TEXT, INTS; empty for a flag."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 1:
        annotation = args[0]
    if annotation is bool:
        return ""
    if typing.get_origin(annotation) is tuple or annotation is tuple:
        inner = typing.get_args(annotation)
        return (type_text(inner[0]) if inner else "TEXT") + "S"
    return {int: "INT", float: "FLOAT", str: "TEXT"}.get(annotation, "TEXT")


AGENT_RANGES: dict[str, Range] = {
    "depth": Range(1, 1000),
    "time": Range(0, 86_400, low_open=True),
    "iterations": Range(1, 10**9),
    "simulations": Range(1, 10**9),
    "samples": Range(1, 10**6),
    "tt": Range(2, 1 << 26),
    "c": Range(0, 100),
    "chase": Range(0, 1),
    "seed": Range(0, 2**32 - 1),
}
"""The accepted range of each numeric agent parameter, by name (the same name means the
same thing in every agent: ``depth`` in plies or rounds, ``time`` in seconds, ``tt`` table
entries). Beyond these a search would hang, overflow or allocate gigabytes."""


def agent_ranges(factory: Callable[..., Any]) -> dict[str, Range]:
    """The ranges of an agent factory's numeric parameters: :data:`AGENT_RANGES`, where the
    factory's own ``ranges`` attribute (a kind whose ``depth`` may be 0, say) overrides."""
    return {**AGENT_RANGES, **getattr(factory, "ranges", {})}


def call_with_params(func: Callable[..., Any], params: dict[str, Any], where: str,
                     ranges: Mapping[str, Range] | None = None) -> Any:
    """Call ``func(**params)``, converting strings by its annotations; name bad keys.

    ``ranges`` bounds numeric parameters by name; a value outside is a :class:`SpecError`.
    """
    return func(**check_params(func, params, where, ranges))


def check_params(func: Callable[..., Any], params: dict[str, Any], where: str,
                 ranges: Mapping[str, Range] | None = None) -> dict[str, Any]:
    """The keyword arguments :func:`call_with_params` would pass ``func``, converted and
    checked, without calling it (a quoted command's spec is checked, not built)."""
    signature = inspect.signature(func)
    hints = typing.get_type_hints(func)
    accepted = {
        name for name, p in signature.parameters.items()
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    }
    unknown = set(params) - accepted
    if unknown:
        raise SpecError(f"{where}: unknown parameter(s) {', '.join(sorted(unknown))}; "
                        f"known: {', '.join(sorted(accepted)) or 'none'}")
    converted = {}
    for key, value in params.items():
        converted[key] = convert(value, hints.get(key, str), f"{where}: {key}")
        if ranges and key in ranges:
            ranges[key].check(converted[key], f"{where}: {key}")
    return converted


class BareFlag(str):
    """The value of an option given without one (``--misere``): true for a flag, and a
    "needs a value" error for any other type (``--piles`` alone)."""

    def __new__(cls) -> BareFlag:
        return super().__new__(cls, "true")


def convert(value: Any, annotation: Any, where: str) -> Any:
    """Convert a spec value (usually a string) to the annotated type."""
    if not isinstance(value, str):
        return value
    if isinstance(value, BareFlag) and annotation is not bool and type_text(annotation):
        raise SpecError(f"{where}: needs a value ({type_text(annotation)})")
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        if value.lower() in ("none", "null") and type(None) in args:
            return None
        real = [arg for arg in args if arg is not type(None)]
        if len(real) == 1:  # ``int | None``: the int's own message
            return convert(value, real[0], where)
        for arg in args:
            if arg is type(None):
                continue
            try:
                return convert(value, arg, where)
            except SpecError:
                continue
        raise SpecError(f"{where}: cannot read {value!r}")
    if origin is tuple or annotation is tuple:
        # Items are separated by commas, spaces, slashes or a dash between two items
        # ("3-4-5"); a dash that starts an item is its sign ("-1,2" is (-1, 2)).
        items = [v for v in _TUPLE_SEPARATORS.split(value.strip()) if v]
        inner = args[0] if args else str
        return tuple(convert(v, inner, where) for v in items)
    if annotation is bool:
        lowered = value.lower()
        if lowered in ("1", "true", "yes", "on", ""):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise SpecError(f"{where}: expected true or false, got {value!r}")
    if annotation in (int, float):
        return _number(value, annotation, where)
    return value


_TUPLE_SEPARATORS = re.compile(r"[,\s/]+|(?<=[0-9.])-")
_INTEGER = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def _number(value: str, annotation: type, where: str) -> int | float:
    """An ASCII integer or finite decimal: no superscripts, no other scripts' digits, no
    ``inf``/``nan``, nothing longer than :data:`MAX_NUMBER_LENGTH` characters."""
    text = value.strip()
    kind = "a whole number" if annotation is int else "a number"
    if len(text) > MAX_NUMBER_LENGTH:
        raise SpecError(f"{where}: expected {kind}, got {len(text)} characters")
    pattern = _INTEGER if annotation is int else _DECIMAL
    if not pattern.fullmatch(text):
        raise SpecError(f"{where}: expected {kind}, got {value!r}")
    number = annotation(text)
    if isinstance(number, float) and not math.isfinite(number):
        raise SpecError(f"{where}: {value!r} is not a finite number")
    return number
