"""The explicit game tree's ENTRY: a tree from a JSON file (the lectures' trees)."""

from __future__ import annotations

from typing import Any

from gamesearch.entry import GameEntry


def _tree(file: str = "") -> Any:
    from gamesearch.games.tree import TreeGame, load_tree_source

    if not file:
        return TreeGame([[3, 12, 8], [2, 4, 6], [14, 5, 2]], source="classic tree")
    return load_tree_source(file)


ENTRY = GameEntry("tree", "An explicit game tree from a JSON file (file=PATH)", _tree,
                  defaults=("alphabeta",))
