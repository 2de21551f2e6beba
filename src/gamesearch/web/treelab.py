"""The tree lab's engine: run a search on an explicit tree and record what it does.

The tree arrives in games/tree.py's object form. Node ids are the TreeGame's node indices,
given in pre-order (a node before its children, children left to right), the same order the
page numbers its own drawing in. Every trace event of the search becomes one step the page
can replay: "enter", "leaf", "exit", "prune" (with the pruned children's ids).
"""

from __future__ import annotations

import math
from typing import Any

from gamesearch.errors import GameSearchError
from gamesearch.game import CHANCE
from gamesearch.search.textbook import CHANCE_MODULE, Unavailable, available, textbook_search
from gamesearch.search.textbook import TEXTBOOK_ALGORITHMS as ALGORITHMS

__all__ = ["ALGORITHMS", "CHANCE_MODULE", "Unavailable", "available", "build", "run_tree"]

MAX_TREE_NODES = 400
MAX_TREE_DEPTH = 12


def check_shape(data: Any) -> int:
    """Count nodes and depth of a tree in object or list form before building it, so that
    an oversized or too deep tree is refused with a message (and never recursed into)."""
    count, stack = 0, [(data, 0)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > MAX_TREE_NODES:
            raise GameSearchError(f"tree too large: more than {MAX_TREE_NODES} nodes")
        if depth > MAX_TREE_DEPTH:
            raise GameSearchError(f"tree too deep: more than {MAX_TREE_DEPTH} levels")
        children = None
        if isinstance(node, dict):
            children = node.get("children", node.get("root") if depth == 0 else None)
            if children is not None and not isinstance(children, list):
                children = [children] if isinstance(children, dict) else None
        elif isinstance(node, list):
            children = node
        for child in children or ():
            stack.append((child, depth + 1))
    return count


def build(data: Any):
    """A TreeGame from request data (size checked first)."""
    from gamesearch.games.tree import TreeGame

    check_shape(data)
    return TreeGame(data, source="tree")


def layout(game: Any) -> list[dict]:
    """The nodes as plain data: id, name, player, parent, children, label, value."""
    out = []
    for i, node in enumerate(game.nodes):
        item: dict[str, Any] = {
            "id": i, "name": node.name, "player": _player(node.player) if node.children
            else "leaf", "parent": node.parent, "children": list(node.children),
        }
        if node.parent is not None:
            parent = game.nodes[node.parent]
            k = parent.children.index(i)
            item["label"] = parent.labels[k]
            if parent.player == CHANCE:
                item["probability"] = parent.probabilities[k]
        if not node.children:
            v = node.value
            item["value"] = list(v) if isinstance(v, tuple) else _number(v)
        elif node.estimate is not None:
            item["eval"] = node.estimate
        out.append(item)
    return out


def run_tree(data: Any, algorithm: str, depth: int | None = None) -> dict:
    """Search the tree with ``algorithm`` and return its nodes, its steps and its answer."""
    if algorithm not in ALGORITHMS:
        raise GameSearchError(f"unknown algorithm {algorithm!r}; use one of "
                              f"{', '.join(ALGORITHMS)}")
    game = build(data)
    steps: list[dict] = []

    def trace(event: str, state: int, **info: Any) -> None:
        step: dict[str, Any] = {"type": event, "node": state}
        for key, value in info.items():
            if key == "pruned":
                kids = game.nodes[state].children
                step["pruned"] = [kids[a] for a in value]
                if not step["pruned"]:  # a cut-off after the last child prunes nothing
                    return
            elif key == "player":
                step["player"] = _player(value)
            else:
                step[key] = _number(value)
        steps.append(step)

    result = textbook_search(algorithm)(game, 0, depth=depth, trace=trace)
    pv_nodes, s = [0], 0
    for action in result.pv:
        s = game.result(s, action)
        pv_nodes.append(s)
    return {"algorithm": algorithm, "nodes": layout(game), "steps": steps,
            "value": _number(result.value), "pv": pv_nodes,
            "stats": result.stats.as_dict()}


def _player(player: int) -> Any:
    return {0: "max", 1: "min", CHANCE: "chance"}.get(player, player)


def _number(value: Any) -> Any:
    """JSON has no infinities: write them as "inf" / "-inf"; tuples become lists."""
    if isinstance(value, tuple):
        return [_number(v) for v in value]
    if isinstance(value, float):
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        if math.isnan(value):
            return None
        return int(value) if value.is_integer() else round(value, 6)
    return value
