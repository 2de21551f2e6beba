"""The lectures' trees the tree lab can load, in games/tree.py's object or list form."""

from __future__ import annotations

from typing import Any

TREES: dict[str, dict[str, Any]] = {
    "classic": {
        "title": "The classic 3x3 tree (AIMA fig. 5.2): minimax value 3, alpha-beta prunes "
                 "two leaves",
        "tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]],
    },
    "deep": {
        "title": "A binary tree of depth 4 (MAX, MIN, MAX, MIN): cut-offs at several levels",
        "tree": [[[[3, 17], [2, 12]], [[15, 25], [0, 2]]],
                 [[[2, 5], [3, 7]], [[8, 1], [9, 4]]]],
    },
    "chance": {
        "title": "Chance nodes (AIMA fig. 5.12, left): MAX chooses between two lotteries "
                 "worth 2.1 and 1.3",
        "tree": {"player": "max", "children": [
            {"player": "chance", "action": "a1", "children": [
                {"probability": 0.9, "player": "min", "children": [2, 2]},
                {"probability": 0.1, "player": "min", "children": [3, 3]}]},
            {"player": "chance", "action": "a2", "children": [
                {"probability": 0.9, "player": "min", "children": [1, 1]},
                {"probability": 0.1, "player": "min", "children": [4, 4]}]},
        ]},
    },
    "two-min": {
        "title": "Two MIN layers (Pacman and two ghosts): MAX, then MIN 1, then MIN 2",
        "tree": {"player": "max", "children": [
            {"player": 1, "children": [
                {"player": 2, "children": [{"value": 4}, {"value": 6}]},
                {"player": 2, "children": [{"value": 7}, {"value": 9}]}]},
            {"player": 1, "children": [
                {"player": 2, "children": [{"value": 8}, {"value": 3}]},
                {"player": 2, "children": [{"value": 5}, {"value": 10}]}]},
        ]},
    },
}
