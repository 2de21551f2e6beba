"""The one step upward, taken by name: the registries below the catalog (agent kinds, game
solvers) ask the catalog to register its game-specific entries when a name is missing.

Like a package's entry points, this keeps the lower layers' source free of any specific
game (the import contract checks the source) while ``make_agent("gammon")`` and
``game_entry("pig").solver`` work without the caller importing the catalog first."""

from __future__ import annotations

import importlib

CATALOG = "gamesearch.catalog"


def load_catalog() -> None:
    """Import the catalog (once; later calls are a dictionary look-up)."""
    importlib.import_module(CATALOG)
