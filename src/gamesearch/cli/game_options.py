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
from gamesearch.spec import Option, type_text


def game_parameters(entry: Any) -> dict[str, tuple[str, Any]]:
    """A game's parameters: name -> (type in words, default)."""
    hints = typing.get_type_hints(entry.factory)
    return {name: (type_text(hints.get(name, str)), p.default)
            for name, p in inspect.signature(entry.factory).parameters.items()}


def options_text(entry: Any, command: str = "solve",
                 declared: dict[str, Option] | None = None) -> str:
    """The game's options as help shows them: ``--piles INTS (0..1000, default 3,4,5)``;
    a command's own options (``declared``, by default the solver's) say ``solve only``."""
    parts = []
    for name, (kind, default) in game_parameters(entry).items():
        rng = entry.ranges.get(name)
        notes = [rng.text()] if rng else []
        notes += _default(default)
        parts.append(_option(name, kind) + (f" ({', '.join(notes)})" if notes else ""))
    own = entry.solver_options if declared is None else declared
    for name, option in own.items():
        notes = [f"{command} only"] + ([option.range.text()] if option.range else [])
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


def split_options(entry: Any, params: dict[str, str], command: str,
                  declared: dict[str, Option]) -> tuple[dict[str, str], dict[str, str]]:
    """(game parameters, the command's own options) of ``command`` for this game, its own
    being ``declared`` by the game's entry (``solver_options``, an analyzer's options);
    an unknown option is a :class:`SpecError` naming what is known."""
    accepted = set(game_parameters(entry))
    game = {k: v for k, v in params.items() if k in accepted}
    rest = {k: v for k, v in params.items() if k not in accepted}
    unknown = sorted(set(rest) - set(declared))
    if unknown:
        shown = ", ".join("--" + k.replace("_", "-") for k in unknown)
        raise SpecError(f"{command} {entry.name}: unknown option {shown}; {entry.name} takes: "
                        f"{options_text(entry, command, declared)}")
    own: dict[str, str] = {}
    for key, value in rest.items():
        option = declared[key]
        converted = option.read(value, f"{command} {entry.name}: --{key.replace('_', '-')}")
        own[key] = ("true" if converted else "false") if option.type is bool else value
    return game, own


def split_solve_options(entry: Any, params: dict[str, str], depth: int | None,
                        time: float | None) -> tuple[dict[str, str], dict[str, str]]:
    """(game parameters, solver options) of ``solve``; unknown options and limits that the
    game's solver would ignore are a :class:`SpecError` naming what is known."""
    game, solver = split_options(entry, params, "solve", entry.solver_options)
    if entry.solver is not None:
        limits = [f"--{k}" for k, v in (("depth", depth), ("time", time))
                  if v is not None and k not in entry.solver_options]
        if limits:
            raise SpecError(f"solve {entry.name}: its solver computes the exact value; "
                            f"{' and '.join(limits)} "
                            f"{'do' if len(limits) > 1 else 'does'} not apply")
    return game, solver


__all__ = ["game_parameters", "options_epilog", "options_text", "split_options",
           "split_solve_options"]
