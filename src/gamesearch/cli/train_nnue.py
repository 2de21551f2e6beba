"""``gamesearch train nnue [GAME]``: an NNUE-style evaluation network fitted to an outside
engine's scores of positions, in JAX (the ``gpu`` extra). The game is the one whose entry
declares ``nnue`` (``trainers``): its ``make()`` is the training module (``NnueSettings``,
``NnueTraining``) and its settings' ``read`` reads the data file.

Files in ``--out``: ``checkpoint.npz`` (atomic, every few hundred steps, at each epoch's
end and on Ctrl-C), ``nnue.npz`` (the network) and ``curve.json`` (train and validation
loss per epoch). The same command with ``--resume`` after a kill ends with the weights an
unbroken run would have.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from gamesearch.cli.common import console, finish_training
from gamesearch.cli.train_group import GAME, train_app, trainer_for
from gamesearch.errors import GameSearchError


@train_app.command("nnue")
def train_nnue(
    game_name: str | None = GAME,
    data: list[Path] = typer.Option(..., "--data", help="the positions (JSON lines of the "
                                    "game's data generator in bench/); repeat it to read "
                                    "several files as one set, in the order given"),
    epochs: int = typer.Option(10, "--epochs", "-n", help="train until the run holds "
                               "this many epochs"),
    positions: int | None = typer.Option(None, "--positions", help="read only the first "
                                         "N positions (a new run; default all)"),
    hidden: int = typer.Option(128, "--hidden", help="accumulator width H (a new run)"),
    l1: int = typer.Option(32, "--l1", help="first dense layer's width (a new run)"),
    l2: int = typer.Option(32, "--l2", help="second dense layer's width (a new run)"),
    batch: int = typer.Option(1024, "--batch", help="positions per Adam step (a new run)"),
    lr: float = typer.Option(5e-4, "--lr", help="Adam's learning rate (a new run)"),
    lam: float = typer.Option(0.0, "--lambda", help="weight of the game result in the "
                              "target, 0..1 (a new run)"),
    ft_grid: int = typer.Option(127, "--ft-grid", help="train the feature rows on "
                                "multiples of 1/N, as the compiled inference rounds them "
                                "(0: not; a new run)"),
    anneal: int = typer.Option(0, "--anneal", help="epochs over which the learning rate "
                               "falls to 0 along a half cosine (0: constant; a new run)"),
    decay: float = typer.Option(0.0, "--decay", help="AdamW's weight decay (a new run)"),
    factor: bool = typer.Option(True, "--factor/--no-factor", help="train a per-piece "
                                "factoriser beside the feature rows (a new run)"),
    ft_init: float = typer.Option(0.1, "--ft-init", help="scale of the starting feature "
                                  "rows (a new run)"),
    mirror: bool = typer.Option(True, "--mirror/--no-mirror", help="also train on every "
                                "position mirrored a-h (a new run)"),
    logistic: float = typer.Option(0.0, "--logistic", help="the loss's logistic in "
                                   "centipawns (0: the network's scale, 400; a new run)"),
    holdout: int = typer.Option(10, "--holdout", help="every Nth game is validation "
                                "(0: none; a new run)"),
    init_from: Path | None = typer.Option(None, "--init-from", help="start a new run from "
                                          "this network file (its widths) instead of "
                                          "random weights"),
    seed: int = typer.Option(0, "--seed", help="seed of the weights and the order"),
    out: str | None = typer.Option(None, "--out", help="folder for the files (nnue-GAME)"),
    resume: bool = typer.Option(False, "--resume", help="continue from --out's checkpoint"),
    force: bool = typer.Option(False, "--force", help="start --out afresh"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Fit an NNUE evaluation network to scored positions; Ctrl-C keeps the work."""
    entry, trainer = trainer_for("nnue", game_name)
    if not 1 <= epochs <= 100_000:
        raise GameSearchError(f"--epochs must be in 1..100000, got {epochs}")
    if positions is not None and positions < 1:
        raise GameSearchError(f"--positions must be positive, got {positions}")
    try:
        import jax  # noqa: F401
        import optax  # noqa: F401
    except ImportError as err:
        raise GameSearchError(f"train nnue needs the gpu extra ({err.name} is missing): "
                              "pip install -e \".[gpu]\"") from None
    from gamesearch.durable import StopRequest
    from gamesearch.learn.checkpoint import check_run_folder

    T = trainer.make()  # noqa: N806  (the method's module for this game)
    init = None
    if init_from is not None:
        if resume:
            raise GameSearchError("--init-from starts a new run; it does not go with --resume")
        init = T.load_network(init_from)
        hidden, l1, l2 = init.widths
    settings = T.NnueSettings(hidden=hidden, l1=l1, l2=l2, batch=batch, lr=lr, lam=lam,
                              holdout=holdout, seed=seed, decay=decay,
                              mirror=mirror, factor=factor,
                              ft_init=ft_init, logistic=logistic, anneal=anneal,
                              ft_grid=ft_grid).checked()
    rows = trainer.settings["read"](data, None if resume else positions)
    folder = check_run_folder(Path(out or f"nnue-{entry.name}"), resume)
    run = T.NnueTraining(rows, folder, settings, resume=resume, force=force, init=init)
    total = epochs * run.steps_per_epoch
    with Progress(TextColumn("NNUE"), BarColumn(), TextColumn("epoch {task.fields[epoch]}"),
                  TextColumn("{task.fields[note]}"), TimeElapsedColumn(), console=console,
                  disable=json_out) as bar, StopRequest() as stop:
        task = bar.add_task("nnue", total=total, epoch=run.epoch, note="")

        def shown(r: T.NnueTraining) -> None:
            note = ""
            if r.curve:
                last = r.curve[-1]
                note = f"train {last['train_loss']:.5f}"
                if last["validation_loss"] is not None:
                    note += f" validation {last['validation_loss']:.5f}"
            bar.update(task, completed=r.steps, epoch=r.epoch, note=note)

        with contextlib.suppress(KeyboardInterrupt):
            run.run(epochs, stop=lambda: stop.requested, progress=shown)
    interrupted = run.epoch < epochs
    summary = {"game": entry.name, "epochs": run.epoch, "steps": run.steps,
               "positions": len(run.data), "train_positions": len(run.train_set),
               "validation_positions": len(run.val_set), "seconds": round(run.seconds, 1),
               "last_epoch": run.curve[-1] if run.curve else None,
               "interrupted": interrupted, "network": str(folder / "nnue.npz")}
    finish_training(summary, json_out, interrupted)
