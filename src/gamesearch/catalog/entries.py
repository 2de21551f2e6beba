"""Collecting the games' entries: every engine's ``ENTRY`` (or ``ENTRIES``), built in and
from installed packages, registered into the game and agent registries.

Built-in engines are the modules and packages of ``gamesearch.engines``; an installed
package adds a game by naming its entry object in the entry-point group ``gamesearch.games``
of its own metadata (``examples/`` has one). Nothing here names a game.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
from collections.abc import Iterable, Iterator
from importlib import metadata

from gamesearch.agents import AGENTS, register_agent
from gamesearch.entry import GameEntry, Needs
from gamesearch.games import REGISTRY, register

LOG = logging.getLogger("gamesearch")

GROUP = "gamesearch.games"
"""The entry-point group of installed games: ``name = "package.module:ENTRY"``."""


def _entries_of(obj: object, where: str) -> list[GameEntry]:
    """An ``ENTRY``, a sequence of entries, or a module exporting ``ENTRY``/``ENTRIES``."""
    if isinstance(obj, GameEntry):
        return [obj]
    if hasattr(obj, "ENTRY") or hasattr(obj, "ENTRIES"):
        found = [obj.ENTRY] if hasattr(obj, "ENTRY") else list(obj.ENTRIES)
    elif isinstance(obj, (list, tuple)):
        found = list(obj)
    else:
        found = []
    bad = [e for e in found if not isinstance(e, GameEntry)]
    if bad or not found:
        raise TypeError(f"{where}: expected a GameEntry (or ENTRY/ENTRIES of them), got "
                        f"{type(bad[0] if bad else obj).__name__}")
    return found


def builtin_entries() -> Iterator[GameEntry]:
    """The entries of the engines that ship with gamesearch (``gamesearch.engines.*``)."""
    import gamesearch.engines as engines

    for info in sorted(pkgutil.iter_modules(engines.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{engines.__name__}.{info.name}")
        if hasattr(module, "ENTRY") or hasattr(module, "ENTRIES"):
            yield from _entries_of(module, module.__name__)


def installed_entries() -> Iterator[GameEntry]:
    """The entries that installed packages declare in the ``gamesearch.games`` group. A
    package that fails to load is reported on standard error and left out: a broken plugin
    must not take the built-in games down with it."""
    for point in metadata.entry_points(group=GROUP):
        try:
            yield from _entries_of(point.load(), f"entry point {point.name!r}")
        except Exception as err:  # noqa: BLE001  (any error of someone else's package)
            LOG.warning(f"gamesearch: game plugin {point.name!r} ({point.value}) not loaded: "
                        f"{type(err).__name__}: {err}")


def add(entries: Iterable[GameEntry]) -> None:
    """Register each entry's game and its own agent kinds (they play that game only)."""
    for entry in entries:
        if entry.name in REGISTRY and REGISTRY[entry.name] is not entry:
            LOG.warning(f"gamesearch: a second game named {entry.name!r} was left out")
            continue
        register(entry)
        for decl in entry.agents:
            owner = AGENTS.get(decl.name)
            if owner is not None and entry.name not in owner.needs.games:
                LOG.warning(f"gamesearch: {entry.name}'s agent {decl.name!r} was left out "
                            "(the name is taken)")
                continue
            games = tuple(sorted({*(owner.needs.games if owner else ()), entry.name}))
            register_agent(decl.name, decl.factory, decl.summary,
                           needs=Needs(games=games, seats=decl.seats), outside=decl.outside)


def collect() -> None:
    """Register every built-in entry, then every installed one."""
    add(builtin_entries())
    add(installed_entries())
