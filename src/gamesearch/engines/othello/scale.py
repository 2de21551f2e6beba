"""How the Othello engine's and solver's values read (its ENTRY's ``scale``): a module of
its own so that the ENTRY, the agent and the solver share it without importing each other."""

from __future__ import annotations

from gamesearch.result import ValueScale

VALUE_SCALE = ValueScale("discs", 5.0)
"""The final disc margin for the side to move (exact from the solver), or the learned
evaluation's estimate of it; an estimate of 5 discs reads as a 73% chance."""
