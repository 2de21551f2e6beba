"""Helpers shared by the command modules: loading games from CLI options, JSON output."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import typer
from rich.console import Console, ConsoleDimensions

from gamesearch.errors import GameSearchError, SpecError
from gamesearch.game import Game, State
from gamesearch.spec import BareFlag

PIPE_WIDTH = 10_000
"""Columns of output that goes to a file or a pipe: wide enough that no line is wrapped."""


class Output(Console):
    """A rich console that wraps lines for a terminal only: piped or redirected output keeps
    every line and table whole (a program reading it should not have to undo the wrapping).
    A width given here (or set later) is kept; one rich took from a ``COLUMNS`` variable in
    the environment is a terminal's, so a pipe ignores it."""

    def __init__(self, *args: Any, width: int | None = None, **kwargs: Any) -> None:
        super().__init__(*args, width=width, **kwargs)
        self._fixed_width = width is not None

    @property
    def size(self) -> ConsoleDimensions:
        size = super().size
        if not self._fixed_width and not self.is_terminal:
            return ConsoleDimensions(PIPE_WIDTH, size.height)
        return size

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        self._width, self._height = new_size
        self._fixed_width = True

    @property
    def width(self) -> int:
        return self.size.width

    @width.setter
    def width(self, width: int) -> None:
        self._width = width
        self._fixed_width = True


console = Output(highlight=False)


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


def entry_offering(name: str, offers: Callable[[Any], bool], what: str, command: str) -> Any:
    """The entry of the game ``name`` (a spec's name or an alias), which must offer ``what``
    (``offers(entry)``); otherwise a :class:`GameSearchError` on one line naming the games
    that do offer it (looked up in the entries, installed games included)."""
    from gamesearch.games import entries, game_entry

    entry = game_entry(name)
    if not offers(entry):
        offering = [e.name for e in entries() if offers(e)]
        raise GameSearchError(f"{command} {entry.name}: {entry.name} has no {what}; "
                              f"games with one: {', '.join(offering) or 'none'}")
    return entry


def load_with_params(name: str, params: dict[str, str]) -> Game:
    """Load a game by spec, with extra CLI parameters."""
    from gamesearch.games import load_game

    return load_game(name, **params)


def position(game: Game, text: str | None) -> State:
    """The position given on the command line (the start when omitted)."""
    if text is None or text == "":
        return game.initial_state()
    return game.state_from_string(text)


def format_scalar(value: Any) -> str:
    """One number, word or list as a person reads it: long floats to 6 significant digits
    (a short float stays as it is: 2.999999 is not rounded to a 3 that looks exact)."""
    if isinstance(value, bool) or value is None:
        return {True: "yes", False: "no", None: "-"}[value]
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return repr(value) if len(repr(value)) <= 10 else f"{value:.6g}"
    if isinstance(value, (list, tuple)):
        return ", ".join(format_scalar(v) for v in value)
    return str(value)


def report_lines(data: dict[str, Any], indent: int = 0) -> list[str]:
    """A report (nested dicts) as ``key: value`` lines, never a Python dict: a dict of plain
    values goes on one line (``J: p 0.78, b 0.22``), deeper dicts indent below their key."""
    pad = " " * indent
    lines = []
    for key, value in data.items():
        label = str(key) if str(key) != "" else "(start)"
        if isinstance(value, dict) and value and not any(isinstance(v, (dict, list, tuple))
                                                         for v in value.values()):
            inner = ", ".join(f"{'(start)' if str(k) == '' else k} {format_scalar(v)}"
                              for k, v in value.items())
            if indent:
                lines.append(f"{pad}{label}: {inner}")
                continue
            lines.append(f"{label}:")
            lines.extend(f"  {k if str(k) != '' else '(start)'}: {format_scalar(v)}"
                         for k, v in value.items())
        elif isinstance(value, dict):
            lines.append(f"{pad}{label}:" + ("" if value else " -"))
            lines.extend(report_lines(value, indent + 2))
        else:
            lines.append(f"{pad}{label}: {format_scalar(value)}")
    return lines


def print_report(data: dict[str, Any]) -> None:
    """A report for people: one ``key: value`` line each, keys in bold, nesting indented."""
    from rich.markup import escape

    for line in report_lines(data):
        key, sep, rest = line.partition(":")
        console.print(f"[bold]{escape(key)}[/]{sep}{escape(rest)}")


def print_json(data: Any) -> None:
    """Machine-readable output on stdout (normalised as the web app's: ``plain_data``)."""
    from gamesearch.result import plain_data

    print(json.dumps(plain_data(data), indent=2))


EXTRA_ARGS = {"allow_extra_args": True, "ignore_unknown_options": True}
"""Context settings for commands that take game parameters as extra options."""


class progress_bar:  # noqa: N801 - used as a context manager, like rich's own
    """A transient progress bar on stderr, handed to solvers as their ``progress(description,
    done, total)`` callback (solvers report; only faces draw)."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        self.bar = Progress("[progress.description]{task.description}", BarColumn(),
                            MofNCompleteColumn(), TimeRemainingColumn(),
                            console=Console(stderr=True), transient=True)
        self.tasks: dict[str, Any] = {}

    def __call__(self, description: str, done: int, total: int) -> None:
        if not self.tasks:  # drawn from the first report on: a solver that reports nothing
            self.bar.start()  # leaves stderr untouched
        if description not in self.tasks:
            self.tasks[description] = self.bar.add_task(description, total=total)
        self.bar.update(self.tasks[description], completed=done, total=total)

    def __enter__(self) -> progress_bar:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.tasks:
            self.bar.stop()


def pyplot_for(path: Any) -> Any:
    """matplotlib's pyplot, headless, once ``path`` is known to be writable: a new file or
    a picture gamesearch made (a user's other file is refused with one line)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from gamesearch.durable import check_output, png_is_ours

    check_output(path, png_is_ours, what="picture")
    return plt


def save_png(fig: Any, path: Any, dpi: int = 90) -> None:
    """Write ``fig`` to ``path`` atomically, marked as ours, and free it."""
    import matplotlib.pyplot as plt

    from gamesearch.durable import PNG_MARK, atomic_writer

    with atomic_writer(path) as handle:
        fig.savefig(handle, format="png", dpi=dpi, metadata=PNG_MARK)
    plt.close(fig)


def save_picture(fig: Any, path: str, dpi: int = 110) -> str:
    """Write a figure an engine drew (a matplotlib Figure) to ``path`` as PNG, atomically
    and marked as ours; a path that cannot be written is one line, not a traceback."""
    from gamesearch.durable import PNG_MARK, atomic_writer

    try:
        with atomic_writer(path) as handle:
            fig.savefig(handle, dpi=dpi, format="png", metadata=PNG_MARK)
    except (OSError, ValueError) as err:  # no such folder, an unknown image type
        raise GameSearchError(f"cannot write the plot {path!r}: {err}") from None
    return path


def finish_training(summary: dict[str, Any], json_out: bool, interrupted: bool) -> None:
    """Print a training run's summary (JSON or the report); an interrupted run, whose work
    is saved, then says how to continue and exits 130 like any interrupted command."""
    import sys

    if json_out:
        print_json(summary)
    else:
        print_report(summary)
    if interrupted:
        print("interrupted: the work so far is saved (continue with --resume)", file=sys.stderr)
        sys.exit(130)
