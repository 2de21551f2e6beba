"""What the theory commands (theory.py, efg.py, qre.py) share: reading a game the user named,
and printing numbers exactly (a fraction stays a fraction)."""

from __future__ import annotations

from typing import Any


def format_number(value: Any) -> str:
    """A number as text, exact where it is (imported on use: the theory package loads scipy,
    which would slow every other command's start-up)."""
    from gamesearch.theory.exact import format_number as exact_format

    return exact_format(value)


def json_number(value: Any) -> Any:
    """A number for JSON output (a fraction as its string), imported on use like the above."""
    from gamesearch.theory.exact import json_number as exact_json

    return exact_json(value)


def load_matrix_game(path: str):
    """A normal-form game file (.nfg, JSON or CSV payoffs)."""
    from gamesearch.theory.formats import load_normal_form

    return load_normal_form(path)


def load_tree(spec: str):
    """A tree file (JSON), inline JSON, or a game name with parameters (``nim:piles=1-2``)."""
    from gamesearch.games import load_game
    from gamesearch.games.tree import load_tree_source
    from gamesearch.textinput import path_exists

    text = spec.strip()
    if text.lower().endswith(".efg"):
        from gamesearch.theory.efg import load_efg

        return load_efg(text)
    if text.startswith(("[", "{")) or path_exists(spec) or text.endswith(".json"):
        return load_tree_source(spec)
    return load_game(spec)
