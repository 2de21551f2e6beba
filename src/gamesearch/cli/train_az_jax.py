"""``gamesearch train alphazero-jax [GAME]``: AlphaZero with batched self-play in JAX.

Thousands of games search at once (mctx's Gumbel MuZero search) on a GPU when JAX sees
one, else on the CPU. Files in ``--out``: ``checkpoint.npz`` (after every iteration,
atomically), ``weights.npz`` (for ``alphazero:weights=FILE``), ``log.jsonl`` and
``curve.png``. ``--labels FILE`` (positions scored by the game's perfect solver) logs the
policy's accuracy after every iteration. Needs the ``[gpu]`` extra. The game is the one
whose entry declares ``alphazero-jax`` (``trainers``): its ``make()`` is the rules in JAX,
its ``labels`` setting reads a labels file, and its ``defaults`` setting (a dict) replaces
the options' defaults for that game. A game whose input is a board of planes trains a
residual network (``--blocks``, ``--channels``), any other the fully connected one
(``--hidden``).
"""

from __future__ import annotations

import contextlib
from dataclasses import asdict
from pathlib import Path

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from gamesearch.cli.common import (
    console,
    finish_training,
    pyplot_for,
    save_png,
)
from gamesearch.cli.train_group import GAME, train_app, trainer_for
from gamesearch.errors import GameSearchError


def plot_jax_curve(curve: list[dict], path: Path) -> None:
    """Losses, and the policy's accuracy when measured, against positions searched."""
    plt = pyplot_for(path)
    x = [p["positions"] for p in curve]
    measured = all("accuracy" in p for p in curve)
    fig, axes = plt.subplots(1, 2 if measured else 1, figsize=(9 if measured else 5, 3.6))
    left = axes[0] if measured else axes
    left.plot(x, [p["policy"] for p in curve], label="policy cross-entropy")
    left.plot(x, [p["value"] for p in curve], label="value squared error")
    left.set_xlabel("self-play positions")
    left.set_title("training losses")
    left.legend()
    if measured:
        right = axes[1]
        right.plot(x, [100 * p["accuracy"] for p in curve], color="C2")
        right.axhline(90, color="grey", lw=0.8, ls="--", label="target 90%")
        right.set_ylabel("% of positions")
        right.legend()
        right.set_xlabel("self-play positions")
        right.set_title("policy alone plays a perfect move")
    fig.tight_layout()
    save_png(fig, path)


@train_app.command("alphazero-jax")
def train_alphazero_jax(
    game_name: str | None = GAME,
    iterations: int | None = typer.Option(None, "--iterations", "-n", help="train until the "
                                          "run holds this many iterations"),
    seconds: float | None = typer.Option(None, "--seconds", help="train for this many "
                                         "seconds more (default: 10 iterations more)"),
    batch: int | None = typer.Option(None, "--batch", help="self-play games at once (a new "
                                     "run; default 1024)"),
    simulations: int | None = typer.Option(None, "--simulations", help="search simulations "
                                           "per move (32)"),
    hidden: int | None = typer.Option(None, "--hidden", help="hidden units per layer (512)"),
    blocks: int | None = typer.Option(None, "--blocks", help="residual blocks, for a board "
                                      "game's network (6)"),
    channels: int | None = typer.Option(None, "--channels", help="filters per convolution "
                                        "(64)"),
    unroll: int | None = typer.Option(None, "--unroll", help="moves per game per iteration "
                                      "(0: the game's longest game)"),
    random_plies: int | None = typer.Option(None, "--random-plies", help="at most this many "
                                            "random opening moves per game (8)"),
    minibatch: int | None = typer.Option(None, "--minibatch", help="positions per Adam step "
                                         "(4096)"),
    lr: float | None = typer.Option(None, "--lr", help="Adam's learning rate (0.001)"),
    considered: int | None = typer.Option(None, "--considered", help="root actions the "
                                          "Gumbel search considers (16; at most the game's)"),
    epochs: int | None = typer.Option(None, "--epochs", help="passes of Adam over each "
                                      "iteration's positions (1)"),
    anneal: int = typer.Option(0, "--anneal", help="iterations over which the rate falls "
                               "to a tenth (0: constant)"),
    seed: int = typer.Option(0, "--seed", help="seed (a new run)"),
    labels: Path | None = typer.Option(None, "--labels", help="positions scored by the "
                                       "game's solver (bench/): log the accuracy"),
    init_from: Path | None = typer.Option(None, "--init-from", help="start a new run from "
                                          "another run's weights.npz (same --hidden)"),
    out: str | None = typer.Option(None, "--out", help="folder for the files "
                                   "(az-jax-GAME)"),
    snapshots: int = typer.Option(0, "--snapshots", help="also keep the network every N "
                                  "iterations in OUT/snapshots/ (the learning curve's "
                                  "points: bench/go_net_curve.py); 0: never"),
    resume: bool = typer.Option(False, "--resume", help="continue from --out's checkpoint"),
    force: bool = typer.Option(False, "--force", help="start --out afresh"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Train AlphaZero's network with batched self-play (JAX, mctx); Ctrl-C keeps the work."""
    entry, trainer = trainer_for("alphazero-jax", game_name)
    if iterations is not None and iterations < 1:
        raise GameSearchError(f"--iterations must be at least 1, got {iterations}")
    if snapshots < 0:
        raise GameSearchError(f"--snapshots must be 0 or more, got {snapshots}")
    if seconds is not None and not seconds > 0:
        raise GameSearchError(f"--seconds must be positive, got {seconds}")
    try:
        import jax  # noqa: F401
        import mctx  # noqa: F401
        import optax  # noqa: F401
    except ImportError as err:
        raise GameSearchError(f"train alphazero-jax needs the gpu extra ({err.name} is "
                              "missing): pip install -e \".[gpu]\"") from None
    from gamesearch.durable import StopRequest
    from gamesearch.learn.checkpoint import check_run_folder
    from gamesearch.learn.jax_alphazero import JaxAlphaZeroTraining, JaxSettings

    read_labels = trainer.settings.get("labels")
    if labels is not None and read_labels is None:
        raise GameSearchError(f"--labels: {entry.name} has no labelled positions to read")
    labelled = read_labels(labels) if labels is not None else None
    folder = check_run_folder(Path(out or f"az-jax-{entry.name}"), resume)
    given = {"batch": batch, "simulations": simulations, "hidden": hidden, "blocks": blocks,
             "channels": channels, "unroll": unroll, "random_plies": random_plies,
             "minibatch": minibatch, "lr": lr, "considered": considered, "epochs": epochs}
    chosen = {**trainer.settings.get("defaults", {}),
              **{k: v for k, v in given.items() if v is not None}}
    settings = JaxSettings(**chosen, anneal=anneal, seed=seed)
    if init_from is not None and resume:
        raise GameSearchError("--init-from starts a new run; it does not go with --resume")
    run = JaxAlphaZeroTraining(trainer.make(), folder, settings, resume=resume, force=force,
                               labelled=labelled, init_from=init_from, snapshots=snapshots)
    if iterations is None and seconds is None:
        iterations = run.iterations + 10
    interrupted = False
    try:
        with Progress(TextColumn("AlphaZero (JAX)"), BarColumn(),
                      TextColumn("{task.completed} iterations"),
                      TextColumn("{task.fields[note]}"), TimeElapsedColumn(),
                      console=console, disable=json_out) as bar, StopRequest() as stop:
            task = bar.add_task("az", total=iterations, completed=run.iterations, note="")

            def shown(r: JaxAlphaZeroTraining) -> None:
                last = r.curve[-1]
                note = f"policy {last['policy']:.3f} value {last['value']:.3f}"
                if "accuracy" in last:
                    note += f" accuracy {100 * last['accuracy']:.1f}%"
                bar.update(task, completed=r.iterations, note=note)

            with contextlib.suppress(KeyboardInterrupt):
                run.run(iterations, seconds, stop=lambda: stop.requested, progress=shown)
            interrupted = stop.requested
        if run.curve:
            plot_jax_curve(run.curve, folder / "curve.png")
    finally:
        run.close()
    import jax

    summary = {"game": entry.name, "iterations": run.iterations, "positions": run.positions,
               "games": run.games, "seconds": round(run.seconds, 1),
               "device": jax.devices()[0].platform,
               "settings": asdict(run.settings),
               "last_iteration": run.curve[-1] if run.curve else None,
               "interrupted": interrupted, "weights": str(folder / "weights.npz")}
    finish_training(summary, json_out, interrupted)
