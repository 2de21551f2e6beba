"""Spec strings: ``name:key=value,key=value`` for agents and games (``alphabeta:depth=8``).

Values are converted by the annotations of the function that receives them, so a spec
is checked against the real parameters: unknown keys and unconvertible values raise a
:class:`SpecError` that names the spec.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable
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


def call_with_params(func: Callable[..., Any], params: dict[str, Any], where: str) -> Any:
    """Call ``func(**params)``, converting strings by its annotations; name bad keys."""
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
    return func(**converted)


def convert(value: Any, annotation: Any, where: str) -> Any:
    """Convert a spec value (usually a string) to the annotated type."""
    if not isinstance(value, str):
        return value
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        if value.lower() in ("none", "null") and type(None) in args:
            return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return convert(value, arg, where)
            except SpecError:
                continue
        raise SpecError(f"{where}: cannot read {value!r}")
    if origin is tuple or annotation is tuple:
        separated = value.replace(",", " ").replace("-", " ").replace("/", " ")
        items = separated.split()
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
        try:
            number = annotation(value)
        except ValueError:
            raise SpecError(f"{where}: expected a number, got {value!r}") from None
        if isinstance(number, float) and number != number:
            raise SpecError(f"{where}: expected a number, got {value!r}")
        return number
    return value
