"""The explicit game tree's ENTRY: a tree from a JSON file (the lectures' trees)."""

from __future__ import annotations

from typing import Any

from gamesearch.entry import GameEntry


def _tree(file: str = "") -> Any:
    from gamesearch.games.tree import TreeGame, load_tree_source

    if not file:
        return TreeGame([[3, 12, 8], [2, 4, 6], [14, 5, 2]], source="classic tree")
    return load_tree_source(file)


def _svg(game: Any, state: Any, lastmove: Any, arrows: Any) -> Any:
    """The whole tree as the tree lab draws it, the current node ringed; the edge of the
    last move and those of the arrows' actions drawn bold (class ``pv``)."""
    from gamesearch.drawing import TreeNode, number, tree_picture
    from gamesearch.game import CHANCE

    def child(at: int, action: Any) -> int:
        node = game.nodes[at]
        k = node.labels.index(action) if isinstance(action, str) else action
        return node.children[k]

    bold = set()
    parent = game.nodes[state].parent
    if lastmove is not None and parent is not None:
        bold |= {parent, state}
    for action in arrows:
        bold |= {state, child(state, action)}
    nodes = []
    for i, node in enumerate(game.nodes):
        kind = ("leaf" if not node.children else "chance" if node.player == CHANCE
                else "max" if node.player == 0 else "min")
        edge = ""
        if node.parent is not None:
            up = game.nodes[node.parent]
            edge = up.labels[up.children.index(i)]
        marks = tuple(m for m, on in (("current", i == state), ("pv", i in bold)) if on)
        nodes.append(TreeNode(kind, list(node.children), node.name,
                              number(node.value) if node.value is not None else "", edge,
                              marks))
    return tree_picture(nodes, title=game.source)


ENTRY = GameEntry("tree", "An explicit game tree from a JSON file (file=PATH)", _tree,
                  defaults=("alphabeta",), svg=_svg, title="Game tree")
