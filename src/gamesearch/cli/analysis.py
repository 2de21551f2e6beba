"""What a game's solver says beyond one position's value: ``analyze`` (every move's value)
and ``book`` (an opening book). Each game declares them in its entry (``analyzer``,
``book``); a game without one is refused on one line that names the games with one.
"""

from __future__ import annotations

import functools
import sys

import typer
from rich.table import Table

from gamesearch.cli.common import EXTRA_ARGS, console, entry_offering, extra_params, print_json
from gamesearch.cli.main import app
from gamesearch.errors import GameSearchError


@functools.cache
def analyze_epilog() -> str:
    """Every analyzer's options, one paragraph per game, for ``analyze --help``."""
    from gamesearch.cli.game_options import options_text
    from gamesearch.games import entries

    lines = ["Game options go after the game, before or after the position; those marked "
             "'analyze only' go to the game's analyzer:"]
    lines += [f"{e.name}: {options_text(e, 'analyze', e.analyzer.options)}"
              for e in entries() if e.analyzer is not None]
    return "\n\n".join(lines)


@app.command("analyze", context_settings=EXTRA_ARGS, epilog=analyze_epilog())
def analyze_command(
    ctx: typer.Context,
    game_name: str = typer.Argument(..., metavar="GAME", help="a game with an analyzer "
                                    "(see below)"),
    moves: str = typer.Argument("", metavar="POSITION", help="the position (the game's "
                                "notation; default: the start)"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """The exact value of every move for the player to move (the game's analyzer)."""
    from gamesearch.cli.common import position
    from gamesearch.cli.game_options import game_parameters, split_options
    from gamesearch.spec import call_with_params, parse_spec

    name, spec_params = parse_spec(game_name)
    entry = entry_offering(name, lambda e: e.analyzer is not None, "analyzer", "analyze")
    analyzer = entry.analyzer
    flags = {key for key, (kind, _) in game_parameters(entry).items() if not kind}
    flags |= {key for key, option in analyzer.options.items() if option.type is bool}
    moves, given = _position_and_options([moves, *ctx.args] if moves else list(ctx.args), flags)
    params, options = split_options(entry, {**spec_params, **given}, "analyze",
                                    analyzer.options)
    game = call_with_params(entry.factory, params, f"game {entry.name!r}", entry.ranges)
    state = position(game, moves)
    if game.is_terminal(state):
        raise GameSearchError(f"position {moves!r}: the game is over, no move to analyze")
    values = analyzer.analyze(game, state, options)
    shown = {game.action_to_string(state, a): v for a, v in values.items()}
    valued = [v for v in values.values() if v is not None]
    if not valued:
        raise GameSearchError(f"analyze {entry.name}: no move of position {moves!r} has a "
                              "value")
    best = max(valued)
    data = {"position": moves, "to_move": game.player_name(game.to_move(state)),
            "scores": shown, "best": [text for text, v in shown.items() if v == best]}
    if json_out:
        print_json(data)
        return
    console.print(game.render(state))
    chosen = [key.replace("_", "-") for key, value in options.items() if value != "false"]
    table = Table(title=f"values for {data['to_move']}"
                        + (f" ({', '.join(chosen)})" if chosen else ""))
    for text in shown:
        table.add_column(text, justify="right")
    table.add_row(*[analyzer.blank if v is None else _signed(v) for v in shown.values()])
    console.print(table)
    words = f" ({analyzer.describe(best)})" if analyzer.describe is not None else ""
    console.print(f"best: {', '.join(data['best'])}{words}")


BOOLEAN_WORDS = {"1", "true", "yes", "on", "0", "false", "no", "off"}


def _position_and_options(tokens: list[str], flags: set[str]) -> tuple[str, dict[str, str]]:
    """The position and the ``--key value`` options among the words after GAME, in the
    order typed. Click fills POSITION with the first word it does not know, which may be an
    option (``analyze GAME --sticks 20``); so the words are read again here: an option takes
    the next word as its value unless it is a flag (``flags``) and the word is no yes or no,
    and the one word left is the position."""
    from gamesearch.spec import BareFlag

    position: str | None = None
    options: dict[str, str] = {}
    i = 0
    while i < len(tokens):
        word = tokens[i]
        if word.startswith("--"):
            key, equals, value = word[2:].partition("=")
            key = key.replace("-", "_")
            follows = tokens[i + 1] if i + 1 < len(tokens) else None
            if equals:
                options[key] = value
            elif follows is not None and not follows.startswith("--") and not (
                    key in flags and follows.strip().lower() not in BOOLEAN_WORDS):
                options[key] = follows
                i += 1
            else:
                options[key] = BareFlag()
        elif position is None:
            position = word
        else:
            raise GameSearchError(f"unexpected argument {word!r} (the position is "
                                  f"{position!r})")
        i += 1
    return position or "", options


def _signed(value: object) -> str:
    return f"{value:+d}" if isinstance(value, int) else f"{value:+g}" \
        if isinstance(value, float) else str(value)


@app.command("book", context_settings=EXTRA_ARGS)
def book_command(
    ctx: typer.Context,
    game_name: str = typer.Argument(..., metavar="GAME", help="a game with an opening book"),
    depth: int = typer.Option(..., "--depth", help="positions up to this many moves deep"),
    output: str = typer.Option("", "--output", "-o", help="book file (default: the game's "
                               "name for it)"),
    force: bool = typer.Option(False, "--force", help="let -o replace a file that is not a "
                               "gamesearch book"),
    concurrency: int = typer.Option(1, "--concurrency", "-j", min=1, max=1024,
                                    help="positions solved at once (worker processes)"),
    backend: str = typer.Option("local", "--backend", help="local (process pool) or ray"),
    address: str | None = typer.Option(None, "--address", help="the Ray cluster (host:port)"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Build an opening book with the game's own solver (resumable: rerun after a kill or
    Ctrl-C).

    Positions are independent: -j K solves K at once in worker processes, and
    --backend ray --address HOST:PORT spreads them over a Ray cluster; each score is
    on disk as it arrives, so any of them resumes after a kill.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from gamesearch.durable import check_output
    from gamesearch.spec import call_with_params, parse_spec

    name, spec_params = parse_spec(game_name)
    entry = entry_offering(name, lambda e: e.book is not None, "opening book", "book")
    maker = entry.book
    game = call_with_params(entry.factory, {**spec_params, **extra_params(ctx)},
                            f"game {entry.name!r}", entry.ranges)
    if not 0 <= depth <= maker.max_depth(game):
        raise GameSearchError(f"book depth {depth}: give 0-{maker.max_depth(game)}")
    path = output or maker.file_name(game, depth)
    check_output(path, maker.is_book, force, "opening book")  # before the progress bar starts
    runner = None
    if backend != "local" or concurrency > 1 or address is not None:
        from gamesearch.arena.backends import make_backend

        runner = make_backend(backend, concurrency, address)
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(), console=console,
                  disable=json_out) as bar:
        task = bar.add_task(f"solving positions {depth} moves deep", total=None)

        counts = [0, 0]

        def report(done: int, total: int) -> None:
            counts[:] = [done, total]
            bar.update(task, completed=done, total=total)

        try:
            built = maker.build(game, depth, path, report, force, runner)
        except KeyboardInterrupt:
            bar.stop()
            kept = maker.kept(f"{path}.partial")
            print(f"interrupted after {counts[0] if kept is None else kept} of {counts[1]} "
                  f"positions; they are kept in {path}.partial: run the same command again "
                  "to resume", file=sys.stderr)
            raise typer.Exit(130) from None
        finally:
            if runner is not None:
                runner.close()
    data = {"file": path, "depth": depth, "positions": built["positions"],
            "bytes": built["bytes"]}
    if json_out:
        print_json(data)
    else:
        console.print(f"{path}: {data['positions']} positions (depth {depth}), complete")
