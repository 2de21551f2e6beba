"""``gamesearch train cfr GAME``: CFR training with progress, a curve, and resumable files.

Every ``--every`` iterations the exact exploitability of the average strategy is measured
and added to the curve. Every ``--checkpoint-every`` seconds, and at the end or on Ctrl-C,
the sums, the iteration count and the curve go to ``checkpoint.npz`` (atomically: kill -9
loses at most that many seconds); at the end the curve also goes to ``curve.csv``, the
average strategy to ``strategy.json`` and the plot to ``exploitability.png``, all in
``--out``. ``--resume`` continues from the checkpoint there; with ``--total N`` the same
command, repeated after a kill, finishes the run at exactly N iterations.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from gamesearch.cli.common import console, finish_training
from gamesearch.cli.train_group import train_app
from gamesearch.errors import GameSearchError

MAX_ITERATIONS = 10**9
"""The most iterations one run may ask for: the web and ``solve``'s --iterations allow as
many; a 45-digit count was accepted and would never end."""



@train_app.command("cfr")
def train_cfr(
    game_name: str = typer.Argument(..., metavar="GAME", help="kuhn_poker, leduc_poker, ..."),
    iterations: int | None = typer.Option(None, "--iterations", "-n",
                                          help="iterations to add (default 1000)"),
    total: int | None = typer.Option(None, "--total", help="train until the run holds this "
                                     "many iterations (the same command finishes a killed run)"),
    plus: bool = typer.Option(False, "--plus", help="CFR+ instead of vanilla CFR"),
    every: int = typer.Option(0, "--every", help="measure exploitability every N iterations"),
    out: str | None = typer.Option(None, "--out", help="folder for the files (cfr-GAME)"),
    resume: bool = typer.Option(False, "--resume", help="continue from --out's checkpoint"),
    checkpoint_every: float = typer.Option(60.0, "--checkpoint-every", metavar="SECONDS",
                                           help="write the checkpoint this often"),
    force: bool = typer.Option(False, "--force", help="overwrite --out's files, even ones "
                               "gamesearch did not write"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Run CFR on GAME; show progress and the exploitability curve; Ctrl-C keeps the work."""
    from gamesearch.durable import StopRequest
    from gamesearch.games import load_game
    from gamesearch.imperfect.training import CFRTraining

    if iterations is not None and total is not None:
        raise GameSearchError("give --iterations (to add) or --total, not both")
    if iterations is not None and iterations < 1:
        raise GameSearchError(f"--iterations must be at least 1, got {iterations}")
    if total is not None and total < 0:
        raise GameSearchError(f"--total must be at least 0, got {total}")
    for flag, count in (("--iterations", iterations), ("--total", total)):
        if count is not None and count > MAX_ITERATIONS:
            shown = f"{count:,}" if count < 10**15 else f"a number of {len(str(count))} digits"
            raise GameSearchError(f"{flag} {shown}: at most {MAX_ITERATIONS:,} (Kuhn poker, "
                                  "the smallest game, runs some 10,000 a second: a day)")
    if every < 0:
        raise GameSearchError(f"--every must be at least 0, got {every}")
    if not checkpoint_every >= 0:  # also refuses nan
        raise GameSearchError(f"--checkpoint-every must be >= 0 seconds, got {checkpoint_every}")
    game = load_game(game_name)
    folder = Path(out or f"cfr-{game.name}")
    run = CFRTraining(game, folder, plus=plus, resume=resume, force=force,
                      checkpoint_every=checkpoint_every)
    start = run.solver.iterations
    target = total if total is not None else start + (iterations or 1000)
    if target < start:
        run.close()
        raise GameSearchError(f"--total {target}: the run in {str(folder)!r} already holds "
                              f"{start} iterations")
    step = every if every > 0 else max(1, (target - start) // 50)
    interrupted = False
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}"
                  "/{task.total}"), TextColumn("expl {task.fields[expl]}"),
                  TimeRemainingColumn(), console=console, disable=json_out) as bar, \
            StopRequest() as stop:
        task = bar.add_task(f"{run.solver.algorithm} {game.name}", total=target,
                            completed=start, expl="-")
        try:
            while run.solver.iterations < target:
                boundary = min(target, (run.solver.iterations // step + 1) * step)
                expl = run.step(boundary - run.solver.iterations, lambda: stop.requested)
                bar.update(task, completed=run.solver.iterations,
                           expl="-" if expl is None else f"{expl:.3g}")
                if stop.requested:
                    interrupted = True
                    break
        except KeyboardInterrupt:
            interrupted = True
    files = run.finish()
    summary = {"game": game.name, "algorithm": run.solver.algorithm,
               "iterations": run.solver.iterations, "exploitability": run.curve[-1][1],
               "value": run.value(), "interrupted": interrupted,
               "files": {k: str(v) for k, v in files.items()}}
    finish_training(summary, json_out, interrupted)

