"""``gamesearch tree``: evaluate an explicit game tree and show the search node by node.

The trace callback of the searches reports each node as it is entered, each leaf as it is
evaluated, each value as a node is left and each cut-off with the children it skipped; the
command prints them in that order. Alpha-beta runs without any move reordering (no game
order, table, killers or history), so the visit order is the textbook's left to right.
"""

from __future__ import annotations

import math
from typing import Any

import typer
from rich.table import Table

from gamesearch.cli.common import console, print_json
from gamesearch.cli.main import app
from gamesearch.errors import UnknownNameError
from gamesearch.search.textbook import TEXTBOOK_ALGORITHMS as ALGORITHMS
from gamesearch.search.textbook import textbook_search as tree_search


def trace_tree(game: Any, algorithm: str, depth: int | None = None) -> dict[str, Any]:
    """Search a TreeGame, recording every trace event: value, leaves, visits and pruning."""
    search = tree_search(algorithm)
    visits: list[dict[str, Any]] = []
    pruned: list[str] = []
    pruned_leaves = 0

    def trace(event: str, state: int, **data: Any) -> None:
        nonlocal pruned_leaves
        node = game.nodes[state]
        if event == "prune" and not data.get("pruned"):
            return  # the cut-off came at the last child: nothing was skipped
        visit: dict[str, Any] = {"event": event, "node": node.name,
                                 "depth": _depth(game, state)}
        if node.children:
            visit["player"] = game.player_name(node.player)
        for key in ("value", "alpha", "beta"):
            if key in data and data[key] is not None:
                visit[key] = _number(data[key])
        if event == "prune":
            skipped = [node.children[a] for a in data.get("pruned", [])]
            visit["pruned"] = [game.nodes[c].name for c in skipped]
            pruned.extend(visit["pruned"])
            pruned_leaves += sum(_leaves(game, c) for c in skipped)
        visits.append(visit)

    result = search(game, game.initial_state(), depth=depth, trace=trace)
    leaves = sum(v["event"] == "leaf" for v in visits)
    root = game.initial_state()
    return {
        "value": _number(result.value),
        "action": (game.action_to_string(root, result.action)
                   if result.action is not None else None),
        "algorithm": algorithm,
        "leaves_evaluated": leaves,
        "leaves_total": _leaves(game, root),
        "pruned": pruned,
        "pruned_leaves": pruned_leaves,
        "visits": visits,
    }


@app.command("tree")
def tree_command(
    source: str = typer.Argument(..., metavar="FILE",
                                 help="a JSON tree file, or the JSON itself, e.g. "
                                      "'[[3,12,8],[2,4,6],[14,5,2]]'"),
    algorithm: str = typer.Option("alphabeta", "--algorithm", "-a",
                                  help="minimax, alphabeta, expectimax or expectiminimax"),
    depth: int | None = typer.Option(None, "--depth", min=0, max=1000,
                                     help="depth limit (cut-off nodes need an 'eval')"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Evaluate an explicit game tree and show the search node by node.

    In the order the algorithm visited them: each node's value (with
    alpha and beta for alpha-beta) and the children it pruned.
    FILE may also be the JSON itself:

    gamesearch tree "[[3,12,8],[2,4,6],[14,5,2]]"   (value 3, 2 leaves pruned)
    """
    from gamesearch.games.tree import load_tree_source

    name = algorithm.strip().lower()
    if name not in ALGORITHMS:
        raise UnknownNameError(f"unknown algorithm {algorithm!r}; choose one of "
                               f"{', '.join(ALGORITHMS)}")
    game = load_tree_source(source)
    report = trace_tree(game, name, depth)
    if json_out:
        print_json(report)
        return
    _print_report(report, show_window=name == "alphabeta")


def _print_report(report: dict[str, Any], show_window: bool) -> None:
    table = Table(title=f"{report['algorithm']}: nodes in the order visited")
    table.add_column("#", justify="right")
    table.add_column("node")
    table.add_column("player")
    table.add_column("event")
    table.add_column("value", justify="right")
    if show_window:
        table.add_column("alpha", justify="right")
        table.add_column("beta", justify="right")
    show_pruned = bool(report["pruned"])
    if show_pruned:
        table.add_column("pruned")
    words = {"enter": "enter", "leaf": "leaf", "exit": "value", "prune": "cut-off"}
    for i, v in enumerate(report["visits"], 1):
        row = [str(i), "  " * v["depth"] + v["node"], v.get("player", ""), words.get(v["event"],
               v["event"]), _show(v.get("value"))]
        if show_window:
            row += [_show(v.get("alpha")), _show(v.get("beta"))]
        if show_pruned:
            row.append(", ".join(v.get("pruned", [])))
        table.add_row(*row)
    console.print(table)
    console.print(f"[bold]value[/]: {_show(report['value'])}   [bold]best move[/]: "
                  f"{report['action']}")
    console.print(f"[bold]leaves evaluated[/]: {report['leaves_evaluated']} of "
                  f"{report['leaves_total']}")
    if report["pruned"]:
        console.print(f"[bold]pruned[/]: {', '.join(report['pruned'])} "
                      f"({report['pruned_leaves']} leaves never looked at)")


def _depth(game: Any, state: int) -> int:
    d, node = 0, game.nodes[state]
    while node.parent is not None:
        d += 1
        node = game.nodes[node.parent]
    return d


def _leaves(game: Any, state: int) -> int:
    node = game.nodes[state]
    return 1 if not node.children else sum(_leaves(game, c) for c in node.children)


def _number(x: Any) -> Any:
    """JSON-safe numbers: integers where exact, infinities as the strings '-inf'/'inf'."""
    if isinstance(x, tuple):
        return [_number(v) for v in x]
    if isinstance(x, float):
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        if x.is_integer():
            return int(x)
        return round(x, 10)
    return x


def _show(x: Any) -> str:
    if x is None:
        return ""
    if isinstance(x, float):
        return f"{x:g}"
    return str(x)


__all__ = ["ALGORITHMS", "trace_tree", "tree_search"]
