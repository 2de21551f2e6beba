"""Game-tree test cases in the plain-text format of the Pacman course's multi-agent project.

A case is a list of ``key: "value"`` lines, with multi-line values between triple quotes
and ``#`` comments::

    alg: "AlphaBetaAgent"          # MinimaxAgent, AlphaBetaAgent or ExpectimaxAgent
    depth: "1"                     # full rounds: every agent moves once per round
    num_agents: "2"                # agent 0 (Pacman, MAX) then agents 1.. (ghosts)
    start_state: "A"
    successors: \"\"\"
    A Left B
    A Right C
    \"\"\"
    evaluation: \"\"\"
    B 3
    C 5
    \"\"\"
    expected_value: "5"            # what the algorithm returns at the start state
    expected_action: "Right"
    expected_visited: "A B C"      # every state the search looked at, in order

The agent moving at a state is its depth modulo ``num_agents``. States without successors
(and states named in ``win_states`` / ``lose_states``) are terminal and need an evaluation;
an inner state's evaluation is used where the depth limit cuts the search. Alpha-beta runs in
the course's strict form (no pruning on equality; :mod:`gamesearch.search.strict_alphabeta`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from gamesearch.errors import FileFormatError
from gamesearch.games.tree import MAX_TREE_NESTING, TreeGame
from gamesearch.textinput import read_text

ALGORITHMS = {"MinimaxAgent": "minimax", "AlphaBetaAgent": "alphabeta",
              "ExpectimaxAgent": "expectimax"}
_LINE = re.compile(r'^([A-Za-z_][A-Za-z0-9_]*):\s*"(.*)"\s*$')
_BLOCK = re.compile(r'^([A-Za-z_][A-Za-z0-9_]*):\s*"""\s*$')


def parse_fields(text: str, source: str = "test") -> dict[str, str]:
    """The ``key: "value"`` and triple-quoted fields of a case file."""
    fields: dict[str, str] = {}
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.split("#", 1)[0].strip() if '"""' not in line else line.strip()
        i += 1
        if not stripped:
            continue
        block = _BLOCK.match(stripped)
        if block:
            body = []
            while i < len(lines) and lines[i].strip() != '"""':
                body.append(lines[i])
                i += 1
            if i >= len(lines):
                raise FileFormatError(f"{source}: line {i}: field {block.group(1)!r} never "
                                      'closes its """')
            i += 1
            fields[block.group(1)] = "\n".join(body)
            continue
        match = _LINE.match(stripped)
        if not match:
            raise FileFormatError(f"{source}: line {i}: expected key: \"value\", got "
                                  f"{line.strip()!r}")
        fields[match.group(1)] = match.group(2)
    return fields


@dataclass
class CourseTreeCase:
    """One parsed case: the tree as a :class:`TreeGame`, the algorithm, and expectations."""

    source: str
    algorithm: str
    depth: int
    num_agents: int
    game: TreeGame
    expected_value: float | None = None
    expected_action: str | None = None
    expected_visited: list[str] | None = None
    names: list[str] = field(default_factory=list)

    def run(self) -> tuple[float, str | None, list[str]]:
        """Run the algorithm: (value, action at the start, states visited in order)."""
        from gamesearch.search.chance import expectimax
        from gamesearch.search.minimax import minimax
        from gamesearch.search.strict_alphabeta import alphabeta_strict

        visited: list[str] = []

        def trace(event: str, state: int, **data) -> None:
            if event in ("enter", "leaf"):
                visited.append(self.game.node_name(state))

        search = {"minimax": minimax, "alphabeta": alphabeta_strict,
                  "expectimax": expectimax}[self.algorithm]
        result = search(self.game, 0, depth=self.depth * self.num_agents, trace=trace)
        action = None if result.action is None else self.game.action_to_string(0, result.action)
        return result.value, action, visited


def read_case(path: str | Path) -> CourseTreeCase:
    """Read a case file; errors name the file and what is wrong."""
    path = Path(path)
    return parse_case(read_text(path, "test case"), source=path.name)


def parse_case(text: str, source: str = "test") -> CourseTreeCase:
    """Parse a case from its text."""
    fields = parse_fields(text, source)
    for key in ("alg", "depth", "num_agents", "start_state", "successors", "evaluation"):
        if key not in fields:
            raise FileFormatError(f"{source}: missing field {key!r}")
    if fields["alg"] not in ALGORITHMS:
        raise FileFormatError(f"{source}: alg {fields['alg']!r} is not one of "
                              f"{', '.join(ALGORITHMS)}")
    depth = _integer(fields["depth"], "depth", source)
    agents = _integer(fields["num_agents"], "num_agents", source)
    children: dict[str, list[tuple[str, str]]] = {}
    for n, line in enumerate(fields["successors"].splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 3:
            raise FileFormatError(f"{source}: successors line {n}: expected 'STATE ACTION "
                                  f"NEXT', got {line.strip()!r}")
        children.setdefault(parts[0], []).append((parts[1], parts[2]))
    values: dict[str, float] = {}
    for n, line in enumerate(fields["evaluation"].splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split()
        try:
            values[parts[0]] = float(parts[1])
            assert len(parts) == 2
        except (IndexError, ValueError, AssertionError):
            raise FileFormatError(f"{source}: evaluation line {n}: expected 'STATE NUMBER', "
                                  f"got {line.strip()!r}") from None
    terminal = set(fields.get("win_states", "").split()) | set(
        fields.get("lose_states", "").split())
    seen: set[str] = set()

    def node(name: str, level: int) -> dict:
        if level >= MAX_TREE_NESTING // 2:  # each level is an object and a children list
            raise FileFormatError(f"{source}: the tree is more than {level} levels deep; the "
                                  f"limit is {MAX_TREE_NESTING // 2}")
        if name in seen:
            raise FileFormatError(f"{source}: state {name!r} is reached twice (a tree is "
                                  "needed)")
        seen.add(name)
        kids = [] if name in terminal else children.get(name, [])
        if not kids:
            if name not in values:
                raise FileFormatError(f"{source}: leaf state {name!r} has no evaluation")
            return {"name": name, "value": values[name]}
        data = {"name": name, "player": level % agents,
                "children": [{**node(child, level + 1), "action": action}
                             for action, child in kids]}
        if name in values:
            data["eval"] = values[name]
        return data

    tree = TreeGame(node(fields["start_state"], 0), source=source)
    visited = fields.get("expected_visited")
    value = fields.get("expected_value")
    return CourseTreeCase(
        source=source, algorithm=ALGORITHMS[fields["alg"]], depth=depth, num_agents=agents,
        game=tree, expected_value=None if value is None else _number(value, source),
        expected_action=fields.get("expected_action"),
        expected_visited=None if visited is None else visited.split())


def _number(text: str, source: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise FileFormatError(f"{source}: expected_value {text!r} is not a number") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise FileFormatError(f"{source}: expected_value {text!r} is not a finite number")
    return value


def _integer(text: str, key: str, source: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise FileFormatError(f"{source}: {key} {text!r} is not an integer") from None
    if value < 1:
        raise FileFormatError(f"{source}: {key} must be at least 1, got {value}")
    return value
