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

DEFAULT_PERFT_SECONDS = 60.0
"""perft's default limit: it starts no depth that it estimates would end past this."""

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
    seconds: float = typer.Option(DEFAULT_PERFT_SECONDS, "--time", min=0.001, max=86_400 * 7,
                                  help="start no depth estimated to end past this many "
                                  "seconds"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Count the move sequences of 1..N plies (perft), with the time of each depth.

    Games that end earlier add nothing at the deeper depths. Each depth's time is estimated
    from the one before (its time times the growth in leaves); a depth estimated to end past
    --time (60 s by default) is not started. A compiled kernel is loaded (or compiled) first,
    and that time is shown apart.

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
    stopped: str | None = None
    compile_seconds = None
    title = f"perft {game_name}" + (f" from {position_text}" if position_text else "")
    live = None
    try:
        if perft is not generic_perft and not game.is_terminal(state):
            began = time.perf_counter()  # the kernel's compile (or load from the cache),
            perft(game, state, 1)  # timed apart: depth 1 showed it as "24 s, 0 leaves/s"
            compile_seconds = round(time.perf_counter() - began, 6)
        if not json_out and console.is_terminal:  # each depth's row as it finishes
            from rich.live import Live

            live = Live(_perft_table(title, rows, 1, depth, seconds), console=console,
                        auto_refresh=False)
            live.start()
        started = time.perf_counter()
        for d in range(1, depth + 1):
            estimate = _next_depth_seconds(rows)
            spent = time.perf_counter() - started
            if estimate is not None and spent + estimate > seconds:
                stopped = (f"depth {d} not started: it would take about "
                           f"{_duration(estimate)} (the last depth's time times its growth in "
                           f"leaves), ending past --time {seconds:g} s with {spent:.1f} s "
                           "spent")
                break
            began = time.perf_counter()
            leaves = perft(game, state, d)
            rows.append({"depth": d, "leaves": leaves,
                         "seconds": round(time.perf_counter() - began, 6)})
            if live is not None:
                live.update(_perft_table(title, rows, d + 1, depth, seconds), refresh=True)
            if leaves == 0:  # every game has ended: the deeper depths add nothing
                break
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if live is not None:
            live.update(_perft_table(title, rows, None, depth, seconds), refresh=True)
            live.stop()
    if json_out:
        print_json({"value": rows[-1]["leaves"] if rows else None,
                    "depth": rows[-1]["depth"] if rows else 0, "table": rows,
                    "compile_seconds": compile_seconds, "time_limit": seconds,
                    "stopped": stopped, "interrupted": interrupted})
    else:
        if live is None:
            console.print(_perft_table(title, rows, None, depth, seconds))
        console.print(f"depths estimated to end within {seconds:g} s (--time)")
        if compile_seconds is not None:
            console.print(f"kernel ready in {compile_seconds:.3f} s (compiled, or loaded from "
                          "numba's cache; not counted above)")
    if stopped:
        print(f"stopped: {stopped}", file=sys.stderr)
    if interrupted:
        print(f"interrupted at depth {len(rows) + 1}", file=sys.stderr)
        raise typer.Exit(130)


def _next_depth_seconds(rows: list[dict]) -> float | None:
    """The next depth's time, estimated from the last one: its time times the growth in
    leaves from the depth before it (None before depth 2, or when nothing was counted)."""
    if not rows:
        return None
    last = rows[-1]
    before = rows[-2]["leaves"] if len(rows) >= 2 else 1
    growth = last["leaves"] / before if before else 1.0
    return last["seconds"] * max(growth, 1.0)


def _duration(seconds: float) -> str:
    """A duration as a person reads it: ``3.2 s``, ``41 min``, ``5.1 days``, ``1e+40 years``."""
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= 2 * size:
            return f"{seconds / size:.3g} {unit}"
    return f"{seconds:.3g} s"


def _perft_table(title: str, rows: list[dict], counting: int | None, depth: int,
                 seconds: float = DEFAULT_PERFT_SECONDS) -> Table:
    """The depths counted so far; ``counting``: the depth under way (a caption says so, the
    time limit, and how Ctrl-C keeps what is done)."""
    caption = None
    if counting is not None and counting <= depth:
        caption = (f"counting depth {counting} of {depth} (limit {seconds:g} s)... "
                   "(Ctrl-C stops with these rows)")
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
