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
def _group(version: bool = typer.Option(False, "--version", is_eager=True,
                                        callback=_show_version,
                                        help="Show the version and exit.")) -> None:
    """Adversarial search and game solving: play, solve and analyse games."""
    # A callback keeps ``app`` a group of commands when only one command module is loaded
    # (Typer runs a lone command directly, taking its name for an argument).


# Command modules register themselves on ``app`` when imported. Each command's module is
# named here so that ``gamesearch games`` imports only what ``games`` needs (start-up time:
# the theory commands pull in scipy, the kernels numba); a name missing here (or ``--help``)
# loads every module. tests/test_speed_startup.py checks this map against the modules.
COMMANDS = {
    "games": "gamesearch.cli.core",
    "solve": "gamesearch.cli.core",
    "play": "gamesearch.cli.play",
    "match": "gamesearch.cli.match",
    "perft": "gamesearch.cli.count",
    "count": "gamesearch.cli.count",
    "tree": "gamesearch.cli.tree",
    "train": "gamesearch.cli.train",
    "nash": "gamesearch.cli.theory",
    "dominance": "gamesearch.cli.theory",
    "normal-form": "gamesearch.cli.theory",
    "spe": "gamesearch.cli.theory",
    "sequence-form": "gamesearch.cli.theory",
    "efg": "gamesearch.cli.efg",
    "qre": "gamesearch.cli.qre",
    "serve": "gamesearch.cli.serve",
    "pacman": "gamesearch.cli.pacman",
    "analyze": "gamesearch.cli.analysis",
    "book": "gamesearch.cli.analysis",
    "warmup": "gamesearch.cli.warmup",
    "agents": "gamesearch.cli.agents",
    "uci": "gamesearch.cli.uci",
    "tournament": "gamesearch.cli.tournament",
    "report": "gamesearch.cli.report",
    "tables": "gamesearch.cli.tables",
    "pdn": "gamesearch.cli.pdn",
    "gtp": "gamesearch.cli.gtp",
    "sgf": "gamesearch.cli.sgf",
    "pgn": "gamesearch.cli.pgn",
}
COMMAND_MODULES = list(dict.fromkeys(COMMANDS.values()))


def _load_commands(args: list[str] | None = None) -> None:
    """Import the module of the command in ``args`` (every command module when the command
    is not in :data:`COMMANDS`, or when no arguments are given)."""
    import importlib

    from gamesearch.cli.help_types import install

    install()
    command = args[0] if args else None
    modules = [COMMANDS[command]] if command in COMMANDS else COMMAND_MODULES
    for module in modules:
        importlib.import_module(module)


# ``gamesearch play pacman ...`` is ``gamesearch pacman play ...`` (Pacman's agents and
# ghosts take options of their own: --layout, --pacman, --ghosts).
ALIASES = {("play", "pacman"): ["pacman", "play"], ("match", "pacman"): ["pacman", "match"]}


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app; bad input is one line on stderr and exit status 2."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) >= 2 and (args[0], args[1].lower()) in ALIASES:
        args = ALIASES[(args[0], args[1].lower())] + args[2:]
    _load_commands(args)
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
