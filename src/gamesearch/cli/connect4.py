"""Connect Four and kernel commands: ``analyze``, ``book``, ``warmup``.

``gamesearch solve connect4`` itself is the core ``solve`` command, which hands the position
to the registry's GameEntry.solver (engines/connect4/solve.py).
"""

from __future__ import annotations

import sys

import typer
from rich.table import Table

from gamesearch.cli.common import EXTRA_ARGS, console, extra_params, print_json
from gamesearch.cli.main import app
from gamesearch.errors import GameSearchError


def _connect4(game_name: str, params: dict[str, str]):
    from gamesearch.games import game_entry, load_game
    from gamesearch.spec import parse_spec

    name, spec_params = parse_spec(game_name)
    if game_entry(name).name != "connect4":
        raise GameSearchError(f"game {game_name!r}: this command knows only connect4")
    return load_game(game_name, **{**spec_params, **params})


@app.command("analyze", context_settings=EXTRA_ARGS)
def analyze_command(
    ctx: typer.Context,
    game_name: str = typer.Argument(..., metavar="GAME", help="connect4"),
    moves: str = typer.Argument("", metavar="POSITION", help="columns played, e.g. 4453"),
    weak: bool = typer.Option(False, "--weak", help="win/draw/loss only (faster)"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """The perfect-play score of every column (benchmark convention, for the mover)."""
    from gamesearch.engines.connect4.solve import analyze, outcome

    game = _connect4(game_name, extra_params(ctx))
    state = game.state_from_string(moves)
    scores = analyze(game, state, weak)
    best = max(scores.values())
    data = {"position": moves, "to_move": game.player_name(game.to_move(state)),
            "scores": {game.action_to_string(state, c): scores.get(c) for c in range(game.width)},
            "best": [game.action_to_string(state, c) for c in sorted(scores)
                     if scores[c] == best]}
    if json_out:
        print_json(data)
        return
    console.print(game.render(state))
    table = Table(title=f"{'weak' if weak else 'exact'} scores for {data['to_move']}")
    for c in range(game.width):
        table.add_column(game.action_to_string(state, c), justify="right")
    table.add_row(*["full" if c not in scores else f"{scores[c]:+d}" for c in range(game.width)])
    console.print(table)
    console.print(f"best: column {', '.join(map(str, data['best']))} ({outcome(best)})")


@app.command("book", context_settings=EXTRA_ARGS)
def book_command(
    ctx: typer.Context,
    game_name: str = typer.Argument(..., metavar="GAME", help="connect4"),
    depth: int = typer.Option(..., "--depth", help="positions with up to this many stones"),
    output: str = typer.Option("", "--output", "-o", help="book file (.npz)"),
    force: bool = typer.Option(False, "--force", help="let -o replace a file that is not a "
                               "gamesearch book"),
    concurrency: int = typer.Option(1, "--concurrency", "-j", min=1, max=1024,
                                    help="positions solved at once (worker processes)"),
    backend: str = typer.Option("local", "--backend", help="local (process pool) or ray"),
    address: str | None = typer.Option(None, "--address", help="the Ray cluster (host:port)"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Build an opening book with our own solver (resumable: rerun after a kill or Ctrl-C).

    Positions are independent: -j K solves K at once in worker processes, and
    --backend ray --address HOST:PORT spreads them over a Ray cluster; each score is
    on disk as it arrives, so any of them resumes after a kill.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from gamesearch.durable import check_output
    from gamesearch.engines.connect4.book import build_book, is_book

    game = _connect4(game_name, extra_params(ctx))
    if not 0 <= depth <= game.cells:
        raise GameSearchError(f"book depth {depth}: give 0-{game.cells}")
    path = output or f"book_{game.width}x{game.height}_d{depth}.npz"
    check_output(path, is_book, force, "opening book")  # before the progress bar starts
    runner = None
    if backend != "local" or concurrency > 1 or address is not None:
        from gamesearch.arena.backends import make_backend

        runner = make_backend(backend, concurrency, address)
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(), console=console,
                  disable=json_out) as bar:
        task = bar.add_task(f"solving positions with {depth} stones", total=None)

        counts = [0, 0]

        def report(done: int, total: int) -> None:
            counts[:] = [done, total]
            bar.update(task, completed=done, total=total)

        try:
            book = build_book(game.width, game.height, depth, path, progress=report,
                              force=force, backend=runner)
        except KeyboardInterrupt:
            bar.stop()
            kept = _solved_in_partial(f"{path}.partial", counts[0])
            print(f"interrupted after {kept} of {counts[1]} positions; they are kept in "
                  f"{path}.partial: run the same command again to resume", file=sys.stderr)
            raise typer.Exit(130) from None
        finally:
            if runner is not None:
                runner.close()
    data = {"file": path, "depth": depth, "positions": len(book.keys),
            "bytes": book.keys.nbytes + book.values.nbytes}
    if json_out:
        print_json(data)
    else:
        console.print(f"{path}: {data['positions']} positions (depth {depth}), complete")


def _solved_in_partial(partial: str, reported: int) -> int:
    """How many solved positions the build's .partial file holds (the last may have been
    written after the last progress report)."""
    try:
        with open(partial, "rb") as handle:
            return max(0, handle.read().count(b"\n") - 1)
    except OSError:
        return reported


WARMUP_GAMES = typer.Argument(None, metavar="[GAME]...",
                              help="game specs, e.g. connect4:width=6,height=5 "
                                   "(default: every kernel at its default size)")


@app.command("warmup")
def warmup_command(
    games: list[str] = WARMUP_GAMES,
    force: bool = typer.Option(False, "--force",
                               help="load every kernel even when the last warm-up's record "
                                    "says they are all cached"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Compile every kernel now (numba caches them on disk: later runs start at once)."""
    from gamesearch.kernels.warmup import is_recorded, record, timed

    key = " ".join(games or ["*"])
    if not force and is_recorded(key):
        if json_out:
            print_json({"compiled": [], "cached": True})
        else:
            console.print("every kernel is compiled and cached (nothing changed since the "
                          "last warm-up; --force loads them anyway)")
        return
    from gamesearch.catalog.warmup import warmup_steps

    steps = warmup_steps(games or ())
    done = []
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=console,
                  disable=json_out) as bar:
        task = bar.add_task("compiling kernels", total=len(steps))
        for name, step in steps:
            bar.update(task, description=f"compiling {name}")
            seconds = timed(step)
            done.append({"kernel": name, "seconds": round(seconds, 3)})
            bar.advance(task)
    record(key)
    if json_out:
        print_json({"compiled": done, "cached": False})
    else:
        for item in done:
            console.print(f"{item['kernel']}: {item['seconds']:.2f} s")
