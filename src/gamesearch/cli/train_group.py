"""``gamesearch train``: the command group that each training command's module joins."""

from __future__ import annotations

import typer

from gamesearch.cli.main import app

train_app = typer.Typer(help="Train strategies, evaluations and networks: CFR, TD learning, "
                        "Samuel's checkers, AlphaZero.", no_args_is_help=True)
app.add_typer(train_app, name="train")
