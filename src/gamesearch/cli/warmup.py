"""``gamesearch warmup``: compile (or load) every compiled kernel now, the games' own
warm-ups (their entries' ``warmups``) and the algorithms' (catalog/warmup.py)."""

from __future__ import annotations

import typer

from gamesearch.cli.common import console, print_json
from gamesearch.cli.main import app

WARMUP_GAMES = typer.Argument(None, metavar="[GAME]...",
                              help="game specs, e.g. NAME:width=6,height=5 "
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
