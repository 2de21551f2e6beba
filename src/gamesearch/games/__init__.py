"""The games, loaded by name: ``load_game("nim:piles=3-4-5,misere=true")``.

The registry holds one :class:`~gamesearch.entry.GameEntry` per game: its name, a one-line
summary and a factory whose annotated keyword parameters are the game's parameters, and all
its engine offers (solver, agents, defaults, warm-ups, record format). The entries are the
engines' ``ENTRY`` objects (``gamesearch.engines.<game>``, and the entry-point group
``gamesearch.games`` of installed packages); the catalog collects them on first use, so a
look-up here loads them (:func:`gamesearch.plugins.load_catalog`).

A solver is a callable ``solver(game, state, options) -> dict`` used by ``gamesearch solve``
instead of the generic search. A caller with a wall-clock budget (the web app) passes
``budget`` (seconds): a solver that can stop early honours it; one that cannot is cut off by
its caller. Unlike ``time``, which a user asks for, a budget is never refused. A face may
pass ``progress(description, done, total)``.
"""

from __future__ import annotations

from typing import Any

from gamesearch.entry import GameEntry
from gamesearch.errors import UnknownNameError
from gamesearch.game import Game
from gamesearch.plugins import load_catalog
from gamesearch.spec import call_with_params, check_params, parse_spec

REGISTRY: dict[str, GameEntry] = {}


def register(entry: GameEntry) -> GameEntry:
    """Add a game to the registry under its name (the catalog refuses a second game of a
    name before it gets here: catalog/entries.py)."""
    REGISTRY[entry.name] = entry
    return entry


def load_game(spec: str, **params: Any) -> Game:
    """A game by name with parameters: ``load_game("nim", piles=(2, 2), misere=True)`` or
    ``load_game("nim:piles=2-2,misere=true")``."""
    name, raw = parse_spec(spec)
    entry = game_entry(name)
    return call_with_params(entry.factory, {**raw, **params}, f"game {name!r}", entry.ranges)


def check_game_spec(spec: str, **params: Any) -> GameEntry:
    """The entry of the game ``spec`` names, its parameters checked as :func:`load_game`
    checks them but no game built (an unknown name or parameter, or a bad value, raises
    the same error)."""
    name, raw = parse_spec(spec)
    entry = game_entry(name)
    check_params(entry.factory, {**raw, **params}, f"game {name!r}", entry.ranges)
    return entry


def game_entry(name: str) -> GameEntry:
    """The registry entry of a game; the error lists the known names."""
    key = name.strip().lower()
    load_catalog()  # it collects the engines' entries
    if key not in REGISTRY:
        raise UnknownNameError(f"unknown game {name!r}; known games: {', '.join(sorted(REGISTRY))}")
    return REGISTRY[key]


def entries() -> list[GameEntry]:
    """Every registered game's entry, in the registry's order (the catalog loaded first)."""
    load_catalog()
    return list(REGISTRY.values())


__all__ = ["REGISTRY", "GameEntry", "check_game_spec", "entries", "game_entry", "load_game",
           "register"]
