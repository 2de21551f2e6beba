"""Help that shows types as words (``INT``, ``FLOAT``, ``TEXT``), flags without a type.

Typer 0.2x renders every parameter's Python type in angle brackets: ``--json <bool>``,
``--depth <int range>``, ``GAME <str>``. A terminal user reads a flag as taking a value
``bool``. Here a flag shows no type, an argument only its name (``GAME``), and an option the
kind of value it takes, as ``ls --help`` and ``git --help`` do.
"""

from __future__ import annotations

from typing import Any

WORDS = {"int": "INT", "float": "FLOAT", "str": "TEXT", "bool": "", "Path": "PATH",
         "integer": "INT", "integer range": "INT", "float range": "FLOAT", "text": "TEXT",
         "boolean": "", "path": "PATH"}
"""Python type names (Typer 0.2x) and click's type names, as help shows them."""


def type_word(param: Any) -> str:
    """The word help shows for a parameter's value; empty for flags and arguments."""
    if getattr(param, "is_flag", False) or getattr(param, "param_type_name", "") == "argument":
        return ""
    described = getattr(param, "type_descriptor", None)
    if described is not None:  # Typer 0.2x: the annotation itself
        if described.is_choice:
            return "|".join(map(str, described.choices or ()))
        word = WORDS.get(param.bare_type().split("[")[-1].rstrip("]"), "TEXT")
        multiple = described.is_list
    else:  # click's parameter types
        kind = getattr(param, "type", None)
        word = WORDS.get(getattr(kind, "name", "text"), "TEXT")
        multiple = getattr(param, "multiple", False)
    return word + ("..." if multiple and word else "")


def install() -> None:
    """Make Typer's rich help use :func:`type_word` (a no-op where Typer has no such hook)."""
    try:
        from typer.core import TyperArgument, TyperOption
    except ImportError:  # pragma: no cover - other Typer versions keep click's own words
        return
    for cls in (TyperArgument, TyperOption):
        if hasattr(cls, "display_type_rich"):
            cls.display_type_rich = lambda self, ctx: (
                self.metavar if getattr(self, "param_type_name", "") == "option"
                and self.metavar is not None else type_word(self))


__all__ = ["install", "type_word"]
