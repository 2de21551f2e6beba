"""One page per registered game, written from its ENTRY, its rules and the catalog.

What a page says comes from the code the command line runs: the rules module's docstring,
the game's parameters (``gamesearch solve --help``), the start position and its moves in
the game's notation, the agents that fit it (``gamesearch agents GAME --json``), the
solver, the endgame tables and the record format its entry declares.
"""

from __future__ import annotations

import importlib
import inspect
import json
import sys
from typing import Any

GUIDES = {
    "chess": [("Chess's compiled engine", "KERNELS.md#chess"),
              ("Chess endgame tables", "TABLES.md")],
    "checkers": [("Endgame databases by retrograde analysis", "TABLES.md"),
                 ("Samuel-style learning", "LEARNING.md")],
    "connect4": [("Compiled kernels: Connect Four", "KERNELS.md#connect-four")],
    "go": [("Go: rules, the compiled board, GTP, patterns", "GO.md")],
    "othello": [("Othello: the endgame solver and the learned evaluation", "OTHELLO.md")],
    "backgammon": [("Chance: backgammon", "CHANCE.md"),
                   ("TD-Gammon", "LEARNING.md")],
    "pig": [("Chance: Pig", "CHANCE.md")],
    "pacman": [("Chance and several opponents: Pacman", "CHANCE.md")],
    "kuhn_poker": [("Hidden information: poker", "HIDDEN.md")],
    "leduc_poker": [("Hidden information: poker", "HIDDEN.md")],
    "whist": [("Hidden information: whist", "HIDDEN.md")],
    "strategy_fusion": [("Strategy fusion", "HIDDEN.md")],
    "takeaway": [("Multi-agent search", "MULTIAGENT.md")],
    "openspiel": [("Interoperability: OpenSpiel", "INTEROP.md")],
    "tree": [("The tree command", "CLI.md#tree")],
}
"""Hand-written pages that say more about a game (docs/, relative to the docs folder)."""


def _entries() -> list[Any]:
    from gamesearch.games import entries

    return list(entries())


def nav() -> list[dict[str, str]]:
    """The game pages in the nav, in the order of ``gamesearch games``."""
    return [{entry.name: f"games/{entry.name}.md"} for entry in _entries()]


def _doc(obj: Any) -> str:
    return inspect.cleandoc(getattr(obj, "__doc__", None) or "")


def _cell(text: Any) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _default(value: Any) -> str:
    """A parameter's default as the command line writes it (none: empty)."""
    if value is inspect.Parameter.empty or value is None:
        return ""
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return str(value).lower() if isinstance(value, bool) else str(value)


def _agents(name: str) -> list[dict[str, Any]]:
    """What ``gamesearch agents NAME --json`` prints."""
    from typer.testing import CliRunner

    from gamesearch.cli.main import _load_commands, app

    _load_commands(["agents"])
    run = CliRunner().invoke(app, ["agents", name, "--json"])
    if run.exit_code != 0:
        raise RuntimeError(f"gamesearch agents {name} failed: {run.output}")
    return json.loads(run.output)["agents"]


def _parameter(p: dict[str, Any]) -> str:
    notes = [n for n in (p["range"], None if p["default"] is None else
                         f"default {p['default']}") if n]
    return f"`{p['name']}` {p['type']}" + (f" ({', '.join(notes)})" if notes else "")


def _agents_section(entry: Any, game: Any) -> list[str]:
    from gamesearch.catalog import default_agent

    out = ["## Agents", "",
           f"The agents that fit {entry.name} (`gamesearch agents {entry.name}`); "
           "an agent is given as a spec, `name:key=value,...`.", "",
           "| agent | what it does | parameters |", "|---|---|---|"]
    for row in _agents(entry.name):
        params = "<br>".join(_parameter(p) for p in row["parameters"]) or "none"
        out.append(f"| `{row['agent']}` | {_cell(row['summary'])} | {_cell(params)} |")
    seats = [default_agent(game, seat) for seat in range(game.num_players)]
    out += ["", "Default opponents, by seat from player 1: "
            + ", ".join(f"`{spec}`" for spec in seats) + ".", ""]
    return out


def _parameters_section(entry: Any) -> list[str]:
    from gamesearch.cli.game_options import game_parameters

    params = game_parameters(entry)
    out = ["## Parameters", ""]
    if not params:
        return out + ["None: the game has one variant.", ""]
    out += [f"Given as options (`gamesearch solve {entry.name} --key value`) or in a spec "
            f"(`{entry.name}:key=value`).", "",
            "| parameter | type | range | default |", "|---|---|---|---|"]
    for name, (kind, default) in params.items():
        rng = entry.ranges.get(name)
        out.append(f"| `{name}` | {kind or 'flag'} | {rng.text() if rng else ''} | "
                   f"{_cell(_default(default))} |")
    return out + [""]


def _notation_section(game: Any) -> list[str]:
    from gamesearch.game import CHANCE

    state = game.initial_state()
    out = ["## Position and notation", "", "The start:", "", "```text",
           game.render(state), "```", ""]
    if hasattr(game, "state_to_string"):
        out += ["Written as a position (`--position`):", "", "```text",
                game.state_to_string(state), "```", ""]
    if not game.is_terminal(state):
        moves = list(game.actions(state))
        shown = ", ".join(f"`{game.action_to_string(state, a)}`" for a in moves[:12])
        more = f" and {len(moves) - 12} more" if len(moves) > 12 else ""
        who = ("the chance outcomes" if game.to_move(state) == CHANCE
               else f"{game.player_name(game.to_move(state))}'s legal moves")
        out += [f"At the start, {who} as they are typed: {shown}{more}.", ""]
    return out


def _solver_section(entry: Any) -> list[str]:
    out = ["## Solving", ""]
    if entry.solver is None:
        out.append(f"`gamesearch solve {entry.name}` runs the generic search (alpha-beta, "
                   "or the search that fits the game's kind) to the end within its limits.")
    else:
        out.append(f"`gamesearch solve {entry.name}` runs the game's own solver "
                   f"(`{entry.solver.__module__}`).")
    out.append("")
    if entry.solver_options:
        out += ["| solver option | meaning |", "|---|---|"]
        for name, option in entry.solver_options.items():
            flag = f"--{name.replace('_', '-')} {option.metavar()}".strip()
            out.append(f"| `{flag}` | {_cell(option.help)} |")
        out.append("")
    if entry.perft is not None:
        out += [f"`gamesearch perft {entry.name}` counts with the compiled move generator.",
                ""]
    if entry.tables:
        summary = _doc(importlib.import_module(entry.tables)).split("\n\n")[0]
        out += ["### Endgame tables", "", summary, "",
                f"`gamesearch tables build {entry.name}` builds them, `gamesearch tables "
                f"probe {entry.name} POSITION` reads one ([Endgame tables](../TABLES.md)).",
                ""]
    if entry.record is not None:
        fmt = entry.record.suffix
        out += ["### Records", "",
                f"Games are written as {entry.record.title}s: `gamesearch {fmt} write "
                f"games.jsonl games.{fmt}`, and read back with `gamesearch {fmt} read`.", ""]
    return out


def page(entry: Any) -> str:
    """The markdown page of one game."""
    from gamesearch.errors import GameSearchError
    from gamesearch.game import has_chance, has_hidden_information

    try:
        game = entry.factory()
    except GameSearchError as err:  # a game whose optional package is not installed here
        return "\n".join([f"# {entry.name}", "", f"**{entry.summary}**", "",
                          f"This build of the site could not load the game: {err}.", ""])
    rules = sys.modules[type(game).__module__]
    kinds = [f"{game.num_players} players",
             "chance" if has_chance(game) else "no chance",
             "hidden information" if has_hidden_information(game) else "perfect information"]
    out = [f"# {entry.name}", "", f"**{entry.summary}**", "",
           f"{', '.join(kinds)}; `gamesearch play {entry.name}`, "
           f"`gamesearch solve {entry.name}`, `load_game(\"{entry.name}\")`."]
    if entry.aliases:
        out.append("Also called " + ", ".join(f"`{a}`" for a in entry.aliases) + ".")
    out += ["", "## Rules", "", f"From `{rules.__name__}`:", "", _doc(rules), ""]
    engine_module = entry.factory.__module__
    engine = _doc(sys.modules.get(engine_module)) if engine_module != rules.__name__ else ""
    if engine:
        out += ["## Engine", "", f"From `{engine_module}`:", "", engine, ""]
    out += _parameters_section(entry)
    out += _notation_section(game)
    out += _agents_section(entry, game)
    out += _solver_section(entry)
    guides = GUIDES.get(entry.name, [])
    if guides:
        out += ["## More", ""] + [f"* [{title}](../{path})" for title, path in guides] + [""]
    return "\n".join(out)


def index() -> str:
    """The games' index page."""
    out = ["# Games", "",
           "Every game registered with gamesearch (`gamesearch games`), each with its rules, "
           "notation, agents and solver. A game from another package appears here once it "
           "is installed ([Adding a game](../ADDING_A_GAME.md)).", "",
           "| game | summary |", "|---|---|"]
    out += [f"| [{e.name}]({e.name}.md) | {_cell(e.summary)} |" for e in _entries()]
    return "\n".join(out) + "\n"


def pages() -> dict[str, str]:
    """Every game page and the index, by path under docs/."""
    out = {"games/index.md": index()}
    for entry in _entries():
        out[f"games/{entry.name}.md"] = page(entry)
    return out
