"""``gamesearch perft`` and ``gamesearch count``: counting a game's move sequences."""

from __future__ import annotations

import sys
import time

import typer
from rich.table import Table

from gamesearch.cli.common import EXTRA_ARGS, console, extra_params, print_json
from gamesearch.cli.game_options import options_epilog
from gamesearch.cli.main import app
from gamesearch.errors import LimitError

DEFAULT_COUNT_LIMIT = 200_000
"""Distinct positions before count gives up: a few seconds and about 100 MB of memory."""


@app.command("perft", context_settings=EXTRA_ARGS, epilog=options_epilog())
def perft_command(
    ctx: typer.Context,
    game_name: str = typer.Argument(..., metavar="GAME", help="a game name (see 'games')"),
    depth: int = typer.Option(..., "--depth", "-d", min=1, max=1000,
                              help="count to this many plies"),
    position_text: str | None = typer.Option(None, "--position", "--fen", "-p",
                                                help="count from this position"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Count the move sequences of 1..N plies (perft), with the time of each depth.

    Games that end earlier add nothing at the deeper depths.

    gamesearch perft connect4 --depth 6   (7, 49, 343, ..., 117649)
    """
    from gamesearch.cli.common import load_with_params, position
    from gamesearch.games import game_entry
    from gamesearch.search.enumeration import perft as generic_perft

    game = load_with_params(game_name, extra_params(ctx))
    state = position(game, position_text)
    entry = game_entry(game_name.split(":")[0])
    perft = entry.perft if entry.perft is not None else generic_perft
    rows: list[dict] = []
    interrupted = False
    title = f"perft {game_name}" + (f" from {position_text}" if position_text else "")
    live = None
    if not json_out and console.is_terminal:  # each depth's row as it finishes
        from rich.live import Live

        live = Live(_perft_table(title, rows, 1, depth), console=console,
                    auto_refresh=False)
        live.start()
    try:
        for d in range(1, depth + 1):
            began = time.perf_counter()
            leaves = perft(game, state, d)
            rows.append({"depth": d, "leaves": leaves,
                         "seconds": round(time.perf_counter() - began, 6)})
            if live is not None:
                live.update(_perft_table(title, rows, d + 1, depth), refresh=True)
            if leaves == 0:  # every game has ended: the deeper depths add nothing
                break
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if live is not None:
            live.update(_perft_table(title, rows, None, depth), refresh=True)
            live.stop()
    if json_out:
        print_json({"value": rows[-1]["leaves"] if rows else None,
                    "depth": rows[-1]["depth"] if rows else 0, "table": rows,
                    "interrupted": interrupted})
    elif live is None:
        console.print(_perft_table(title, rows, None, depth))
    if interrupted:
        print(f"interrupted at depth {len(rows) + 1}", file=sys.stderr)
        raise typer.Exit(130)


def _perft_table(title: str, rows: list[dict], counting: int | None, depth: int) -> Table:
    """The depths counted so far; ``counting``: the depth under way (a caption says so, and
    how Ctrl-C keeps what is done)."""
    caption = None
    if counting is not None and counting <= depth:
        caption = f"counting depth {counting} of {depth}... (Ctrl-C stops with these rows)"
    table = Table(title=title, caption=caption)
    for column in ("depth", "leaves", "seconds", "leaves/s"):
        table.add_column(column, justify="right")
    for row in rows:
        rate = row["leaves"] / row["seconds"] if row["seconds"] > 0 else 0
        table.add_row(str(row["depth"]), f"{row['leaves']:,}", f"{row['seconds']:.3f}",
                      f"{rate:,.0f}")
    return table


@app.command("count", context_settings=EXTRA_ARGS, epilog=options_epilog())
def count_command(
    ctx: typer.Context,
    game_name: str = typer.Argument(..., metavar="GAME", help="a game name (see 'games')"),
    position_text: str | None = typer.Option(None, "--position", "-p",
                                                help="count the game from this position"),
    limit: int = typer.Option(DEFAULT_COUNT_LIMIT, "--limit", min=1,
                              help="give up beyond this many distinct positions"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Enumerate a small game completely: nodes, positions, finished games by outcome.

    The 'value' in JSON is the number of finished games.

    gamesearch count tictactoe   (255,168 games, 5,478 positions)
    """
    from gamesearch.cli.common import load_with_params, position
    from gamesearch.search.enumeration import count_game

    game = load_with_params(game_name, extra_params(ctx))
    state = position(game, position_text)
    try:
        counted = count_game(game, state, limit=limit)
    except LimitError as err:
        raise LimitError(f"{err} (raise --limit to try anyway)") from None
    data = counted.as_dict(game)
    if json_out:
        print_json({"value": data["games"], **data})
        return
    table = Table(title=f"{game_name}: the whole game tree")
    table.add_column("what")
    table.add_column("count", justify="right")
    table.add_row("tree nodes", f"{data['nodes']:,}")
    table.add_row("distinct positions", f"{data['positions']:,}")
    table.add_row("distinct final positions", f"{data['terminal_positions']:,}")
    table.add_row("finished games", f"{data['games']:,}")
    for outcome, n in data["outcomes"].items():
        table.add_row(f"  {outcome}", f"{n:,}")
    console.print(table)
