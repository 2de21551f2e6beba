"""How the Pig engine's values read (its ENTRY's ``scale``): a module of its own so that the
ENTRY and the agent share it without importing each other."""

from __future__ import annotations

from gamesearch.result import ValueScale

VALUE_SCALE = ValueScale("win-probability")
"""The solved table's values: the mover's probability of winning under optimal play."""
