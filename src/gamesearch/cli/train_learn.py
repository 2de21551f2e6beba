"""``gamesearch train td [GAME]``: TD-Gammon by self-play, resumable, with its curve, and
``gamesearch train alphazero [GAME]``. The game is the one whose entry declares the method
(``trainers``): ``td``'s ``make(folder, **settings)`` opens the run, and its settings name
the run (``title``), what a point of its curve measures (``measure``, against
``opponent``) and the curve's title; ``alphazero``'s ``make()`` is the problem that
:class:`~gamesearch.learn.alphazero.AlphaZeroTraining` learns.

Files in ``--out``: ``checkpoint.npz`` (the network and the run's counters, written
atomically every ``--checkpoint-every`` seconds, after each evaluation, at the end and on
Ctrl-C), ``log.jsonl`` (one JSON line per evaluation against pubeval), ``curve.png`` and,
with ``--keep-every N``, ``snapshots/games-N.npz`` (the weights every N games).
``--resume`` continues; with ``--total N`` the same command repeated after a kill ends
the run at exactly N games, with the weights an unbroken run would have.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from gamesearch.cli.common import (
    console,
    finish_training,
    pyplot_for,
    save_png,
)
from gamesearch.cli.train_group import GAME, train_app, trainer_for
from gamesearch.errors import GameSearchError


def plot_curve(curve: list[dict], path: Path, title: str, key: str, label: str) -> None:
    """Draw the learning curve (win rate with its 95% interval against games) as a PNG."""
    plt = pyplot_for(path)
    games = [p["games"] for p in curve]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(games, [p[key] for p in curve], marker="o", label=label)
    ax.fill_between(games, [p["ci_low"] for p in curve], [p["ci_high"] for p in curve],
                    alpha=0.2, label="95% interval")
    ax.axhline(0.5, color="grey", lw=0.8)
    ax.set_xlabel("self-play games")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.legend()
    save_png(fig, path)


@train_app.command("td")
def train_td(
    game_name: str | None = GAME,
    games: int | None = typer.Option(None, "--games", "-n", help="games to add (default 1000)"),
    total: int | None = typer.Option(None, "--total", help="train until the run holds this "
                                     "many games (the same command finishes a killed run)"),
    hidden: int = typer.Option(40, "--hidden", help="hidden units (a new run)"),
    alpha: float = typer.Option(0.1, "--alpha", help="learning rate (a new run)"),
    lam: float = typer.Option(0.7, "--lambda", help="trace decay lambda (a new run)"),
    alpha_halflife: int = typer.Option(0, "--alpha-halflife", metavar="GAMES",
                                       help="alpha / (1 + games / GAMES): the learning rate "
                                       "halves after GAMES games (0: constant; a new run)"),
    encoding: str = typer.Option("tesauro", "--encoding", help="tesauro (196 inputs) or "
                                 "features (with four expert inputs; a new run)"),
    seed: int = typer.Option(0, "--seed", help="seed of weights and dice (a new run)"),
    eval_every: int = typer.Option(1000, "--eval-every", help="games between evaluations"),
    eval_games: int = typer.Option(200, "--eval-games", help="games per evaluation against "
                                   "the game's yardstick"),
    out: str | None = typer.Option(None, "--out", help="folder for the files (td-GAME)"),
    resume: bool = typer.Option(False, "--resume", help="continue from --out's checkpoint"),
    checkpoint_every: float = typer.Option(60.0, "--checkpoint-every", metavar="SECONDS",
                                           help="write the checkpoint this often"),
    keep_every: int = typer.Option(0, "--keep-every", metavar="GAMES",
                                   help="also keep the weights every GAMES games in "
                                   "OUT/snapshots/games-N.npz (0: never)"),
    force: bool = typer.Option(False, "--force", help="start --out afresh"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Train a TD-Gammon network by self-play; Ctrl-C keeps the work (--resume goes on)."""
    from gamesearch.durable import StopRequest

    entry, trainer = trainer_for("td", game_name)
    named = trainer.settings
    if games is not None and total is not None:
        raise GameSearchError("give --games (to add) or --total, not both")
    if games is not None and games < 1:
        raise GameSearchError(f"--games must be at least 1, got {games}")
    if total is not None and total < 0:
        raise GameSearchError(f"--total must be at least 0, got {total}")
    if not checkpoint_every >= 0:
        raise GameSearchError(f"--checkpoint-every must be >= 0 seconds, got {checkpoint_every}")
    if not 0 < alpha < 10:
        raise GameSearchError(f"--alpha must be in (0, 10), got {alpha}")
    folder = Path(out or f"td-{entry.name}")
    run = trainer.make(folder, hidden=hidden, alpha=alpha, lam=lam, seed=seed,
                       eval_every=eval_every, eval_games=eval_games, resume=resume,
                       force=force, checkpoint_every=checkpoint_every,
                       alpha_halflife=alpha_halflife, encoding=encoding,
                       keep_every=keep_every)
    start = run.games
    target = total if total is not None else start + (games or 1000)
    if target < start:
        run.close()
        raise GameSearchError(f"--total {target}: the run in {str(folder)!r} already holds "
                              f"{start} games")
    interrupted = False
    try:
        with Progress(TextColumn(named["title"]), BarColumn(), TextColumn("{task.completed}/"
                      "{task.total} games"),
                      TextColumn(f"vs {named['opponent']} {{task.fields[rate]}}"),
                      TimeRemainingColumn(), console=console, disable=json_out) as bar, \
                StopRequest() as stop:
            task = bar.add_task("td", total=target, completed=start, rate="-")

            def shown(r: Any) -> None:
                rate = f"{100 * r.curve[-1][named['measure']]:.1f}%" if r.curve else "-"
                bar.update(task, completed=r.games, rate=rate)

            try:
                run.run(target, stop=lambda: stop.requested, progress=shown)
            except KeyboardInterrupt:
                run.save()
            interrupted = run.games < target
        if run.curve:
            plot_curve(run.curve, folder / "curve.png", named["curve_title"],
                       named["measure"], f"{named['title']} vs {named['opponent']}")
    finally:
        run.close()
    summary = {"game": entry.name, "games": run.games, "plays": run.plays,
               "seconds": round(run.seconds, 1), "settings": run.settings,
               "last_evaluation": run.curve[-1] if run.curve else None,
               "interrupted": interrupted, "folder": str(folder)}
    finish_training(summary, json_out, interrupted)


@train_app.command("alphazero")
def train_alphazero(
    game_name: str | None = GAME,
    rounds: int | None = typer.Option(None, "--rounds", "-n", help="rounds to add "
                                      "(default 10)"),
    total: int | None = typer.Option(None, "--total", help="train until the run holds this "
                                     "many rounds (the same command finishes a killed run)"),
    simulations: int = typer.Option(50, "--simulations", help="PUCT simulations per move"),
    games_per_round: int = typer.Option(20, "--games-per-round", help="self-play games per "
                                        "round"),
    steps_per_round: int = typer.Option(100, "--steps-per-round", help="minibatch steps per "
                                        "round"),
    hidden: int = typer.Option(128, "--hidden", help="hidden units per layer (a new run)"),
    seed: int = typer.Option(0, "--seed", help="seed (a new run)"),
    eval_every: int = typer.Option(5, "--eval-every", help="rounds between gate matches"),
    eval_games: int = typer.Option(20, "--eval-games", help="games per gate match"),
    out: str | None = typer.Option(None, "--out", help="folder for the files (az-GAME)"),
    resume: bool = typer.Option(False, "--resume", help="continue from --out's checkpoint"),
    force: bool = typer.Option(False, "--force", help="start --out afresh"),
    concurrency: int = typer.Option(1, "--concurrency", "-j", min=1, max=1024,
                                    help="self-play games at once (worker processes)"),
    backend: str = typer.Option("local", "--backend", help="local (process pool) or ray"),
    address: str | None = typer.Option(None, "--address", help="the Ray cluster (host:port)"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Train a policy-value network by AlphaZero self-play; Ctrl-C keeps the work.

    A round's self-play and gate games are independent: -j K plays K at once in worker
    processes, --backend ray --address HOST:PORT on a Ray cluster. Game k of a round
    is seeded by k, so the run makes the same network on any backend.
    """
    from gamesearch.durable import StopRequest
    from gamesearch.learn.alphazero import AlphaZeroTraining

    entry, trainer = trainer_for("alphazero", game_name)
    if rounds is not None and total is not None:
        raise GameSearchError("give --rounds (to add) or --total, not both")
    if rounds is not None and rounds < 1:
        raise GameSearchError(f"--rounds must be at least 1, got {rounds}")
    folder = Path(out or f"az-{entry.name}")
    settings = {} if resume else {
        "simulations": simulations, "games_per_round": games_per_round,
        "steps_per_round": steps_per_round, "hidden": hidden, "seed": seed,
        "eval_every": eval_every, "eval_games": eval_games}
    runner = None
    if backend != "local" or concurrency > 1 or address is not None:
        from gamesearch.arena.backends import make_backend

        runner = make_backend(backend, concurrency, address)
    try:
        run = AlphaZeroTraining(trainer.make(), folder, resume=resume, force=force,
                                executor_map=runner.map if runner else map, **settings)
    except BaseException:
        if runner is not None:
            runner.close()
        raise
    start = run.rounds
    target = total if total is not None else start + (rounds or 10)
    interrupted = False
    try:
        with Progress(TextColumn("AlphaZero"), BarColumn(), TextColumn("{task.completed}/"
                      "{task.total} rounds"), TextColumn("loss {task.fields[loss]}"),
                      TimeRemainingColumn(), console=console, disable=json_out) as bar, \
                StopRequest() as stop:
            task = bar.add_task("az", total=target, completed=start, loss="-")

            def shown(r: AlphaZeroTraining) -> None:
                bar.update(task, completed=r.rounds, loss=f"{r.curve[-1]['loss']:.3f}")

            # every finished round is already in the checkpoint
            with contextlib.suppress(KeyboardInterrupt):
                run.run(target, stop=lambda: stop.requested, progress=shown)
            interrupted = run.rounds < target
        gated = [p for p in run.curve if "vs_best" in p]
        if gated:
            plot_curve(gated, folder / "curve.png", "AlphaZero: new network vs best",
                       "vs_best", "new vs best")
    finally:
        run.close()
        if runner is not None:
            runner.close()
    summary = {"game": entry.name, "rounds": run.rounds, "games": run.games,
               "seconds": round(run.seconds, 1), "settings": run.settings,
               "last_round": run.curve[-1] if run.curve else None,
               "interrupted": interrupted, "folder": str(folder)}
    finish_training(summary, json_out, interrupted)
