"""``gamesearch tables build|probe|verify``: endgame databases by retrograde analysis
(checkers, chess), built with a progress bar, resumable after a kill or Ctrl-C, probed by
FEN."""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer

from gamesearch.cli.common import console, print_json
from gamesearch.cli.main import app
from gamesearch.errors import GameSearchError

tables_app = typer.Typer(help="Endgame databases by retrograde analysis (checkers, chess).",
                         no_args_is_help=True)
app.add_typer(tables_app, name="tables")
def _games() -> dict[str, str]:
    """Each game with endgame tables: its tables module (``table_spec``, ``estimate``,
    ``Tables``), as its entry names it."""
    from gamesearch.games import entries

    return {entry.name: entry.tables for entry in entries() if entry.tables is not None}


def _progress_bar(first: str, total: int) -> tuple[Any, Callable[[str, int, int], None]]:
    """A slice-count progress bar (gone when done) and the callback the jobs report to."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    bar = Progress("[progress.description]{task.description}", BarColumn(),
                   MofNCompleteColumn(), TimeElapsedColumn(), console=console, transient=True)
    task = bar.add_task(first, total=total)

    def progress(description: str, done: int, total: int) -> None:
        bar.update(task, description=description, completed=done, total=total)

    return bar, progress


MEMORY_CAP = 16 * 2**30
"""The most memory a build may plan to hold (checkers' 6 pieces by passes: 10 GiB)."""


def _game(name: str) -> Any:
    """The game's tables module (its entry names it), or one clear error."""
    games = _games()
    if name not in games:
        raise GameSearchError(f"tables: no endgame databases for {name!r}; games: "
                              f"{', '.join(games)}")
    return importlib.import_module(games[name])


def _folder(folder: Path | None, game: str) -> Path:
    return folder if folder is not None else Path("tables") / game


def _spec(module: Any, pieces: int, only: str | None) -> Any:
    names = None if only is None else [name.strip() for name in only.split(",")]
    return module.table_spec(pieces, names)


@tables_app.command("build")
def build_command(
    game_name: str = typer.Argument(..., metavar="GAME", help="checkers or chess"),
    pieces: int = typer.Option(..., "--pieces", "-n", min=1, max=8,
                               help="every position with up to this many pieces"),
    only: str = typer.Option(None, "--only", help="chess: these tables (and what they "
                             "reach), e.g. KQvK,KRvK"),
    folder: Path = typer.Option(None, "--dir", help="where the files go (tables/GAME)"),
    method: str = typer.Option("levels", "--method", help="levels (fast: each position's "
                               "moves generated twice, lists of predecessors in memory) "
                               "or passes (lean: the moves generated once a pass)"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Build every position of 1..N pieces: win/loss/draw and distance, checksummed files.

    Killed or stopped with Ctrl-C, the same command resumes at the first unfinished slice.
    Checkers up to 4 pieces and chess up to 3 take under a minute on a laptop core; chess
    to 4 pieces about half an hour and 1.5 GB; docs/TABLES.md has the figures.

    gamesearch tables build checkers --pieces 3
    gamesearch tables build chess --pieces 3
    """
    from gamesearch.tables.build import build_tables

    module = _game(game_name)
    given = folder
    folder = _folder(folder, game_name)
    if method not in ("levels", "passes"):
        raise GameSearchError(f"tables build: --method is levels or passes, not {method!r}")
    need = module.estimate(pieces)
    memory = need["memory_bytes"] + (need["solve_bytes"] if method == "levels" else 0)
    if memory > MEMORY_CAP:
        lean = ("" if method == "passes" or need["memory_bytes"] > MEMORY_CAP else
                f"; --method passes needs {need['memory_bytes'] / 2**30:,.0f} GiB (slower)")
        raise GameSearchError(
            f"tables build: {pieces} pieces needs {memory / 2**30:,.0f} GiB of memory and "
            f"{need['disk_bytes'] / 2**30:,.0f} GiB of disk; this build keeps every slot in "
            f"memory, and allows {MEMORY_CAP // 2**30} GiB{lean} (docs/TABLES.md)")
    spec = _spec(module, pieces, only)
    bar, progress = _progress_bar("compiling", len(spec.slices))
    began = time.perf_counter()
    with bar:
        report, _, _ = build_tables(spec, folder, progress, method,
                                    parents=given is None)  # the default tables/GAME
    data = {"game": game_name, "pieces": pieces, "folder": str(folder),
            "slices": len(spec.slices), "built": len(report.built),
            "loaded": len(report.loaded), "slots": spec.total_slots,
            "positions": sum(report.counts.values()),
            "counts": report.counts, "seconds": round(time.perf_counter() - began, 3),
            "interrupted": report.interrupted}
    if json_out:
        print_json(data)
    else:
        state = "stopped; run the same command to resume" if report.interrupted else "done"
        console.print(f"{game_name} tables to {pieces} pieces in {folder}: {state}; "
                      f"{len(report.built)} slices built, {len(report.loaded)} loaded and "
                      f"checked; {sum(report.counts.values()):,} positions (both sides to "
                      "move): "
                      f"{report.counts['win']:,} wins, {report.counts['loss']:,} losses, "
                      f"{report.counts['draw']:,} draws; {data['seconds']:.1f} s")
    if report.interrupted:
        raise typer.Exit(130)


@tables_app.command("probe")
def probe_command(
    game_name: str = typer.Argument(..., metavar="GAME", help="checkers or chess"),
    position_text: str = typer.Argument(..., metavar="FEN",
                                        help="a PDN FEN (W:W9:BK30) or a chess FEN"),
    folder: Path = typer.Option(None, "--dir", help="the tables' folder (tables/GAME)"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """The exact value of a position from the tables, and each move's value.

    gamesearch tables probe checkers "W:W9:BK30"
    gamesearch tables probe chess "8/8/8/4k3/8/8/8/4K2Q w - - 0 1"
    """
    from gamesearch.games import load_game
    from gamesearch.tables.retrograde import NAMES

    module = _game(game_name)
    game = load_game(game_name)
    state = game.state_from_string(position_text)
    tables = module.Tables(_folder(folder, game_name))
    value, distance = tables.probe(state)
    mover = game.player_name(game.to_move(state))
    moves = {}
    for action in game.actions(state):
        after = game.result(state, action)
        if game.is_terminal(after):  # mate or a dead position: the rules say
            u = game.utilities(after)[game.to_move(state)]
            v, d = (2 if u > 0 else 1 if u < 0 else 3), 0
        else:
            v, d = tables.probe(after)
        action = game.action_to_string(state, action)
        moves[action] = {"value": NAMES[{1: 2, 2: 1}.get(v, v)], "plies": d + 1}
    data = {"position": game.state_to_string(state), "to_move": mover,
            "value": NAMES[value], "plies": distance, "moves": moves}
    if json_out:
        print(json.dumps(data, indent=2))
        return
    console.print(game.render(state))
    ends = "" if NAMES[value] == "draw" else f" in {_plies(distance)}"
    console.print(f"[bold]{mover} to move[/]: {NAMES[value]}{ends} (exact, from the tables)")
    for action, info in moves.items():
        console.print(f"  {action:>12}  {info['value']} for {mover}"
                      + ("" if info["value"] == "draw" else f" in {_plies(info['plies'])}"))


def _plies(n: int) -> str:
    """'1 ply', '7 plies'."""
    return f"{n} ply" if n == 1 else f"{n} plies"


@tables_app.command("verify")
def verify_command(
    game_name: str = typer.Argument(..., metavar="GAME", help="checkers or chess"),
    pieces: int = typer.Option(..., "--pieces", "-n", min=1, max=8,
                               help="the tables of 1..N pieces to check"),
    only: str = typer.Option(None, "--only", help="chess: these tables (and what they "
                             "reach), e.g. KQvK"),
    folder: Path = typer.Option(None, "--dir", help="the tables' folder (tables/GAME)"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Check every slot of built tables against the rules (exit 1 at the first that breaks
    them): a win has a move to a loss one ply shorter, a loss only moves to wins, a draw a
    move to a draw and none to a loss.

    gamesearch tables verify checkers --pieces 3
    """
    from gamesearch.tables.verify import verify_tables

    module = _game(game_name)
    folder = _folder(folder, game_name)
    spec = _spec(module, pieces, only)
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
