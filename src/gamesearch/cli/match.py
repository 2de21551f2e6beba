"""``gamesearch match``: two agents play both colours; W/D/L, score interval, Elo."""

from __future__ import annotations

import sys

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from gamesearch.cli.common import EXTRA_ARGS, console, extra_params, print_json
from gamesearch.cli.main import app


@app.command("match", context_settings=EXTRA_ARGS)
def match_command(
    ctx: typer.Context,
    game_name: str = typer.Argument(..., metavar="GAME", help="a game name (see 'games')"),
    spec_a: str = typer.Argument(..., metavar="SPEC_A", help="agent A, e.g. alphabeta:depth=4"),
    spec_b: str = typer.Argument(..., metavar="SPEC_B", help="agent B, e.g. random"),
    games: int = typer.Option(10, "--games", "-n", min=1, max=10**7,
                              help="number of games"),
    seed: int | None = typer.Option(None, "--seed", min=0, max=2**32 - 1,
                                    help="seed for chance and seedable agents"),
    position_text: str | None = typer.Option(None, "--position", "-p",
                                                help="start every game from this position"),
    out: str | None = typer.Option(None, "--out", metavar="FILE", help="write games as JSON lines; "
                                    "running again with the same file resumes"),
    force: bool = typer.Option(False, "--force", help="let --out replace a file that is not "
                               "a match file"),
    json_out: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Play a match of two agents, each starting half of the games.

    Prints A's wins, draws and losses, A's score rate with a 95% Wilson
    interval, and the Elo difference with its interval. With --out FILE
    each game is appended as it ends; the same command
    again resumes, also after kill -9.

    gamesearch match connect4 alphabeta:depth=4 random --games 20
    """
    from gamesearch.agents import make_agent
    from gamesearch.arena.match import run_match
    from gamesearch.catalog import check_agent_fits
    from gamesearch.cli.common import load_with_params, position

    params = extra_params(ctx)
    game = load_with_params(game_name, params)
    start = position(game, position_text)
    label = game_name + "".join(f",{k}={v}" for k, v in sorted(params.items()))
    for spec in (spec_a, spec_b):
        check_agent_fits(spec, game)
        make_agent(spec)  # bad specs fail here, before the progress bar starts
    err = Console(stderr=True, highlight=False)
    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[tally]}"), TimeRemainingColumn()]
    with Progress(*columns, console=err, transient=True,
                  disable=not err.is_terminal) as progress:
        task = progress.add_task(f"{spec_a} vs {spec_b}", total=games, tally="")

        def on_game(record, match) -> None:
            progress.update(task, completed=len(match.records),
                            tally=f"A: +{match.wins} ={match.draws} -{match.losses}")

        result = run_match(game, spec_a, spec_b, games, seed=seed, out=out,
                           game_label=label, state=start, on_game=on_game, force=force)
    for note in result.notes:
        print(f"note: {note}", file=sys.stderr)
    summary = result.summary()
    if json_out:
        print_json(summary)
    else:
        _print_summary(summary, out)
    if result.interrupted:
        print(f"interrupted after {summary['games']} games"
              + (f"; run again with --out {out} to resume" if out else ""), file=sys.stderr)
        raise typer.Exit(130)


def _print_summary(s: dict, out: str | None) -> None:
    console.print(f"[bold]{s['game']}[/]: A = {s['a']}  vs  B = {s['b']}  "
                  f"({s['games']} games, alternating who starts)")
    console.print(f"A: [green]{s['wins']} wins[/], {s['draws']} draws, "
                  f"[red]{s['losses']} losses[/]")
    if s["score"] is None:
        return
    lo, hi = s["score_interval"]
    console.print(f"score rate of A: {s['score']:.3f}  (95% Wilson interval "
                  f"{lo:.3f} .. {hi:.3f})")
    console.print(f"Elo difference A - B: {_elo_text(s)}")
    if out is not None:
        console.print(f"games written to {out}")


def _elo_text(s: dict) -> str:
    """The Elo difference with its 95% interval; a bound when A won or lost every game.

    A perfect score has no finite point estimate (the logistic model needs +-infinity), so,
    as Ordo does for such players, only the finite end of the interval is reported.
    """
    low, high = s["elo_interval"]
    if s["score"] >= 1:
        return f"at least {low:+.0f} (95% lower bound; A won every game, no point estimate)"
    if s["score"] <= 0:
        return f"at most {high:+.0f} (95% upper bound; A lost every game, no point estimate)"
    return f"{s['elo']:+.0f}  (95%: {_bound(low, '-')} .. {_bound(high, '+')})"


def _bound(value: float | None, sign: str) -> str:
    """One end of the Elo interval (None: unbounded on that side)."""
    return f"{sign}inf" if value is None else f"{value:+.0f}"
