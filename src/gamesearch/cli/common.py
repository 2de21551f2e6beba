"""Helpers shared by the command modules: loading games from CLI options, JSON output."""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.console import Console

from gamesearch.errors import SpecError
from gamesearch.game import Game, State
from gamesearch.spec import BareFlag

console = Console(highlight=False)


def extra_params(ctx: typer.Context) -> dict[str, str]:
    """Turn unknown ``--key value`` / ``--flag`` arguments into game parameters."""
    params: dict[str, str] = {}
    args = list(ctx.args)
    i = 0
    while i < len(args):
        arg = args[i]
        if not arg.startswith("--"):
            raise SpecError(f"unexpected argument {arg!r}")
        key = arg[2:]
        if "=" in key:
            key, value = key.split("=", 1)
        elif i + 1 < len(args) and not args[i + 1].startswith("--"):
            value = args[i + 1]
            i += 1
        else:
            value = BareFlag()
        params[key.replace("-", "_")] = value
        i += 1
    return params


def load_with_params(name: str, params: dict[str, str]) -> Game:
    """Load a game by spec, with extra CLI parameters."""
    from gamesearch.games import load_game

    return load_game(name, **params)


def position(game: Game, text: str | None) -> State:
    """The position given on the command line (the start when omitted)."""
    if text is None or text == "":
        return game.initial_state()
    return game.state_from_string(text)


def print_json(data: Any) -> None:
    """Machine-readable output on stdout."""
    print(json.dumps(data, indent=2, default=str))


EXTRA_ARGS = {"allow_extra_args": True, "ignore_unknown_options": True}
"""Context settings for commands that take game parameters as extra options."""
