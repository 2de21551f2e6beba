"""Connect Four and kernel commands: ``analyze``, ``book``, ``warmup``.

``gamesearch solve connect4`` itself is the core ``solve`` command, which hands the position
to the registry's GameEntry.solver (games/connect4_perfect.py).
"""

from __future__ import annotations

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
    from gamesearch.games.connect4_perfect import analyze, outcome

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
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Build an opening book with our own solver (resumable: rerun after a kill)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from gamesearch.games.connect4_book import build_book

    game = _connect4(game_name, extra_params(ctx))
    if not 0 <= depth <= game.cells:
        raise GameSearchError(f"book depth {depth}: give 0-{game.cells}")
    path = output or f"book_{game.width}x{game.height}_d{depth}.npz"
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(), console=console,
                  disable=json_out) as bar:
        task = bar.add_task(f"solving positions with {depth} stones", total=None)

        def report(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        book = build_book(game.width, game.height, depth, path, progress=report)
    data = {"file": path, "depth": depth, "positions": len(book.keys),
            "bytes": book.keys.nbytes + book.values.nbytes}
    if json_out:
        print_json(data)
    else:
        console.print(f"wrote {data['positions']} positions (depth {depth}) to {path}")


WARMUP_GAMES = typer.Argument(None, metavar="[GAME]...",
                              help="game specs, e.g. connect4:width=6,height=5 "
                                   "(default: every kernel at its default size)")


@app.command("warmup")
def warmup_command(
    games: list[str] = WARMUP_GAMES,
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Compile every kernel now (numba caches them on disk: later runs start at once)."""
    from gamesearch.kernels.warmup import warmup_steps

    steps = warmup_steps(games or ())
    done = []
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=console,
                  disable=json_out) as bar:
        task = bar.add_task("compiling kernels", total=len(steps))
        for name, step in steps:
            bar.update(task, description=f"compiling {name}")
            seconds = step()
            done.append({"kernel": name, "seconds": round(seconds, 3)})
            bar.advance(task)
    if json_out:
        print_json({"compiled": done})
    else:
        for item in done:
            console.print(f"{item['kernel']}: {item['seconds']:.2f} s")
