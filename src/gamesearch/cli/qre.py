"""The ``qre`` command: logit quantal response equilibria of a normal-form game (the
library is gamesearch.theory.qre): the branch from lambda = 0 towards Nash, the QRE at a
given lambda, the maximum-likelihood lambda for observed play, and a plot of the branch;
of an extensive-form game (.efg): the agent QRE (gamesearch.theory.agent_qre)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from gamesearch.cli.common import console, print_json
from gamesearch.cli.main import app
from gamesearch.errors import GameSearchError


def parse_counts(text: str) -> list[list[float]]:
    """Observed play as 'player 1 counts; player 2 counts; ...', counts separated by commas."""
    try:
        return [[float(c) for c in part.split(",")] for part in text.split(";")]
    except ValueError:
        raise GameSearchError(f"--fit: {text!r} is not counts like '30,70;40,60'") from None


def _mix(mix: tuple[float, ...]) -> str:
    return ", ".join(f"{p:.6f}" for p in mix)


def _plot(lams: list[float], lines: list[tuple[str, list[float]]], title: str,
          path: str) -> None:
    """Probability lines against lambda / (1 + lambda), so the whole branch from lambda 0
    to a Nash equilibrium fits the width."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [lam / (1 + lam) for lam in lams]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for label, ys in lines:
        ax.plot(xs, ys, label=label)
    ax.set_xlabel("lambda / (1 + lambda)")
    ax.set_ylabel("probability")
    ax.set_title(title)
    ax.set_xlim(0, 1)
    ax.legend(fontsize="small" if len(lines) <= 8 else "x-small")
    fig.tight_layout()
    from gamesearch.durable import PNG_MARK, atomic_writer

    suffix = Path(path).suffix.lower()[1:]
    with atomic_writer(path) as handle:  # all or nothing; never over a device or a link
        fig.savefig(handle, format=suffix, metadata=PNG_MARK if suffix == "png" else None)
    plt.close(fig)


PLOT_SUFFIXES = (".png", ".svg")
"""The picture formats ``qre --plot`` writes (chosen by the extension)."""


def check_plot(path: str) -> None:
    """Refuse a ``--plot`` path before any work: an existing file (never overwritten), a
    missing folder, a device or pipe, an extension other than :data:`PLOT_SUFFIXES`."""
    from gamesearch.durable import check_output, check_suffix

    check_suffix(path, PLOT_SUFFIXES, "plot")
    check_output(path, None, what="plot", remedy="not overwriting it; choose another --plot "
                 "name")


def plot_branch(points: list, game, path: str) -> None:
    """Each strategy's probability along the branch against lambda / (1 + lambda)."""
    lines = [(f"{game.players[i]}: {name}", [p.profile[i][j] for p in points])
             for i, names in enumerate(game.strategies) for j, name in enumerate(names)]
    _plot([p.lam for p in points], lines, f"{game.title or 'game'}: logit QRE branch", path)


@app.command("qre")
def qre_command(
    file: str = typer.Argument(..., metavar="FILE",
                               help="a game: .nfg, .json or .csv; .efg for a tree"),
    lam: float = typer.Option(None, "--lambda", "-l", help="the QRE at this lambda"),
    max_lambda: float = typer.Option(100.0, "--max-lambda",
                                     help="trace the branch up to this lambda"),
    fit: str = typer.Option(None, "--fit",
                            help="fit lambda to observed play, e.g. '30,70;40,60'"),
    plot: str = typer.Option(None, "--plot", help="write a plot of the branch (.png, .svg)"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Logit quantal response equilibria: the branch, the QRE at a lambda, or a fit."""
    from gamesearch.theory.formats import load_normal_form
    from gamesearch.theory.qre import fit_lambda, log_likelihood, qre_at, trace_branch

    if lam is not None and not lam >= 0:
        raise GameSearchError("--lambda must be a nonnegative number")
    if plot:
        check_plot(plot)
    if file.lower().endswith(".efg"):
        _tree_qre(file, lam, max_lambda, plot, json_out, fit)
        return
    from gamesearch.theory.workload import check_qre

    game = load_normal_form(file)
    check_qre(game)
    if fit is not None:
        counts = parse_counts(fit)
        point, value = fit_lambda(game, counts, max_lambda)
        data = {"lambda": point.lam, "log_likelihood": value, "profile": point.profile}
        title = f"maximum-likelihood lambda = {point.lam:.6g} (log-likelihood {value:.6g})"
        points = [point]
    elif lam is not None:
        point = qre_at(game, lam)
        data = {"lambda": point.lam, "profile": point.profile}
        title = f"logit QRE at lambda = {lam:g}"
        points = [point]
    else:
        points = trace_branch(game, max_lambda)
        data = {"branch": [{"lambda": p.lam, "profile": p.profile} for p in points]}
        title = f"logit QRE branch, lambda 0 to {max_lambda:g} ({len(points)} steps)"
    if plot:
        branch = points if len(points) > 1 else trace_branch(game, max(points[0].lam, 1.0))
        plot_branch(branch, game, plot)
    if json_out:
        print_json(data)
        return
    table = Table(title=title)
    table.add_column("lambda", justify="right")
    for player in game.players:
        table.add_column(player)
    step = max(1, len(points) // 12)
    shown = points[::step] + ([points[-1]] if (len(points) - 1) % step else [])
    for p in shown:
        table.add_row(f"{p.lam:.6g}", *[_mix(m) for m in p.profile])
    console.print(table)
    if fit is not None:
        console.print(f"log-likelihood at lambda 0: "
                      f"{log_likelihood(qre_at(game, 0.0), parse_counts(fit)):.6g}")
    if plot:
        console.print(f"plot written to {plot}")


def _tree_qre(file: str, lam: float | None, max_lambda: float, plot: str | None,
              json_out: bool, fit: str | None = None) -> None:
    """The agent QRE of a .efg tree: the branch (or the point at ``lam``, or the lambda that
    best explains observed play, ``fit``: counts per information set as the table lists
    them), each information set's behaviour, the expected payoffs; a plot of the branch."""
    from gamesearch.theory.agent_qre import fit_agent_lambda, trace_agent_branch
    from gamesearch.theory.efg import load_efg

    game = load_efg(file)
    end = lam if lam is not None else max_lambda
    if not end >= 0:
        raise GameSearchError("--max-lambda must be a nonnegative number")
    fitted = None
    if fit is not None:
        fitted = fit_agent_lambda(game, parse_counts(fit), max_lambda)
        lam = end = fitted[0].lam
    points, notes = trace_agent_branch(game, end)
    if fitted is not None:
        points[-1] = fitted[0]
    if lam is not None and points[-1].lam < lam * (1 - 1e-9):
        raise GameSearchError("; ".join(notes) or f"lambda {lam:g} was not reached")

    def rows(point) -> list[tuple[str, str]]:
        return [(_where(game, i, key),
                 ", ".join(f"{a} {p:.6f}" for a, p in probs.items()))
                for i, behaviour in enumerate(point.profile) for key, probs in behaviour.items()]

    if plot:
        _plot_tree_branch(points, game, plot)
    last = points[-1]
    if json_out:
        print_json({"lambda": last.lam, "payoffs": list(last.payoffs), "notes": notes,
                    "log_likelihood": fitted[1] if fitted is not None else None,
                    "behaviour": dict(rows(last)),
                    "branch": [{"lambda": p.lam, "behaviour": dict(rows(p))}
                               for p in points] if lam is None else None})
        return
    how = f"maximum-likelihood lambda = {last.lam:.6g} (log-likelihood {fitted[1]:.6g})" \
        if fitted is not None else f"agent logit QRE at lambda = {last.lam:g}"
    table = Table(title=f"{how} ({len(points)} points traced from lambda 0)")
    table.add_column("information set")
    table.add_column("behaviour")
    for where, probs in rows(last):
        table.add_row(where, probs)
    console.print(table)
    console.print("expected payoffs: " + ", ".join(
        f"{game.player_name(i)} {v:.6f}" for i, v in enumerate(last.payoffs)))
    for note in notes:
        console.print(f"[yellow]{note}[/]")
    if plot:
        console.print(f"plot written to {plot}")


def _where(game, player: int, key) -> str:
    """An information set as people read it: the player, then the set's name or number."""
    label = game.infoset_label(player, key[1])
    name = game.player_name(player)
    return label if label.startswith(name) else f"{name}: {label}"


def _plot_tree_branch(points: list, game, path: str) -> None:
    """Every action's probability along the agent branch against lambda / (1 + lambda)."""
    lines = [(f"{_where(game, i, key)}: {action}", [p.profile[i][key][action] for p in points])
             for i, behaviour in enumerate(points[0].profile)
             for key, probs in behaviour.items() for action in probs]
    _plot([p.lam for p in points], lines, f"{game.title or 'game'}: agent logit QRE branch",
          path)
