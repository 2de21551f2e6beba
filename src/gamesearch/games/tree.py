"""Explicit game trees, as the lectures draw them, read from JSON.

Two forms are accepted.

List form: a leaf is a number, an inner node a list of children; the root is MAX and the
levels alternate MAX, MIN, MAX, ... The lectures' classic example
``[[3, 12, 8], [2, 4, 6], [14, 5, 2]]`` has minimax value 3.

Object form: nodes are objects and may be named, typed and weighted::

    {"name": "A", "player": "max", "children": [
        {"name": "B", "player": "chance", "children": [
            {"name": "b1", "probability": 0.5, "value": 3},
            {"name": "b2", "probability": 0.5, "value": 7}]},
        {"name": "C", "action": "right", "value": 4}]}

``player`` is "max", "min", "chance" or a number (0 is MAX; 1, 2, ... are MIN agents, so
several MIN layers can follow each other, as in Pacman with two ghosts). Omitted, it
alternates MAX/MIN with depth. A leaf's ``value`` is MAX's utility (zero-sum), or a list of
one utility per player (general-sum). ``eval`` on an inner node gives a heuristic value for
depth-limited search. Children of a chance node carry ``probability``; they must sum to 1.
The whole file may also be ``{"root": NODE}``.

A state is the index of a node; actions are child positions (0, 1, ...), written with the
child's ``action`` label or its name.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamesearch.errors import FileFormatError, GameSearchError
from gamesearch.game import CHANCE, Game, check_chance_outcomes
from gamesearch.textinput import MAX_JSON_DEPTH, load_json, nesting_depth, read_text

MAX, MIN = 0, 1

MAX_TREE_NESTING = MAX_JSON_DEPTH
"""Deeper trees are refused before they are built (lists and objects nested, so an
object-form tree may be half as many levels deep)."""


@dataclass
class Node:
    """One node of an explicit tree."""

    name: str
    player: int  # 0 = MAX, 1.. = MIN agents, CHANCE
    children: list[int] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    probabilities: list[float] = field(default_factory=list)
    value: float | tuple[float, ...] | None = None
    estimate: float | None = None
    parent: int | None = None


class TreeGame(Game):
    """A game whose whole tree is given explicitly (from JSON, a list, or a dict)."""

    name = "tree"

    def __init__(self, tree: Any, source: str = "tree") -> None:
        self.source = source
        self.nodes: list[Node] = []
        if isinstance(tree, dict) and "root" in tree and "children" not in tree:
            tree = tree["root"]
        depth = nesting_depth(tree)
        if depth > MAX_TREE_NESTING:
            raise FileFormatError(f"{source}: the tree nests {depth} levels deep; the limit "
                                  f"is {MAX_TREE_NESTING} (the searches recurse once a level)")
        self._build(tree, depth=0, path="root", parent=None, label="", implicit=None)
        players = {n.player for n in self.nodes if n.children and n.player != CHANCE}
        vectors = {len(n.value) for n in self.nodes if isinstance(n.value, tuple)}
        self.num_players = max([2, *(p + 1 for p in players), *vectors])
        if len(vectors) > 1:
            raise FileFormatError(f"{source}: leaf utility lists differ in length: {vectors}")
        self.zero_sum = not vectors
        self.has_chance = any(n.player == CHANCE and n.children for n in self.nodes)

    # --- construction ----------------------------------------------------------------
    def _build(self, spec: Any, depth: int, path: str, parent: int | None, label: str,
               implicit: int | None) -> int:
        where = f"{self.source}: node {path}"
        index = len(self.nodes)
        default_player = implicit if implicit is not None else (MAX if depth % 2 == 0 else MIN)
        if isinstance(spec, bool):
            raise FileFormatError(f"{where}: a leaf must be a number, got {spec!r}")
        if isinstance(spec, (int, float)):
            self._check_number(spec, where)
            self.nodes.append(Node(name=path, player=default_player, value=spec,
                                   parent=parent, labels=[]))
            return index
        if isinstance(spec, list):
            if not spec:
                raise FileFormatError(f"{where}: an inner node needs at least one child")
            node = Node(name=path, player=default_player, parent=parent)
            self.nodes.append(node)
            for i, child in enumerate(spec):
                child_path = f"{i + 1}" if path == "root" else f"{path}.{i + 1}"
                node.children.append(self._build(child, depth + 1, child_path, index, "", None))
                node.labels.append(str(i + 1))
            return index
        if isinstance(spec, dict):
            return self._build_object(spec, depth, path, parent, where, default_player)
        raise FileFormatError(f"{where}: expected a number, a list or an object, "
                              f"got {type(spec).__name__}")

    def _build_object(self, spec: dict, depth: int, path: str, parent: int | None,
                      where: str, default_player: int) -> int:
        known = {"name", "player", "children", "value", "eval", "action", "probability"}
        unknown = set(spec) - known
        if unknown:
            raise FileFormatError(f"{where}: unknown keys {sorted(unknown)}; "
                                  f"allowed: {sorted(known)}")
        name = str(spec.get("name", path))
        where = f"{self.source}: node {name!r}"
        player = self._player(spec.get("player"), default_player, where)
        index = len(self.nodes)
        node = Node(name=name, player=player, parent=parent)
        self.nodes.append(node)
        children = spec.get("children")
        if children is None:
            if "value" not in spec:
                raise FileFormatError(f"{where}: a leaf needs a 'value'")
            node.value = self._leaf_value(spec["value"], where)
            return index
        if "value" in spec:
            raise FileFormatError(f"{where}: a node has either 'children' or a 'value'")
        if not isinstance(children, list) or not children:
            raise FileFormatError(f"{where}: 'children' must be a non-empty list")
        if "eval" in spec:
            self._check_number(spec["eval"], where)
            node.estimate = float(spec["eval"])
        for i, child in enumerate(children):
            child_path = f"{name}.{i + 1}"
            label = ""
            if isinstance(child, dict):
                label = str(child.get("action", child.get("name", "")))
                if player == CHANCE:
                    p = child.get("probability")
                    if p is None:
                        raise FileFormatError(f"{where}: child {i + 1} of a chance node "
                                              "needs a 'probability'")
                    node.probabilities.append(p)
                elif "probability" in child:
                    raise FileFormatError(f"{where}: 'probability' on a child of a "
                                          "non-chance node")
            elif player == CHANCE:
                raise FileFormatError(f"{where}: children of a chance node must be objects "
                                      "with a 'probability'")
            next_player = MIN if player == MAX else MAX
            if player == CHANCE:
                next_player = None  # the depth parity decides
            node.children.append(
                self._build(child, depth + 1, child_path, index, label, next_player)
            )
            node.labels.append(label or str(i + 1))
        if player == CHANCE:
            try:
                node.probabilities = [float(p) for p in node.probabilities]
                check_chance_outcomes(zip(range(len(children)), node.probabilities), where)
            except (TypeError, ValueError) as err:
                raise FileFormatError(f"{where}: bad probabilities: {err}") from None
            except GameSearchError as err:
                raise FileFormatError(str(err)) from None
        if len(set(node.labels)) != len(node.labels):
            raise FileFormatError(f"{where}: two children share the action label; labels "
                                  f"{node.labels}")
        return index

    @staticmethod
    def _player(value: Any, default: int, where: str) -> int:
        if value is None:
            return default
        if isinstance(value, str):
            named = {"max": MAX, "min": MIN, "chance": CHANCE}
            if value.lower() not in named:
                raise FileFormatError(f"{where}: player {value!r} is not max, min, chance or "
                                      "a number")
            return named[value.lower()]
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
        raise FileFormatError(f"{where}: player {value!r} is not max, min, chance or a number")

    def _leaf_value(self, value: Any, where: str) -> float | tuple[float, ...]:
        if isinstance(value, list):
            if not value:
                raise FileFormatError(f"{where}: a 'value' list needs one utility per player")
            for v in value:
                self._check_number(v, where)
            return tuple(value)
        self._check_number(value, where)
        return value

    @staticmethod
    def _check_number(value: Any, where: str) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (
            isinstance(value, float) and not math.isfinite(value)
        ):
            raise FileFormatError(f"{where}: value {value!r} is not a finite number")

    # --- loading ---------------------------------------------------------------------
    @classmethod
    def from_file(cls, path: str | Path) -> TreeGame:
        """Read a tree from a JSON file; errors name the file and what is wrong."""
        text = read_text(path, "tree file")  # the name as given: "" is no name, not "."
        return cls.from_json(text, source=Path(path).name)

    @classmethod
    def from_json(cls, text: str, source: str = "tree") -> TreeGame:
        """Parse a tree from JSON text."""
        return cls(load_json(text, source), source=source)

    # --- the formalization ------------------------------------------------------------
    def initial_state(self) -> int:
        return 0

    def to_move(self, state: int) -> int:
        return self.nodes[state].player

    def actions(self, state: int) -> list[int]:
        return list(range(len(self.nodes[state].children)))

    def result(self, state: int, action: int) -> int:
        return self.nodes[state].children[action]

    def is_terminal(self, state: int) -> bool:
        return not self.nodes[state].children

    def utilities(self, state: int) -> tuple[float, ...]:
        value = self.nodes[state].value
        if isinstance(value, tuple):
            return value
        n = self.num_players
        return (value, *([-value] * (n - 1)))

    def chance_outcomes(self, state: int) -> list[tuple[int, float]]:
        node = self.nodes[state]
        if node.player != CHANCE:
            raise GameSearchError(f"node {node.name!r} is not a chance node")
        return list(zip(range(len(node.children)), node.probabilities))

    def evaluate(self, state: int, player: int) -> float:
        """An inner node's ``eval``: the heuristic value a depth-limited search sees."""
        node = self.nodes[state]
        if node.estimate is None:
            raise GameSearchError(f"node {node.name!r} has no 'eval': a depth limit on this "
                                  "tree needs one at every cut-off node")
        return node.estimate if player == MAX else -node.estimate

    # --- people ---------------------------------------------------------------------
    def action_to_string(self, state: int, action: int) -> str:
        return self.nodes[state].labels[action]

    def node_name(self, state: int) -> str:
        """The node's name (its path such as ``2.1`` when the file gives none)."""
        return self.nodes[state].name

    def render(self, state: int) -> str:
        node = self.nodes[state]
        if node.children:
            who = self.player_name(node.player)
            return f"node {node.name} ({who}), {len(node.children)} children"
        return f"leaf {node.name} = {node.value}"

    def player_name(self, player: int) -> str:
        if player == CHANCE:
            return "chance"
        if player == MAX:
            return "MAX"
        return "MIN" if self.num_players == 2 else f"MIN{player}"

    def to_data(self, state: int = 0) -> Any:
        """The tree below ``state`` in the object form (for saving and the web)."""
        node = self.nodes[state]
        data: dict[str, Any] = {"name": node.name, "player": self._player_text(node.player)}
        if not node.children:
            v = node.value
            return {"name": node.name, "value": list(v) if isinstance(v, tuple) else v}
        if node.estimate is not None:
            data["eval"] = node.estimate
        kids = []
        for i, child in enumerate(node.children):
            c = self.to_data(child)
            c["action"] = node.labels[i]
            if node.player == CHANCE:
                c["probability"] = node.probabilities[i]
            kids.append(c)
        data["children"] = kids
        return data

    @staticmethod
    def _player_text(player: int) -> Any:
        return {MAX: "max", MIN: "min", CHANCE: "chance"}.get(player, player)

    def __repr__(self) -> str:
        return f"TreeGame({self.source!r}, {len(self.nodes)} nodes)"

    def _repr_svg_(self) -> str:
        """The tree as a picture in Jupyter (the engine's drawing, found through the
        game's ENTRY: the rules do not draw)."""
        from gamesearch.games import game_entry

        return str(game_entry("tree").svg(self, self.initial_state(), None, ()))


def random_tree(rng: Any, depth: int, branching: tuple[int, int] = (1, 4),
                values: tuple[int, int] = (-20, 20), chance: float = 0.0) -> Any:
    """A random tree in object form (for property tests): chance nodes with probability
    ``chance`` at each inner node, uniform integer leaves."""
    def node(d: int, player: str) -> dict:
        if d == 0:
            return {"value": rng.randint(*values)}
        kind = "chance" if chance and rng.random() < chance else player
        nxt = "min" if player == "max" else "max"
        n = rng.randint(*branching)
        children = [node(d - 1, nxt) for _ in range(n)]
        if kind == "chance":
            weights = [rng.randint(1, 5) for _ in range(n)]
            total = sum(weights)
            for c, w in zip(children, weights):
                c["probability"] = w / total
            # make the sum exactly 1 despite rounding
            children[-1]["probability"] = 1 - sum(c["probability"] for c in children[:-1])
        return {"player": kind, "children": children}

    return node(depth, "max")


def load_tree_source(text_or_path: str) -> TreeGame:
    """A tree from a file path, or from JSON text given inline (starts with '[' or '{')."""
    stripped = text_or_path.strip()
    if stripped.startswith(("[", "{")):
        return TreeGame.from_json(stripped, source="inline tree")
    return TreeGame.from_file(text_or_path)
