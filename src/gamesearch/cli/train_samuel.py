"""``gamesearch train samuel [GAME]``: a game's evaluation weights learned by TD-leaf
self-play, resumable, with its learning curve. The game is the one whose entry declares
``samuel`` (``trainers``); its ``make()`` is the learning module (``KIND``, ``FEATURES``,
``WEIGHTS_MARK`` and ``train``), which stays in the game's engine.

Files in ``--out``: ``checkpoint.npz`` (atomic, every 100 games, at the end and on
Ctrl-C), ``weights.json`` (the learned weights, for the engine's ``weights=...``) and
``curve.png`` (the score of the learned weights against the hand-written ones at equal
depth, with its 95% interval). The same command after a kill (with ``--resume``) ends with
the weights an unbroken run would have.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from gamesearch.cli.common import console, finish_training
from gamesearch.cli.train_group import GAME, train_app, trainer_for
from gamesearch.cli.train_learn import plot_curve
from gamesearch.errors import GameSearchError


def _weights_of(mark: str) -> Callable[[Path], bool]:
    """Whether a file is a weights file we wrote (its ``gamesearch`` field is ``mark``)."""
    def is_ours(path: Path) -> bool:
        from gamesearch.textinput import read_input

        try:
            data = read_input(path, "weights file")
            return json.loads(data.decode("utf-8")).get("gamesearch") == mark
        except (GameSearchError, UnicodeDecodeError, ValueError, AttributeError):
            return False

    return is_ours


@train_app.command("samuel")
def train_samuel(
    game_name: str | None = GAME,
    games: int = typer.Option(10_000, "--games", "-n", min=1, max=10_000_000,
                              help="train until the run holds this many games"),
    depth: int = typer.Option(4, "--depth", min=1, max=20, help="search depth (a new run)"),
    alpha: float = typer.Option(20.0, "--alpha", help="learning rate (a new run)"),
    seed: int = typer.Option(0, "--seed", min=0, help="seed of the openings (a new run)"),
    eval_every: int = typer.Option(1000, "--eval-every", min=0,
                                   help="games between matches against the hand weights"),
    out: str | None = typer.Option(None, "--out", help="folder for the files "
                                   "(samuel-GAME)"),
    resume: bool = typer.Option(False, "--resume", help="continue from --out's checkpoint"),
    force: bool = typer.Option(False, "--force", help="start --out afresh"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Learn evaluation weights by Samuel's TD-leaf self-play; Ctrl-C keeps the work."""
    from gamesearch.durable import StopRequest, atomic_write, check_output, output_folder
    from gamesearch.learn.checkpoint import checkpoint_is_ours

    entry, trainer = trainer_for("samuel", game_name)
    L = trainer.make()  # noqa: N806  (the method's module for this game)
    if not 0 < alpha < 1000:
        raise GameSearchError(f"--alpha must be in (0, 1000), got {alpha}")
    out = out or f"samuel-{entry.name}"
    folder = Path(out)
    if resume and not folder.is_dir():
        raise GameSearchError(f"nothing to resume: {out!r} is not a folder")
    output_folder(folder, "--out folder")
    checkpoint = folder / "checkpoint.npz"
    if checkpoint.exists() and not checkpoint_is_ours(checkpoint, L.KIND):
        raise GameSearchError(f"{str(checkpoint)!r} exists and is not a {L.KIND} checkpoint; "
                              "gamesearch never overwrites a file it did not make")
    if checkpoint.exists() and not resume and not force:
        raise GameSearchError(f"{str(checkpoint)!r} exists: add --resume to go on or --force "
                              "to start afresh")
    check_output(folder / "weights.json", _weights_of(L.WEIGHTS_MARK), force=force,
                 what="weights file")
    with Progress(TextColumn("Samuel/TD-leaf"), BarColumn(), TextColumn(
            "{task.completed}/{task.total} games"), TextColumn("vs hand {task.fields[rate]}"),
            TimeRemainingColumn(), console=console, disable=json_out) as bar, \
            StopRequest() as stop:
        task = bar.add_task("samuel", total=games, rate="-")

        def shown(record: dict) -> None:
            curve = record["curve"]
            rate = f"{100 * curve[-1]['vs_hand']:.1f}%" if curve else "-"
            bar.update(task, completed=record["games"], rate=rate)

        record = L.train(checkpoint, games, seed=seed, depth=depth, alpha=alpha,
                         eval_every=eval_every, resume=resume, progress=shown,
                         stop=lambda: stop.requested)
    atomic_write(folder / "weights.json", json.dumps(
        {"gamesearch": L.WEIGHTS_MARK, "features": list(L.FEATURES),
         "weights": record["weights"], "games": record["games"],
         "settings": {k: record[k] for k in ("seed", "depth", "alpha", "lambda", "epsilon",
                                             "average_from")}}, indent=1) + "\n")
    if record["curve"]:
        plot_curve(record["curve"], folder / "curve.png",
                   f"{entry.name}: learned weights vs hand-written (equal depth)", "vs_hand",
                   "learned vs hand")
    interrupted = record["games"] < games
    summary = {"game": entry.name, "games": record["games"],
               "weights": {f: round(w, 2) for f, w in zip(L.FEATURES, record["weights"])},
               "last_evaluation": record["curve"][-1] if record["curve"] else None,
               "interrupted": interrupted, "folder": str(folder)}
    finish_training(summary, json_out, interrupted)
