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

def _show_version(value: bool) -> None:
    if value:
        from gamesearch import __version__

        print(f"gamesearch {__version__}")
        raise typer.Exit(0)


@app.callback()
def _options(version: bool = typer.Option(False, "--version", is_eager=True,
                                          callback=_show_version,
                                          help="Show the version and exit.")) -> None:
    """Adversarial search and game solving: play, solve and analyse games."""


# Command modules register themselves on ``app`` when imported.
COMMAND_MODULES = [
    "gamesearch.cli.core",
    "gamesearch.cli.play",
    "gamesearch.cli.match",
    "gamesearch.cli.count",
    "gamesearch.cli.tree",
    "gamesearch.cli.train_cfr",
    "gamesearch.cli.theory",
    "gamesearch.cli.serve",
    "gamesearch.cli.pacman",
    "gamesearch.cli.connect4",
    "gamesearch.cli.agents",
]


def _load_commands() -> None:
    import importlib

    from gamesearch.cli.help_types import install

    install()
    for module in COMMAND_MODULES:
        importlib.import_module(module)


# ``gamesearch play pacman ...`` is ``gamesearch pacman play ...`` (Pacman's agents and
# ghosts take options of their own: --layout, --pacman, --ghosts).
ALIASES = {("play", "pacman"): ["pacman", "play"], ("match", "pacman"): ["pacman", "match"]}


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app; bad input is one line on stderr and exit status 2."""
    _load_commands()
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) >= 2 and (args[0], args[1].lower()) in ALIASES:
        args = ALIASES[(args[0], args[1].lower())] + args[2:]
    argv = args
    try:
        code = app(args=argv, standalone_mode=False)
        if isinstance(code, int) and code:  # typer.Exit(n) comes back as a return value
            sys.exit(code)
    except GameSearchError as err:
        print(f"error: {one_line(str(err))}", file=sys.stderr)
        sys.exit(2)
    except typer.Abort:
        print("aborted", file=sys.stderr)
        sys.exit(130)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except typer.Exit as done:
        sys.exit(done.exit_code)
    except RecursionError:  # a legal but very deep game or tree: no traceback either
        print("error: the request goes deeper than Python's stack allows; give a depth "
              "limit or a smaller game", file=sys.stderr)
        sys.exit(2)
    except MemoryError:
        print("error: out of memory; give a smaller game, table or limit", file=sys.stderr)
        sys.exit(2)
    except Exception as err:  # click usage errors and the like
        if isinstance(err, _usage_errors()):
            message = one_line(err.format_message())
            if not message:  # no arguments at all: the help was shown, which is no error
                sys.exit(0)
            print(f"error: {message}", file=sys.stderr)
            sys.exit(2)
        raise


MAX_MESSAGE = 300
"""Error messages longer than this (a 10,000-digit move quoted back) are shortened."""


def one_line(message: str) -> str:
    """The message on one line of at most :data:`MAX_MESSAGE` characters (the middle of a
    longer one elided, so the start and the end both stay readable)."""
    text = " ".join(message.split())
    if len(text) <= MAX_MESSAGE:
        return text
    return f"{text[:200]} ... {text[-(MAX_MESSAGE - 205):]}"


def _usage_errors() -> tuple[type, ...]:
    """Click's exception class: typer >= 0.2x vendors click as typer._click."""
    try:
        from typer._click.exceptions import ClickException
    except ImportError:
        from click import ClickException
    return (ClickException,)


if __name__ == "__main__":
    main()
