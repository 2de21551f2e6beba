"""``gamesearch tables build|probe``: endgame databases by retrograde analysis (checkers),
built with a progress bar, resumable after a kill or Ctrl-C, probed by FEN."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer

from gamesearch.cli.common import console, print_json
from gamesearch.cli.main import app
from gamesearch.errors import GameSearchError

tables_app = typer.Typer(help="Endgame databases by retrograde analysis (checkers).",
                         no_args_is_help=True)
app.add_typer(tables_app, name="tables")
GAMES = ("checkers",)
DEFAULT_FOLDER = "tables/checkers"


def _progress_bar(first: str, total: int) -> tuple[Any, Callable[[str, int, int], None]]:
    """A slice-count progress bar (gone when done) and the callback the jobs report to."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    bar = Progress("[progress.description]{task.description}", BarColumn(),
                   MofNCompleteColumn(), TimeElapsedColumn(), console=console, transient=True)
    task = bar.add_task(first, total=total)

    def progress(description: str, done: int, total: int) -> None:
        bar.update(task, description=description, completed=done, total=total)

    return bar, progress


def _game(name: str) -> None:
    if name not in GAMES:
        raise GameSearchError(f"tables: no endgame databases for {name!r}; games: "
                              f"{', '.join(GAMES)}")


@tables_app.command("build")
def build_command(
    game_name: str = typer.Argument(..., metavar="GAME", help="checkers"),
    pieces: int = typer.Option(..., "--pieces", "-n", min=1, max=8,
                               help="every position with up to this many pieces"),
    folder: Path = typer.Option(Path(DEFAULT_FOLDER), "--dir", help="where the files go"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Build every position of 1..N pieces: win/loss/draw and distance, checksummed files.

    Killed or stopped with Ctrl-C, the same command resumes at the first unfinished slice.
    Up to 4 pieces takes minutes on a laptop; docs/TABLES.md has the figures for 5 and 6.

    gamesearch tables build checkers --pieces 3
    """
    from gamesearch.catalog.checkers_tables import estimate, table_spec
    from gamesearch.tables.build import build_tables

    _game(game_name)
    need = estimate(pieces)
    if need["memory_bytes"] > 16 * 2**30:
        raise GameSearchError(
            f"tables build: {pieces} pieces needs {need['memory_bytes'] / 2**30:,.0f} GiB of "
            f"memory and {need['disk_bytes'] / 2**30:,.0f} GiB of disk; this build keeps "
            "every slot in memory (see docs/TABLES.md for the plan beyond 5 pieces)")
    spec = table_spec(pieces)
    bar, progress = _progress_bar("compiling", len(spec.slices))
    began = time.perf_counter()
    with bar:
        report, _, _ = build_tables(spec, folder, progress)
    data = {"game": game_name, "pieces": pieces, "folder": str(folder),
            "slices": len(spec.slices), "built": len(report.built),
            "loaded": len(report.loaded), "positions": spec.total_slots,
            "counts": report.counts, "seconds": round(time.perf_counter() - began, 3),
            "interrupted": report.interrupted}
    if json_out:
        print_json(data)
    else:
        state = "stopped; run the same command to resume" if report.interrupted else "done"
        console.print(f"{game_name} tables to {pieces} pieces in {folder}: {state}; "
                      f"{len(report.built)} slices built, {len(report.loaded)} loaded and "
                      f"checked; {spec.total_slots:,} positions (both sides to move): "
                      f"{report.counts['win']:,} wins, {report.counts['loss']:,} losses, "
                      f"{report.counts['draw']:,} draws; {data['seconds']:.1f} s")
    if report.interrupted:
        raise typer.Exit(130)


@tables_app.command("probe")
def probe_command(
    game_name: str = typer.Argument(..., metavar="GAME", help="checkers"),
    position_text: str = typer.Argument(..., metavar="FEN", help="a PDN FEN, e.g. W:W9:BK30"),
    folder: Path = typer.Option(Path(DEFAULT_FOLDER), "--dir", help="the tables' folder"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """The exact value of a position from the tables, and each move's value.

    gamesearch tables probe checkers "W:W9:BK30"
    """
    from gamesearch.catalog.checkers_tables import Tables
    from gamesearch.games import load_game
    from gamesearch.tables.retrograde import NAMES

    _game(game_name)
    game = load_game(game_name)
    state = game.state_from_string(position_text)
    tables = Tables(folder)
    value, distance = tables.probe(state)
    mover = game.player_name(game.to_move(state))
    moves = {}
    for action in game.actions(state):
        v, d = tables.probe(game.result(state, action))
        moves[action] = {"value": NAMES[{1: 2, 2: 1}.get(v, v)], "plies": d + 1}
    data = {"position": game.state_to_string(state), "to_move": mover,
            "value": NAMES[value], "plies": distance, "moves": moves}
    if json_out:
        print(json.dumps(data, indent=2))
        return
    console.print(game.render(state))
    ends = "" if NAMES[value] == "draw" else f" in {distance} plies"
    console.print(f"[bold]{mover} to move[/]: {NAMES[value]}{ends} (exact, from the tables)")
    for action, info in moves.items():
        console.print(f"  {action:>12}  {info['value']} for {mover}"
                      + ("" if info["value"] == "draw" else f" in {info['plies']} plies"))


@tables_app.command("verify")
def verify_command(
    game_name: str = typer.Argument(..., metavar="GAME", help="checkers"),
    pieces: int = typer.Option(..., "--pieces", "-n", min=1, max=8,
                               help="the tables of 1..N pieces to check"),
    folder: Path = typer.Option(Path(DEFAULT_FOLDER), "--dir", help="the tables' folder"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Check every slot of built tables against the rules (exit 1 at the first that breaks
    them): a win has a move to a loss one ply shorter, a loss only moves to wins, a draw a
    move to a draw and none to a loss.

    gamesearch tables verify checkers --pieces 3
    """
    from gamesearch.catalog.checkers_tables import table_spec
    from gamesearch.tables.verify import verify_tables

    _game(game_name)
    spec = table_spec(pieces)
    bar, progress = _progress_bar("loading", len(spec.slices))
    with bar:
        report = verify_tables(spec, folder, progress)
    data = {"game": game_name, "pieces": pieces, "folder": str(folder), "slots": report.slots,
            "seconds": round(report.seconds, 3), "ok": report.bad is None,
            "bad": None if report.bad is None else {"slice": report.bad[0],
                                                    "slot": report.bad[1]}}
    if json_out:
        print_json(data)
    elif report.bad is None:
        console.print(f"{game_name} tables to {pieces} pieces in {folder}: every one of "
                      f"{report.slots:,} slots keeps the rules ({report.seconds:.1f} s)")
    else:
        console.print(f"{game_name} tables to {pieces} pieces in {folder}: slot "
                      f"{report.bad[1]:,} of slice {report.bad[0]} breaks the rules")
    if report.bad is not None:
        raise typer.Exit(1)
