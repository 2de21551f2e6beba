"""``gamesearch report DB``: a tournament's crosstable, ratings with intervals, likelihood of
superiority, how the games ended, and a rating plot (PNG)."""

from __future__ import annotations

import math

import typer
from rich.console import Console
from rich.table import Table

from gamesearch.cli.common import print_json
from gamesearch.cli.main import app
from gamesearch.errors import GameSearchError


@app.command("report")
def report_command(
    db: str = typer.Argument(..., metavar="DB", help="a results database (gamesearch tournament)"),
    plot: str | None = typer.Option(None, "--plot", metavar="FILE.png",
                                    help="draw the ratings with their 95% intervals"),
    sprt_bounds: str | None = typer.Option(None, "--sprt", metavar="ELO0:ELO1",
                                           help="SPRT (fishtest's rule, alpha = beta = 0.05) "
                                                "of player 1 against player 2: is 1 stronger "
                                                "by ELO1 rather than ELO0?"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Crosstable and maximum-likelihood Elo ratings of a tournament.

    Ratings are centred on 0 with 95% intervals; LOS is the likelihood that
    the row player is stronger than the column player.

    gamesearch report results.sqlite --plot ratings.png
    """
    from gamesearch.arena.report import rating_model, summarise

    report = summarise(db)
    if sprt_bounds is not None:
        report["sprt"] = _sprt(report, sprt_bounds)
    if plot is not None:
        if report["ratings"] is None:
            raise GameSearchError("no finished game yet: nothing to plot")
        _plot(report, plot)
    if json_out:
        print_json({k: v for k, v in report.items() if not k.startswith("_")})
        return
    console = Console(highlight=False)
    console.print(f"[bold]{report['game']}[/]: {report['mode']}, {report['games']} of "
                  f"{report['planned']} games")
    players = report["players"]
    short = [f"{k + 1}" for k in range(len(players))]
    cross = Table(title="crosstable (row player's points / games)")
    cross.add_column("#", justify="right")
    cross.add_column("player")
    for s in short:
        cross.add_column(s, justify="right")
    for i, name in enumerate(players):
        cells = ["" if i == j else
                 (f"{p:g}/{g}" if g else "-") for j, (p, g) in enumerate(report["crosstable"][i])]
        cross.add_row(short[i], name, *cells)
    console.print(cross)
    if report["ratings"] is None:
        console.print("no finished game yet")
        return
    table = Table(title="ratings (maximum likelihood, mean 0, 95% interval)")
    for name in ("rank", "player", "elo", "95% interval", "games", "points"):
        table.add_column(name, justify="left" if name == "player" else "right")
    for row in report["ratings"]:
        table.add_row(str(row["rank"]), row["player"], f"{row['elo']:+.0f}",
                      f"{row['low']:+.0f} .. {row['high']:+.0f}", str(row["games"]),
                      f"{row['points']:g}")
    console.print(table)
    los = Table(title="likelihood of superiority (row stronger than column)")
    los.add_column("#", justify="right")
    for s in short:
        los.add_column(s, justify="right")
    for i in range(len(players)):
        los.add_row(short[i], *["" if v is None else f"{v:.3f}" for v in report["los"][i]])
    console.print(los)
    console.print("endings: " + ", ".join(f"{k} {v}" for k, v in
                                          sorted(report["endings"].items())))
    if "sprt" in report:
        t = report["sprt"]
        console.print(f"SPRT [{t['elo0']:g}, {t['elo1']:g}] for {players[0]} against "
                      f"{players[1]}: W/D/L {t['wins']}/{t['draws']}/{t['losses']}, "
                      f"LLR {t['llr']:.2f} (bounds {t['lower']:.2f}, {t['upper']:.2f}): "
                      + {"H1": f"accept: stronger by {t['elo1']:g}",
                         "H0": f"reject: not stronger by {t['elo1']:g}",
                         "continue": "play on"}[t["verdict"]])
    for note in report["notes"]:
        console.print(f"note: {note}")
    ratings = rating_model(report)
    if ratings is not None and plot:
        console.print(f"plot written to {plot}")


def _plot(report: dict, path: str) -> None:
    """The ratings as points with 95% error bars, best on top (written atomically)."""
    from gamesearch.durable import PNG_MARK, atomic_writer, check_output, png_is_ours

    check_output(path, png_is_ours, what="picture", remedy="choose another --plot name")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = list(reversed(report["ratings"]))
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.45 * len(rows)))
    y = range(len(rows))
    elo = [r["elo"] for r in rows]
    ax.errorbar(elo, y, xerr=[[r["elo"] - r["low"] for r in rows],
                              [r["high"] - r["elo"] for r in rows]],
                fmt="o", capsize=4)
    ax.set_yticks(list(y), [r["player"] for r in rows])
    ax.axvline(0, color="grey", linewidth=0.5)
    ax.set_xlabel("Elo (maximum likelihood, mean 0), 95% interval")
    ax.set_title(f"{report['game']}: {report['games']} games")
    fig.tight_layout()
    try:
        with atomic_writer(path) as handle:
            fig.savefig(handle, dpi=110, format="png", metadata=PNG_MARK)
    except (OSError, ValueError) as err:
        raise GameSearchError(f"cannot write the plot {path!r}: {err}") from None
    finally:
        plt.close(fig)


def _sprt(report: dict, bounds: str) -> dict:
    """The SPRT of the database's first player against its second."""
    from gamesearch.arena.sprt import sprt

    parts = bounds.split(":")
    try:
        elo0, elo1 = (float(p) for p in parts)
    except ValueError:
        raise GameSearchError(f"--sprt {bounds!r}: expected ELO0:ELO1, e.g. 0:5") from None
    if not (math.isfinite(elo0) and math.isfinite(elo1) and elo0 < elo1):
        raise GameSearchError(f"--sprt {bounds!r}: give two finite Elo differences, the first "
                              "below the second (H0 and H1), e.g. 0:5")
    if len(report["players"]) < 2:
        raise GameSearchError("--sprt needs two players")
    wins, draws, losses = report["pair_wdl"]
    result = sprt(wins, draws, losses, elo0, elo1)
    return {"elo0": elo0, "elo1": elo1, "wins": wins, "draws": draws, "losses": losses,
            "llr": result.llr, "lower": result.lower, "upper": result.upper,
            "verdict": result.verdict}
