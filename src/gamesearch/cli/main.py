"""The ``gamesearch`` command: one Typer app; each command group lives in its own module.

Bad input raises :class:`GameSearchError`; :func:`main` prints it on one line on stderr and
exits with status 2, never a traceback.
"""

from __future__ import annotations

import sys

import typer

from gamesearch.errors import GameSearchError

app = typer.Typer(
    name="gamesearch",
    help="Adversarial search and game solving: play, solve and analyse games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Command modules register themselves on ``app`` when imported.
COMMAND_MODULES = [
    "gamesearch.cli.core",
    "gamesearch.cli.connect4",
]


def _load_commands() -> None:
    import importlib

    for module in COMMAND_MODULES:
        importlib.import_module(module)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app; bad input is one line on stderr and exit status 2."""
    _load_commands()
    try:
        app(args=argv, standalone_mode=False)
    except GameSearchError as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(2)
    except typer.Abort:
        print("aborted", file=sys.stderr)
        sys.exit(130)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except typer.Exit as done:
        sys.exit(done.exit_code)
    except Exception as err:  # click usage errors and the like
        import click

        if isinstance(err, click.ClickException):
            print(f"error: {err.format_message()}", file=sys.stderr)
            sys.exit(2)
        raise


if __name__ == "__main__":
    main()
