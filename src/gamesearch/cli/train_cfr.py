"""``gamesearch train cfr GAME``: CFR training with progress, a curve, and resumable files.

Every ``--every`` iterations the exact exploitability of the average strategy is measured
and appended to ``curve.csv``; at the end (or on Ctrl-C) the sums go to ``checkpoint.npz``,
the average strategy to ``strategy.json`` and the curve to ``exploitability.png``, all in
``--out``. ``--resume`` continues from the checkpoint there.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from gamesearch.cli.common import console, print_json, print_report
from gamesearch.cli.main import app
from gamesearch.errors import GameSearchError

train_app = typer.Typer(help="Train strategies (CFR for hidden-information games).",
                        no_args_is_help=True)
app.add_typer(train_app, name="train")


@train_app.command("cfr")
def train_cfr(
    game_name: str = typer.Argument(..., metavar="GAME", help="kuhn_poker, leduc_poker, ..."),
    iterations: int = typer.Option(1000, "--iterations", "-n", help="iterations to add"),
    plus: bool = typer.Option(False, "--plus", help="CFR+ instead of vanilla CFR"),
    every: int = typer.Option(0, "--every", help="measure exploitability every N iterations"),
    out: str | None = typer.Option(None, "--out", help="folder for the files (cfr-GAME)"),
    resume: bool = typer.Option(False, "--resume", help="continue from --out's checkpoint"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Run CFR on GAME; show progress and the exploitability curve; Ctrl-C keeps the work."""
    from gamesearch.games import load_game
    from gamesearch.imperfect.training import CFRTraining

    if iterations < 1:
        raise GameSearchError(f"--iterations must be at least 1, got {iterations}")
    game = load_game(game_name)
    folder = Path(out or f"cfr-{game.name}")
    run = CFRTraining(game, folder, plus=plus, resume=resume)
    step = every if every > 0 else max(1, iterations // 50)
    interrupted = False
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}"
                  "/{task.total}"), TextColumn("expl {task.fields[expl]}"),
                  TimeRemainingColumn(), console=console, disable=json_out) as bar:
        task = bar.add_task(f"{run.solver.algorithm} {game.name}", total=iterations, expl="-")
        try:
            done = 0
            while done < iterations:
                chunk = min(step, iterations - done)
                expl = run.step(chunk)
                done += chunk
                bar.update(task, completed=done, expl=f"{expl:.3g}")
        except KeyboardInterrupt:
            interrupted = True
    files = run.finish()
    summary = {"game": game.name, "algorithm": run.solver.algorithm,
               "iterations": run.solver.iterations, "exploitability": run.curve[-1][1],
               "value": run.value(), "interrupted": interrupted,
               "files": {k: str(v) for k, v in files.items()}}
    if json_out:
        print_json(summary)
    else:
        print_report(summary)
    if interrupted:  # the files are written; exit 130 like any interrupted command
        print("interrupted: the work so far is saved (continue with --resume)", file=sys.stderr)
        sys.exit(130)
