"""``gamesearch tournament``: many players, a round robin or a gauntlet, results in SQLite,
a live table with a progress bar; the same command resumes a killed tournament."""

from __future__ import annotations

import functools
import sys

import typer
from rich.console import Console, Group
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from gamesearch.cli.common import EXTRA_ARGS, extra_params, print_json
from gamesearch.cli.main import app
from gamesearch.errors import GameSearchError


@app.command("tournament", context_settings=EXTRA_ARGS)
def tournament_command(
    ctx: typer.Context,
    game_name: str = typer.Argument(..., metavar="GAME", help="a game name (see 'games')"),
    players: list[str] | None = typer.Option(None, "--players", metavar="SPEC",
                                      help="a player (repeat: --players A --players B ...)"),
    gauntlet: str | None = typer.Option(None, "--gauntlet", metavar="SPEC",
                                        help="this player meets every --players player "
                                             "(they do not meet each other)"),
    games: int = typer.Option(2, "--games", "-n", min=1, max=100_000,
                              help="games per pair and round (colours alternate)"),
    rounds: int = typer.Option(1, "--rounds", min=1, max=100_000, help="rounds"),
    openings: str | None = typer.Option(None, "--openings", metavar="FILE",
                                        help="openings, one a line: moves separated by spaces"),
    random_openings: int = typer.Option(0, "--random-openings", min=0, max=100_000,
                                        metavar="N", help="N random starts (seeded by --seed)"),
    opening_plies: int = typer.Option(4, "--opening-plies", min=1, max=1000,
                                      help="moves of each random start"),
    position_text: str | None = typer.Option(None, "--position", "-p",
                                             help="start every game from this position"),
    seed: int | None = typer.Option(None, "--seed", min=0, max=2**32 - 1,
                                    help="seed for chance, random starts and seedable agents"),
    movetime: float | None = typer.Option(None, "--movetime", min=0.001, max=86400,
                                          help="seconds per move (a slower move loses)"),
    time_margin: float = typer.Option(1.0, "--time-margin", min=0, max=3600,
                                      help="seconds a move may overrun --movetime"),
    resign: str | None = typer.Option(None, "--resign", metavar="SCORE:MOVES",
                                      help="adjudicate a loss when a side's score stays "
                                           "<= -SCORE (and the other's >= SCORE) for MOVES moves"),
    draw: str | None = typer.Option(None, "--draw", metavar="SCORE:MOVES[:AFTER]",
                                    help="adjudicate a draw when |score| <= SCORE for MOVES "
                                         "plies after ply AFTER"),
    judge: int | None = typer.Option(None, "--judge", metavar="PLIES", min=0, max=10_000,
                                     help="the game's exact solver ends games from PLIES on "
                                          "(connect4)"),
    tables: str | None = typer.Option(None, "--tables", metavar="DIR",
                                      help="endgame tables (chess, checkers; built by "
                                           "'gamesearch tables build') end a game as soon "
                                           "as they hold its position"),
    max_plies: int = typer.Option(10_000, "--max-plies", min=1, max=1_000_000,
                                  help="a game this long is a draw"),
    concurrency: int = typer.Option(1, "--concurrency", "-j", min=1, max=1024,
                                    help="games played at once (worker processes)"),
    backend: str = typer.Option("local", "--backend", help="local (process pool) or ray"),
    address: str | None = typer.Option(None, "--address", help="the Ray cluster (host:port)"),
    db: str = typer.Option(..., "--db", metavar="FILE", help="the results database (SQLite); "
                           "the same command again resumes"),
    force: bool = typer.Option(False, "--force", help="let --db replace a file that is not "
                               "a results database"),
    json_out: bool = typer.Option(False, "--json", help="JSON output (the final standings, "
                                  "best first, with Elo and its 95% interval)"),
) -> None:
    """Play a round robin (or gauntlet) and store every game in SQLite.

    Each pair meets --games times per round, colours alternating; two games
    in a row share an opening. Finished games are committed as they end: the
    same command resumes after kill -9 and replays nothing.
    Then 'gamesearch report FILE' gives the crosstable and the ratings.

    gamesearch tournament connect4 --players alphabeta:depth=2 --players
    alphabeta:depth=4 --players random --games 4 --db results.sqlite
    """
    from gamesearch.arena.backends import make_backend
    from gamesearch.arena.play import Rules
    from gamesearch.arena.schedule import random_openings as make_random
    from gamesearch.arena.schedule import read_openings
    from gamesearch.arena.tournament import Tournament
    from gamesearch.cli.common import load_with_params, position
    from gamesearch.games import load_game

    params = extra_params(ctx)
    game = load_with_params(game_name, params)
    if game.num_players != 2:
        raise GameSearchError(f"tournaments are for two-player games; {game_name} has "
                              f"{game.num_players} players")
    start = position(game, position_text)
    if game.is_terminal(start):
        raise GameSearchError("the start position is already over")
    label = game_name + "".join(f",{k}={v}" for k, v in sorted(params.items()))
    everyone = ([gauntlet] if gauntlet else []) + list(players or [])
    _check_players(everyone, game)
    if openings and random_openings:
        raise GameSearchError("give --openings FILE or --random-openings N, not both")
    lines: list[list[str]] = []
    if openings:
        lines = read_openings(game, openings, start)
    elif random_openings:
        lines = make_random(game, start, random_openings, opening_plies, seed or 0)
    rules = Rules(movetime=movetime, time_margin=time_margin, max_plies=max_plies,
                  **_resign_rule(resign), **_draw_rule(draw))
    judge_name = ""
    if judge is not None:
        from gamesearch.catalog.adjudicators import make_judge

        rules = Rules(**{**rules.__dict__, "judge": make_judge(game.name, judge)})
        judge_name = f"solver from ply {judge}"
    if tables is not None:
        from gamesearch.catalog.adjudicators import make_tables_judge

        if judge is not None:
            raise GameSearchError("give --judge (a solver) or --tables, not both")
        tables_judge = make_tables_judge(game.name, tables)
        rules = Rules(**{**rules.__dict__, "judge": tables_judge})
        judge_name = f"tables in {tables_judge.folder}"
    tournament = Tournament(label, everyone, functools.partial(load_game, game_name, **params),
                            games, rounds, gauntlet is not None, lines,
                            position_text if position_text else None, seed, rules, judge_name)
    runner = make_backend(backend, concurrency, address)
    state = _run_live(tournament, db, runner, force)
    if json_out:
        from gamesearch.arena.report import summarise

        ranked = sorted(state.standings, key=lambda s: (-s.points, s.games))
        ratings = {row["player"]: row for row in summarise(db)["ratings"] or []}
        print_json({"db": db, "games": state.done, "planned": len(state.schedule),
                    "interrupted": state.interrupted,
                    "standings": [{"rank": k + 1, **s.__dict__,
                                   **{key: ratings[s.spec][key] for key in
                                      ("elo", "low", "high", "error") if s.spec in ratings}}
                                  for k, s in enumerate(ranked)]})
    else:
        Console(highlight=False).print(_table(state))
        print(f"{state.done} of {len(state.schedule)} games in {db}"
              + (f" ({state.resumed} from before)" if state.resumed else "")
              + f"; ratings: gamesearch report {db}")
    if state.interrupted:
        print(f"interrupted; run the same command again to resume ({db})", file=sys.stderr)
        raise typer.Exit(130)


def _check_players(specs: list[str], game) -> None:
    """Every player exists and fits the game (one line otherwise, before any game)."""
    from gamesearch.agents import make_agent
    from gamesearch.catalog import check_agent_fits

    if len(specs) < 2:
        raise GameSearchError("a tournament needs at least two players (--players SPEC ...)")
    for spec in specs:
        check_agent_fits(spec, game)
        agent = make_agent(spec)
        if agent.interactive:
            raise GameSearchError(f"player {spec!r} needs a person; tournaments play by "
                                  "themselves")
        close = getattr(agent, "close", None)
        if close is not None:
            close()


def _numbers(text: str, option: str, count: tuple[int, int]) -> list[float]:
    parts = text.split(":")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        values = []
    if not count[0] <= len(values) <= count[1] or any(v < 0 for v in values):
        raise GameSearchError(f"{option} {text!r}: expected numbers >= 0 as "
                              + ("SCORE:MOVES" if count[1] == 2 else "SCORE:MOVES[:AFTER]"))
    return values


def _resign_rule(text: str | None) -> dict:
    if text is None:
        return {}
    score, moves = _numbers(text, "--resign", (2, 2))
    return {"resign_score": score, "resign_moves": max(1, int(moves))}


def _draw_rule(text: str | None) -> dict:
    if text is None:
        return {}
    values = _numbers(text, "--draw", (2, 3))
    return {"draw_score": values[0], "draw_moves": max(1, int(values[1])),
            "draw_after": int(values[2]) if len(values) > 2 else 0}


def _table(state) -> Table:
    """The standings so far, best first."""
    table = Table(title=f"{state.done}/{len(state.schedule)} games")
    for name in ("player", "games", "points", "score", "+", "=", "-", "forfeits"):
        table.add_column(name, justify="left" if name == "player" else "right")
    for s in sorted(state.standings, key=lambda s: (-s.points, s.games)):
        rate = f"{s.points / s.games:.3f}" if s.games else "-"
        table.add_row(s.spec, str(s.games), f"{s.points:g}", rate, str(s.wins), str(s.draws),
                      str(s.losses), str(s.forfeits))
    return table


def _run_live(tournament, db: str, runner, force: bool):
    """Run with a live standings table and a progress bar on a terminal (stderr)."""
    from gamesearch.arena.tournament import run_tournament

    err = Console(stderr=True, highlight=False)
    progress = Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(),
                        TimeRemainingColumn(), console=err)
    task = progress.add_task("games", total=len(tournament.schedule()))
    if not err.is_terminal:
        return run_tournament(tournament, db, runner, force, sys.argv)
    with Live(console=err, transient=True, refresh_per_second=4) as live:

        def on_game(state) -> None:
            progress.update(task, completed=state.done)
            live.update(Group(_table(state), progress))

        return run_tournament(tournament, db, runner, force, sys.argv, on_game)
