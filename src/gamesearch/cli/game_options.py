"""Game parameters and solver options given as ``--key value`` on the command line.

``solve``, ``play`` and the others take a game's parameters as extra options
(``solve nim --piles 3,4,5``); ``solve`` also passes a game's solver options on
(``solve connect4 --weak``). An option that is neither is an error listing the known ones,
never silently ignored (``solve pig --gaol 50``); ``solve --help`` lists them per game.
"""

from __future__ import annotations

import functools
import inspect
import typing
from typing import Any

from gamesearch.errors import SpecError
from gamesearch.spec import type_text


def game_parameters(entry: Any) -> dict[str, tuple[str, Any]]:
    """A game's parameters: name -> (type in words, default)."""
    hints = typing.get_type_hints(entry.factory)
    return {name: (type_text(hints.get(name, str)), p.default)
            for name, p in inspect.signature(entry.factory).parameters.items()}


def options_text(entry: Any) -> str:
    """The game's options as help shows them: ``--piles INTS (0..1000, default 3,4,5)``;
    a solver's options say ``solve only``."""
    parts = []
    for name, (kind, default) in game_parameters(entry).items():
        rng = entry.ranges.get(name)
        notes = [rng.text()] if rng else []
        notes += _default(default)
        parts.append(_option(name, kind) + (f" ({', '.join(notes)})" if notes else ""))
    for name, option in entry.solver_options.items():
        notes = ["solve only"] + ([option.range.text()] if option.range else [])
        parts.append(_option(name, option.metavar()) + f" ({', '.join(notes)})")
    return ", ".join(parts) if parts else "no options"


def _option(name: str, kind: str) -> str:
    flag = "--" + name.replace("_", "-")
    return f"{flag} {kind}" if kind else flag


def _default(value: Any) -> list[str]:
    if value is inspect.Parameter.empty or value in ("", None, False):
        return []
    if isinstance(value, tuple):
        value = ",".join(map(str, value))
    return [f"default {value}"]


@functools.cache
def options_epilog() -> str:
    """Every game's options, one paragraph each, for ``solve --help`` (and ``play``)."""
    from gamesearch.games import entries

    lines = ["Game options go after the game (solve nim --piles 3,4,5 --misere); "
             "those marked 'solve only' go to the game's solver:"]
    lines += [f"{entry.name}: {options_text(entry)}" for entry in entries()]
    return "\n\n".join(lines)


def split_solve_options(entry: Any, params: dict[str, str], depth: int | None,
                        time: float | None) -> tuple[dict[str, str], dict[str, str]]:
    """(game parameters, solver options) of ``solve``; unknown options and limits that the
    game's solver would ignore are a :class:`SpecError` naming what is known."""
    accepted = set(game_parameters(entry))
    game = {k: v for k, v in params.items() if k in accepted}
    rest = {k: v for k, v in params.items() if k not in accepted}
    unknown = sorted(set(rest) - set(entry.solver_options))
    if unknown:
        shown = ", ".join("--" + k.replace("_", "-") for k in unknown)
        raise SpecError(f"solve {entry.name}: unknown option {shown}; {entry.name} takes: "
                        f"{options_text(entry)}")
    solver: dict[str, str] = {}
    for key, value in rest.items():
        option = entry.solver_options[key]
        converted = option.read(value, f"solve {entry.name}: --{key.replace('_', '-')}")
        solver[key] = ("true" if converted else "false") if option.type is bool else value
    if entry.solver is not None:
        limits = [f"--{k}" for k, v in (("depth", depth), ("time", time))
                  if v is not None and k not in entry.solver_options]
        if limits:
            raise SpecError(f"solve {entry.name}: its solver computes the exact value; "
                            f"{' and '.join(limits)} "
                            f"{'do' if len(limits) > 1 else 'does'} not apply")
    return game, solver


__all__ = ["game_parameters", "options_epilog", "options_text", "split_solve_options"]
