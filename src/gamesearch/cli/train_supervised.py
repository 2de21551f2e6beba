"""``gamesearch train supervised [GAME]``: a residual policy-and-value network learned from a
teacher's games (AlphaGo's first stage), in JAX (the ``gpu`` extra). The game is the one
whose entry declares ``supervised`` (``trainers``): its ``make()`` is the module with
``read_teacher_games``, ``SHAPE``, ``ACTIONS`` and ``SYMMETRIES``.

Files in ``--out``: ``checkpoint.npz`` (atomic, every minute, at each epoch's end and on
Ctrl-C), ``weights.npz`` (the network; ``go-net:weights=FILE`` plays it and ``train
alphazero-jax --init-from`` goes on from it by self-play), ``log.jsonl`` and ``curve.png``
(losses and the agreement with the teacher on held-out games, by epoch). The same
command with ``--resume`` after a kill ends with the weights an unbroken run would have.
"""

from __future__ import annotations

import contextlib
from dataclasses import asdict
from pathlib import Path

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from gamesearch.cli.common import console, finish_training, pyplot_for, save_png
from gamesearch.cli.train_group import GAME, train_app, trainer_for
from gamesearch.errors import GameSearchError


def plot_supervised_curve(curve: list[dict], path: Path) -> None:
    """Train and held-out policy losses, and the held-out agreement, by epoch."""
    plt = pyplot_for(path)
    x = [p["epoch"] for p in curve]
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.6))
    left.plot(x, [p["train_policy"] for p in curve], label="policy, training games")
    left.plot(x, [p["validation_policy"] for p in curve], label="policy, held-out games")
    left.plot(x, [p["validation_value"] for p in curve], label="value, held-out games")
    left.set_xlabel("epoch")
    left.set_title("cross-entropy and squared error")
    left.legend()
    right.plot(x, [100 * p["agreement"] for p in curve], color="C2")
    right.set_xlabel("epoch")
    right.set_ylabel("% of held-out positions")
    right.set_title("the policy's first choice is the teacher's move")
    fig.tight_layout()
    save_png(fig, path)


@train_app.command("supervised")
def train_supervised(
    game_name: str | None = GAME,
    data: list[Path] = typer.Option(..., "--data", help="a teacher's games file (bench/; "
                                    "give --data again for more files)"),
    epochs: int = typer.Option(10, "--epochs", "-n", help="train until the run holds "
                               "this many epochs"),
    games: int | None = typer.Option(None, "--games", help="read only the first N games "
                                     "(default all)"),
    blocks: int = typer.Option(6, "--blocks", help="residual blocks (a new run)"),
    channels: int = typer.Option(64, "--channels", help="filters per convolution (a new run)"),
    batch: int = typer.Option(256, "--batch", help="positions per Adam step (a new run)"),
    lr: float = typer.Option(1e-3, "--lr", help="Adam's learning rate (a new run)"),
    l2: float = typer.Option(1e-4, "--l2", help="L2 weight on the weights (a new run)"),
    value_weight: float = typer.Option(0.25, "--value-weight", help="the value's share of "
                                       "the loss (a new run)"),
    anneal: int = typer.Option(0, "--anneal", help="epochs over which the rate falls to a "
                               "tenth (0: constant; a new run)"),
    holdout: int = typer.Option(10, "--holdout", help="every Nth game is held out (a new "
                                "run)"),
    init_from: Path | None = typer.Option(None, "--init-from", help="start a new run from "
                                          "this network (weights.npz of the same shape)"),
    seed: int = typer.Option(0, "--seed", help="seed of the weights, order and symmetries"),
    snapshots: int = typer.Option(0, "--snapshots", help="also keep the network every N "
                                  "epochs in OUT/snapshots/ (the learning curve's points; "
                                  "0: never)"),
    out: str | None = typer.Option(None, "--out", help="folder for the files "
                                   "(supervised-GAME)"),
    resume: bool = typer.Option(False, "--resume", help="continue from --out's checkpoint"),
    force: bool = typer.Option(False, "--force", help="start --out afresh"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Learn a policy-and-value network from a teacher's games; Ctrl-C keeps the work."""
    entry, trainer = trainer_for("supervised", game_name)
    if not 1 <= epochs <= 100_000:
        raise GameSearchError(f"--epochs must be in 1..100000, got {epochs}")
    if snapshots < 0:
        raise GameSearchError(f"--snapshots must be 0 or more, got {snapshots}")
    if games is not None and games < 1:
        raise GameSearchError(f"--games must be positive, got {games}")
    if init_from is not None and resume:
        raise GameSearchError("--init-from starts a new run; it does not go with --resume")
    try:
        import jax
        import optax  # noqa: F401
    except ImportError as err:
        raise GameSearchError(f"train supervised needs the gpu extra ({err.name} is "
                              "missing): pip install -e \".[gpu]\"") from None
    from gamesearch.durable import StopRequest
    from gamesearch.learn.checkpoint import check_run_folder
    from gamesearch.learn.jax_supervised import SupervisedSettings, SupervisedTraining

    teach = trainer.make()
    settings = SupervisedSettings(blocks=blocks, channels=channels, batch=batch, lr=lr, l2=l2,
                                  value_weight=value_weight, anneal=anneal, holdout=holdout,
                                  seed=seed).checked()
    folder = check_run_folder(Path(out or f"supervised-{entry.name}"), resume)
    with console.status("reading the games", spinner="dots") if not json_out \
            else contextlib.nullcontext():
        examples = teach.read_teacher_games(data, games)
    run = SupervisedTraining(examples, teach.SHAPE, teach.ACTIONS, teach.SYMMETRIES, folder,
                             settings, resume=resume, force=force, init_from=init_from,
                             game=entry.name, snapshots=snapshots)
    try:
        total = epochs * run.steps_per_epoch
        with Progress(TextColumn("supervised"), BarColumn(),
                      TextColumn("epoch {task.fields[epoch]}"),
                      TextColumn("{task.fields[note]}"), TimeElapsedColumn(),
                      console=console, disable=json_out) as bar, StopRequest() as stop:
            task = bar.add_task("sl", total=total, epoch=run.epoch, note="")

            def shown(r: SupervisedTraining) -> None:
                note = ""
                if r.curve:
                    last = r.curve[-1]
                    note = (f"held out: policy {last['validation_policy']:.3f}, agrees "
                            f"{100 * last['agreement']:.1f}%")
                bar.update(task, completed=r.steps, epoch=r.epoch, note=note)

            with contextlib.suppress(KeyboardInterrupt):
                run.run(epochs, stop=lambda: stop.requested, progress=shown)
        if run.curve:
            plot_supervised_curve(run.curve, folder / "curve.png")
    finally:
        run.close()
    interrupted = run.epoch < epochs
    summary = {"game": entry.name, "epochs": run.epoch, "steps": run.steps,
               "positions": len(examples), "train_positions": len(run.train_rows),
               "validation_positions": len(run.val_rows), "seconds": round(run.seconds, 1),
               "device": jax.devices()[0].platform, "settings": asdict(run.settings),
               "last_epoch": run.curve[-1] if run.curve else None,
               "interrupted": interrupted, "weights": str(folder / "weights.npz")}
    finish_training(summary, json_out, interrupted)
