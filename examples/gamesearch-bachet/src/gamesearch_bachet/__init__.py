"""Bachet's game for gamesearch: the rules (rules.py) and the engine with its ENTRY
(engine.py), found by gamesearch through the ``gamesearch.games`` entry point."""
