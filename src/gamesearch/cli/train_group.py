"""``gamesearch train``: the command group that each training command's module joins, and
how a command finds the game it trains (the entry that declares its method)."""

from __future__ import annotations

from typing import Any

import typer

from gamesearch.cli.main import app
from gamesearch.errors import GameSearchError

train_app = typer.Typer(help="Train strategies, evaluations and networks: CFR, TD learning, "
                        "Samuel's checkers, AlphaZero, NNUE.", no_args_is_help=True)
app.add_typer(train_app, name="train")

GAME = typer.Argument(None, metavar="GAME", help="the game to train (default: the one game "
                      "whose engine offers this method)")


def trainer_for(method: str, game_name: str | None) -> tuple[Any, Any]:
    """(the entry, its :class:`~gamesearch.entry.Trainer`) of ``train METHOD [GAME]``: the
    game named, or without a name the one game whose entry declares the method; a game that
    does not is refused on one line naming those that do."""
    from gamesearch.games import entries

    offering = [e for e in entries() if method in e.trainers]
    names = " or ".join(e.name for e in offering) or "no game"
    if game_name is None:
        if len(offering) != 1:
            raise GameSearchError(f"train {method}: name the game ({names})")
        entry = offering[0]
    else:
        key = game_name.strip().lower()
        found = [e for e in offering if key == e.name or key in e.aliases]
        if not found:
            raise GameSearchError(f"train {method} plays {names} only, not {game_name!r}")
        entry = found[0]
    return entry, entry.trainers[method]
