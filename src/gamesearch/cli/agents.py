"""``gamesearch agents [GAME]``: the agents, their parameters (type, range, default) and the
games they fit, from the catalog (the one place that knows which agent fits which game)."""

from __future__ import annotations

import inspect
import textwrap
import typing
from typing import Any

import typer
from rich.markup import escape
from rich.table import Table

from gamesearch.cli.common import console, print_json
from gamesearch.cli.main import app

SUMMARY_WIDTH = 100
"""An agent's summary wraps at this many columns in the table (a piped table keeps its
lines whole, so one long summary made it 440 columns wide)."""


def agent_parameters(factory: Any) -> list[dict[str, Any]]:
    """Each parameter of an agent factory: name, type in words, range, default."""
    from gamesearch.spec import agent_ranges, type_text

    hints = typing.get_type_hints(factory)
    rows = []
    ranges = agent_ranges(factory)
    for name, p in inspect.signature(factory).parameters.items():
        annotation = hints.get(name, str)
        rng = ranges.get(name)
        default = None if p.default is inspect.Parameter.empty else p.default
        rows.append({"name": name, "type": type_text(annotation) or "BOOL",
                     "range": rng.text() if rng else None, "default": default})
    return rows


def fitting_games(agent: str, games: dict[str, Any]) -> list[str]:
    """The games (by name) whose default variant the agent can play in some seat."""
    from gamesearch.catalog import agent_problem

    fits = []
    for name, game in games.items():
        seats = range(game.num_players)
        if any(agent_problem(agent, game, seat) is None for seat in seats):
            fits.append(name)
    return fits


def _default_games(only: str | None) -> dict[str, Any]:
    from gamesearch.games import entries, game_entry, load_game

    names = [game_entry(only).name] if only else [entry.name for entry in entries()]
    return {name: load_game(name) for name in names}


@app.command("agents")
def agents_command(
    game_name: str | None = typer.Argument(None, metavar="[GAME]",
                                           help="only the agents that fit this game"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """The agents: parameters with their types, ranges and defaults, and the games they fit.

    An agent is given as a spec, name:key=value,... e.g. alphabeta:depth=6,tt=65536
    """
    from gamesearch.agents import AGENTS

    games = _default_games(game_name)
    rows = []
    for name, (factory, summary, *_) in sorted(AGENTS.items()):
        fits = fitting_games(name, games)
        if game_name and not fits:
            continue
        rows.append({"agent": name, "summary": summary, "parameters": agent_parameters(factory),
                     "games": fits})
    if json_out:
        print_json({"agents": rows})
        return
    title = f"agents for {next(iter(games))}" if game_name else "agents"
    table = Table(title=title, show_lines=True)
    table.add_column("agent")
    table.add_column("parameters (type, range, default)")
    if not game_name:
        table.add_column("games")
    for row in rows:
        params = escape("\n".join(_parameter_text(p) for p in row["parameters"]) or "none")
        summary = textwrap.fill(row["summary"], SUMMARY_WIDTH)  # piped tables keep lines
        cells = [f"[bold]{escape(row['agent'])}[/]\n{escape(summary)}", params]  # whole
        if not game_name:
            cells.append(textwrap.fill(", ".join(row["games"]), SUMMARY_WIDTH // 2)
                         or "none of the built-in games")
        table.add_row(*cells)
    console.print(table)


def _parameter_text(p: dict[str, Any]) -> str:
    notes = [n for n in (p["range"], None if p["default"] is None else f"default "
                         f"{p['default']}") if n]
    return f"{p['name']} {p['type']}" + (f" ({', '.join(notes)})" if notes else "")


__all__ = ["agent_parameters", "fitting_games"]
